#!/usr/bin/python3
"""The gallery benchmark's baseline: `livery gallery`'s pictures drawn from Python through the
same Cairo, with Debian's python3-cairo (pycairo), on as many processes as there are cores.

It reads the sample screen and every theme's resolved values from a JSON file that
`livery-bench --sample-screen FILE --themes-dir DIR...` wrote beforehand (untimed: the cascade
is Livery's; what is compared is everything around the same Cairo calls), draws each theme's
picture with the calls Sources/LiveryPreview/Painter.swift makes, in the same order, writes
OUT/ID.png (a temporary file, then a rename) and OUT/index.html (the page `livery gallery`
writes, swatches included), and prints `OUT/index.html: N of M themes drawn`.

    /usr/bin/python3 bench/gallery/pycairo_gallery.py DUMP.json OUT [--size WxH] [--jobs N]

Images: PNG only (cairo's own reader; pycairo has no gdk-pixbuf or librsvg). The shipped themes'
images are PNGs; any other image is drawn without, with a warning on standard error.
"""
import json, math, multiprocessing, os, re, sys

import cairo

WHITE, BLACK, GRAY = (1.0, 1.0, 1.0, 1.0), (0.0, 0.0, 0.0, 1.0), (0.5, 0.5, 0.5, 1.0)


def rounded(v):
    """Swift's `rounded()`: half away from zero."""
    return math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)


def with_alpha(c, a):
    return (c[0], c[1], c[2], c[3] * a)


class Style:
    """SampleStyle's accessors over one path's values."""

    def __init__(self, values):
        self.values = values or {}

    def color(self, p):
        v = self.values.get(p)
        return tuple(v) if isinstance(v, list) and len(v) == 4 else None

    def length(self, p, fallback=0.0):
        v = self.values.get(p)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
            return float(v)
        return fallback

    def image(self, p):
        v = self.values.get(p)
        return v.get("image") if isinstance(v, dict) else None

    def text(self, p):
        v = self.values.get(p)
        return v if isinstance(v, str) else None

    def insets(self, p):
        v = self.values.get(p)
        return tuple(v["insets"]) if isinstance(v, dict) and "insets" in v else (0.0, 0.0, 0.0, 0.0)


