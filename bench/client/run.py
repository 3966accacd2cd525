#!/usr/bin/python3
"""The client's own start (issue 28): `livery get` and `livery set ID` from process start to exit
against `dconf read` and `dconf write` in the same run, alternating, with release builds.

Rows (each a command spawned and waited for; t0 just before posix_spawn, t1 when waitpid returns;
standard output read from a pipe after the exit and checked every time):
- `livery get`: the front (`livery`), which carries `get` out itself: one Properties.Get of
  ActiveTheme on a private connection;
- `livery-cli get`: the full client doing the same (what `livery get` was before the front);
- `livery get` of an older single-binary client given with --before (the A/B);
- `dconf read KEY`: dconf's client reading its database file (no bus call);
- `livery set ID` (front, full client, --before), each a real switch between two themes
  (forest and crimson alternate; a client's exit follows SetTheme's reply);
- `dconf write KEY VALUE`: a `Writer.Change` call to dconf-service on the same bus, to its reply;
- `livery status` through the front and straight from `livery-cli`: the front's cost for a
  command it hands over (one more exec).

Everything runs on a private dbus-daemon: liveryd (--themes-dir REPO/themes, --no-watch,
--no-portal, --no-darkman) with fresh XDG directories, and /usr/libexec/dconf-service started by
hand with its own XDG_CONFIG_HOME and XDG_RUNTIME_DIR. ROUNDS rounds; in each, every row runs
PER_ROUND times in turn, the order of the rows rotated each round, so that the machine's load
falls on every row alike. p50 is the median, p99 the nearest-rank 99th percentile of all of a
row's samples. Also the sizes of the binaries. Writes a Markdown report (--out, default
bench/client/results.md) and exits 1 when an output was wrong or a command failed.

    /usr/bin/python3 bench/client/run.py BIN_DIR [--before PATH/TO/OLD/livery] [--rounds 40]
        [--per-round 5] [--out FILE] [--dir DIR]

Needs dbus-daemon, dconf-cli and dconf-service (the Makefile's bench target installs them).
"""
import argparse, os, platform, shutil, signal, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
KEY = "/org/livery/bench/client"
THEMES = ("forest", "crimson")
DCONF_SERVICE = "/usr/libexec/dconf-service"


def spawn(argv, env):
    """Runs argv to its exit: (milliseconds, status, stdout bytes, stderr bytes)."""
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    actions = [(os.POSIX_SPAWN_DUP2, out_w, 1), (os.POSIX_SPAWN_DUP2, err_w, 2),
               (os.POSIX_SPAWN_CLOSE, out_r), (os.POSIX_SPAWN_CLOSE, err_r),
               (os.POSIX_SPAWN_OPEN, 0, "/dev/null", os.O_RDONLY, 0)]
    t0 = time.monotonic_ns()
    pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
    _, status = os.waitpid(pid, 0)
    t1 = time.monotonic_ns()
    os.close(out_w)
    os.close(err_w)
    out, err = read_all(out_r), read_all(err_r)
    return (t1 - t0) / 1e6, os.waitstatus_to_exitcode(status), out, err


def read_all(fd):
    chunks = []
    while True:
        b = os.read(fd, 65536)
        if not b:
            break
        chunks.append(b)
    os.close(fd)
    return b"".join(chunks)


