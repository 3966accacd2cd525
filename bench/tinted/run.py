#!/usr/bin/python3
"""`livery build` against the pystache baseline (bench/tinted/pystache_build.py), side by side in
one run: both fixture template repositories (Tests/Fixtures/tinted/) for the fixture scheme
snapshot, RUNS times each, alternating, each time into a fresh output directory in /dev/shm
(tmpfs, so that the disk is not what is measured). Wall-clock time from the process start to its
exit, both repositories; the median is reported. The two output trees are then compared byte for
byte. Prints one Markdown row and writes bench/out/tinted.md.

    /usr/bin/python3 bench/tinted/run.py PATH/TO/livery [--runs 7]
"""
import filecmp, os, shutil, statistics, subprocess, sys, tempfile, time

livery = sys.argv[1]
runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 7
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
fixtures = os.path.join(root, "Tests/Fixtures/tinted")
schemes = os.path.join(fixtures, "schemes")
repos = ["tinted-shell", "tinted-fzf"]
base = tempfile.mkdtemp(prefix="livery-bench-tinted-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)


def livery_cmd(repo, out):
    return [livery, "build", os.path.join(fixtures, repo), "--themes-dir", schemes, "--out", out]


def pystache_cmd(repo, out):
    return ["/usr/bin/python3", os.path.join(root, "bench/tinted/pystache_build.py"), os.path.join(fixtures, repo),
            schemes, out]


def timed(make, name):
    out = os.path.join(base, name)
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    for repo in repos:
        subprocess.run(make(repo, os.path.join(out, repo)), check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


times = {"livery": [], "pystache": []}
for _ in range(runs):
    times["livery"].append(timed(livery_cmd, "livery"))
    times["pystache"].append(timed(pystache_cmd, "pystache"))

files = 0
differ = []
for repo in repos:
    a, b = os.path.join(base, "livery", repo), os.path.join(base, "pystache", repo)
    for d, _, names in os.walk(a):
        for n in names:
            files += 1
            rel = os.path.relpath(os.path.join(d, n), a)
            if not filecmp.cmp(os.path.join(a, rel), os.path.join(b, rel), shallow=False):
                differ.append(rel)
shutil.rmtree(base)

lv, py = statistics.median(times["livery"]), statistics.median(times["pystache"])
ratio = py / lv
row = ("| livery build, tinted-shell + tinted-fzf (287 schemes, 9 templates, %d files) | %.1f ms | %.1f ms | "
       "%.1f× | %s | %s |" % (files, lv * 1000, py * 1000, ratio, "met" if ratio >= 20 else "**missed**",
                              "identical" if not differ else "%d files differ" % len(differ)))
os.makedirs(os.path.join(root, "bench/out"), exist_ok=True)
with open(os.path.join(root, "bench/out/tinted.md"), "w") as f:
    f.write("| workload | Livery (median of %d) | pystache (median of %d) | ratio | target ≥ 20× | outputs |\n"
            "|---|---|---|---|---|---|\n%s\n" % (runs, runs, row))
    f.write("\nlivery runs (s): %s\npystache runs (s): %s\n" % (
        ", ".join("%.4f" % t for t in times["livery"]), ", ".join("%.4f" % t for t in times["pystache"])))
print(open(os.path.join(root, "bench/out/tinted.md")).read())
sys.exit(1 if differ else 0)
