/* The Resolve floor: a plain libdbus server answering IFACE.MEMBER with the reply a real server gave.
 *
 * resolve OWN_ADDR SOURCE_ADDR NAME PATH IFACE MEMBER ARG [OWN_NAME]
 *
 * Calls NAME PATH IFACE.MEMBER(s ARG, as [], a{sv} {}) once on the bus at SOURCE_ADDR (liveryd),
 * copies the reply's body into a method return of its own (marshalled once, as liveryd's
 * PreparedValues are), then owns NAME on the bus at OWN_ADDR and answers every call to IFACE.MEMBER,
 * (or OWN_NAME, for a floor on liveryd's own bus) whatever its arguments, with a copy of that message (dbus_message_copy), its reply serial,
 * destination and no-reply flag set: what a reply cache hit costs in libdbus itself. Peer.Ping is
 * libdbus's own answer; anything else gets UnknownMethod. Prints "ready" once it owns NAME. */
#include <dbus/dbus.h>
#include <stdio.h>
#include <string.h>

static DBusMessage *template;
static const char *iface, *member;

/* Appends the values at `from` onwards to `to`, container by container. */
static void copy(DBusMessageIter *from, DBusMessageIter *to) {
  for (int t; (t = dbus_message_iter_get_arg_type(from)) != DBUS_TYPE_INVALID; dbus_message_iter_next(from)) {
    if (dbus_type_is_basic(t)) {
      DBusBasicValue v; dbus_message_iter_get_basic(from, &v); dbus_message_iter_append_basic(to, t, &v);
      continue;
    }
    DBusMessageIter sub_from, sub_to; char *whole = NULL, *inner = NULL;
    dbus_message_iter_recurse(from, &sub_from);
    if (t == DBUS_TYPE_ARRAY) whole = dbus_message_iter_get_signature(from);   /* "a…": the element is past 'a' */
    if (t == DBUS_TYPE_VARIANT) inner = dbus_message_iter_get_signature(&sub_from);
    dbus_message_iter_open_container(to, t, whole ? whole + 1 : inner, &sub_to);
    copy(&sub_from, &sub_to);
    dbus_message_iter_close_container(to, &sub_to);
    dbus_free(whole); dbus_free(inner);
  }
}

static DBusHandlerResult filter(DBusConnection *c, DBusMessage *m, void *d) {
  (void)d;
  if (dbus_message_get_type(m) != DBUS_MESSAGE_TYPE_METHOD_CALL || !dbus_message_has_member(m, member) ||
      !dbus_message_has_interface(m, iface))
    return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
  if (dbus_message_get_no_reply(m)) return DBUS_HANDLER_RESULT_HANDLED;
  DBusMessage *r = dbus_message_copy(template);
  dbus_message_set_no_reply(r, TRUE);
  dbus_message_set_reply_serial(r, dbus_message_get_serial(m));
  if (dbus_message_get_sender(m)) dbus_message_set_destination(r, dbus_message_get_sender(m));
  dbus_connection_send(c, r, NULL); dbus_message_unref(r);
  return DBUS_HANDLER_RESULT_HANDLED;
}

static DBusConnection *open_bus(const char *address, DBusError *e) {
  DBusConnection *c = dbus_connection_open_private(address, e);
  if (c && !dbus_bus_register(c, e)) return NULL;
  return c;
}

int main(int argc, char **argv) {
  if (argc != 8 && argc != 9) {
    fprintf(stderr, "usage: resolve OWN_ADDR SOURCE_ADDR NAME PATH IFACE MEMBER ARG [OWN_NAME]\n");
    return 2;
  }
  const char *own_name = argc == 9 ? argv[8] : argv[3];
  const char *name = argv[3], *path = argv[4], *arg = argv[7]; iface = argv[5]; member = argv[6];
  DBusError e; dbus_error_init(&e);
  DBusConnection *source = open_bus(argv[2], &e);
  if (!source) { fprintf(stderr, "%s\n", e.message); return 1; }
  DBusMessage *call = dbus_message_new_method_call(name, path, iface, member);
  DBusMessageIter it, sub; dbus_message_iter_init_append(call, &it);
  dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &arg);
  dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &sub); dbus_message_iter_close_container(&it, &sub);
  dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &sub); dbus_message_iter_close_container(&it, &sub);
  DBusMessage *reply = dbus_connection_send_with_reply_and_block(source, call, 10000, &e);
  if (!reply) { fprintf(stderr, "%s\n", e.message); return 1; }
  template = dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN);
  DBusMessageIter from, to; dbus_message_iter_init_append(template, &to);
  if (dbus_message_iter_init(reply, &from)) copy(&from, &to);
  if (strcmp(dbus_message_get_signature(template), dbus_message_get_signature(reply)) != 0) {
    fprintf(stderr, "the copied body has signature %s, not %s\n", dbus_message_get_signature(template),
            dbus_message_get_signature(reply));
    return 1;
  }
  dbus_message_unref(call); dbus_message_unref(reply);
  dbus_connection_close(source); dbus_connection_unref(source);

  DBusConnection *c = open_bus(argv[1], &e);
  if (!c) { fprintf(stderr, "%s\n", e.message); return 1; }
  dbus_connection_add_filter(c, filter, NULL, NULL);
  if (dbus_bus_request_name(c, own_name, DBUS_NAME_FLAG_DO_NOT_QUEUE, &e) != DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER) {
    fprintf(stderr, "cannot own %s: %s\n", own_name, dbus_error_is_set(&e) ? e.message : "taken");
    return 1;
  }
  printf("ready\n"); fflush(stdout);
  while (dbus_connection_read_write_dispatch(c, -1)) {}
  return 0;
}
