#!/usr/bin/python3
"""`SetTheme` to its reply for a switch back to a recently active theme, two liveryd builds side
by side (bench/fanout/README.md, "Switching back"): rounds alternating the builds on one private
dbus-daemon, each round a fresh liveryd (`--no-watch --log-level debug`, fresh XDG directories)
with one watcher of `Window/TabBar`, its themes checked, then SWITCHES `SetTheme` calls
alternating forest / crimson from a blocking connection, the first WARMUP left out. Per build:
the p50 and p90 of each round's round trips, liveryd's CPU a switch, and the median of each step
of its per-step log (`switch to 'forest': … ms, …` and `serial N's first batch …`).

Usage: switchback.py --build NAME=BIN_DIR --build NAME=BIN_DIR [--rounds 6] [--switches 300]
       [--out FILE.md]
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "floor"))
import privatebus  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--build", action="append", required=True, help="NAME=BIN_DIR (liveryd and livery)")
ap.add_argument("--rounds", type=int, default=6, help="rounds per build")
ap.add_argument("--switches", type=int, default=300)
ap.add_argument("--warmup", type=int, default=10)
ap.add_argument("--out", help="markdown to write")
args = ap.parse_args()
builds = [tuple(b.split("=", 1)) for b in args.build]

TICK_MS = 1000.0 / os.sysconf("SC_CLK_TCK")


def cpu_ms(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * TICK_MS


def pct(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(p / 100.0 * len(s) + 0.5)) - 1))]


STEP = re.compile(r"([a-z]+) (\d+\.\d+) ms")


def steps_of(log_path):
    """Each switch's steps and each serial's first batch, in order, from liveryd's debug log."""
    switches, batches = [], []
    with open(log_path, errors="replace") as f:
        for line in f:
            if "switch to '" in line and "': " in line:
                switches.append({k: float(v) for k, v in STEP.findall(line.split("': ", 1)[1])})
            elif "first batch of" in line:
                batches.append({k: float(v) for k, v in STEP.findall(line.split(": ", 2)[-1])})
    return switches, batches


def one_round(bin_dir, work):
    import dbus
    import dbus.bus

    for d in ("state", "config", "data", "datadirs-empty", "runtime"):
        shutil.rmtree(os.path.join(work, d), ignore_errors=True)
        os.makedirs(os.path.join(work, d))
    env = dict(os.environ)
    env.update({
        "XDG_STATE_HOME": os.path.join(work, "state"),
        "XDG_CONFIG_HOME": os.path.join(work, "config"),
        "XDG_DATA_HOME": os.path.join(work, "data"),
        "XDG_DATA_DIRS": os.path.join(work, "datadirs-empty"),
        "XDG_RUNTIME_DIR": os.path.join(work, "runtime"),
        "DBUS_SESSION_BUS_ADDRESS": ADDR,
    })
    log_path = os.path.join(work, "liveryd.log")
    with open(log_path, "w") as log:
        daemon = subprocess.Popen(
            [os.path.join(bin_dir, "liveryd"), "--themes-dir", os.path.join(REPO, "themes"), "--address", ADDR,
             "--no-watch", "--log-level", "debug"], env=env, stdout=log, stderr=log)
    try:
        bus = dbus.bus.BusConnection(ADDR)
        deadline = time.monotonic() + 60
        while True:
            r = subprocess.run([os.path.join(bin_dir, "livery"), "--address", ADDR, "list", "--json"], env=env,
                               capture_output=True, text=True)
            if r.returncode == 0 and all(t.get("checked") for t in json.loads(r.stdout)):
                break
            if time.monotonic() > deadline or daemon.poll() is not None:
                raise SystemExit("liveryd did not come up or check its themes: see " + log_path)
            time.sleep(0.05)
        watcher = dbus.bus.BusConnection(ADDR)
        watcher.call_blocking("org.livery.Livery1", "/org/livery/Livery1", "org.livery.Livery1", "Watch",
                              "asa{sv}", (["Window/TabBar"], {}))
        trips, cpu0 = [], None
        for k in range(args.switches):
            if k == args.warmup:
                cpu0 = cpu_ms(daemon.pid)
            theme = "forest" if k % 2 == 0 else "crimson"
            t0 = time.perf_counter_ns()
            bus.call_blocking("org.livery.Livery1", "/org/livery/Livery1", "org.livery.Livery1", "SetTheme", "s",
                              (theme,), timeout=30)
            trips.append((time.perf_counter_ns() - t0) / 1e6)
        cpu = (cpu_ms(daemon.pid) - cpu0) / (args.switches - args.warmup)
        watcher.close()
        bus.close()
    finally:
        daemon.terminate()
        daemon.wait(10)
    switches, batches = steps_of(log_path)
    timed = trips[args.warmup:]
    return {"p50": statistics.median(timed), "p90": pct(timed, 90), "cpu": cpu,
            "steps": switches[args.warmup:], "batches": batches[args.warmup:]}


work = tempfile.mkdtemp(prefix="livery-switchback.")
bus_process, ADDR = privatebus.start(work, stderr=subprocess.DEVNULL)
results = {name: [] for name, _ in builds}
try:
    for r in range(args.rounds):
        order = builds if r % 2 == 0 else list(reversed(builds))
        for name, bin_dir in order:
            res = one_round(os.path.abspath(bin_dir), work)
            results[name].append(res)
            print("round %d %s: p50 %.3f ms, p90 %.3f ms, liveryd CPU %.2f ms a switch"
                  % (r + 1, name, res["p50"], res["p90"], res["cpu"]), flush=True)
finally:
    bus_process.terminate()
    bus_process.wait(10)
    shutil.rmtree(work, ignore_errors=True)


def step_medians(rounds, key):
    """Each step's median over every timed switch of every round, in the order first seen."""
    names, values = [], {}
    for res in rounds:
        for switch in res[key]:
            for name, ms in switch.items():
                if name not in values:
                    names.append(name)
                    values[name] = []
                values[name].append(ms)
    return [(n, statistics.median(values[n]), len(values[n])) for n in names]


lines = ["| build | `SetTheme` round trip p50, median of rounds (each round) | p90 median | liveryd CPU a switch |",
         "|---|---|---:|---:|"]
for name, _ in builds:
    rs = results[name]
    lines.append("| %s | **%.3f ms** (%s) | %.3f ms | %.2f ms |" % (
        name, statistics.median(x["p50"] for x in rs), ", ".join("%.3f" % x["p50"] for x in rs),
        statistics.median(x["p90"] for x in rs), statistics.median(x["cpu"] for x in rs)))
lines.append("")
for name, _ in builds:
    steps = step_medians(results[name], "steps") + [("publication: " + n, m, c) for n, m, c in
                                                     step_medians(results[name], "batches")]
    lines.append("%s, per step (median ms over %d rounds): %s" % (
        name, len(results[name]), ", ".join("%s %.3f (%d)" % s for s in steps)))
text = "\n".join(lines) + "\n"
print(text)
if args.out:
    with open(args.out, "w") as f:
        f.write(text)
