#!/usr/bin/python3
"""One client process of the fan-out benchmark (bench/fanout/README.md).

Usage: client.py MODE ADDR [N]

  livery N   N connections, each adding the match rule of Window/TabBar's Changed (arg0, arg1)
             and then calling Watch(["Window/TabBar"], {}); records every broadcast
             Changed(s path, s app, u serial, a{sv} values) with time.monotonic_ns().
  dconf N    N connections, each AddMatch type='signal',interface='ca.desrt.dconf.Writer',
             member='Notify'; records every Notify(s prefix, as changes, s tag).
  stall-light  one connection watching like the others; the driver SIGSTOPs it after "ready"
             (it never reads its socket again).
  stall-heavy  one connection matching every Changed and watching 1,024 distinct paths (every
             component type inside 43 named NavigationBars), so that each switch broadcasts
             1,024 signals of every property that only it receives; SIGSTOPped by the driver in
             the second half of its phase.
  cycles N   one connection, N Watch/Unwatch round trips; prints "ready" when done.
  vanish N   N connections that add the match rule, watch, print "ready" and wait to be
             SIGKILLed (never unwatching).
  hostile N  N connections, each watching 16,384 distinct paths of maximum length (1,024-path
             Watch calls, each waiting for its reply), with no match rule: the worst case the
             limits permit from one process. Prints "ready" when all are watched.
  counter N  one connection matching every Changed; prints "got SERIAL T" (T the monotonic ns of
             the last one) when N signals of SERIAL have arrived.
  pinger     one connection calling org.freedesktop.DBus.Peer.Ping on liveryd back to back
             (1 ms apart) from "ready" on; "dump FILE" writes [[t_sent, t_answered], ...]
             (t_answered null for a Ping that failed).
  burst N    one connection with 4 Watch calls of 1,024 distinct maximum-length paths prepared
             (process index N); on "go" it sends all 4 without waiting, then prints
             "replied OK ERRORS T" when every reply is in. Keeps its watches until killed.

Protocol with the driver: lines on stdout ("ready", "done K" when every connection of this
process holds at least K receipts), commands on stdin ("dump FILE" writes the receipts as JSON
and answers "dumped"; "quit" or end of input exits). Receipt times come first in the message
filter, and messages are decoded only at dump time; CLOCK_MONOTONIC is system-wide, so the
driver can compare them with its own t0.
"""

import json
import os
import sys
import threading
import time

import dbus
import dbus.bus
import dbus.lowlevel
import dbus.mainloop.glib
from gi.repository import GLib

LIVERY = "org.livery.Livery1"
LIVERY_PATH = "/org/livery/Livery1"
DCONF_RULE = "type='signal',interface='ca.desrt.dconf.Writer',member='Notify'"
# Every Changed of the daemon (what a client watching paths too long for an arg0 rule adds).
ALL_CHANGED = ("type='signal',sender='%s',interface='%s',member='Changed',path='%s'"
               % (LIVERY, LIVERY, LIVERY_PATH))
TYPES = [
    "View", "Window", "Label", "ImageView", "Control", "Button", "Switch", "Slider",
    "SegmentedControl", "ProgressView", "ActivityIndicatorView", "TextField", "SearchBar",
    "NavigationBar", "ToolBar", "TabBar", "BarButtonItem", "TableView", "TableViewCell",
    "CollectionView", "CollectionViewCell", "Overlay", "Popover", "Drawer",
]
# 32 segments and close to the 1 KiB limit, a distinct name in the second.
TAIL = "/".join(["View#a-segment-of-a-long-path-%02d" % i for i in range(29)])


def long_path(n):
    return ("Window/View#n%06d/" % n) + TAIL + "/Button"


assert 975 <= len(long_path(0)) <= 1024 and long_path(0).count("/") == 31, len(long_path(0))


def rule_of(path, app=""):
    return ALL_CHANGED + ",arg0='%s',arg1='%s'" % (path, app)


mode, addr = sys.argv[1], sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 1
# The pinger's thread has a blocking connection of its own, with no main loop.
mainloop = dbus.mainloop.glib.DBusGMainLoop(set_as_default=mode != "pinger")
loop = GLib.MainLoop()
NO_OPTIONS = dbus.Dictionary({}, signature="sv")


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def connect():
    return dbus.bus.BusConnection(addr, mainloop=mainloop)


def watch(conn, paths):
    """Watch(as, a{sv}) → (ua{sa{sv}}): returns (serial, values)."""
    serial, values = conn.call_blocking(
        LIVERY, LIVERY_PATH, LIVERY, "Watch", "asa{sv}", (dbus.Array(paths, signature="s"), NO_OPTIONS),
        timeout=120)
    return int(serial), values


