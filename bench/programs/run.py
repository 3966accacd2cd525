#!/usr/bin/python3
"""A switch carried to five running programs: from `livery set ID` to the last of kitty,
alacritty, neovim, a GTK 4 application and a tmux server showing the new colours, RUNS
switches alternating two themes; then, in the same run, `wal --theme FILE` (pywal 3.8.15 from
PyPI, bench/.venv) to the same programs, where it reaches them.

Everything runs in a mount and network namespace of its own (`unshare -m -n`, with
`--map-root-user` when not root): a devpts instance of its own at /dev/pts, so that pywal's
sequences, which it writes to every /dev/pts/N, reach this benchmark's terminals and no other
terminal of the machine; abstract sockets of its own, so that the kitty plugin recolours this
kitty only. The programs, under a scratch HOME set up as the README says for each plugin, on
Xvfb with xsettingsd, and a private dbus-daemon with a release liveryd:

- kitty (remote control on `@livery-kitty`) and alacritty 0.11 (`import:` of livery.yml), each
  running a responder that asks the terminal its background (OSC 11) every 5 ms and reports
  each change of the answer;
- neovim (`--headless --listen`, `colorscheme livery`), reporting `Normal`'s background from a
  ColorScheme autocommand;
- a GTK 4 window (python3-gi) reporting `theme_bg_color` as its style context gives it, looked
  up every 5 ms in its main loop;
- a tmux server: its `status-style` read every 5 ms over a control-mode client (what the tmux
  plugin sets), and a responder in its pane as in the terminals (what pywal's sequences set).

Every report carries CLOCK_MONOTONIC (the programs' own clock: neovim's `vim.loop.hrtime()`,
Python's `time.monotonic()`); a switch's latency for a program is from just before the
command's process starts to the first report of the new theme's colour (base00, and for tmux's
status line `fg=base04,bg=base01`, as the plugins' templates take them). The last of five is a
switch's figure; p50 and p99 over the switches (linear interpolation).

pywal's side: the same two schemes as colors.json (the mapping bench/plugins uses),
`wal --theme FILE -n -q` (no wallpaper: sequences to every /dev/pts/N, `kitty @ set-colors` to
the kitty in KITTY_LISTEN_ON, and its other reloads), HOME in a scratch directory. A program
it does not reach within the timeout is reported as not reached.

    /usr/bin/python3 bench/programs/run.py PATH/TO/.build/release [--runs 20] [--timeout 5] [--wal PATH/TO/wal]

Writes bench/out/programs.md and bench/out/programs.json.
"""
import json, os, queue, select, shutil, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "bench/plugins"))
from run import ANSI, SPECIAL, pywal_theme, quantile, scheme_values, venv  # noqa: E402

THEMES = ["nord", "gruvbox-dark-hard"]
PROGRAMS = ["kitty", "alacritty", "neovim", "gtk4", "tmux"]
PLUGINS = ["kitty", "alacritty", "vim", "gtk", "tmux"]

# Asks the terminal it runs in for its background every 5 ms; writes "NAME TIME #rrggbb" to
# the report pipe on each change of the answer.
RESPONDER = r"""
import os, select, sys, termios, time, tty
name, report = sys.argv[1], sys.argv[2]
fd = os.open("/dev/tty", os.O_RDWR)
tty.setraw(fd)
out = os.open(report, os.O_WRONLY)
last, buf = None, b""
while True:
    os.write(fd, b"\033]11;?\007")
    deadline = time.monotonic() + 0.5
    while b"\007" not in buf and b"\033\\" not in buf:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            break
        buf += os.read(fd, 256)
    i = buf.find(b"rgb:")
    if i >= 0 and (b"\007" in buf[i:] or b"\033\\" in buf[i:]):
        parts = buf[i + 4:].split(b"/")
        colour = "#" + "".join(p[:2].decode().lower() for p in parts[:3])
        buf = b""
        if colour != last:
            last = colour
            os.write(out, ("%s %.6f %s\n" % (name, time.monotonic(), colour)).encode())
    elif len(buf) > 4096:
        buf = b""
    time.sleep(0.005)
"""

