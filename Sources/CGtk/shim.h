#ifndef CGTK_SHIM_H
#define CGTK_SHIM_H

/* GTK 4 (pkg-config gtk4). Its type-checking casts (GTK_WINDOW(), G_CALLBACK(), ...) and
 * g_signal_connect() are macros the Swift importer skips: LiveryDemo casts pointers itself
 * (Widget.swift) and calls g_signal_connect_data() (Signals.swift). */

#include <gtk/gtk.h>
/* g_unix_signal_add(): SIGTERM and SIGINT end the main loop, so that the window cleans up. */
#include <glib-unix.h>

#endif
