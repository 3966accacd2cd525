#!/usr/bin/python3
"""A theme switch carried out to 20 exports by liveryd against `wal --theme` (pywal from PyPI in
bench/.venv), side by side in one run, alternating, RUNS times each.

Livery: a private dbus-daemon; liveryd (release) with the shipped themes/ plus a scheme
directory holding two base16 schemes from Tests/Fixtures/tinted/schemes; a fresh
XDG_CONFIG_HOME with one user plugin, bench20, whose 20 exports are pywal's own templates
translated to Mustache (translate() below: `{color1}` -> `#{{base08-hex}}`, `.strip`, `.rgb`),
written to a directory in /dev/shm. Timed from just before a SetTheme call (python-dbus on an
open connection: no process start is counted) until the last of the 20 outputs has been renamed
into place (inotify IN_MOVED_TO, a blocking read: no polling), then every output is compared
with the content expected for the new theme. A second Livery row times `livery set ID` from the
client's process start, for the process-to-process comparison.

pywal: `wal --theme FILE.json -n -s -t -e -q` (no wallpaper, no sequences to terminals or the
tty, no reloads, quiet) with HOME, XDG_CACHE_HOME and XDG_CONFIG_HOME in a temporary directory,
timed from its process start to its exit. FILE.json is the same scheme in pywal's colors.json
shape (color0..15 from the base16 slots as tinted-theming's terminal templates map them, the
mapping the shipped plugins use), so pywal writes the same 20 files (and all its other
templates); those 20 are compared with the expected content too.

The two themes alternate on both sides, so every switch changes every output. Prints a
Markdown table and writes bench/out/plugins.md.

    /usr/bin/python3 bench/plugins/run.py PATH/TO/.build/release [--runs 11]
        [--daemon-wrapper "perf record -g -o bench/out/perf-plugins.data"] [--livery-only]

Needs Debian's python3-dbus and python3-yaml, and bench/.venv with pywal (made when missing).
"""
import ctypes, json, os, re, select, shutil, statistics, struct, subprocess, sys, tempfile, time

import dbus
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUS_NAME, PATH, IFACE = "org.livery.Livery1", "/org/livery/Livery1", "org.livery.Livery1"
PYWAL = "pywal==3.8.15"
THEMES = ["nord", "gruvbox-dark-hard"]
# pywal's templates exported by the bench20 plugin (20, of terminal, launcher, bar, shell and
# stylesheet formats; each only uses fields translate() knows).
TEMPLATES = [
    "colors.sh", "colors.css", "colors.scss", "colors.yml", "colors.styl", "colors.properties",
    "colors.qml", "colors-alacritty.toml", "colors-alacritty.yml", "colors-rofi-dark.rasi",
    "colors-rio.toml", "colors-wezterm.toml", "colors-tilix.json", "colors-zathura",
    "colors-waybar.css", "colors-wal-st.h", "colors-fuzzel.ini", "colors-konsole.colorscheme",
    "colors.fish", "colors-putty.reg",
]
# ANSI colour N from base16 slots, as the shipped terminal plugins map them (README, "Plugins").
ANSI = ["00", "08", "0B", "0A", "0D", "0E", "0C", "05", "03", "08", "0B", "0A", "0D", "0E", "0C", "07"]
SPECIAL = {"background": "00", "foreground": "05", "cursor": "05"}
WALLPAPER = "none"
IN_MOVED_TO = 0x80


def venv():
    """bench/.venv with pywal, made or completed as the Makefile's bench target does."""
    py = os.path.join(ROOT, "bench/.venv/bin/python")
    if not os.access(py, os.X_OK):
        subprocess.run(["python3", "-m", "venv", os.path.join(ROOT, "bench/.venv")], check=True)
    if subprocess.run([py, "-c", "import pywal"], capture_output=True).returncode != 0:
        subprocess.run([py, "-m", "pip", "install", "-q", "-r", os.path.join(ROOT, "bench/requirements.txt")],
                       check=True)
    return os.path.join(ROOT, "bench/.venv/bin/wal"), py


def translate(text):
    """A pywal template (str.format fields) as a Mustache template of tinted-theming variables."""
    text = text.replace("{{", "\0").replace("}}", "\1")

    def field(m):
        name, mod = m.group(1), m.group(2)
        if name == "wallpaper" and not mod:
            return WALLPAPER
        slot = SPECIAL.get(name) or (ANSI[int(name[5:])] if re.fullmatch(r"color\d+", name) else None)
        if slot is None:
            raise ValueError("untranslatable field {%s%s}" % (name, mod or ""))
        s = "base" + slot
        if not mod:
            return "#{{%s-hex}}" % s
        if mod == ".strip":
            return "{{%s-hex}}" % s
        if mod == ".rgb":
            return "{{%s-rgb-r}},{{%s-rgb-g}},{{%s-rgb-b}}" % (s, s, s)
        raise ValueError("untranslatable field {%s%s}" % (name, mod))

    out = re.sub(r"\{([a-z_0-9]+)(\.[a-z_]+)?\}", field, text)
    if re.search(r"\{(color\d|background|foreground|cursor|wallpaper|alpha|checksum)", out):
        raise ValueError("a field with a modifier translate() does not know")
    out = out.replace("\0", "{").replace("\1", "}")
    if "{{{" in out or "}}}" in out:
        # A literal brace next to a tag would read as a triple mustache.
        raise ValueError("a literal brace next to a tag")
    return out


