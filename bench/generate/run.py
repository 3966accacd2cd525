#!/usr/bin/python3
"""`livery generate IMG --json` on a 5120×2880 JPEG and PNG against pywal's `wal -i IMG` (wal
backend, ImageMagick) and the materialyoucolor pipeline, with decoding the picture alone at full
size as the floor; side by side in one run, alternating, RUNS times each after one warm-up round.

The pictures are made here, deterministically, by Pillow in bench/.venv: Debian desktop-base's
softwaves GRUB background (/usr/share/desktop-base/softwaves-theme/grub/grub-16x9.png, a real
1920×1080 picture) upscaled to 5120×2880 (Lanczos), with a grain of ±8 levels per channel from
random.Random(26) added so that the upscale is not smoother than a photograph; saved as a JPEG
(quality 90) and a PNG (Pillow's default compression) in a directory in /dev/shm. Their SHA-256
are printed.

Each row is timed from its process start to its exit, each run a process of its own:
- livery: `livery generate IMG --json` (the release build given), its JSON checked for a source
  colour.
- pywal: `bench/.venv/bin/wal -i IMG -n -s -t -e --backend wal -q` (pywal 3.8.15) with HOME,
  XDG_CACHE_HOME and XDG_CONFIG_HOME in a scratch directory, its scheme cache (~/.cache/wal/
  schemes, keyed by the picture's checksum) removed before every run so that none is a cache
  hit, and Debian's ImageMagick first on its PATH; its colors.json checked for 16 colours.
- materialyoucolor: bench/.venv's Python with `materialyoucolor` 3.0.4: Pillow decode,
  `resize((112, 112), BILINEAR)`, `QuantizeCelebi(pixels, 128)`, `Score.score`; the process also
  reports the pipeline's own time (without Python's start-up and imports).
- floor: decoding the picture alone at full size, timed inside the process around the decode
  only: gdk-pixbuf (`GdkPixbuf.Pixbuf.new_from_file`, Debian's python3-gi: the loaders `livery
  generate` reads pictures with) and Pillow (`Image.open(IMG).load()`, bench/.venv).

Prints a Markdown table and writes bench/out/generate.md.

    /usr/bin/python3 bench/generate/run.py PATH/TO/.build/release [--runs 7]

Needs Debian's imagemagick, python3-gi and gir1.2-gdkpixbuf-2.0, and bench/.venv with pywal,
materialyoucolor and Pillow (made or completed here from bench/requirements.txt).
"""
import hashlib, json, os, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = "/usr/share/desktop-base/softwaves-theme/grub/grub-16x9.png"
SIZE = (5120, 2880)
GRAIN = 8
SEED = 26
TARGETS = {"jpeg": 10.0, "png": 2.0}
SIDES = ("livery", "wal", "myc", "gdk", "pillow")


def venv():
    """bench/.venv with pywal, materialyoucolor and Pillow, made or completed as `make bench` does."""
    py = os.path.join(ROOT, "bench/.venv/bin/python")
    if not os.access(py, os.X_OK):
        subprocess.run(["python3", "-m", "venv", os.path.join(ROOT, "bench/.venv")], check=True)
    probe = "import pywal, materialyoucolor, PIL"
    if subprocess.run([py, "-c", probe], capture_output=True).returncode != 0:
        subprocess.run([py, "-m", "pip", "install", "-q", "-r", os.path.join(ROOT, "bench/requirements.txt")],
                       check=True)
    return py


# --- Modes run in child processes (bench/.venv's Python, or /usr/bin/python3 for gdk-pixbuf). ---

def make_images(directory):
    """The JPEG and the PNG, as the module's docstring says."""
    import random
    from PIL import Image, ImageChops
    picture = Image.open(SOURCE).convert("RGB").resize(SIZE, Image.LANCZOS)
    rng = random.Random(SEED)
    n = SIZE[0] * SIZE[1]
    # randbytes % (2·GRAIN + 1) − GRAIN: a grain of −GRAIN…GRAIN levels, each channel its own.
    lut = [b % (2 * GRAIN + 1) for b in range(256)]
    grain = [Image.frombytes("L", SIZE, rng.randbytes(n)).point(lut) for _ in range(3)]
    picture = ImageChops.add(picture, Image.merge("RGB", grain), scale=1.0, offset=-GRAIN)
    paths = {"jpeg": os.path.join(directory, "picture.jpg"), "png": os.path.join(directory, "picture.png")}
    picture.save(paths["jpeg"], quality=90)
    picture.save(paths["png"])
    print(json.dumps(paths))


