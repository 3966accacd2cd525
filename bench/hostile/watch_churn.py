#!/usr/bin/python3
"""A new client's Watch while clients leave with Watch calls waiting. On a private bus, with the
shipped themes: 60 connections, one after the other, each send 16 Watch calls of 1,024 distinct
paths (never used before) without waiting for a reply and disconnect at once (about 2 s of sending,
from a process of its own). Meanwhile, every 20 ms, a new connection calls Watch(["Window/TabBar"])
and times the round trip (the connection's Hello is not timed), and one connection times a
Peer.Ping every 20 ms, which liveryd answers on the loop thread: the part of a Watch's wait that
is reading the calls before it. Reports the round trips (p50, p99 by nearest rank, max; a probe
unanswered after --probe-timeout seconds counts as that long), liveryd's VmRSS before the churn, at
its peak (sampled every 50 ms) and 1 s after the last probe, and the CPU time liveryd's threads
and dbus-daemon used from the churn's start to then. Target: the Watch p99 <= 50 ms.

Usage: watch_churn.py LIVERYD [--out DIR] [--themes-dir DIR] [--probe-timeout S]
       (Debian's python3 with python3-dbus)
"""

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time

import dbus
import dbus.lowlevel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from daemon import start_bus  # noqa: E402

BUS_NAME = "org.livery.Livery1"
PATH = "/org/livery/Livery1"
CONNECTIONS, CALLS, PATHS = 60, 16, 1024
PROBE_EVERY = 0.020


def churn(address):
    """The leaving clients: CONNECTIONS connections, CALLS Watch calls of PATHS new paths each."""
    for c in range(CONNECTIONS):
        conn = dbus.bus.BusConnection(address)
        for i in range(CALLS):
            m = dbus.lowlevel.MethodCallMessage(BUS_NAME, PATH, BUS_NAME, "Watch")
            m.append(["Window/View#c%02di%02dp%04d/Button" % (c, i, j) for j in range(PATHS)], {},
                     signature="asa{sv}")
            conn.send_message(m)
        conn.flush()
        conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("liveryd")
    ap.add_argument("--out", default="bench/out")
    ap.add_argument("--themes-dir", default="themes")
    ap.add_argument("--probe-timeout", type=float, default=90)
    ap.add_argument("--churn", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.churn:
        churn(args.churn)
        return 0
    work = os.path.abspath(os.path.join(args.out, "watch-churn"))
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    bus, env, address = start_bus(work)
    daemon = subprocess.Popen(
        [args.liveryd, "--themes-dir", os.path.abspath(args.themes_dir), "--address", address],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )

    def vmrss():
        with open("/proc/%d/status" % daemon.pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])

    def watch(timeout):
        conn = dbus.bus.BusConnection(address)
        try:
            t = time.monotonic()
            conn.call_blocking(BUS_NAME, PATH, BUS_NAME, "Watch", "asa{sv}", [["Window/TabBar"], {}],
                               timeout=timeout)
            return time.monotonic() - t
        finally:
            conn.close()

    probes, pings, lock = [], [], threading.Lock()

    def probe():
        try:
            rtt = watch(args.probe_timeout)
        except dbus.DBusException as e:
            rtt = args.probe_timeout if "NoReply" in e.get_dbus_name() else None
            print("probe: %s" % e.get_dbus_name(), file=sys.stderr)
        with lock:
            probes.append(rtt)

    peak = {"kb": 0}
    sampling, churning = threading.Event(), threading.Event()

    def ping():
        conn = dbus.bus.BusConnection(address)
        while churning.is_set():
            t = time.monotonic()
            conn.call_blocking(BUS_NAME, PATH, "org.freedesktop.DBus.Peer", "Ping", "", [], timeout=args.probe_timeout)
            pings.append(time.monotonic() - t)
            time.sleep(PROBE_EVERY)
        conn.close()

    def cpu_ms(pid):
        """CPU time (user + system) of each thread of pid by name, and in all."""
        threads = {}
        for tid in os.listdir("/proc/%d/task" % pid):
            with open("/proc/%d/task/%s/stat" % (pid, tid)) as f:
                stat = f.read()
            name = stat[stat.index("(") + 1:stat.rindex(")")]
            fields = stat[stat.rindex(")") + 2:].split()
            ms = (int(fields[11]) + int(fields[12])) * 1000 // os.sysconf("SC_CLK_TCK")
            threads[name] = threads.get(name, 0) + ms
        return threads

    def sample():
        while not sampling.is_set():
            peak["kb"] = max(peak["kb"], vmrss())
            time.sleep(0.05)

    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                watch(5)
                break
            except dbus.DBusException:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.01)
        time.sleep(0.5)
        before = vmrss()
        cpu_before, bus_before = cpu_ms(daemon.pid), cpu_ms(bus.pid)
        sampler = threading.Thread(target=sample)
        sampler.start()
        churning.set()
        pinger = threading.Thread(target=ping)
        pinger.start()
        start = time.monotonic()
        sender = subprocess.Popen([sys.executable, os.path.abspath(__file__), args.liveryd, "--churn", address])
        threads = []
        while sender.poll() is None:
            t = threading.Thread(target=probe)
            t.start()
            threads.append(t)
            time.sleep(PROBE_EVERY)
        sending = time.monotonic() - start
        churning.clear()
        for t in threads + [pinger]:
            t.join()
        answered_all = time.monotonic() - start
        time.sleep(1)
        sampling.set()
        sampler.join()
        after = vmrss()
        cpu_after, bus_after = cpu_ms(daemon.pid), cpu_ms(bus.pid)
    finally:
        daemon.terminate()
        daemon.wait()
        bus.terminate()
        bus.wait()

    times = sorted(p for p in probes if p is not None)
    pings.sort()

    def ms(x):
        return round(x * 1000, 2)

    def p99(xs):
        return ms(xs[math.ceil(0.99 * len(xs)) - 1]) if xs else None

    result = {
        "connections": CONNECTIONS, "calls_each": CALLS, "paths_each": PATHS,
        "sending_s": round(sending, 2),
        "probes": len(probes), "probes_failed": len(probes) - len(times),
        "probe_p50_ms": ms(statistics.median(times)) if times else None,
        "probe_p99_ms": p99(times),
        "probe_max_ms": ms(times[-1]) if times else None,
        "pings": len(pings),
        "ping_p50_ms": ms(statistics.median(pings)) if pings else None,
        "ping_p99_ms": p99(pings),
        "last_probe_answered_s": round(answered_all, 2),
        "rss_kb": {"before": before, "peak": peak["kb"], "after": after},
        "cpu_ms": {
            "liveryd": {k: v - cpu_before.get(k, 0) for k, v in cpu_after.items() if v > cpu_before.get(k, 0)},
            "dbus-daemon": sum(bus_after.values()) - sum(bus_before.values()),
        },
    }
    print(json.dumps(result, indent=1))
    with open(os.path.join(args.out, "watch-churn.json"), "w") as f:
        json.dump(result, f, indent=1)
    ok = result["probe_p99_ms"] is not None and result["probe_p99_ms"] <= 50 and not result["probes_failed"]
    print("%d passed, %d failed" % (1 if ok else 0, 0 if ok else 1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
