#!/usr/bin/python3
"""One client process of the fan-out benchmark (bench/fanout/README.md).

Usage: client.py MODE ADDR [N]

  livery N   N connections, each Subscribe(["Window/TabBar"], ["tint-color"], {}); records every
             unicast Changed(u id, u serial, a{sa{sv}} changes) with time.monotonic_ns().
  dconf N    N connections, each AddMatch type='signal',interface='ca.desrt.dconf.Writer',
             member='Notify'; records every Notify(s prefix, as changes, s tag).
  stall-light  one connection subscribed like the others; the driver SIGSTOPs it after "ready"
             (it never reads its socket again).
  stall-heavy  one connection holding 64 subscriptions of 48 paths (every component type, at
             the top and inside a NavigationBar) with every property, so that each switch sends
             it tens of kilobytes; SIGSTOPped by the driver in the second half of its phase.
  cycles N   one connection, N Subscribe/Unsubscribe round trips; prints "ready" when done.
  vanish N   N connections that subscribe, print "ready" and wait to be SIGKILLed (never
             unsubscribing).

Protocol with the driver: lines on stdout ("ready", "done K" when every connection of this
process holds at least K receipts), commands on stdin ("dump FILE" writes the receipts as JSON
and answers "dumped"; "quit" or end of input exits). Receipt times come first in the message
filter, and messages are decoded only at dump time; CLOCK_MONOTONIC is system-wide, so the driver can compare them
with its own t0.
"""

import json
import os
import sys
import time

import dbus
import dbus.bus
import dbus.mainloop.glib
from gi.repository import GLib

LIVERY = "org.livery.Livery1"
LIVERY_PATH = "/org/livery/Livery1"
DCONF_RULE = "type='signal',interface='ca.desrt.dconf.Writer',member='Notify'"
TYPES = [
    "View", "Window", "Label", "ImageView", "Control", "Button", "Switch", "Slider",
    "SegmentedControl", "ProgressView", "ActivityIndicatorView", "TextField", "SearchBar",
    "NavigationBar", "ToolBar", "TabBar", "BarButtonItem", "TableView", "TableViewCell",
    "CollectionView", "CollectionViewCell", "Overlay", "Popover", "Drawer",
]

mode, addr = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 1
mainloop = dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
loop = GLib.MainLoop()


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def connect():
    return dbus.bus.BusConnection(addr, mainloop=mainloop)


def subscribe(conn, paths, properties):
    return conn.call_blocking(
        LIVERY, LIVERY_PATH, LIVERY, "Subscribe", "asasa{sv}", (paths, properties, {}), timeout=60)


conns = []
records = []  # per connection: list of tuples
sub_ids = []
initial = []
counts = []
reached = {}  # k -> number of connections holding at least k receipts
done_upto = [0]


def receipt(i, rec):
    records[i].append(rec)
    c = counts[i] = counts[i] + 1
    r = reached[c] = reached.get(c, 0) + 1
    if r == n and c > done_upto[0]:
        done_upto[0] = c
        say("done %d" % c)


def livery_filter(i):
    def f(conn, msg):
        t = time.monotonic_ns()
        if msg.get_type() == 4 and msg.get_member() == "Changed" and msg.get_interface() == LIVERY:
            receipt(i, (t, msg))  # decoded at dump time, so that decoding delays no receipt
        return None
    return f


def dconf_filter(i):
    def f(conn, msg):
        t = time.monotonic_ns()
        if msg.get_type() == 4 and msg.get_member() == "Notify" and msg.get_interface() == "ca.desrt.dconf.Writer":
            receipt(i, (t, msg))
        return None
    return f


def decode(t, msg):
    if mode == "livery":
        sid, serial, changes = msg.get_args_list()
        tint = changes.get("Window/TabBar", {}).get("tint-color")
        return (int(serial), int(sid), None if tint is None else str(tint), t)
    prefix, changes, tag = msg.get_args_list()
    return (str(tag), str(prefix), [str(c) for c in changes], t)


def on_stdin(fd, cond):
    line = sys.stdin.readline()
    if not line or line.strip() == "quit":
        loop.quit()
        return False
    parts = line.split()
    if parts and parts[0] == "dump":
        with open(parts[1], "w") as f:
            decoded = [[decode(t, m) for t, m in recs] for recs in records]
            json.dump({"mode": mode, "sub_ids": sub_ids, "initial": initial, "records": decoded}, f)
        say("dumped")
    return True


if mode in ("livery", "dconf"):
    for i in range(n):
        conn = connect()
        conns.append(conn)
        records.append([])
        counts.append(0)
        if mode == "livery":
            conn.add_message_filter(livery_filter(i))
            sid, current = subscribe(conn, ["Window/TabBar"], ["tint-color"])
            sub_ids.append(int(sid))
            initial.append(str(current["Window/TabBar"]["tint-color"]))
        else:
            conn.add_message_filter(dconf_filter(i))
            conn.add_match_string(DCONF_RULE)  # blocking: the rule is in place on return
elif mode == "stall-light":
    conn = connect()
    conns.append(conn)
    subscribe(conn, ["Window/TabBar"], ["tint-color"])
elif mode == "stall-heavy":
    conn = connect()
    conns.append(conn)
    paths = ["Window/" + t for t in TYPES] + ["Window/NavigationBar/" + t for t in TYPES]
    for _ in range(64):
        subscribe(conn, paths, [])
elif mode == "cycles":
    conn = connect()
    conns.append(conn)
    for _ in range(n):
        sid, _current = subscribe(conn, ["Window/TabBar"], ["tint-color"])
        conn.call_blocking(LIVERY, LIVERY_PATH, LIVERY, "Unsubscribe", "u", (sid,), timeout=60)
elif mode == "vanish":
    for i in range(n):
        conn = connect()
        conns.append(conn)
        subscribe(conn, ["Window/TabBar"], ["tint-color"])
else:
    sys.exit("unknown mode " + mode)

GLib.io_add_watch(sys.stdin.fileno(), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, on_stdin)
say("ready")
loop.run()
os._exit(0)  # no orderly disconnects: the bus sees the sockets close