def myc(path):
    """The materialyoucolor pipeline; prints the pipeline's own time and the top-ranked colour."""
    start = time.perf_counter()
    from PIL import Image
    from materialyoucolor.quantize import QuantizeCelebi
    from materialyoucolor.score.score import Score
    imported = time.perf_counter()
    image = Image.open(path).convert("RGB")
    decoded = time.perf_counter()
    small = image.resize((112, 112), Image.BILINEAR)
    # get_flattened_data is getdata's name from Pillow 12.1 on (getdata warns there).
    pixels = list(getattr(small, "get_flattened_data", small.getdata)())
    ranked = Score.score(QuantizeCelebi(pixels, 128))
    done = time.perf_counter()
    print(json.dumps({"imports": imported - start, "decode": decoded - imported, "rest": done - decoded,
                      "source": "#%06x" % (ranked[0] & 0xFFFFFF)}))


def pillow_floor(path):
    from PIL import Image
    start = time.perf_counter()
    image = Image.open(path)
    image.load()
    elapsed = time.perf_counter() - start
    print(json.dumps({"decode": elapsed, "size": list(image.size)}))


def gdk_floor(path):
    import gi
    gi.require_version("GdkPixbuf", "2.0")
    from gi.repository import GdkPixbuf
    start = time.perf_counter()
    pixbuf = GdkPixbuf.Pixbuf.new_from_file(path)
    elapsed = time.perf_counter() - start
    print(json.dumps({"decode": elapsed, "size": [pixbuf.get_width(), pixbuf.get_height()]}))


# --- The run. ---

