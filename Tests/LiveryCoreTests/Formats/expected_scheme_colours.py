#!/usr/bin/env python3
"""Expected palettes of the terminal and KDE fixture schemes, computed from the formats' rules
independently of Livery (plistlib, json and a hand-written INI reader; the P3 -> sRGB matrix
derived here from the two spaces' primaries and D65 white). Prints Swift dictionary literals
pasted into FormatFixtureTests.swift:

    python3 Tests/LiveryCoreTests/Formats/expected_scheme_colours.py

Imported as a module (Tests/EndToEndTests/TerminalPaletteTests.swift), it prints nothing and
lends its readers `iterm` and `pywal`.
"""
import json, os, plistlib, re, sys

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "Fixtures", "schemes")

def rgb_to_xyz(primaries, white):
    # Columns: each primary's XYZ scaled so that R+G+B = white (the standard construction).
    def xyz(x, y): return [x / y, 1.0, (1 - x - y) / y]
    P = [xyz(*p) for p in primaries]
    W = xyz(*white)
    M = [[P[c][r] for c in range(3)] for r in range(3)]
    S = solve(M, W)
    return [[M[r][c] * S[c] for c in range(3)] for r in range(3)]

def solve(M, v):
    # Cramer's rule for 3x3.
    def det(A): return (A[0][0]*(A[1][1]*A[2][2]-A[1][2]*A[2][1]) - A[0][1]*(A[1][0]*A[2][2]-A[1][2]*A[2][0])
                        + A[0][2]*(A[1][0]*A[2][1]-A[1][1]*A[2][0]))
    d = det(M)
    out = []
    for c in range(3):
        A = [row[:] for row in M]
        for r in range(3): A[r][c] = v[r]
        out.append(det(A) / d)
    return out

def inverse(M):
    cols = [solve(M, [1 if i == j else 0 for i in range(3)]) for j in range(3)]
    return [[cols[c][r] for c in range(3)] for r in range(3)]

def matmul(A, B): return [[sum(A[r][k] * B[k][c] for k in range(3)) for c in range(3)] for r in range(3)]

D65 = (0.3127, 0.3290)
SRGB = rgb_to_xyz([(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)], D65)
P3 = rgb_to_xyz([(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], D65)
P3_TO_SRGB = matmul(inverse(SRGB), P3)

def decode(v): return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
def encode(v):
    v = min(max(v, 0.0), 1.0)
    return v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055

def eight(v):
    v = min(max(v, 0.0), 1.0) * 255
    return int(v + 0.5)  # round half away from zero for non-negative values

def hexa(r, g, b, a=1.0): return "#%02x%02x%02x%02x" % (eight(r), eight(g), eight(b), eight(a))

ITERM = {**{"Ansi %d Color" % i: "color%d" % i for i in range(16)},
         "Background Color": "background", "Foreground Color": "foreground", "Cursor Color": "cursor",
         "Cursor Text Color": "cursor-text", "Selection Color": "selection-background",
         "Selected Text Color": "selection-foreground", "Bold Color": "bold"}

def iterm(path):
    with open(path, "rb") as f: d = plistlib.load(f)
    out = {}
    for key, name in ITERM.items():
        if key not in d: continue
        c = d[key]
        r, g, b = c["Red Component"], c["Green Component"], c["Blue Component"]
        a = c.get("Alpha Component", 1.0)
        if c.get("Color Space") == "P3":
            lin = [decode(r), decode(g), decode(b)]
            r, g, b = (encode(sum(P3_TO_SRGB[i][k] * lin[k] for k in range(3))) for i in range(3))
        out[name] = hexa(r, g, b, a)
    return out

def pywal(path):
    with open(path) as f: d = json.load(f)
    out = {}
    for group in ("special", "colors"):
        for k, v in d[group].items():
            if group == "special" and k not in ("background", "foreground", "cursor"): continue
            out[k] = "#" + v.lstrip("#").lower() + "ff"
    return out

def kde(path):
    out, group = {}, None
    for line in open(path, encoding="utf-8").read().splitlines():
        line = line.strip()
        if line.startswith("["):
            g = line[1:-1]
            group = "wm" if g == "WM" else ("-".join(words(p) for p in g[7:].split("][")) if g.startswith("Colors:") else None)
            continue
        if not line or "=" not in line or group is None: continue
        k, v = line.split("=", 1)
        n = [int(x) for x in v.split(",")]
        out[group + "-" + words(k)] = "#" + "".join("%02x" % x for x in (n + [255])[:4])
    return out

def words(s): return re.sub(r"(?<!^)([A-Z])", r"-\1", s).lower()

def swift(d): return "[" + ", ".join('"%s": "%s"' % (k, d[k]) for k in sorted(d)) + "]"

if __name__ == "__main__":
    print("// P3 -> sRGB:", [[round(x, 12) for x in row] for row in P3_TO_SRGB], file=sys.stderr)
    for sub, reader in (("iterm2", iterm), ("pywal/dark", pywal), ("pywal/light", pywal), ("kde", kde)):
        for name in sorted(os.listdir(os.path.join(ROOT, sub))):
            print('"%s/%s": %s,' % (sub, name, swift(reader(os.path.join(ROOT, sub, name)))))
