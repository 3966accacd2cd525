#!/usr/bin/env python3
"""Hostile inputs: generates each shape of super-linear cost that was found in Livery's sheet and
scheme readers, at 10^3, 10^4 and 10^5 repetitions and at the size limit (4 MiB a sheet, 1 MiB a
scheme), next to an ordinary theme of the same size, and times `livery check` on each: wall time
and peak resident memory of the process (wait4's ru_maxrss). A row passes within 2 s and 256 MB.

Usage: run.py LIVERY [--out DIR] [--timeout S] [--only NAME,...] [--sizes 1000,10000,...]
Writes DIR/hostile.md and DIR/hostile.json (DIR defaults to bench/out).
"""

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time

SHEET_LIMIT = 4 * 1024 * 1024
SCHEME_LIMIT = 1024 * 1024
TIME_BOUND = 2.0
MEMORY_BOUND = 256 * 1024 * 1024
PROPERTIES = ["tint-color", "background-color", "text-color", "alpha", "corner-radius", "row-height"]
TYPES = ["Button", "Switch", "Label", "NavigationBar", "TableViewCell", "Slider", "TabBar", "Window"]


def product(n):
    """1. A selector list of n selectors over a block of n declarations."""
    return "Button" + ", Button" * (n - 1) + " {" + " alpha: 1;" * n + " }\n"


def components(n):
    """2a. n components and n rules on misspelt types: did-you-mean for each."""
    return "".join("@component Comp%06d : View;\n" % i for i in range(n)) + "".join(
        "Cxmp%06d { alpha: 1; }\n" % i for i in range(n)
    )


def palette(n):
    """2b. n palette colours and n references to misspelt ones."""
    return "".join("@define-color col%06d #102030;\n" % i for i in range(n)) + "".join(
        "Button { tint-color: @cxl%06d; }\n" % i for i in range(n)
    )


def braces(n):
    """3a. Lines of 999 '}' (each an error, each on a line as long as can be shown)."""
    return ("}" * 999 + "\n") * max(1, n // 999)


def long_lines(n):
    """3b. Lines just under 1,000 bytes of declarations (each declaration keeps its line)."""
    line = "Button {" + " alpha: 1;" * 98 + " }\n"  # 990 bytes
    return line * max(1, n // 98)


def ordinary(n):
    """An ordinary theme: n declarations in rules of a few selectors and properties."""
    rnd = random.Random(n)
    out = ["@define-color accent #336699;\n"]
    count = 0
    while count < n:
        sel = rnd.choice(TYPES)
        if rnd.random() < 0.5:
            sel = rnd.choice(TYPES) + " " + sel
        decls = []
        for p in rnd.sample(PROPERTIES, 3):
            if p == "alpha":
                decls.append("alpha: 0.%d;" % rnd.randrange(10))
            elif p in ("corner-radius", "row-height"):
                decls.append("%s: %d;" % (p, rnd.randrange(100)))
            else:
                decls.append("%s: %s;" % (p, rnd.choice(["@accent", "#%06x" % rnd.randrange(1 << 24)])))
        out.append("%s { %s }\n" % (sel, " ".join(decls)))
        count += 3
    return "".join(out)


def fit(make, limit):
    """The largest repetition count whose text is at most `limit` bytes (binary search)."""
    lo, hi = 1, 1
    while len(make(hi).encode()) <= limit:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if len(make(mid).encode()) <= limit:
            lo = mid
        else:
            hi = mid
    return lo


def write_sheet(directory, text):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, "hostile.css")
    with open(path, "w") as f:
        f.write(text)
    return path


def write_imports(directory, depth, width=4):
    """4. theme.css imports f0.css `width` times, each fK.css imports f(K+1).css `width` times."""
    bundle = os.path.join(directory, "imports")
    os.makedirs(bundle, exist_ok=True)
    with open(os.path.join(bundle, "theme.css"), "w") as f:
        f.write('@theme { name: "imports"; }\n' + '@import "f0.css";\n' * width)
    for k in range(depth):
        with open(os.path.join(bundle, "f%d.css" % k), "w") as f:
            f.write("Button { alpha: 0.5; }\n")
            if k + 1 < depth:
                f.write('@import "f%d.css";\n' % (k + 1) * width)
    return bundle


BASE16_HEAD = "".join(
    ['system: "base16"\nname: "Hostile"\nauthor: "bench"\nvariant: "dark"\npalette:\n']
    + ['  base0%X: "#%02x%02x%02x"\n' % (i, i * 16, i * 8, i * 4) for i in range(16)]
)


def anchors(n):
    """5a. A valid scheme plus n anchored sequence items (libyaml's loader is quadratic in them)."""
    return BASE16_HEAD + "extra:\n" + "".join("  - &a%d x\n" % i for i in range(n))


def plain_keys(n):
    """5b. A valid scheme plus a mapping of n plain keys."""
    return BASE16_HEAD + "extra:\n" + "".join("  k%d: x\n" % i for i in range(n))


def kde_colors(n):
    """5c. A KDE colour scheme of n colour lines, every other one bad (two channels)."""
    return "[Colors:Window]\n" + "".join(
        "Key%d=1,2,3\n" % i if i % 2 == 0 else "Key%d=1,2\n" % i for i in range(n)
    )


def iterm_keys(n):
    """5d. An .itermcolors of n unknown colour keys before the real background."""
    body = "".join(
        "<key>Other %d Color</key><dict><key>Red Component</key><real>2</real></dict>\n" % i
        for i in range(n)
    )
    body += "<key>Background Color</key><dict><key>Red Component</key><real>9</real></dict>\n"
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict>\n' + body + "</dict>\n</plist>\n"
    )