def scheme_values(path):
    """The tinted-theming variables the translated templates use, for one base16 scheme."""
    s = yaml.safe_load(open(path))
    v = {}
    for slot, value in s["palette"].items():
        h = value.lstrip("#").lower()
        v[slot + "-hex"] = h
        for ch, x in zip("rgb", (h[0:2], h[2:4], h[4:6])):
            v["%s-rgb-%s" % (slot, ch)] = str(int(x, 16))
    return v


def render(template, values):
    """The expected output: translate()'s templates have plain variables only."""
    return re.sub(r"\{\{([^{}]+)\}\}", lambda m: values[m.group(1)], template)


def pywal_theme(values, path):
    """The scheme as a pywal colors.json."""
    colors = {"color%d" % i: "#" + values["base%s-hex" % s] for i, s in enumerate(ANSI)}
    special = {k: "#" + values["base%s-hex" % s] for k, s in SPECIAL.items()}
    with open(path, "w") as f:
        json.dump({"wallpaper": WALLPAPER, "alpha": "100", "special": special, "colors": colors}, f)


class Inotify:
    """IN_MOVED_TO events of one directory (liveryd renames each output into place)."""

    def __init__(self, directory):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        self.fd = libc.inotify_init1(os.O_CLOEXEC)
        if self.fd < 0 or libc.inotify_add_watch(self.fd, directory.encode(), IN_MOVED_TO) < 0:
            raise OSError(ctypes.get_errno(), "inotify")

    def wait_for(self, names, timeout=20.0):
        """Blocks until every name in `names` was moved into the directory; False at the timeout."""
        pending = set(names)
        deadline = time.monotonic() + timeout
        while pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.fd], [], [], left)[0]:
                return False
            buf = os.read(self.fd, 65536)
            i = 0
            while i < len(buf):
                _, mask, _, n = struct.unpack_from("iIII", buf, i)
                name = buf[i + 16:i + 16 + n].rstrip(b"\0").decode()
                i += 16 + n
                pending.discard(name)
        return True

    def drain(self):
        while select.select([self.fd], [], [], 0)[0]:
            os.read(self.fd, 65536)


def quantile(xs, q):
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    lo = int(k)
    return xs[lo] + (xs[min(lo + 1, len(xs) - 1)] - xs[lo]) * (k - lo)


