#!/usr/bin/python3
"""Instructions a server executes per Resolve and per Peer.Ping (callgrind), liveryd builds and the
C floor (resolve.c) side by side: repeatable figures for A/B, where wall times are noise.

usage: percall.py N BIN... [--out DIR]   (each BIN a liveryd; 'floor' for the C floor, which takes
       its reply from the first liveryd given)

Each server runs under `valgrind --tool=callgrind --instr-atstart=no` on one private bus; after
warm-up calls and once its CPU time stops growing (the theme checks done), instrumentation is
switched on for N Resolve calls (resolver.c, one at a time), dumped, zeroed, and on again for N
Pings. Every thread of the server is counted, libdbus and libc included; syscalls' kernel time
is not. The dumps are kept in DIR (default bench/out) as callgrind-percall-NAME-resolve.out and
-ping.out, for callgrind_annotate."""
import os, subprocess, sys, tempfile, time
import privatebus

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
TCK = os.sysconf("SC_CLK_TCK")
PATH = "Window/NavigationBar/BarButtonItem:highlighted"


def cpu(pid):
    s = open("/proc/%d/stat" % pid).read()
    f = s[s.rindex(")") + 2:].split()
    return (int(f[11]) + int(f[12])) / TCK


def settle(pid):
    """Waits until the process has used no CPU for a second (at most 120 s)."""
    last, deadline = cpu(pid), time.time() + 120
    while time.time() < deadline:
        time.sleep(1)
        now = cpu(pid)
        if now == last: return
        last = now


def calls(addr, n, ping=False):
    subprocess.run([os.path.join(HERE, "resolver"), addr, str(n)] + (["ping"] if ping else []), check=True)


def control(pid, *args):
    subprocess.run(["callgrind_control"] + list(args) + [str(pid)], check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)


def totals(path):
    for line in open(path):
        if line.startswith("totals:"): return int(line.split()[1])
    raise SystemExit("no totals in " + path)


def measure(name, argv, addr, n, work, out, ready, env=None, reads_stdout=False):
    """Runs argv under callgrind; `ready(process)` returns once it serves. Returns instructions
    per Resolve and per Ping."""
    prefix = os.path.join(work, name + ".cg")
    p = subprocess.Popen(["valgrind", "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=" + prefix]
                         + argv, env=env, stdout=subprocess.PIPE if reads_stdout else subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    try:
        ready(p)
        calls(addr, 200); calls(addr, 200, ping=True)
        settle(p.pid)
        result = []
        for k, ping in ((1, False), (2, True)):
            if k == 2: control(p.pid, "-z")
            control(p.pid, "-i", "on")
            calls(addr, n, ping)
            control(p.pid, "-d", "resolve" if k == 1 else "ping")
            control(p.pid, "-i", "off")
            kept = os.path.join(out, "callgrind-percall-%s-%s.out" % (name, "ping" if ping else "resolve"))
            os.replace("%s.%d" % (prefix, k), kept)
            result.append(totals(kept) / n)
        return result
    finally:
        p.kill(); p.wait()


def main():
    args = sys.argv[1:]
    out = os.path.join(ROOT, "bench", "out")
    if "--out" in args:
        i = args.index("--out"); out = args[i + 1]; del args[i:i + 2]
    if len(args) < 2: raise SystemExit(__doc__)
    n, bins = int(args[0]), args[1:]
    os.makedirs(out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="percall.")
    bus, addr = privatebus.start(work)
    source = next((b for b in bins if b != "floor"), None)
    try:
        rows = []
        for i, b in enumerate(bins):
            if b == "floor":
                if source is None: raise SystemExit("the floor takes its reply from a liveryd: give one too")
                # liveryd answers the floor's one Resolve on a bus of its own, then stops.
                sbus, saddr = privatebus.start(tempfile.mkdtemp(prefix="percall-source."))
                d = start_liveryd(source, saddr, work, "source")
                try:
                    def ready(p): p.stdout.readline()
                    rows.append(("C floor", measure("floor", [os.path.join(HERE, "resolve"), addr, saddr,
                        "org.livery.Livery1", "/org/livery/Livery1", "org.livery.Livery1", "Resolve", PATH],
                        addr, n, work, out, ready, reads_stdout=True)))
                finally:
                    d.kill(); d.wait(); sbus.kill(); sbus.wait()
            else:
                env = daemon_env(work, "d%d" % i, addr)
                argv = [b, "--themes-dir", os.path.join(ROOT, "themes"), "--address", addr, "--log-level", "warning"]
                rows.append((b, measure("d%d" % i, argv, addr, n, work, out, lambda p: ping(addr), env=env)))
        print("instructions a call (callgrind, the whole server process, %d calls each):" % n)
        for label, (resolve, pingcost) in rows:
            print("  %-60s Resolve %8.0f   Ping %8.0f" % (label, resolve, pingcost))
    finally:
        bus.kill(); bus.wait()


def daemon_env(work, tag, addr):
    home = os.path.join(work, tag)
    env = dict(os.environ, HOME=home, DBUS_SESSION_BUS_ADDRESS=addr)
    for var, d in (("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state"),
                   ("XDG_DATA_DIRS", "dirs")):
        env[var] = os.path.join(home, d); os.makedirs(env[var], exist_ok=True)
    return env


def ping(addr):
    for _ in range(1200):
        r = subprocess.run(["dbus-send", "--bus=" + addr, "--print-reply", "--dest=org.livery.Livery1",
                            "/org/livery/Livery1", "org.freedesktop.DBus.Peer.Ping"], capture_output=True)
        if r.returncode == 0: return
        time.sleep(0.1)
    raise SystemExit("liveryd did not answer Ping")


def start_liveryd(b, addr, work, tag):
    p = subprocess.Popen([b, "--themes-dir", os.path.join(ROOT, "themes"), "--address", addr, "--log-level", "warning"],
                         env=daemon_env(work, tag, addr), stderr=subprocess.DEVNULL)
    ping(addr)
    return p


if __name__ == "__main__":
    main()
