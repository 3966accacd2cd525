/* Sends N Watch calls of 1,024 paths of ~983 bytes to DEST, sequentially (seq) or all at once (pipe). */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
int main(int argc, char **argv) {
  const char *addr = argv[1], *dest = argv[2]; int n = atoi(argv[3]); int pipe = strcmp(argv[4], "pipe") == 0;
  int tag = argc > 5 ? atoi(argv[5]) : 0;
  DBusError e; dbus_error_init(&e);
  DBusConnection *c = dbus_connection_open_private(addr, &e);
  if (!c || !dbus_bus_register(c, &e)) { fprintf(stderr, "%s\n", e.message); return 1; }
  char tail[2048] = ""; for (int i = 0; i < 29; i++) { char s[64]; snprintf(s, sizeof s, "%sView#a-segment-of-a-long-path-%02d", i ? "/" : "", i); strcat(tail, s); }
  DBusPendingCall **pending = calloc(n, sizeof *pending);
  int ok = 0, err = 0;
  DBusMessage **msgs = calloc(n, sizeof *msgs);
  for (int k = 0; k < n; k++) {
    DBusMessage *m = msgs[k] = dbus_message_new_method_call(dest, "/org/livery/Livery1", "org.livery.Livery1", "Watch");
    DBusMessageIter it, arr, dict; dbus_message_iter_init_append(m, &it);
    dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "s", &arr);
    static char path[2048]; const char *p = path;
    for (int j = 0; j < 1024; j++) { snprintf(path, sizeof path, "Window/View#p%03dc%dn%04d/%s/Button", tag, k, j, tail); dbus_message_iter_append_basic(&arr, DBUS_TYPE_STRING, &p); }
    dbus_message_iter_close_container(&it, &arr);
    dbus_message_iter_open_container(&it, DBUS_TYPE_ARRAY, "{sv}", &dict); dbus_message_iter_close_container(&it, &dict);
  }
  if (argc > 6) { printf("ready\n"); fflush(stdout); char b; if (read(0, &b, 1) != 1) return 1; }
  double t0 = now();
  for (int k = 0; k < n; k++) {
    DBusMessage *m = msgs[k];
    if (pipe) { dbus_connection_send_with_reply(c, m, &pending[k], 600000); }
    else {
      DBusMessage *r = dbus_connection_send_with_reply_and_block(c, m, 600000, &e);
      if (r) { ok++; dbus_message_unref(r); } else { err++; dbus_error_free(&e); }
    }
    dbus_message_unref(m);
  }
  if (pipe) {
    dbus_connection_flush(c);
    for (int k = 0; k < n; k++) {
      dbus_pending_call_block(pending[k]);
      DBusMessage *r = dbus_pending_call_steal_reply(pending[k]);
      if (dbus_message_get_type(r) == DBUS_MESSAGE_TYPE_ERROR) err++; else ok++;
      dbus_message_unref(r); dbus_pending_call_unref(pending[k]);
    }
  }
  printf("%d ok %d err %.3f s %.6f %.6f\n", ok, err, now() - t0, t0, now());
  dbus_connection_close(c); return 0;
}