def timed(argv, env=None):
    """Wall time of one process from its start to its exit, and its standard output."""
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError("%s exited %d: %s" % (argv[0], done.returncode, done.stderr.strip()[-500:]))
    return elapsed, done.stdout


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def main():
    bindir = sys.argv[1]
    runs = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 7
    livery = os.path.join(bindir, "livery")
    py = venv()
    wal = os.path.join(ROOT, "bench/.venv/bin/wal")
    me = os.path.abspath(__file__)
    # ImageMagick's own convert first on pywal's PATH (Debian's, in /usr/bin), so that what runs
    # is the program pywal calls on a user's machine and nothing else earlier on PATH.
    magick = shutil.which("magick", path="/usr/bin") or shutil.which("convert", path="/usr/bin")
    if magick is None:
        sys.exit("ImageMagick is missing (Debian's imagemagick)")
    magick_version = subprocess.run([magick, "-version"], capture_output=True, text=True).stdout.split("\n")[0]
    base = tempfile.mkdtemp(prefix="livery-bench-generate-", dir="/dev/shm" if os.path.isdir("/dev/shm") else None)
    results = {}
    try:
        made = time.perf_counter()
        _, out = timed([py, me, "--make-images", base])
        made = time.perf_counter() - made
        images = json.loads(out)
        env = dict(os.environ)
        home = os.path.join(base, "home")
        env.update(HOME=home, XDG_CACHE_HOME=os.path.join(home, ".cache"),
                   XDG_CONFIG_HOME=os.path.join(home, ".config"), XDG_DATA_HOME=os.path.join(home, ".local/share"))
        env.pop("DISPLAY", None)
        env.pop("WAYLAND_DISPLAY", None)
        walenv = dict(env, PATH=os.path.dirname(magick) + os.pathsep + os.path.dirname(wal) + os.pathsep
                      + env.get("PATH", ""))
        walcache = os.path.join(home, ".cache/wal")
        os.makedirs(home)

        def run(side, kind):
            img = images[kind]
            if side == "livery":
                t, out = timed([livery, "generate", img, "--json"], env)
                return t, {"source": json.loads(out)["source"]}
            if side == "wal":
                shutil.rmtree(os.path.join(walcache, "schemes"), ignore_errors=True)
                try:
                    os.remove(os.path.join(walcache, "colors.json"))
                except FileNotFoundError:
                    pass
                t, _ = timed([wal, "-i", img, "-n", "-s", "-t", "-e", "--backend", "wal", "-q"], walenv)
                colors = json.load(open(os.path.join(walcache, "colors.json")))["colors"]
                if len(colors) != 16:
                    raise RuntimeError("pywal wrote %d colours" % len(colors))
                return t, {"background": colors["color0"]}
            if side == "myc":
                t, out = timed([py, me, "--myc", img])
                return t, json.loads(out)
            if side == "pillow":
                _, out = timed([py, me, "--pillow", img])
            else:
                _, out = timed(["/usr/bin/python3", me, "--gdk", img])
            info = json.loads(out)
            if info["size"] != list(SIZE):
                raise RuntimeError("%s decoded %s" % (side, info["size"]))
            return info["decode"], info

        times = {(s, k): [] for s in SIDES for k in images}
        extra = {}
        for round_ in range(runs + 1):  # round 0 warms up: page cache, .pyc files
            for kind in images:
                for side in SIDES:
                    t, info = run(side, kind)
                    extra[(side, kind)] = info
                    if side == "myc":
                        extra.setdefault(("myc-pipeline", kind), []).append(info["decode"] + info["rest"])
                    if round_ > 0:
                        times[(side, kind)].append(t)
        for kind in images:
            extra[("myc-pipeline", kind)] = extra[("myc-pipeline", kind)][1:]
        results = dict(times=times, extra=extra, images=images,
                       sizes={k: os.path.getsize(p) for k, p in images.items()},
                       sums={k: sha256(p) for k, p in images.items()}, made=made)
    finally:
        shutil.rmtree(base, ignore_errors=True)

    med = {key: statistics.median(v) for key, v in results["times"].items()}
    ms = lambda s: "%.0f ms" % (s * 1000)
    lines = [
        "Pictures: %s upscaled to %d×%d (Lanczos), grain ±%d from random.Random(%d); JPEG quality 90 %.1f MB "
        "(sha256 %s…), PNG %.1f MB (sha256 %s…); made in %.1f s. %s on pywal's PATH (%s)." % (
            SOURCE, SIZE[0], SIZE[1], GRAIN, SEED, results["sizes"]["jpeg"] / 1e6, results["sums"]["jpeg"][:12],
            results["sizes"]["png"] / 1e6, results["sums"]["png"][:12], results["made"], magick, magick_version),
        "",
        "| p50 of %d, process start to exit (floors: the decode alone) | JPEG | PNG |" % runs,
        "|---|---|---|",
    ]
    label = {
        "livery": "`livery generate IMG --json`",
        "wal": "pywal `wal -i IMG -n -s -t -e --backend wal -q` (scheme cache cleared)",
        "myc": "materialyoucolor: Pillow decode, 112×112 bilinear, QuantizeCelebi, Score",
        "myc-pipeline": "materialyoucolor, the pipeline alone (no start-up, imports)",
        "gdk": "floor: gdk-pixbuf full decode (`Pixbuf.new_from_file`)",
        "pillow": "floor: Pillow full decode (`Image.open().load()`)",
    }
    for side in ("livery", "wal", "myc", "myc-pipeline", "gdk", "pillow"):
        if side == "myc-pipeline":
            cells = [ms(statistics.median(results["extra"][(side, k)])) for k in ("jpeg", "png")]
        else:
            cells = [ms(med[(side, k)]) for k in ("jpeg", "png")]
        lines.append("| %s | %s | %s |" % (label[side], cells[0], cells[1]))
    for other, name in (("wal", "pywal ÷ livery"), ("myc", "materialyoucolor ÷ livery"),
                        ("gdk", "gdk-pixbuf floor ÷ livery")):
        lines.append("| %s | %.1f× | %.1f× |" % (
            name, med[(other, "jpeg")] / med[("livery", "jpeg")], med[(other, "png")] / med[("livery", "png")]))
    verdict = []
    for kind in ("jpeg", "png"):
        ratio = med[("wal", kind)] / med[("livery", kind)]
        verdict.append("%s: %.1f× pywal, target ≥ %g×, %s" % (
            kind.upper(), ratio, TARGETS[kind], "met" if ratio >= TARGETS[kind] else "**missed**"))
    lines += ["", "; ".join(verdict) + ".",
              "Source colours: livery %s / %s, materialyoucolor %s / %s (JPEG / PNG)." % (
                  results["extra"][("livery", "jpeg")]["source"], results["extra"][("livery", "png")]["source"],
                  results["extra"][("myc", "jpeg")]["source"], results["extra"][("myc", "png")]["source"]),
              ""]
    for key, v in results["times"].items():
        lines.append("%s %s runs (s): %s" % (key[0], key[1], ", ".join("%.4f" % t for t in v)))
    text = "\n".join(lines) + "\n"
    os.makedirs(os.path.join(ROOT, "bench/out"), exist_ok=True)
    with open(os.path.join(ROOT, "bench/out/generate.md"), "w") as f:
        f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    modes = {"--make-images": make_images, "--myc": myc, "--pillow": pillow_floor, "--gdk": gdk_floor}
    if len(sys.argv) == 3 and sys.argv[1] in modes:
        modes[sys.argv[1]](sys.argv[2])
        sys.exit(0)
    sys.exit(main())