def colors_json_keys(n):
    """5e. A pywal colors.json of n colour keys."""
    return (
        '{"special": {"background": "#000"}, "colors": {'
        + ",".join('"k%d": "#000000"' % i for i in range(n))
        + "}}"
    )


def write_scheme(directory, text, name="hostile.yaml"):
    os.makedirs(directory, exist_ok=True)
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def measure(argv, timeout):
    """Runs argv; returns (seconds, peak RSS bytes, exit status or 'timeout'/'signal N')."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            elapsed = time.monotonic() - start
            if os.WIFSIGNALED(status):
                outcome = "signal %d" % os.WTERMSIG(status)
            else:
                outcome = "exit %d" % os.WEXITSTATUS(status)
            return elapsed, usage.ru_maxrss * 1024, outcome
        if time.monotonic() > deadline:
            proc.send_signal(signal.SIGKILL)
            _, _, usage = os.wait4(proc.pid, 0)
            return timeout, usage.ru_maxrss * 1024, "timeout"
        time.sleep(0.005)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("livery")
    ap.add_argument("--out", default="bench/out")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--only", default="")
    ap.add_argument("--sizes", default="1000,10000,100000,limit")
    ap.add_argument("--themes-dir", default="themes")
    args = ap.parse_args()
    work = os.path.join(args.out, "hostile")
    shutil.rmtree(work, ignore_errors=True)
    only = set(filter(None, args.only.split(",")))
    sizes = args.sizes.split(",")
    schema = os.path.join(args.themes_dir, "schema.json")

    sheets = [
        ("product", product, []),
        ("product --warnings", product, ["--warnings"]),
        ("components", components, []),
        ("palette", palette, []),
        ("braces", braces, []),
        ("long-lines", long_lines, []),
        ("ordinary", ordinary, []),
    ]
    rows = []

    def run(name, size, path, extra):
        argv = [args.livery, "check", path, "--schema", schema, "--themes-dir", args.themes_dir] + extra
        seconds, rss, outcome = measure(argv, args.timeout)
        ok = outcome in ("exit 0", "exit 1") and seconds <= TIME_BOUND and rss <= MEMORY_BOUND
        row = {
            "shape": name,
            "repetitions": size,
            "bytes": os.path.getsize(path) if os.path.isfile(path) else sum(
                os.path.getsize(os.path.join(path, f)) for f in os.listdir(path)
            ),
            "seconds": round(seconds, 3),
            "peak_rss_mb": round(rss / 1e6, 1),
            "outcome": outcome,
            "within_bounds": ok,
        }
        rows.append(row)
        print(
            "%-20s %10s %10d B %8.3f s %8.1f MB  %-8s %s"
            % (name, size, row["bytes"], seconds, rss / 1e6, outcome, "ok" if ok else "OUT OF BOUNDS"),
            flush=True,
        )

    for name, make, extra in sheets:
        if only and name.split()[0] not in only:
            continue
        for size in sizes:
            n = fit(make, SHEET_LIMIT) if size == "limit" else int(size)
            text = make(n)
            if len(text.encode()) > SHEET_LIMIT:
                continue
            path = write_sheet(os.path.join(work, "%s-%s" % (name.split()[0], size)), text)
            run(name, "limit (%d)" % n if size == "limit" else size, path, extra)

    if not only or "imports" in only:
        for depth in (4, 8, 10, 16):
            bundle = write_imports(os.path.join(work, "imports-%d" % depth), depth)
            run("imports (4 wide)", "depth %d" % depth, bundle, [])

    schemes = (
        ("yaml anchors", anchors, "hostile.yaml"),
        ("yaml keys", plain_keys, "hostile.yaml"),
        ("kde colors", kde_colors, "hostile.colors"),
        ("iterm keys", iterm_keys, "hostile.itermcolors"),
        ("json keys", colors_json_keys, "hostile.json"),
    )
    for name, make, filename in schemes:
        if only and name.split()[1] not in only and name.split()[0] not in only:
            continue
        for size in sizes:
            n = fit(make, SCHEME_LIMIT) if size == "limit" else int(size)
            text = make(n)
            if len(text.encode()) > SCHEME_LIMIT:
                continue
            path = write_scheme(os.path.join(work, "%s-%s" % (name.replace(" ", "-"), size)), text, filename)
            run(name, "limit (%d)" % n if size == "limit" else size, path, [])

    with open(os.path.join(args.out, "hostile.json"), "w") as f:
        json.dump(rows, f, indent=1)
    with open(os.path.join(args.out, "hostile.md"), "w") as f:
        f.write("| shape | repetitions | bytes | seconds | peak RSS (MB) | outcome | within 2 s, 256 MB |\n")
        f.write("|---|---|---|---|---|---|---|\n")
        for r in rows:
            f.write(
                "| %s | %s | %d | %.3f | %.1f | %s | %s |\n"
                % (
                    r["shape"], r["repetitions"], r["bytes"], r["seconds"], r["peak_rss_mb"], r["outcome"],
                    "yes" if r["within_bounds"] else "**no**",
                )
            )
    failed = [r for r in rows if not r["within_bounds"]]
    print("%d passed, %d failed" % (len(rows) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