class Painter:
    def __init__(self, cr, styles, screen):
        self.cr, self.styles, self.screen = cr, styles, screen
        self.images, self.warnings = {}, []

    def style(self, path):
        return Style(self.styles.get(path))

    def draw(self, e, row_index):
        s = self.style(e["path"])
        x, y, w, h = e["frame"]
        f = (x, y, w, h)
        role = e["role"]
        if role == "window":
            return
        if role == "navigationBar":
            if not self.image(s.image("background-image"), f):
                self.fill(f, s.color("bar-tint-color") or WHITE)
            self.text(e.get("title", ""), f, s.color("title-color") or BLACK, s, 17, True, "center")
        elif role == "barButtonItem":
            self.text(e.get("title", ""), f, s.color("title-color") or s.color("tint-color") or BLACK, s, None,
                      False, "center")
        elif role == "segmentedControl":
            self.segmented_control(f, s)
        elif role == "progressView":
            radius = s.length("corner-radius")
            self.fill(f, s.color("track-tint-color") or GRAY, radius)
            self.fill((x, y, rounded(w * self.screen["progress"]), h), s.color("progress-tint-color") or BLACK, radius)
        elif role == "slider":
            self.slider(f, s)
        elif role == "toggleSwitch":
            self.toggle_switch(f, s, e["on"])
        elif role == "activityIndicator":
            self.activity_indicator(f, s)
        elif role == "tableView":
            self.fill(f, s.color("background-color") or WHITE)
        elif role == "tableRow":
            self.table_row(e, s, row_index)
        elif role == "button":
            self.button(e, s)
        elif role == "overlay":
            self.fill(f, with_alpha(s.color("background-color") or BLACK, self.clamped_alpha(s)))
        elif role == "tabBar":
            self.tab_bar(f, s)

    # Elements

    def segmented_control(self, f, s):
        radius = s.length("corner-radius")
        self.fill(f, s.color("background-color") or WHITE, radius)
        segments = self.screen["segments"]
        width = f[2] / len(segments)
        frames = [(f[0] + k * width, f[1], width, f[3]) for k in range(len(segments))]
        tint = s.color("tint-color") or BLACK
        self.fill(inset(frames[0], 2), s.color("selected-segment-tint-color") or WHITE, max(radius - 2, 0))
        for k, segment in enumerate(frames):
            self.text(segments[k], segment, tint if k == 0 else (s.color("text-color") or BLACK), s, 13, k == 0,
                      "center")
        self.stroke(inset(f, 0.5), tint, 1, radius)

    def slider(self, f, s):
        x, y, w, h = f
        ty = rounded(y + h / 2 - 2)
        split = rounded(x + w * self.screen["slider-value"])
        self.fill((split, ty, x + w - split, 4), s.color("maximum-track-tint-color") or GRAY, 2)
        self.fill((x, ty, split - x, 4), s.color("minimum-track-tint-color") or BLACK, 2)
        d = min(h, 28)
        self.circle((split, y + h / 2), d / 2, s.color("thumb-tint-color") or WHITE, with_alpha(BLACK, 0.15))

    def toggle_switch(self, f, s, on):
        def body():
            r = f[3] / 2
            if on:
                self.fill(f, s.color("on-tint-color") or BLACK, r)
            else:
                self.stroke(inset(f, 1), s.color("tint-color") or GRAY, 2, r - 1)
            self.circle((f[0] + f[2] - r if on else f[0] + r, f[1] + r), r - 2, s.color("thumb-tint-color") or WHITE,
                        with_alpha(BLACK, 0.15))
        self.group(self.clamped_alpha(s), body)

    def activity_indicator(self, f, s):
        cr = self.cr
        color = s.color("color") or GRAY
        large = s.text("indicator-style") == "large"
        outer = (1.0 if large else 0.7) * min(f[2], f[3]) / 2
        cx, cy = f[0] + f[2] / 2, f[1] + f[3] / 2
        spokes = 12
        cr.save()
        cr.set_line_cap(cairo.LINE_CAP_ROUND)
        cr.set_line_width(3 if large else 2.5)
        for k in range(spokes):
            angle = k * 2 * math.pi / spokes - math.pi / 2
            self.set(with_alpha(color, 1 - k / spokes * 0.85))
            cr.move_to(cx + math.cos(angle) * outer * 0.5, cy + math.sin(angle) * outer * 0.5)
            cr.line_to(cx + math.cos(angle) * outer, cy + math.sin(angle) * outer)
            cr.stroke()
        cr.restore()

    def table_row(self, e, s, index):
        table = self.style("Window/TableView")
        h = max(table.length("row-height", 44), 1)
        tx, ty, tw, th = self.screen["table-frame"]
        frames = []
        for k in range(len(self.screen["rows"])):
            y = ty + k * h
            if y + h > ty + th + 0.5:
                break
            frames.append((tx, y, tw, h))
        if index >= len(frames):
            return
        x, y, w, h = frames[index]
        background = s.color("background-color")
        if background:
            self.fill((x, y, w, h), background)
        self.text(e.get("title", ""), (x + 16, y, w - 32, h), s.color("text-color") or BLACK, s, None, False, "left")
        top, right, bottom, left = table.insets("separator-insets")
        separator = table.color("separator-color")
        if separator:
            self.fill((x + left, y + h - 1, max(w - left - right, 0), 1), separator)

    def button(self, e, s):
        f = tuple(e["frame"])
        radius = s.length("corner-radius")
        path = s.image("background-image")
        loaded = self.load(path) if path else None

        def body():
            cr = self.cr
            cr.save()
            self.rounded_rectangle(f, radius)
            cr.clip()
            if loaded:
                self.paint_image(loaded, f)
            else:
                background = s.color("background-color")
                if background:
                    self.fill(f, background)
            cr.restore()
            self.text(e.get("title", ""), f, s.color("title-color") or BLACK, s, None, False, "center")
        self.group(self.clamped_alpha(s), body)

    def tab_bar(self, f, s):
        if not self.image(s.image("background-image"), f):
            self.fill(f, s.color("bar-tint-color") or WHITE)
        selected = s.color("tint-color") or BLACK
        unselected = s.color("unselected-item-tint-color") or GRAY
        tabs = self.screen["tabs"]
        width = f[2] / len(tabs)
        for k, title in enumerate(tabs):
            tx = f[0] + k * width
            color = selected if k == 0 else unselected
            self.fill((rounded(tx + width / 2 - 12), f[1] + 6, 24, 24), color, 6)
            self.text(title, (tx, f[1] + 32, width, 18), color, s, 10, k == 0, "center")

    # Images

    def image(self, path, f):
        loaded = self.load(path) if path else None
        if not loaded:
            return False
        self.paint_image(loaded, f)
        return True

    def load(self, path):
        if path in self.images:
            return self.images[path]
        loaded = None
        try:
            loaded = cairo.ImageSurface.create_from_png(path)
        except Exception as e:  # not a PNG, or unreadable
            self.warnings.append("%s: warning: %s; drawn without it" % (path, e))
        self.images[path] = loaded
        return loaded

    def paint_image(self, surface, f):
        cr = self.cr
        w, h = surface.get_width(), surface.get_height()
        if w <= 0 or h <= 0:
            return
        cr.save()
        cr.rectangle(*f)
        cr.clip()
        cr.translate(f[0], f[1])
        cr.scale(f[2] / w, f[3] / h)
        cr.set_source_surface(surface, 0, 0)
        cr.get_source().set_extend(cairo.EXTEND_PAD)
        cr.paint()
        cr.restore()

    # Primitives

    def set(self, c):
        self.cr.set_source_rgba(*c)

    def clamped_alpha(self, s):
        return min(max(s.length("alpha", 1), 0), 1)

    def group(self, alpha, body):
        if alpha >= 1:
            return body()
        self.cr.push_group()
        body()
        self.cr.pop_group_to_source()
        self.cr.paint_with_alpha(alpha)

    def rounded_rectangle(self, f, radius):
        x, y, w, h = f
        r = min(max(radius, 0), min(w, h) / 2)
        cr = self.cr
        if not r > 0:
            cr.rectangle(x, y, w, h)
            return
        cr.new_sub_path()
        cr.arc(x + w - r, y + r, r, -math.pi / 2, 0)
        cr.arc(x + w - r, y + h - r, r, 0, math.pi / 2)
        cr.arc(x + r, y + h - r, r, math.pi / 2, math.pi)
        cr.arc(x + r, y + r, r, math.pi, 3 * math.pi / 2)
        cr.close_path()

    def fill(self, f, color, radius=0):
        self.rounded_rectangle(f, radius)
        self.set(color)
        self.cr.fill()

    def stroke(self, f, color, width, radius):
        self.rounded_rectangle(f, radius)
        self.set(color)
        self.cr.set_line_width(width)
        self.cr.stroke()

    def circle(self, center, radius, fill, outline):
        cr = self.cr
        cr.new_sub_path()
        cr.arc(center[0], center[1], radius, 0, 2 * math.pi)
        self.set(fill)
        cr.fill_preserve()
        self.set(outline)
        cr.set_line_width(0.5)
        cr.stroke()

    def text(self, s, f, color, style, size, bold, align):
        if not s:
            return
        cr = self.cr
        window = self.style("Window")
        family = first(style.text("font-family"), window.text("font-family"), "sans-serif")
        weight = first(style.text("font-weight"), window.text("font-weight"), "regular")
        heavy = bold or weight in ("semibold", "bold", "heavy", "black")
        points = size if size is not None else min(max(style.length("font-size", window.length("font-size", 15)), 1),
                                                   200)
        cr.save()
        cr.rectangle(*f)
        cr.clip()
        cr.select_font_face(family, cairo.FONT_SLANT_NORMAL,
                            cairo.FONT_WEIGHT_BOLD if heavy else cairo.FONT_WEIGHT_NORMAL)
        cr.set_font_size(points)
        extents = cr.text_extents(s)
        ascent, descent = cr.font_extents()[:2]
        x = f[0] + (f[2] - extents.x_advance) / 2 if align == "center" else f[0]
        y = f[1] + (f[3] + ascent - descent) / 2
        cr.move_to(x, y)
        self.set(color)
        cr.show_text(s)
        cr.restore()


