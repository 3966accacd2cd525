#!/usr/bin/python3
"""`livery gallery` of 300 themes against the pycairo baseline (bench/gallery/pycairo_gallery.py),
side by side in one run, alternating, RUNS times each; see bench/README.md.

The themes: the shipped themes/ and the fixture tinted-theming collection
(Tests/Fixtures/tinted/schemes/base16 and base24), padded to THEMES by copies of base16 schemes
under new names in a temporary directory. XDG_DATA_HOME, XDG_DATA_DIRS and XDG_CONFIG_HOME point
into the same temporary directory, so that nothing else is on the search path.

Untimed, first: `livery-bench --sample-screen DUMP.json` with the same directories writes the
sample screen and every theme's resolved values, the baseline's input. Timed, wall-clock from
the process start to its exit, each run into a fresh directory in /dev/shm: `livery gallery OUT
--themes-dir ...` (release) and `pycairo_gallery.py DUMP.json OUT --jobs CORES`, both on every
core; then both again pinned to one core (`taskset -c 0`, the baseline with --jobs 1). Medians
are reported. Afterwards every picture of the last runs is compared pixel for pixel (both PNGs
decoded by cairo). Prints a Markdown table and writes bench/out/gallery.md.

    /usr/bin/python3 bench/gallery/run.py PATH/TO/.build/release [--runs 7] [--themes 300]
"""
import os, resource, shutil, statistics, subprocess, sys, tempfile, time

import cairo

