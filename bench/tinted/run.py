#!/usr/bin/python3
"""`livery build` against the pystache baseline (bench/tinted/pystache_build.py), side by side in
one run: both fixture template repositories (Tests/Fixtures/tinted/) for the fixture scheme
snapshot, RUNS times each, alternating, each time into a fresh output directory in /dev/shm
(tmpfs, so that the disk is not what is measured). Wall-clock time from the process start to its
exit, both repositories; the median is reported. The two output trees are then compared byte for
byte. Prints one Markdown row and writes bench/out/tinted.md.

    /usr/bin/python3 bench/tinted/run.py PATH/TO/livery [--runs 7] [--static PATH/TO/livery]

With --static, a second livery binary (built with `swift build -c release --product livery
--static-swift-stdlib --scratch-path DIR`) is timed in the same rounds, both ways, as two more rows.
"""
import filecmp, os, shutil, statistics, subprocess, sys, tempfile, time

livery = sys.argv[1]
static = sys.argv[sys.argv.index("--static") + 1] if "--static" in sys.argv else None
runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 7
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
fixtures = os.path.join(root, "Tests/Fixtures/tinted")
schemes = os.path.join(fixtures, "schemes")
repos = ["tinted-shell", "tinted-fzf"]
base = tempfile.mkdtemp(prefix="livery-bench-tinted-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)


def livery_cmd(repos, out, binary=None):
    return [binary or livery, "build", *[os.path.join(fixtures, r) for r in repos], "--themes-dir", schemes, "--out", out]


def pystache_cmd(repos, out):
    return ["/usr/bin/python3", os.path.join(root, "bench/tinted/pystache_build.py"),
            *[os.path.join(fixtures, r) for r in repos], schemes, out]


def timed(make, name, together):
    """Both repositories into base/name/REPO: one process each, or one process for both."""
    out = os.path.join(base, name)
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    if together:
        subprocess.run(make(repos, out), check=True, stdout=subprocess.DEVNULL)
    else:
        for repo in repos:
            subprocess.run(make([repo], os.path.join(out, repo)), check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def static_cmd(repos, out):
    return livery_cmd(repos, out, static)


kinds = {"livery": (livery_cmd, False), "pystache": (pystache_cmd, False), "livery-one": (livery_cmd, True),
         "pystache-one": (pystache_cmd, True)}
if static:
    kinds.update({"static": (static_cmd, False), "static-one": (static_cmd, True)})
times = {k: [] for k in kinds}
for _ in range(runs):
    for k, (make, together) in kinds.items():
        times[k].append(timed(make, k, together))
others = [k for k in kinds if k != "livery"]

files = 0
differ = []
for repo in repos:
    a = os.path.join(base, "livery", repo)
    for d, _, names in os.walk(a):
        for n in names:
            files += 1
            rel = os.path.relpath(os.path.join(d, n), a)
            for other in others:
                if not filecmp.cmp(os.path.join(a, rel), os.path.join(base, other, repo, rel), shallow=False):
                    differ.append(other + "/" + repo + "/" + rel)
for other in others:
    count = sum(len(names) for repo in repos for _, _, names in os.walk(os.path.join(base, other, repo)))
    if count != files:
        differ.append("%s wrote %d files, not %d" % (other, count, files))
shutil.rmtree(base)

med = {k: statistics.median(v) for k, v in times.items()}
outputs = "identical" if not differ else "%d files differ" % len(differ)


def row(what, lv, py):
    ratio = med[py] / med[lv]
    return "| livery build, tinted-shell + tinted-fzf (287 schemes, 9 templates, %d files), %s | %.1f ms | %.1f ms | " \
           "%.1f× | %s | %s |" % (files, what, med[lv] * 1000, med[py] * 1000, ratio,
                                  "met" if ratio >= 20 else "**missed**", outputs)


os.makedirs(os.path.join(root, "bench/out"), exist_ok=True)
with open(os.path.join(root, "bench/out/tinted.md"), "w") as f:
    f.write("| workload | Livery (median of %d) | pystache (median of %d) | ratio | target ≥ 20× | outputs |\n"
            "|---|---|---|---|---|---|\n%s\n%s\n" % (
                runs, runs, row("one process per repository", "livery", "pystache"),
                row("one process for both", "livery-one", "pystache-one")))
    if static:
        f.write("%s\n%s\n" % (row("one process per repository, livery linked statically", "static", "pystache"),
                               row("one process for both, livery linked statically", "static-one", "pystache-one")))
    f.write("\n" + "".join("%s runs (s): %s\n" % (k, ", ".join("%.4f" % t for t in v)) for k, v in times.items()))
print(open(os.path.join(root, "bench/out/tinted.md")).read())
for d in differ[:5]:
    print("differs:", d, file=sys.stderr)
sys.exit(1 if differ else 0)