conns = []
records = []  # per connection: list of tuples
watch_serials = []
initial = []
counts = []
reached = {}  # k -> number of connections holding at least k receipts
done_upto = [0]
extra = {}  # mode-specific dump contents


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
        path, app, serial, values = msg.get_args_list()
        tint = values.get("tint-color")
        return (int(serial), str(path), str(app), None if tint is None else str(tint), t)
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
            if mode == "pinger":
                json.dump({"mode": mode, "pings": list(pings)}, f)
            else:
                decoded = [[decode(t, m) for t, m in recs] for recs in records]
                json.dump({"mode": mode, "watch_serials": watch_serials, "initial": initial,
                           "records": decoded}, f)
        say("dumped")
    elif parts and parts[0] == "go" and mode == "burst":
        burst_go()
    return True


# ---------------------------------------------------------------- the worst case's clients

pings = []


def ping_forever():
    conn = dbus.bus.BusConnection(addr)  # its own, blocking, on this thread only
    while True:
        t = time.monotonic_ns()
        try:
            conn.call_blocking(LIVERY, LIVERY_PATH, "org.freedesktop.DBus.Peer", "Ping", "", (),
                               timeout=120)
            pings.append((t, time.monotonic_ns()))
        except dbus.DBusException:
            pings.append((t, None))
        time.sleep(0.001)


counted = {}


def counter_filter(conn, msg):
    if msg.get_type() == 4 and msg.get_member() == "Changed":
        t = time.monotonic_ns()
        serial = int(msg.get_args_list()[2])
        k = counted[serial] = counted.get(serial, 0) + 1
        if k == n:
            say("got %d %d" % (serial, t))
    return None


burst_state = {"sent": set(), "ok": 0, "err": 0}
burst_messages = []


def burst_filter(conn, msg):
    if msg.get_type() in (2, 3) and msg.get_reply_serial() in burst_state["sent"]:
        burst_state["ok" if msg.get_type() == 2 else "err"] += 1
        if burst_state["ok"] + burst_state["err"] == len(burst_messages):
            say("replied %d %d %d" % (burst_state["ok"], burst_state["err"], time.monotonic_ns()))
    return None


def burst_go():
    conn = conns[0]
    for m in burst_messages:
        burst_state["sent"].add(conn.send_message(m))  # no reply awaited: the filter counts them
    conn.flush()


if mode in ("livery", "dconf"):
    for i in range(n):
        conn = connect()
        conns.append(conn)
        records.append([])
        counts.append(0)
        if mode == "livery":
            conn.add_message_filter(livery_filter(i))
            conn.add_match_string(rule_of("Window/TabBar"))  # blocking: in place on return
            serial, values = watch(conn, ["Window/TabBar"])
            watch_serials.append(serial)
            initial.append(str(values["Window/TabBar"]["tint-color"]))
        else:
            conn.add_message_filter(dconf_filter(i))
            conn.add_match_string(DCONF_RULE)  # blocking: the rule is in place on return
elif mode == "stall-light":
    conn = connect()
    conns.append(conn)
    conn.add_match_string(rule_of("Window/TabBar"))
    watch(conn, ["Window/TabBar"])
elif mode == "stall-heavy":
    conn = connect()
    conns.append(conn)
    conn.add_match_string(ALL_CHANGED)
    watch(conn, ["Window/NavigationBar#h%02d/%s" % (k // len(TYPES), TYPES[k % len(TYPES)])
                 for k in range(1024)])
elif mode == "cycles":
    conn = connect()
    conns.append(conn)
    conn.add_match_string(rule_of("Window/TabBar"))
    for _ in range(n):
        watch(conn, ["Window/TabBar"])
        conn.call_blocking(LIVERY, LIVERY_PATH, LIVERY, "Unwatch", "asa{sv}",
                           (["Window/TabBar"], NO_OPTIONS), timeout=60)
elif mode == "vanish":
    for i in range(n):
        conn = connect()
        conns.append(conn)
        conn.add_match_string(rule_of("Window/TabBar"))
        watch(conn, ["Window/TabBar"])
elif mode == "hostile":
    for k in range(n):
        conn = connect()
        conns.append(conn)
        for i in range(16):
            base = k * 16384 + i * 1024
            watch(conn, [long_path(base + j) for j in range(1024)])
elif mode == "counter":
    conn = connect()
    conns.append(conn)
    conn.add_message_filter(counter_filter)
    conn.add_match_string(ALL_CHANGED)
elif mode == "pinger":
    threading.Thread(target=ping_forever, daemon=True).start()
elif mode == "burst":
    conn = connect()
    conns.append(conn)
    conn.add_message_filter(burst_filter)
    for c in range(4):
        m = dbus.lowlevel.MethodCallMessage(LIVERY, LIVERY_PATH, LIVERY, "Watch")
        base = n * 4096 + c * 1024
        m.append(dbus.Array([long_path(base + j) for j in range(1024)], signature="s"), NO_OPTIONS,
                 signature="asa{sv}")
        burst_messages.append(m)
else:
    sys.exit("unknown mode " + mode)

GLib.io_add_watch(sys.stdin.fileno(), GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, on_stdin)
say("ready")
loop.run()
os._exit(0)  # no orderly disconnects: the bus sees the sockets close
