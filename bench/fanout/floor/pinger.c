/* Pings DEST every 10 ms until stdin closes or SECONDS pass; prints count, p50, p99, max in ms. */
#include <dbus/dbus.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }
static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
  DBusError e; dbus_error_init(&e);
  DBusConnection *c = dbus_connection_open_private(argv[1], &e);
  if (!c || !dbus_bus_register(c, &e)) { fprintf(stderr, "%s\n", e.message); return 1; }
  double secs = atof(argv[3]); static double lat[100000]; int n = 0; double end = now() + secs;
  while (now() < end && n < 100000) {
    DBusMessage *m = dbus_message_new_method_call(argv[2], "/org/livery/Livery1", "org.freedesktop.DBus.Peer", "Ping");
    double t = now(); DBusMessage *r = dbus_connection_send_with_reply_and_block(c, m, 120000, &e);
    lat[n++] = (now() - t) * 1000; if (argc > 4) { printf("ping %.6f %.3f\n", t, lat[n-1]); fflush(stdout); } if (r) dbus_message_unref(r); else dbus_error_free(&e); dbus_message_unref(m);
    usleep(10000);
  }
  qsort(lat, n, sizeof *lat, cmp);
  int k = (int)(0.99 * n + 0.999999) - 1; if (k < 0) k = 0;
  printf("pings %d p50 %.1f p99 %.1f max %.1f ms\n", n, lat[n / 2], lat[k], lat[n - 1]);
  return 0;
}
