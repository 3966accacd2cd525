#!/usr/bin/env python3
"""Write the button background images of the forest and crimson bundles.

For each bundle, images/back1.png (normal) and images/back2.png (highlighted,
darker) are 64x32 RGBA PNGs: a rounded rectangle with a vertical gradient, a
one-pixel darker rim and a soft top highlight, anti-aliased by 4x4 supersampling.
Pure standard library (zlib + struct). Output is deterministic.

Usage: scripts/make-button-images.py [THEMES_DIR]   (default: themes/ next to scripts/)
"""
import os
import struct
import sys
import zlib

WIDTH, HEIGHT, RADIUS = 64, 32, 8.0
SUPERSAMPLE = 4

# bundle -> (top colour, bottom colour) of the normal state, sRGB 0-255
BUNDLES = {
    "forest": ((76, 175, 80), (27, 120, 32)),
    "crimson": ((214, 69, 65), (140, 16, 16)),
}
HIGHLIGHT_FACTOR = 0.72  # the highlighted image is this much darker


def png(width, height, rgba_rows):
    """Encode rows of RGBA bytes as a PNG file (colour type 6, 8 bits)."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + bytes(row) for row in rgba_rows)  # filter type 0 per row
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def inside_rounded_rect(x, y, x0, y0, x1, y1, r):
    """Whether point (x, y) lies inside the rounded rectangle [x0,x1]x[y0,y1]."""
    if x < x0 or x > x1 or y < y0 or y > y1:
        return False
    cx = min(max(x, x0 + r), x1 - r)
    cy = min(max(y, y0 + r), y1 - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def coverage(px, py, inset):
    """Fraction of pixel (px, py) covered by the button shape shrunk by inset."""
    hits = 0
    for sy in range(SUPERSAMPLE):
        for sx in range(SUPERSAMPLE):
            x = px + (sx + 0.5) / SUPERSAMPLE
            y = py + (sy + 0.5) / SUPERSAMPLE
            if inside_rounded_rect(x, y, inset, inset, WIDTH - inset, HEIGHT - inset, RADIUS - inset):
                hits += 1
    return hits / (SUPERSAMPLE * SUPERSAMPLE)


def lerp(a, b, t):
    return a + (b - a) * t


def button(top, bottom, factor):
    rows = []
    for py in range(HEIGHT):
        t = (py + 0.5) / HEIGHT
        fill = [lerp(top[i], bottom[i], t) * factor for i in range(3)]
        rim = [c * 0.7 for c in fill]
        row = []
        for px in range(WIDTH):
            outer = coverage(px, py, 0.0)
            inner = coverage(px, py, 1.0)
            if outer == 0:
                row += [0, 0, 0, 0]
                continue
            # inner area is the fill, the ring between outer and inner is the rim
            w_fill = inner / outer
            colour = [lerp(rim[i], fill[i], w_fill) for i in range(3)]
            if 1 <= py <= HEIGHT // 2 - 1 and inner > 0:
                # soft gloss on the upper half, fading downwards
                gloss = 0.18 * (1 - py / (HEIGHT / 2))
                colour = [lerp(c, 255, gloss) for c in colour]
            row += [max(0, min(255, round(c))) for c in colour] + [round(outer * 255)]
        rows.append(row)
    return png(WIDTH, HEIGHT, rows)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    themes = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "themes")
    for bundle, (top, bottom) in BUNDLES.items():
        outdir = os.path.join(themes, bundle, "images")
        os.makedirs(outdir, exist_ok=True)
        for name, factor in (("back1.png", 1.0), ("back2.png", HIGHLIGHT_FACTOR)):
            path = os.path.join(outdir, name)
            with open(path, "wb") as f:
                f.write(button(top, bottom, factor))
            print(os.path.relpath(path))


if __name__ == "__main__":
    main()