def main():
    bindir = sys.argv[1]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 11
    # For profiles: liveryd started under a command (`perf record -g -o FILE`), and pywal left out.
    wrapper = sys.argv[sys.argv.index("--daemon-wrapper") + 1].split() if "--daemon-wrapper" in sys.argv else []
    sides = ("dbus", "set") if "--livery-only" in sys.argv else ("dbus", "set", "wal")
    wal, _ = venv()
    pywal_templates = os.path.join(os.path.dirname(subprocess.run(
        [os.path.join(ROOT, "bench/.venv/bin/python"), "-c", "import pywal; print(pywal.__file__)"],
        check=True, capture_output=True, text=True).stdout.strip()), "templates")
    base = tempfile.mkdtemp(prefix="livery-bench-plugins-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    out_dir = os.path.join(base, "out")
    schemes = os.path.join(base, "schemes")
    plugin = os.path.join(base, "config/livery/plugins/bench20")
    for d in (out_dir, schemes, plugin):
        os.makedirs(d)
    fixtures = os.path.join(ROOT, "Tests/Fixtures/tinted/schemes/base16")
    values, walthemes = {}, {}
    for t in THEMES:
        shutil.copy(os.path.join(fixtures, t + ".yaml"), schemes)
        values[t] = scheme_values(os.path.join(schemes, t + ".yaml"))
        walthemes[t] = os.path.join(base, t + ".json")
        pywal_theme(values[t], walthemes[t])

    templates, expected = {}, {t: {} for t in THEMES}
    manifest = ["description: 20 of pywal's templates in Mustache", "exports:"]
    for name in TEMPLATES:
        templates[name] = translate(open(os.path.join(pywal_templates, name)).read())
        with open(os.path.join(plugin, name + ".mustache"), "w") as f:
            f.write(templates[name])
        manifest += ["  - template: %s.mustache" % name, "    output: %s/%s" % (out_dir, name)]
        for t in THEMES:
            expected[t][name] = render(templates[name], values[t])
        if expected[THEMES[0]][name] == expected[THEMES[1]][name]:
            sys.exit("%s renders the same for both themes" % name)
    with open(os.path.join(plugin, "plugin.yaml"), "w") as f:
        f.write("\n".join(manifest) + "\n")

    env = dict(os.environ)
    for k in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        env[k] = os.path.join(base, k.lower() if k != "XDG_CONFIG_HOME" else "config")
    env["XDG_DATA_DIRS"] = os.path.join(base, "none")
    env["HOME"] = os.path.join(base, "home")
    os.makedirs(env["HOME"])
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                           stdout=subprocess.PIPE, env=env, text=True)
    address = bus.stdout.readline().strip()
    env["DBUS_SESSION_BUS_ADDRESS"] = address
    daemon = subprocess.Popen(
        wrapper + [os.path.join(bindir, "liveryd"), "--themes-dir", os.path.join(ROOT, "themes"), "--themes-dir", schemes,
         "--address", address, "--no-portal"],
        env=env, stdout=subprocess.DEVNULL, stderr=open(os.path.join(base, "liveryd.log"), "w"))
    livery = os.path.join(bindir, "livery")
    # pywal's home: its cache (~/.cache/wal, where it writes every template) and no user templates.
    walenv = dict(os.environ)
    walhome = os.path.join(base, "walhome")
    walenv.update(HOME=walhome, XDG_CACHE_HOME=os.path.join(walhome, ".cache"),
                  XDG_CONFIG_HOME=os.path.join(walhome, ".config"))
    walenv.pop("DISPLAY", None)
    walenv.pop("WAYLAND_DISPLAY", None)
    walcache = os.path.join(walhome, ".cache/wal")
    times = {"dbus": [], "set": [], "wal": []}
    failures = []
    try:
        conn = dbus.bus.BusConnection(address)
        for _ in range(500):
            try:
                conn.call_blocking(BUS_NAME, PATH, "org.freedesktop.DBus.Peer", "Ping", "", [], timeout=5)
                break
            except dbus.DBusException:
                time.sleep(0.01)
        watch = Inotify(out_dir)

        def check(side, directory, theme):
            for name in TEMPLATES:
                try:
                    got = open(os.path.join(directory, name)).read()
                except OSError as e:
                    got = str(e)
                if got != expected[theme][name]:
                    failures.append("%s: %s is not %s's" % (side, name, theme))

        def switch(theme, how):
            watch.drain()
            start = time.perf_counter()
            if how == "dbus":
                conn.call_blocking(BUS_NAME, PATH, IFACE, "SetTheme", "s", [theme], timeout=30)
            else:
                subprocess.run([livery, "--address", address, "set", theme], check=True, env=env,
                               stdout=subprocess.DEVNULL)
            if not watch.wait_for(TEMPLATES):
                failures.append("livery (%s): not every output was written for %s" % (how, theme))
            elapsed = time.perf_counter() - start
            check("livery", out_dir, theme)
            return elapsed

        def wal_run(theme):
            start = time.perf_counter()
            subprocess.run([wal, "--theme", walthemes[theme], "-n", "-s", "-t", "-e", "-q"], check=True,
                           env=walenv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            elapsed = time.perf_counter() - start
            check("pywal", walcache, theme)
            return elapsed

        # Warm-up: each theme compiled once, each side once (the first pywal run compiles its .pyc).
        for t in THEMES + THEMES:
            switch(t, "dbus")
            wal_run(t)
        failures.clear()
        # One alternation per side: the daemon's active theme is shared by both Livery rows.
        turn = {"livery": 0, "wal": 0}
        for i in range(runs):
            for how in sides:
                side = "wal" if how == "wal" else "livery"
                theme = THEMES[turn[side] % 2]
                turn[side] += 1
                times[how].append(wal_run(theme) if how == "wal" else switch(theme, how))
        walfiles = len(os.listdir(walcache))
        if "wal" not in sides:
            times["wal"] = [float("nan")]
    finally:
        daemon.terminate()
        daemon.wait()
        bus.terminate()
        bus.wait()
    shutil.rmtree(base)

    med = {k: statistics.median(v) for k, v in times.items()}
    p90 = {k: quantile(v, 0.9) for k, v in times.items()}
    outputs = "all 20 correct every run" if not failures else "%d wrong: %s" % (len(failures), failures[0])

    def row(label, k):
        ratio = med["wal"] / med[k]
        return "| %s | %.1f ms (p90 %.1f) | %.1f ms (p90 %.1f) | %.1f× | %s | %s |" % (
            label, med[k] * 1000, p90[k] * 1000, med["wal"] * 1000, p90["wal"] * 1000, ratio,
            "met" if ratio >= 20 else "**missed**", outputs)

    text = ("| switch to 20 exports | Livery (median of %d) | `wal --theme` (median of %d; writes %d files) "
            "| ratio | target ≥ 20× | outputs |\n|---|---|---|---|---|---|\n%s\n%s\n" % (
                runs, runs, walfiles,
                row("`SetTheme` over the bus (python-dbus, open connection) → last output renamed", "dbus"),
                row("`livery set ID` from its process start → last output renamed", "set")))
    text += "\n" + "\n".join("%s runs (s): %s" % (k, ", ".join("%.4f" % t for t in v)) for k, v in times.items())
    text += "\n"
    os.makedirs(os.path.join(ROOT, "bench/out"), exist_ok=True)
    with open(os.path.join(ROOT, "bench/out/plugins.md"), "w") as f:
        f.write(text)
    print(text)
    for f in failures[:5]:
        print(f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