release = sys.argv[1]
runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 7
wanted = int(sys.argv[sys.argv.index("--themes") + 1]) if "--themes" in sys.argv else 300
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
livery = os.path.join(release, "livery")
bench = os.path.join(release, "livery-bench")
base = tempfile.mkdtemp(prefix="livery-bench-gallery-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
cores = os.cpu_count() or 1
TARGET_RATIO, TARGET_SECONDS = 1.0, 2.0

env = dict(os.environ)
for name in ["XDG_DATA_HOME", "XDG_DATA_DIRS", "XDG_CONFIG_HOME"]:
    env[name] = os.path.join(base, "xdg", name.lower())
    os.makedirs(env[name])

schemes = os.path.join(ROOT, "Tests/Fixtures/tinted/schemes")
padding = os.path.join(base, "padding")
os.makedirs(padding)
directories = [os.path.join(ROOT, "themes"), os.path.join(schemes, "base16"), os.path.join(schemes, "base24"), padding]
dump = os.path.join(base, "dump.json")


def dump_themes():
    args = [bench, "--root", ROOT, "--out", os.path.join(base, "bench-out"), "--sample-screen", dump]
    for d in directories:
        args += ["--themes-dir", d]
    out = subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout
    return int(out.split(": ")[-1].split()[0])


count = dump_themes()
originals = sorted(f for f in os.listdir(os.path.join(schemes, "base16")) if f.endswith(".yaml"))
for k in range(wanted - count):
    shutil.copy(os.path.join(schemes, "base16", originals[k % len(originals)]),
                os.path.join(padding, "padding-%d-%s" % (k, originals[k % len(originals)])))
count = dump_themes()
if count != wanted:
    sys.exit("gallery bench: %d themes on the search path, not %d" % (count, wanted))


def livery_cmd(out):
    return [livery, "gallery", out] + [a for d in directories for a in ("--themes-dir", d)]


def pycairo_cmd(out, jobs):
    return ["/usr/bin/python3", os.path.join(ROOT, "bench/gallery/pycairo_gallery.py"), dump, out,
            "--jobs", str(jobs)]


kinds = {
    "livery": lambda out: livery_cmd(out),
    "pycairo": lambda out: pycairo_cmd(out, cores),
    "livery-1": lambda out: ["taskset", "-c", "0"] + livery_cmd(out),
    "pycairo-1": lambda out: ["taskset", "-c", "0"] + pycairo_cmd(out, 1),
}
times = {k: [] for k in kinds}
cpu = {k: [] for k in kinds}


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(kind, record=True):
    out = os.path.join(base, "out-" + kind)
    shutil.rmtree(out, ignore_errors=True)
    cpu0, start = children_cpu(), time.perf_counter()
    r = subprocess.run(kinds[kind](out), env=env, capture_output=True, text=True)
    elapsed, used = time.perf_counter() - start, children_cpu() - cpu0
    expected = "%d of %d themes drawn" % (wanted, wanted)
    if r.returncode != 0 or expected not in r.stdout or "warning:" in r.stderr:
        sys.exit("gallery bench: %s failed (%d): %s%s" % (kind, r.returncode, r.stdout, r.stderr[-2000:]))
    if record:
        times[kind].append(elapsed)
        cpu[kind].append(used)


load_before = open("/proc/loadavg").read().split()[:3]
for kind in kinds:  # warm-up: page cache, fontconfig's cache
    timed(kind, record=False)
for _ in range(runs):
    for kind in kinds:
        timed(kind)


def compare(a, b):
    """Pictures of directory a and b: (identical, names of those that differ, pixels that differ)."""
    same, differ, pixels = 0, [], 0
    for name in sorted(os.listdir(a)):
        if not name.endswith(".png"):
            continue
        x = cairo.ImageSurface.create_from_png(os.path.join(a, name))
        y = cairo.ImageSurface.create_from_png(os.path.join(b, name))
        dx, dy = bytes(x.get_data()), bytes(y.get_data())
        if dx == dy:
            same += 1
        else:
            differ.append(name)
            pixels += sum(1 for k in range(0, len(dx), 4) if dx[k:k + 4] != dy[k:k + 4])
    return same, differ, pixels


same, differ, pixels = compare(os.path.join(base, "out-livery"), os.path.join(base, "out-pycairo"))
if "--keep" not in sys.argv:
    shutil.rmtree(base)
else:
    print("kept", base)
med = {k: statistics.median(v) for k, v in times.items()}
cpu_med = {k: statistics.median(v) for k, v in cpu.items()}
pictures = "%d of %d identical" % (same, same + len(differ))
if differ:
    pictures += " (%s: %d pixels differ)" % (", ".join(differ), pixels)


def row(what, lv, py, judged):
    ratio = med[py] / med[lv]
    if judged:
        met = ratio >= TARGET_RATIO and med[lv] < TARGET_SECONDS
        verdict = "met" if met else "**missed**"
    else:
        verdict = "(not judged)"
    return ("| `livery gallery`, %d themes at 360×640, %s | %.2f s (%.0f themes/s; CPU %.2f s) | %.2f s (%.0f themes/s; "
            "CPU %.2f s) | %.2f× (CPU %.2f×) | %s | %s |") % (
        wanted, what, med[lv], wanted / med[lv], cpu_med[lv], med[py], wanted / med[py], cpu_med[py], ratio,
        cpu_med[py] / cpu_med[lv], verdict, pictures)


os.makedirs(os.path.join(ROOT, "bench/out"), exist_ok=True)
with open(os.path.join(ROOT, "bench/out/gallery.md"), "w") as f:
    f.write("| workload | Livery (median of %d) | pycairo (median of %d) | ratio | target ≥ %.1f× and < %.0f s | pictures |\n"
            "|---|---|---|---|---|---|\n%s\n%s\n" % (
                runs, runs, TARGET_RATIO, TARGET_SECONDS,
                row("%d cores each" % cores, "livery", "pycairo", True),
                row("one core each (`taskset -c 0`)", "livery-1", "pycairo-1", False)))
    f.write("\n" + "".join("%s runs (s, wall / CPU): %s\n" % (k, ", ".join("%.3f / %.3f" % tc for tc in zip(v, cpu[k])))
                            for k, v in times.items()))
    f.write("load average before / after: %s / %s\n" % (load_before, open("/proc/loadavg").read().split()[:3]))
print(open(os.path.join(ROOT, "bench/out/gallery.md")).read())
sys.exit(0)
