#!/usr/bin/python3
"""Live reload: time from a change on disk to liveryd's ThemeChanged.

Usage: /usr/bin/python3 bench/reload/run.py BUILD_DIR [--runs N]
(BUILD_DIR holds liveryd and livery, e.g. .build/debug). Two cases, each on a private
dbus-daemon with fresh XDG directories and one theme directory:
- writer: a theme's theme.css replaced by rename while a thread writes render.log in the same
  theme directory every 100 ms (from 1-2 s before the edit until the signal);
- link: wal.json, a link to a colors.json in another directory, rewritten in place as pywal's
  util.save_file does (open(path, "w")).
Timed from just before the write to the signal (python-dbus, a connection opened before);
"never" when none came in 10 s.
"""
import os, random, shutil, subprocess, sys, tempfile, threading, time

import dbus, dbus.mainloop.glib
from gi.repository import GLib

LIMIT = 10.0


def scheme(background):
    colours = ",".join('"color%d":"#101010"' % i for i in range(16))
    return '{"special":{"background":"%s","foreground":"#ffffff","cursor":"#ffffff"},"colors":{%s}}' % (
        background, colours)


def one(build, case):
    root = tempfile.mkdtemp(prefix="livery-reload-")
    env = dict(os.environ, XDG_STATE_HOME=root + "/s", XDG_CONFIG_HOME=root + "/c",
               XDG_DATA_HOME=root + "/d", XDG_DATA_DIRS=root + "/dd")
    bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--print-address=1"],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    address = bus.stdout.readline().decode().strip()
    themes = root + "/themes"
    os.makedirs(themes + "/live")
    theme = themes + "/live/theme.css"
    colors = root + "/cache/wal/colors.json"
    os.makedirs(os.path.dirname(colors))
    with open(theme, "w") as f:
        f.write("NavigationBar { tint-color: #123456; }\n")
    with open(colors, "w") as f:
        f.write(scheme("#111111"))
    os.symlink(colors, themes + "/wal.json")
    daemon = subprocess.Popen([build + "/liveryd", "--themes-dir", themes, "--address", address],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        livery = [build + "/livery", "--address", address]
        for _ in range(500):
            if subprocess.run(livery + ["get"], env=env, capture_output=True).returncode == 0:
                break
            time.sleep(0.02)
        subprocess.run(livery + ["set", "live" if case == "writer" else "wal"], env=env, check=True,
                       capture_output=True)
        connection = dbus.bus.BusConnection(address)
        loop = GLib.MainLoop()
        got = {}
        connection.add_signal_receiver(
            lambda *_: (got.setdefault("t", time.monotonic()), loop.quit()), "ThemeChanged",
            "org.livery.Livery1")
        stop = threading.Event()

        def writer():
            i = 0
            while not stop.is_set():
                i += 1
                with open(themes + "/render.log", "w") as f:
                    f.write(str(i))
                time.sleep(0.1)

        thread = threading.Thread(target=writer if case == "writer" else (lambda: None))
        thread.start()
        time.sleep(1.0 + random.random())
        start = time.monotonic()
        if case == "writer":
            with open(theme + ".tmp", "w") as f:
                f.write("NavigationBar { tint-color: #654321; }\n")
            os.rename(theme + ".tmp", theme)
        else:
            with open(colors, "w") as f:
                f.write(scheme("#222222"))
        GLib.timeout_add(int(LIMIT * 1000), loop.quit)
        loop.run()
        stop.set()
        thread.join()
        connection.close()
        return got["t"] - start if "t" in got else None
    finally:
        daemon.terminate()
        daemon.wait()
        bus.terminate()
        bus.wait()
        shutil.rmtree(root)


def main():
    build = sys.argv[1]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 6
    dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
    for case in ["writer", "link"]:
        times = [one(build, case) for _ in range(runs)]
        print(case, " ".join("never" if t is None else "%.0f ms" % (t * 1000) for t in times))


if __name__ == "__main__":
    main()
