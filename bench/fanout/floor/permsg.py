#!/usr/bin/python3
"""Loop-thread CPU per 1 MB Watch call: liveryd builds vs the libdbus floor, side by side.
usage: permsg.py N ROUNDS BIN... (each BIN a liveryd; 'floor' for the C floor)"""
import os, sys, subprocess, tempfile, time, re
import privatebus
N = int(sys.argv[1]); ROUNDS = int(sys.argv[2]); BINS = sys.argv[3:]
TCK = os.sysconf("SC_CLK_TCK")
HERE = os.path.dirname(os.path.abspath(__file__))
work = tempfile.mkdtemp(prefix="permsg.")
bus, addr = privatebus.start(work)

def thread_stat(pid, tid):
    s = open("/proc/%d/task/%d/stat" % (pid, tid)).read()
    f = s[s.rindex(")") + 2:].split()
    return (int(f[11]) + int(f[12])) / TCK, int(f[7])  # utime+stime s, minflt

def start(b, i):
    if b == "floor":
        p = subprocess.Popen([os.path.join(HERE, "floor"), addr, "org.livery.Livery1"], stdout=subprocess.PIPE)
        p.stdout.readline(); return p, p.pid
    env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "s%d" % i), XDG_CONFIG_HOME=os.path.join(work, "c%d" % i))
    p = subprocess.Popen([b, "--themes-dir", os.path.join(HERE, "..", "..", "..", "themes"), "--address", addr, "--no-watch",
                          "--no-portal", "--no-darkman"], env=env, stderr=subprocess.DEVNULL)
    for _ in range(200):
        r = subprocess.run(["dbus-send", "--bus=" + addr, "--print-reply", "--dest=org.livery.Livery1",
                            "/org/livery/Livery1", "org.freedesktop.DBus.Peer.Ping"], capture_output=True)
        if r.returncode == 0: break
        time.sleep(0.05)
    return p, p.pid  # Daemon.run() runs the loop on the main thread

results = {}
try:
    for r in range(ROUNDS):
        for i, b in enumerate(BINS):
            p, tid = start(b, i)
            for mode in ("seq", "pipe"):
                c0, f0 = thread_stat(p.pid, tid); t0 = time.time()
                out = subprocess.run([os.path.join(HERE, "client"), addr, "org.livery.Livery1", str(N), mode, str(r)],
                                     capture_output=True, text=True).stdout.strip()
                time.sleep(0.3)
                c1, f1 = thread_stat(p.pid, tid)
                key = (os.path.basename(os.path.dirname(os.path.dirname(b))) + "/" + os.path.basename(b) if b != "floor" else "floor", mode)
                results.setdefault(key, []).append(((c1 - c0) / N * 1000, (f1 - f0) / N))
                print("round %d %-40s %-4s %s | loop CPU %.2f ms/msg, %.0f minflt/msg" % (r, key[0], mode, out, (c1 - c0) / N * 1000, (f1 - f0) / N), flush=True)
            p.terminate(); p.wait()
finally:
    bus.terminate()
print("\nmedians (ms loop CPU per message, minor faults per message):")
for k, v in results.items():
    cs = sorted(x[0] for x in v); fs = sorted(x[1] for x in v)
    print("%-45s %-4s %7.2f ms  %6.0f faults" % (k[0], k[1], cs[len(cs)//2], fs[len(fs)//2]))