# A GTK 4 window reporting theme_bg_color on each change (looked up every 5 ms).
GTK_CLIENT = r"""
import sys, time
import gi
gi.require_version("Gtk", "4.0")
from gi.repository import GLib, Gtk
out = open(sys.argv[1], "w")
window = Gtk.Window(default_width=200, default_height=100)
window.set_child(Gtk.Box())
window.present()
last = [None]
def check():
    found, c = window.get_style_context().lookup_color("theme_bg_color")
    colour = "#%02x%02x%02x" % tuple(round(x * 255) for x in (c.red, c.green, c.blue)) if found else "none"
    if colour != last[0]:
        last[0] = colour
        out.write("gtk4 %.6f %s\n" % (time.monotonic(), colour))
        out.flush()
    return True
GLib.timeout_add(5, check)
GLib.MainLoop().run()
"""

NVIM_INIT = """set termguicolors
lua << EOF
vim.api.nvim_create_autocmd("ColorScheme", { callback = function()
  local f = io.open(os.getenv("LIVERY_BENCH_REPORT"), "a")
  f:write(string.format("neovim %.6f %s\\n", vim.loop.hrtime() / 1e9,
    vim.fn.synIDattr(vim.fn.hlID("Normal"), "bg#", "gui")))
  f:close()
end })
EOF
colorscheme livery
"""


def isolate():
    """Re-runs this script in namespaces of its own (see the module's doc)."""
    if os.environ.get("LIVERY_BENCH_ISOLATED"):
        return
    mount = ("mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts /dev/pts && "
             "mount --bind /dev/pts/ptmx /dev/ptmx && exec \"$@\"")
    cmd = ["unshare", "--mount", "--net"] + ([] if os.getuid() == 0 else ["--map-root-user"])
    env = dict(os.environ, LIVERY_BENCH_ISOLATED="1")
    os.execvpe(cmd[0], cmd + ["sh", "-c", mount, "sh", sys.executable] + sys.argv, env)


