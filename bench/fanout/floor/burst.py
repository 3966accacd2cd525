#!/usr/bin/python3
"""The benchmark's burst (PROCS processes x 4 pipelined Watch calls of 1,024 ~983-byte paths), with a
pinger, for each BIN in turn on its own fresh bus. usage: burst.py PROCS ROUNDS BIN..."""
import os, sys, subprocess, tempfile, time, select, math
import privatebus
PROCS = int(sys.argv[1]); ROUNDS = int(sys.argv[2]); BINS = sys.argv[3:]
TCK = os.sysconf("SC_CLK_TCK"); HERE = os.path.dirname(os.path.abspath(__file__))

def cpu(pid, tid=None):
    s = open("/proc/%d/task/%d/stat" % (pid, tid or pid)).read() if tid else open("/proc/%d/stat" % pid).read()
    f = s[s.rindex(")") + 2:].split()
    return (int(f[11]) + int(f[12])) / TCK

def one(b, r):
    work = tempfile.mkdtemp(prefix="burst.")
    bus, addr = privatebus.start(work, stderr=subprocess.DEVNULL)
    if b == "floor":
        d = subprocess.Popen([os.path.join(HERE, "floor"), addr, "org.livery.Livery1"], stdout=subprocess.PIPE); d.stdout.readline()
    else:
        env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "s"), XDG_CONFIG_HOME=os.path.join(work, "c"))
        d = subprocess.Popen([b, "--themes-dir", os.path.join(HERE, "..", "..", "..", "themes"), "--address", addr, "--no-watch",
                              "--no-portal", "--no-darkman"], env=env, stderr=subprocess.DEVNULL)
        for _ in range(200):
            if subprocess.run(["dbus-send", "--bus=" + addr, "--print-reply", "--dest=org.livery.Livery1",
                               "/org/livery/Livery1", "org.freedesktop.DBus.Peer.Ping"], capture_output=True).returncode == 0: break
            time.sleep(0.05)
    clients = [subprocess.Popen([os.path.join(HERE, "client"), addr, "org.livery.Livery1", "4", "pipe", str(i), "wait"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for i in range(PROCS)]
    for c in clients: assert c.stdout.readline().strip() == "ready"
    pinger = subprocess.Popen([os.path.join(HERE, "pinger"), addr, "org.livery.Livery1", "600", "v"], stdout=subprocess.PIPE, text=True)
    time.sleep(0.5)
    c0, b0 = cpu(d.pid, d.pid), cpu(bus.pid)
    for c in clients: c.stdin.write("g"); c.stdin.flush()
    outs = [c.stdout.readline().split() for c in clients]
    c1, b1 = cpu(d.pid, d.pid), cpu(bus.pid)
    for c in clients: c.wait()
    time.sleep(0.2)
    pinger.terminate(); pings = [l.split() for l in pinger.stdout.read().splitlines() if l.startswith("ping")]
    t0 = min(float(o[6]) for o in outs); t1 = max(float(o[7]) for o in outs)
    lat = sorted(float(p[2]) for p in pings if t0 <= float(p[1]) <= t1)
    ok = sum(int(o[0]) for o in outs); err = sum(int(o[2]) for o in outs)
    p99 = lat[max(0, math.ceil(0.99 * len(lat)) - 1)] if lat else -1
    name = b if b == "floor" else b.replace("/.build/release/liveryd", "")
    print("round %d %-28s calls %d ok %d LimitExceeded, all answered in %.2f s | pings %d p50 %.1f p99 %.1f max %.1f ms | loop CPU %.2f s, dbus-daemon %.2f s"
          % (r, name, ok, err, t1 - t0, len(lat), lat[len(lat)//2] if lat else -1, p99, lat[-1] if lat else -1, c1 - c0, b1 - b0), flush=True)
    d.terminate(); d.wait(); bus.terminate(); bus.wait()

for r in range(ROUNDS):
    for b in BINS: one(b, r)