def inset(f, d):
    return (f[0] + d, f[1] + d, max(f[2] - 2 * d, 0), max(f[3] - 2 * d, 0))


def draw(theme, screen, size):
    """One theme's picture, as Preview.draw makes it."""
    width, height = size
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, width, height)
    cr = cairo.Context(surface)
    styles = theme["styles"]
    painter = Painter(cr, styles, screen)
    painter.fill((0, 0, width, height), Style(styles.get("Window")).color("background-color") or WHITE)
    cw, ch = screen["canvas"]["width"], screen["canvas"]["height"]
    scale = min(width / cw, height / ch)
    cr.translate(rounded((width - cw * scale) / 2), rounded((height - ch * scale) / 2))
    cr.scale(scale, scale)
    rows = 0
    for e in screen["elements"]:
        painter.draw(e, rows if e["role"] == "tableRow" else 0)
        if e["role"] == "tableRow":
            rows += 1
    return surface, painter.warnings


def natural_key(name):
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|\D+", name)]


def swatches(palette):
    slots = ["base0%X" % k for k in range(16)]
    names = slots if all(s in palette for s in slots) else sorted(palette, key=natural_key)[:16]
    return [(n, palette[n]) for n in names]


DUMP, OUT, SIZE = None, None, (360, 640)


def work(k):
    theme = DUMP["themes"][k]
    if "error" in theme:
        return k, None, [], theme["error"]
    surface, warnings = draw(theme, DUMP["screen"], SIZE)
    path = os.path.join(OUT, theme["id"] + ".png")
    temporary = os.path.join(OUT, ".%s.png.%d.tmp" % (theme["id"], os.getpid()))
    surface.write_to_png(temporary)
    os.rename(temporary, path)
    return k, theme["id"] + ".png", warnings, None