def wait_until(pred, timeout=20.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return
        time.sleep(0.02)
    raise RuntimeError("timed out waiting for " + what)


def main():
    if "--wal" not in sys.argv:
        # Before the namespaces: making bench/.venv needs the network.
        sys.argv += ["--wal", venv()[0]]
    isolate()
    bindir = sys.argv[1]
    wal = sys.argv[sys.argv.index("--wal") + 1]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 20
    timeout = float(sys.argv[sys.argv.index("--timeout") + 1]) if "--timeout" in sys.argv else 5.0
    base = tempfile.mkdtemp(prefix="livery-bench-programs-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    home = os.path.join(base, "home")
    config = os.path.join(home, ".config")
    schemes = os.path.join(base, "schemes")
    runtime = os.path.join(base, "runtime")
    for d in (schemes, runtime, os.path.join(config, "livery/plugins"), os.path.join(base, "tmux"),
              os.path.join(config, "kitty"), os.path.join(config, "alacritty"), os.path.join(config, "nvim"),
              os.path.join(config, "gtk-4.0")):
        os.makedirs(d, exist_ok=True)
    os.chmod(runtime, 0o700)
    values, walthemes = {}, {}
    for t in THEMES:
        shutil.copy(os.path.join(ROOT, "Tests/Fixtures/tinted/schemes/base16", t + ".yaml"), schemes)
        values[t] = scheme_values(os.path.join(schemes, t + ".yaml"))
        walthemes[t] = os.path.join(base, t + ".json")
        pywal_theme(values[t], walthemes[t])
    # What each program shows for a theme: the background (base00; pywal's special background
    # is base00 too), and tmux's status line as tmux.mustache sets it.
    want = {t: {p: "#" + values[t]["base00-hex"] for p in PROGRAMS + ["tmux-pane"]} for t in THEMES}
    for t in THEMES:
        want[t]["tmux"] = "fg=#%s,bg=#%s" % (values[t]["base04-hex"], values[t]["base01-hex"])
        assert SPECIAL["background"] == "00" and ANSI[0] == "00"
    for p in PLUGINS:
        os.symlink(os.path.join(ROOT, "plugins", p), os.path.join(config, "livery/plugins", p))
    files = {
        "kitty/kitty.conf": "include ~/.config/kitty/livery.conf\nallow_remote_control socket-only\n"
                            "listen_on unix:@livery-kitty\n",
        "alacritty/alacritty.yml": "import:\n  - ~/.config/alacritty/livery.yml\n",
        "nvim/init.vim": NVIM_INIT,
        "gtk-4.0/gtk.css": "@import 'livery.css';\n",
    }
    for name, text in files.items():
        with open(os.path.join(config, name), "w") as f:
            f.write(text)
    with open(os.path.join(home, ".tmux.conf"), "w") as f:
        f.write("source-file -q ~/.config/tmux/livery.conf\n")
    with open(os.path.join(home, ".xsettingsd"), "w") as f:
        f.write('Net/ThemeName "Livery"\n')
    for name, text in (("responder.py", RESPONDER), ("gtk4.py", GTK_CLIENT)):
        with open(os.path.join(base, name), "w") as f:
            f.write(text)
    report = os.path.join(base, "report")
    os.mkfifo(report)
    report_fd = os.open(report, os.O_RDWR | os.O_NONBLOCK)

    env = {k: v for k, v in os.environ.items() if k not in ("WAYLAND_DISPLAY", "TMUX", "KITTY_LISTEN_ON")}
    env.update(HOME=home, XDG_CONFIG_HOME=config, XDG_DATA_HOME=os.path.join(home, ".local/share"),
               XDG_STATE_HOME=os.path.join(home, ".local/state"), XDG_CACHE_HOME=os.path.join(home, ".cache"),
               XDG_RUNTIME_DIR=runtime, TMUX_TMPDIR=os.path.join(base, "tmux"), LIBGL_ALWAYS_SOFTWARE="1",
               LIVERY_BENCH_REPORT=report, TERM="xterm-256color", GDK_BACKEND="x11", GSK_RENDERER="cairo",
               GSETTINGS_BACKEND="memory", GTK_A11Y="none", NO_AT_BRIDGE="1")
    for k in ("GTK_THEME", "ADW_DEBUG_COLOR_SCHEME", "XDG_DATA_DIRS"):
        env.pop(k, None)
    procs = []

    def start(cmd, **kw):
        kw.setdefault("stdout", subprocess.DEVNULL)
        p = subprocess.Popen(cmd, env=kw.pop("env", env), stdin=subprocess.DEVNULL,
                             stderr=open(os.path.join(base, os.path.basename(cmd[0]) + ".log"), "a"), **kw)
        procs.append(p)
        return p

    livery = os.path.join(bindir, "livery")
    tmux = ["tmux", "-L", "bench"]
    events = queue.Queue()
    results = {"livery": [], "wal": []}
    try:
        r, w = os.pipe()
        start(["Xvfb", "-displayfd", str(w), "-nolisten", "tcp", "-screen", "0", "1024x768x24"], pass_fds=(w,))
        os.close(w)
        env["DISPLAY"] = ":" + os.read(r, 16).decode().strip()
        start(["xsettingsd"])
        bus = start(["dbus-daemon", "--session", "--nofork", "--print-address=1"], stdout=subprocess.PIPE, text=True)
        address = bus.stdout.readline().strip()
        env["DBUS_SESSION_BUS_ADDRESS"] = address
        start([os.path.join(bindir, "liveryd"), "--themes-dir", os.path.join(ROOT, "themes"), "--themes-dir", schemes,
               "--address", address, "--no-portal"])
        wait_until(lambda: subprocess.run([livery, "--address", address, "status"], env=env,
                                          capture_output=True).returncode == 0, what="liveryd")
        subprocess.run([livery, "--address", address, "set", THEMES[0]], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        wait_until(lambda: values[THEMES[0]]["base00-hex"] in open(
            os.path.join(config, "alacritty/livery.yml")).read() if os.path.exists(
            os.path.join(config, "alacritty/livery.yml")) else False, what="the first export")

        def reader():
            buf = b""
            while True:
                select.select([report_fd], [], [])
                try:
                    buf += os.read(report_fd, 65536)
                except BlockingIOError:
                    continue
                *lines, buf = buf.split(b"\n")
                for line in lines:
                    name, t, colour = line.decode().split(" ", 2)
                    events.put((name, float(t), colour))

        threading.Thread(target=reader, daemon=True).start()
        responder = [sys.executable, os.path.join(base, "responder.py")]
        kitty = start(["kitty"] + responder + ["kitty", report])
        start(["alacritty", "-e"] + responder + ["alacritty", report])
        start(["nvim", "--headless", "--listen", os.path.join(base, "nvim.sock")], stdout=subprocess.DEVNULL)
        start([sys.executable, os.path.join(base, "gtk4.py"), report])
        subprocess.run(tmux + ["new-session", "-d", "-x", "80", "-y", "24"] + ["sleep", "1000000"],
                       env=env, check=True)
        control = subprocess.Popen(tmux + ["-C", "attach"], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True, bufsize=1)
        procs.append(control)

        def tmux_poll():
            last = {}
            for line in control.stdout:  # the block answering the attach itself
                if line.startswith("%end") or line.startswith("%error"):
                    break
            while control.poll() is None:
                for name, command in (("tmux", "show-options -gv status-style"),
                                      ("tmux-pane", "display-message -p -t %0 '#{pane_bg}'")):
                    control.stdin.write(command + "\n")
                    value = ""
                    for line in control.stdout:
                        if line.startswith("%end") or line.startswith("%error"):
                            break
                        if not line.startswith("%"):
                            value = line.strip()
                    if value != last.get(name):
                        last[name] = value
                        events.put((name, time.monotonic(), value))
                time.sleep(0.005)

        threading.Thread(target=tmux_poll, daemon=True).start()
        kitty_to = "unix:@livery-kitty-%d" % kitty.pid
        current = {}

        def drain(until=None):
            """Applies reports to `current` until every program shows theme `until` (or none)."""
            while True:
                try:
                    name, t, colour = events.get(timeout=0.05)
                    current[name] = (t, colour)
                except queue.Empty:
                    if until is None:
                        return
                if until and all(current.get(p, (0, ""))[1] == want[until][p] for p in PROGRAMS):
                    return

        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(
                current.get(p, (0, ""))[1] == want[THEMES[0]][p] for p in PROGRAMS):
            drain()
        missing = [p for p in PROGRAMS if current.get(p, (0, ""))[1] != want[THEMES[0]][p]]
        if missing:
            raise RuntimeError("not showing %s at the start: %s (%s)" % (THEMES[0], missing, current))

        walhome = os.path.join(base, "walhome")
        walenv = dict(env, HOME=walhome, XDG_CACHE_HOME=os.path.join(walhome, ".cache"),
                      XDG_CONFIG_HOME=os.path.join(walhome, ".config"), TERM="xterm-kitty",
                      KITTY_LISTEN_ON=kitty_to)

        def switch(side, theme, targets):
            drain()
            cmd = ([livery, "--address", address, "set", theme] if side == "livery"
                   else [wal, "--theme", walthemes[theme], "-n", "-q"])
            start_t = time.monotonic()
            subprocess.run(cmd, env=env if side == "livery" else walenv, check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            exited = time.monotonic() - start_t
            seen = {}
            end = start_t + timeout
            while len(seen) < len(targets) and time.monotonic() < end:
                try:
                    name, t, colour = events.get(timeout=0.02)
                except queue.Empty:
                    continue
                current[name] = (t, colour)
                if name in targets and name not in seen and colour == want[theme][name] and t >= start_t:
                    seen[name] = t - start_t
            return {"theme": theme, "exited": exited,
                    "programs": {n: seen.get(n) for n in PROGRAMS + ["tmux-pane"]}}

        # Warm-up: each theme once on each side, then back to the first theme by Livery. What a
        # side reaches is what showed the theme within the timeout in its warm-up switches; the
        # timed switches wait for those only.
        names = PROGRAMS + ["tmux-pane"]
        reached = {}
        # Livery's switches first: alacritty keeps a background set by OSC 11 over its
        # configuration's, so pywal's sequences would hide Livery's later switches from it.
        # Every switch is to the theme the programs do not show (the last one switched to).
        shown = THEMES[0]
        for side in ("livery", "wal"):
            other = THEMES[1 - THEMES.index(shown)]
            got = [switch(side, t, names) for t in (other, shown)]
            reached[side] = [n for n in names if all(g["programs"][n] is not None for g in got)]
            for i in range(runs):
                shown = THEMES[1 - THEMES.index(shown)]
                results[side].append(switch(side, shown, reached[side]))
        load = open("/proc/loadavg").read().split()[:3]
    finally:
        for p in reversed(procs):
            if p.poll() is None:
                p.terminate()
        subprocess.run(tmux + ["kill-server"], env=env, capture_output=True)
        for p in procs:
            try:
                p.wait(5)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(base, ignore_errors=True)

    def figures(side, names):
        """Per program: p50, p99 (ms) over the switches that reached it; how many did."""
        out = {}
        for n in names:
            xs = [r["programs"][n] for r in results[side] if r["programs"][n] is not None]
            reached = len(xs)
            out[n] = {"reached": reached, "p50": quantile(xs, 0.5) * 1000 if xs else None,
                      "p99": quantile(xs, 0.99) * 1000 if xs else None}
        return out

    names = PROGRAMS + ["tmux-pane"]
    fig = {s: figures(s, names) for s in results}
    def per_program(r, n):
        """A switch's latency for program n; tmux is its status line or its pane (pywal's)."""
        v = r["programs"][n]
        return r["programs"]["tmux-pane"] if n == "tmux" and v is None else v

    last = {}
    for s in results:
        reach = [n for n in PROGRAMS if all(per_program(r, n) is not None for r in results[s])]
        xs = [max(per_program(r, n) for n in reach) for r in results[s]] if reach else []
        last[s] = {"programs": reach, "p50": quantile(xs, 0.5) * 1000 if xs else None,
                   "p99": quantile(xs, 0.99) * 1000 if xs else None,
                   "exited_p50": quantile([r["exited"] for r in results[s]], 0.5) * 1000}
    # The last of the programs pywal reaches, on Livery's side too: the like-for-like ratio.
    common = [n for n in last["wal"]["programs"] if n in last["livery"]["programs"]]
    lw = [max(per_program(r, n) for n in common) for r in results["livery"]] if common else []
    like = quantile(lw, 0.5) * 1000 if lw else None

    def ms(x):
        return "—" if x is None else "%.0f ms" % x

    lines = ["| program | Livery p50 / p99 (reached) | `wal --theme` p50 / p99 (reached) |", "|---|---|---|"]
    for n in names:
        a, b = fig["livery"][n], fig["wal"][n]
        label = {"tmux": "tmux (status-style)", "tmux-pane": "tmux pane (OSC 11 answer)"}.get(n, n)
        lines.append("| %s | %s / %s (%d/%d) | %s / %s (%d/%d) |" % (
            label, ms(a["p50"]), ms(a["p99"]), a["reached"], runs, ms(b["p50"]), ms(b["p99"]), b["reached"], runs))
    lines.append("| **last of the five** | **%s / %s** (%s) | %s / %s (last of %s) |" % (
        ms(last["livery"]["p50"]), ms(last["livery"]["p99"]), ", ".join(last["livery"]["programs"]),
        ms(last["wal"]["p50"]), ms(last["wal"]["p99"]), ", ".join(last["wal"]["programs"]) or "none"))
    lines.append("| command's own run time, p50 | %s | %s |" % (ms(last["livery"]["exited_p50"]),
                                                               ms(last["wal"]["exited_p50"])))
    ratio = (last["wal"]["p50"] / like) if like and last["wal"]["p50"] else None
    lines.append("")
    lines.append("Livery's last of the programs pywal reaches (%s): p50 %s; pywal ÷ Livery %s. "
                 "Load average %s." % (", ".join(common) or "none", ms(like),
                                       "%.1f×" % ratio if ratio else "—", " ".join(load)))
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.join(ROOT, "bench/out"), exist_ok=True)
    with open(os.path.join(ROOT, "bench/out/programs.md"), "w") as f:
        f.write(text)
    with open(os.path.join(ROOT, "bench/out/programs.json"), "w") as f:
        json.dump({"runs": results, "figures": fig, "last": last, "like_for_like_p50_ms": like,
                   "load": load}, f, indent=1)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
