/* resolver ADDR N [ping]: N calls of Resolve("Window/NavigationBar/BarButtonItem:highlighted", [], {})
 * (or Peer.Ping) to org.livery.Livery1, one at a time, each a copy of one message built once. */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  if (argc < 3) { fprintf(stderr, "usage: resolver ADDR N [ping]\n"); return 2; }
  DBusError e; dbus_error_init(&e);
  DBusConnection *c = dbus_connection_open_private(argv[1], &e);
  if (!c || !dbus_bus_register(c, &e)) { fprintf(stderr, "%s\n", e.message); return 1; }
  const char *name = "org.livery.Livery1", *path = "/org/livery/Livery1";
  DBusMessage *m;
  if (argc > 3) m = dbus_message_new_method_call(name, path, "org.freedesktop.DBus.Peer", "Ping");
  else {
    m = dbus_message_new_method_call(name, path, "org.livery.Livery1", "Resolve");
    const char *arg = "Window/NavigationBar/BarButtonItem:highlighted";
    DBusMessageIter it, sub; dbus_message_iter_init_append(m, &it);
    dbus_message_iter_append_basic(&it, DBUS_TYPE_STRING, &arg);
    dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &sub); dbus_message_iter_close_container(&it, &sub);
    dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &sub); dbus_message_iter_close_container(&it, &sub);
  }
  for (int i = 0, n = atoi(argv[2]); i < n; i++) {
    DBusMessage *copy = dbus_message_copy(m);
    DBusMessage *r = dbus_connection_send_with_reply_and_block(c, copy, 10000, &e);
    if (!r) { fprintf(stderr, "%s\n", e.message); return 1; }
    if (dbus_message_get_type(r) != DBUS_MESSAGE_TYPE_METHOD_RETURN) { fprintf(stderr, "an error reply\n"); return 1; }
    dbus_message_unref(r); dbus_message_unref(copy);
  }
  return 0;
}