def escape(s):
    """Livery's escapeHTML: & < > " ' as &amp; &lt; &gt; &quot; &#39;."""
    return (s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
            .replace("'", "&#39;"))


def first(*values):
    """Swift's `a ?? b ?? c`: the first that is not None."""
    return next((v for v in values if v is not None), None)


def page(entries, size):
    e = escape
    out = ["""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Livery themes</title>
<style>
body { font-family: sans-serif; margin: 16px; background: #ffffff; color: #202020; }
main { display: flex; flex-wrap: wrap; gap: 16px; }
figure { margin: 0; width: %(w)dpx; }
figure img { display: block; width: %(w)dpx; height: %(h)dpx; }
figcaption { font-size: 13px; margin-top: 4px; }
figcaption .meta { color: #606060; }
.swatches { display: flex; margin-top: 4px; }
.swatches span { flex: 1; height: 14px; }
.error { width: %(w)dpx; height: %(h)dpx; color: #a00000; font-size: 12px;
  overflow: hidden; white-space: pre-wrap; border: 1px dashed #a00000; }
</style>
</head>
<body>
<h1>Livery themes</h1>
<main>
""" % {"w": size[0], "h": size[1]}]
    for theme, picture, error in entries:
        out.append('<figure id="%s">\n' % e(theme["id"]))
        name = theme.get("name") or theme["id"]
        if picture:
            out.append('<img src="%s" alt="%s preview" width="%d" height="%d">\n'
                       % (e(picture), e(theme.get("name", "")), size[0], size[1]))
        else:
            out.append('<div class="error">%s</div>\n' % e(error or ""))
        out.append('<figcaption><b>%s</b> <span class="meta">%s · %s · %s</span>\n'
                   % (e(name), e(theme["id"]), e(theme.get("variant", "")), e(theme.get("format", ""))))
        sw = swatches(theme.get("palette", {})) if picture or "palette" in theme else []
        if sw:
            out.append('<div class="swatches">' + "".join(
                '<span title="%s %s" style="background:%s"></span>' % (e(n), h, h) for n, h in sw) + "</div>\n")
        out.append("</figcaption>\n</figure>\n")
    out.append("</main>\n</body>\n</html>\n")
    return "".join(out)


def main():
    global DUMP, OUT, SIZE
    args = sys.argv[1:]
    jobs = os.cpu_count() or 1
    if "--size" in args:
        i = args.index("--size")
        SIZE = tuple(int(v) for v in args[i + 1].lower().split("x"))
        del args[i:i + 2]
    if "--jobs" in args:
        i = args.index("--jobs")
        jobs = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    with open(args[0]) as f:
        DUMP = json.load(f)
    OUT = args[1]
    os.makedirs(OUT, exist_ok=True)
    count = len(DUMP["themes"])
    results = [None] * count
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for k, picture, warnings, error in pool.imap_unordered(work, range(count)):
                results[k] = (picture, warnings, error)
    else:
        for k in range(count):
            _, picture, warnings, error = work(k)
            results[k] = (picture, warnings, error)
    entries = []
    for theme, (picture, warnings, error) in zip(DUMP["themes"], results):
        for w in warnings:
            print(w, file=sys.stderr)
        if error:
            print(error, file=sys.stderr)
        entries.append((theme, picture, error))
    index = os.path.join(OUT, "index.html")
    temporary = os.path.join(OUT, ".index.html.%d.tmp" % os.getpid())
    with open(temporary, "w") as f:
        f.write(page(entries, SIZE))
    os.rename(temporary, index)
    drawn = sum(1 for _, p, _ in entries if p)
    print("%s: %d of %d themes drawn" % (index, drawn, count))
    sys.exit(0 if drawn == count else 1)


if __name__ == "__main__":
    main()