def percentile(values, q):
    """Nearest rank."""
    s = sorted(values)
    return s[max(0, -(-len(s) * q // 100) - 1)] if s else float("nan")


class Bench:
    def __init__(self, args):
        self.args = args
        self.bin = os.path.abspath(args.bin_dir)
        self.failures = []
        self.procs = []
        # Where the daemons keep their state: liveryd's state.json and dconf's database (both
        # written, and liveryd's fsynced, before a switch is answered).
        self.base = tempfile.mkdtemp(prefix="livery-bench-client-", dir=args.dir)
        self.active = None  # the daemon's active theme, which every livery set row shares
        self.dconf_value = None

    def path(self, *parts):
        p = os.path.join(self.base, *parts)
        os.makedirs(p, exist_ok=True)
        return p

    def start(self):
        env = dict(os.environ)
        for k in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR"):
            env[k] = self.path(k.lower())
        env["XDG_DATA_DIRS"] = self.path("none")
        env.pop("DISPLAY", None)
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                               stdout=subprocess.PIPE, env=env, text=True)
        self.procs.append(bus)
        self.address = bus.stdout.readline().strip()
        env["DBUS_SESSION_BUS_ADDRESS"] = self.address
        self.env = env
        log = open(os.path.join(self.base, "liveryd.log"), "w")
        self.procs.append(subprocess.Popen(
            [os.path.join(self.bin, "liveryd"), "--themes-dir", os.path.join(ROOT, "themes"), "--address",
             self.address, "--no-watch", "--no-portal", "--no-darkman"],
            env=env, stdout=subprocess.DEVNULL, stderr=log))
        self.procs.append(subprocess.Popen([DCONF_SERVICE], env=env, stdout=subprocess.DEVNULL,
                                           stderr=open(os.path.join(self.base, "dconf.log"), "w")))
        deadline = time.monotonic() + 30
        while True:
            ms, code, out, err = spawn([self.livery_cli, "--address", self.address, "get"], env)
            if code == 0:
                break
            if time.monotonic() > deadline:
                raise SystemExit("liveryd did not answer: %s" % err.decode(errors="replace"))
            time.sleep(0.05)
        self.switch_to(THEMES[1])
        self.dconf_write_to(THEMES[0])

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
                try:
                    p.wait(5)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
        shutil.rmtree(self.base, ignore_errors=True)

    @property
    def livery(self):
        return os.path.join(self.bin, "livery")

    @property
    def livery_cli(self):
        return os.path.join(self.bin, "livery-cli")

    def check(self, label, result, expected_out):
        ms, code, out, err = result
        if code != 0 or out != expected_out or err:
            self.failures.append("%s: exit %d, stdout %r (expected %r), stderr %r" % (label, code, out, expected_out, err))
        return ms

    def switch_to(self, theme):
        r = spawn([self.livery_cli, "--address", self.address, "set", theme], self.env)
        self.check("setup set", r, b"")
        self.active = theme

    def dconf_write_to(self, value):
        r = spawn(["/usr/bin/dconf", "write", KEY, "'%s'" % value], self.env)
        self.check("setup dconf write", r, b"")
        self.dconf_value = value

    def rows(self):
        """(label, function returning the milliseconds of one timed run)."""
        a = self.address

        def get(program):
            return lambda: self.check(program, spawn([program, "--address", a, "get"], self.env),
                                      (self.active + "\n").encode())

        def set_(program):
            def run():
                theme = THEMES[0] if self.active == THEMES[1] else THEMES[1]
                ms = self.check(program, spawn([program, "--address", a, "set", theme], self.env), b"")
                self.active = theme
                return ms
            return run

        def status(program):
            def run():
                ms, code, out, err = r = spawn([program, "--address", a, "status"], self.env)
                if code != 0 or self.active.encode() not in out:
                    self.failures.append("%s status: exit %d, %r %r" % (program, code, out, err))
                return ms
            return run

        def dconf_read():
            return self.check("dconf read", spawn(["/usr/bin/dconf", "read", KEY], self.env),
                              ("'%s'\n" % self.dconf_value).encode())

        def dconf_write():
            value = THEMES[0] if self.dconf_value == THEMES[1] else THEMES[1]
            ms = self.check("dconf write", spawn(["/usr/bin/dconf", "write", KEY, "'%s'" % value], self.env), b"")
            self.dconf_value = value
            return ms

        rows = [("`livery get` (front)", get(self.livery)), ("`livery-cli get` (full client)", get(self.livery_cli))]
        if self.args.before:
            rows.append(("`livery get` (before: one client)", get(self.args.before)))
        rows.append(("`dconf read`", dconf_read))
        rows += [("`livery set ID` (front)", set_(self.livery)), ("`livery-cli set ID` (full client)", set_(self.livery_cli))]
        if self.args.before:
            rows.append(("`livery set ID` (before: one client)", set_(self.args.before)))
        rows.append(("`dconf write`", dconf_write))
        rows += [("`livery status` (front, handed over)", status(self.livery)),
                 ("`livery-cli status` (full client)", status(self.livery_cli))]
        return rows

    def run(self):
        rows = self.rows()
        times = {label: [] for label, _ in rows}
        for label, fn in rows:  # one untimed run each: page cache, dconf's database, the themes compiled
            fn()
        self.failures.clear()
        for r in range(self.args.rounds):
            order = rows[r % len(rows):] + rows[:r % len(rows)]
            for label, fn in order:
                for _ in range(self.args.per_round):
                    times[label].append(fn())
        return times


def sizes(paths):
    out = []
    for label, p in paths:
        if p and os.path.exists(p):
            out.append("| %s | %s | %.1f MB |" % (label, "{:,}".format(os.path.getsize(p)), os.path.getsize(p) / 1e6))
    return out


def filesystem(path):
    """The type of the file system holding path (`df --output=fstype`)."""
    try:
        return subprocess.run(["df", "--output=fstype", path], capture_output=True, text=True).stdout.split()[-1]
    except (OSError, IndexError):
        return "?"


def tool_version(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True).stdout.strip().splitlines()[0]
    except (OSError, IndexError):
        return "?"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("bin_dir")
    p.add_argument("--before", help="an older single-binary livery, for the A/B rows")
    p.add_argument("--rounds", type=int, default=40)
    p.add_argument("--per-round", type=int, default=5)
    p.add_argument("--out", default=os.path.join(ROOT, "bench/client/results.md"))
    p.add_argument("--dir", help="the directory of the daemons' files (default: the system's temporary directory)")
    args = p.parse_args()
    for tool in ("/usr/bin/dconf", DCONF_SERVICE, shutil.which("dbus-daemon") or "/usr/bin/dbus-daemon"):
        if not os.access(tool, os.X_OK):
            raise SystemExit("%s is missing (dconf-cli, dconf-service, dbus-daemon)" % tool)
    for b in ("livery", "livery-cli", "liveryd"):
        if not os.access(os.path.join(args.bin_dir, b), os.X_OK):
            raise SystemExit("%s/%s is missing: swift build -c release --product %s" % (args.bin_dir, b, b))
    bench = Bench(args)
    load_before = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M:%S")
    try:
        bench.start()
        times = bench.run()
    finally:
        bench.stop()
    load_after = os.getloadavg()

    def figures(label):
        v = times[label]
        return statistics.median(v), percentile(v, 99)

    lines = ["# The client's start: `livery get` / `livery set` against `dconf read` / `dconf write` (bench/client)", ""]
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    lines.append("Machine: %d CPUs, %s; kernel %s; %s; dconf %s. Run %s, load average %.1f before, %.1f after. "
                 "Binaries: %s%s. Daemons' files in %s (%s)." % (os.cpu_count(), cpu, platform.release(), tool_version(["dbus-daemon", "--version"]),
                                     tool_version(["dpkg-query", "-W", "-f=${Version}", "dconf-cli"]), started,
                                     load_before[0], load_after[0], bench.bin,
                                     ", before: %s" % args.before if args.before else "",
                                     os.path.dirname(bench.base), filesystem(os.path.dirname(bench.base))))
    lines.append("")
    lines.append("%d rounds × %d runs of every row, rows in turn (rotated each round); process start to exit; "
                 "every output checked." % (args.rounds, args.per_round))
    lines.append("")
    lines.append("| command | p50 ms | p99 ms | p50 ÷ dconf's |")
    lines.append("|---|---:|---:|---:|")
    read50, _ = figures("`dconf read`")
    write50, _ = figures("`dconf write`")
    for label in times:
        p50, p99 = figures(label)
        anchor = read50 if " get" in label or "read" in label else write50 if " set" in label or "write" in label else None
        lines.append("| %s | %.2f | %.2f | %s |" % (label, p50, p99, "%.2f×" % (p50 / anchor) if anchor else "—"))
    lines.append("")
    get50, _ = figures("`livery get` (front)")
    set50, _ = figures("`livery set ID` (front)")
    lines.append("Target `livery get` ≤ 2× `dconf read` (p50): **%s** (%.2f×); `livery set ID` ≤ 2× `dconf write`: "
                 "**%s** (%.2f×)." % ("met" if get50 <= 2 * read50 else "missed", get50 / read50,
                                      "met" if set50 <= 2 * write50 else "missed", set50 / write50))
    status_front, _ = figures("`livery status` (front, handed over)")
    status_full, _ = figures("`livery-cli status` (full client)")
    lines.append("")
    lines.append("A command the front hands over costs %+.2f ms (p50) against the full client started directly."
                 % (status_front - status_full))
    lines.append("")
    lines.append("| binary | bytes | size |")
    lines.append("|---|---:|---:|")
    lines += sizes([("`livery` (front)", os.path.join(bench.bin, "livery")),
                    ("`livery-cli` (full client)", os.path.join(bench.bin, "livery-cli")),
                    ("`livery` before (one client)", args.before)])
    lines.append("")
    lines.append("Outputs: %s." % ("all as expected" if not bench.failures else
                                   "%d wrong, first: %s" % (len(bench.failures), bench.failures[0])))
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        f.write(text)
    print(text)
    return 1 if bench.failures else 0


if __name__ == "__main__":
    sys.exit(main())
