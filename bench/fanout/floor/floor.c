/* The libdbus floor: receives calls on a private bus connection and answers every one with an error. */
#include <dbus/dbus.h>
#include <stdio.h>
#include <string.h>
static DBusHandlerResult filter(DBusConnection *c, DBusMessage *m, void *d) {
  if (dbus_message_get_type(m) != DBUS_MESSAGE_TYPE_METHOD_CALL) return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
  const char *iface = dbus_message_get_interface(m);
  if (iface && strcmp(iface, "org.freedesktop.DBus.Peer") == 0) return DBUS_HANDLER_RESULT_NOT_YET_HANDLED;
  DBusMessage *r = dbus_message_new_error(m, "org.livery.Livery1.Error.LimitExceeded", "floor");
  dbus_connection_send(c, r, NULL); dbus_message_unref(r);
  return DBUS_HANDLER_RESULT_HANDLED;
}
int main(int argc, char **argv) {
  DBusError e; dbus_error_init(&e);
  DBusConnection *c = dbus_connection_open_private(argv[1], &e);
  if (!c || !dbus_bus_register(c, &e)) { fprintf(stderr, "%s\n", e.message); return 1; }
  dbus_connection_add_filter(c, filter, NULL, NULL);
  dbus_bus_request_name(c, argv[2], DBUS_NAME_FLAG_DO_NOT_QUEUE, &e);
  printf("ready\n"); fflush(stdout);
  while (dbus_connection_read_write_dispatch(c, -1)) {}
  return 0;
}
