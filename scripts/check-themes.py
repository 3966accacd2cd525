#!/usr/bin/env python3
"""Sanity checks for the data in themes/, with no Swift build needed.

- themes/schema.json: value types, keyword lists, initial values written in the
  sheet language, supertypes exist, no cycles, every listed property exists, no
  property listed twice along a supertype chain, parts name existing types.
- every bundle themes/<id>/theme.css: a coarse parse of the sheet language
  (DESIGN section 2): @theme keys, @define-color, rules, @app blocks; selector
  types and states exist in the schema, properties exist, values have the
  property's type, palette references resolve along the inherits chain (the
  child's definition wins), colour expressions evaluate, url() images are
  regular files inside the bundle and are PNG/JPEG/SVG/WebP by content.
- every themes/*.yaml base16 scheme: system, name, author, variant, and
  palette base00..base0F as six hex digits.

This is not the real parser (that is LiveryCore); it catches slips in the data.
Usage: scripts/check-themes.py [THEMES_DIR] [--palette ID]  (exit 1 on errors)
"""
import colorsys
import json
import os
import re
import sys

VALUE_TYPES = {"color", "image", "length", "number", "duration", "keyword", "string", "size", "insets"}
NUM = r"-?(?:\d+\.?\d*|\.\d+)"
NAMED = {  # a few CSS named colours; the real parser knows all of them
    "transparent": (0, 0, 0, 0), "black": (0, 0, 0, 1), "white": (1, 1, 1, 1),
    "red": (1, 0, 0, 1), "green": (0, 128 / 255, 0, 1), "blue": (0, 0, 1, 1),
}
errors = []


def err(where, msg):
    errors.append(f"{where}: error: {msg}")


# ---------------------------------------------------------------- values

def split_args(s):
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return out


def channel(tok, scale):
    if tok.endswith("%"):
        return float(tok[:-1]) / 100
    return float(tok) / scale


def shade(c, f):
    h, l, s = colorsys.rgb_to_hls(*c[:3])
    l, s = min(1, max(0, l * f)), min(1, max(0, s * f))
    return colorsys.hls_to_rgb(h, l, s) + (c[3],)


def eval_color(expr, palette, stack=()):
    """Evaluate a colour expression to (r, g, b, a) floats; raises ValueError."""
    e = expr.strip()
    if e.startswith("@"):
        name = e[1:]
        if name not in palette:
            raise ValueError(f"unknown palette colour '@{name}'")
        if name in stack:
            raise ValueError(f"palette cycle through '@{name}'")
        return eval_color(palette[name], palette, stack + (name,))
    m = re.fullmatch(r"#([0-9a-fA-F]+)", e)
    if m:
        h = m.group(1)
        if len(h) in (3, 4):
            h = "".join(ch * 2 for ch in h)
        if len(h) == 6:
            h += "ff"
        if len(h) != 8:
            raise ValueError(f"bad hex colour '{e}'")
        return tuple(int(h[i:i + 2], 16) / 255 for i in range(0, 8, 2))
    if e.lower() in NAMED:
        return NAMED[e.lower()]
    m = re.fullmatch(r"([a-z]+)\((.*)\)", e, re.S)
    if not m:
        raise ValueError(f"not a colour: '{e}'")
    fn, body = m.group(1), m.group(2)
    if fn in ("rgb", "rgba", "hsl", "hsla"):
        body = body.replace("/", " / ")
        parts = body.replace(",", " ").split()
        alpha = 1.0
        if "/" in parts:
            i = parts.index("/")
            alpha = channel(parts[i + 1], 1)
            parts = parts[:i]
        elif len(parts) == 4:
            alpha = channel(parts[3], 1)
            parts = parts[:3]
        if len(parts) != 3:
            raise ValueError(f"'{fn}()' needs three channels: '{e}'")
        if fn.startswith("rgb"):
            return tuple(channel(p, 255) for p in parts) + (alpha,)
        h = float(parts[0].rstrip("deg")) / 360
        s, l = channel(parts[1], 100), channel(parts[2], 100)
        return colorsys.hls_to_rgb(h % 1, l, s) + (alpha,)
    args = split_args(body)
    if fn == "alpha" and len(args) == 2:
        c = eval_color(args[0], palette, stack)
        return c[:3] + (c[3] * float(args[1]),)
    if fn == "mix" and len(args) == 3:
        a, b, f = eval_color(args[0], palette, stack), eval_color(args[1], palette, stack), float(args[2])
        return tuple(a[i] + (b[i] - a[i]) * f for i in range(4))
    if fn == "shade" and len(args) == 2:
        return shade(eval_color(args[0], palette, stack), float(args[1]))
    if fn == "lighter" and len(args) == 1:
        return shade(eval_color(args[0], palette, stack), 1.3)
    if fn == "darker" and len(args) == 1:
        return shade(eval_color(args[0], palette, stack), 0.7)
    raise ValueError(f"unknown colour function or wrong arguments: '{e}'")


def hex8(c):
    return "#" + "".join("%02x" % max(0, min(255, round(v * 255))) for v in c)


def image_kind(data):
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if b"<svg" in data[:1024]:
        return "svg"
    return None


def check_value(where, prop, spec, value, palette, bundle_dir):
    t = spec["type"]
    v = value.strip()
    try:
        if t == "color":
            eval_color(v, palette)
        elif t == "image":
            if v == "none":
                return
            m = re.fullmatch(r'url\(\s*"([^"]*)"\s*\)', v)
            if not m:
                raise ValueError(f"expected none or url(\"...\"), got '{v}'")
            if bundle_dir is None:
                return  # initial values have no bundle
            rel = m.group(1)
            root = os.path.realpath(bundle_dir)
            path = os.path.realpath(os.path.join(bundle_dir, rel))
            if os.path.isabs(rel) or not path.startswith(root + os.sep):
                raise ValueError(f"image '{rel}' leaves the bundle")
            if not os.path.isfile(path):
                raise ValueError(f"image '{rel}' is not a regular file in the bundle")
            with open(path, "rb") as f:
                if image_kind(f.read(1024)) is None:
                    raise ValueError(f"image '{rel}' is not PNG, JPEG, SVG or WebP")
        elif t == "length":
            if not re.fullmatch(NUM + r"(px)?", v):
                raise ValueError(f"expected a length, got '{v}'")
        elif t == "number":
            if not re.fullmatch(NUM, v):
                raise ValueError(f"expected a number, got '{v}'")
        elif t == "duration":
            if not re.fullmatch(NUM + r"(s|ms)", v):
                raise ValueError(f"expected a duration with s or ms, got '{v}'")
        elif t == "keyword":
            if v not in spec["keywords"]:
                raise ValueError(f"'{v}' is not one of {', '.join(spec['keywords'])}")
        elif t == "string":
            if not re.fullmatch(r'"[^"\\]*(\\.[^"\\]*)*"', v):
                raise ValueError(f"expected a quoted string, got '{v}'")
        elif t == "size":
            if not re.fullmatch(NUM + r"(px)?\s+" + NUM + r"(px)?", v):
                raise ValueError(f"expected two numbers, got '{v}'")
        elif t == "insets":
            if not re.fullmatch(r"\s*".join([NUM + r"(px)?"] * 4), v):
                raise ValueError(f"expected four numbers (top right bottom left), got '{v}'")
    except ValueError as e:
        err(where, f"{prop}: {e}")


# ---------------------------------------------------------------- schema

def check_schema(path):
    with open(path) as f:
        schema = json.load(f)
    props, types = schema["properties"], schema["types"]
    if schema.get("version") != 1:
        err(path, "version must be 1")
    if schema.get("states") != ["normal", "highlighted", "selected", "disabled", "focused"]:
        err(path, "unexpected states list")
    for name, p in props.items():
        w = f"{path}: property '{name}'"
        if not re.fullmatch(r"[a-z]+(-[a-z]+)*", name):
            err(w, "name is not kebab case")
        if p.get("type") not in VALUE_TYPES:
            err(w, f"unknown value type {p.get('type')!r}")
            continue
        if (p["type"] == "keyword") != ("keywords" in p):
            err(w, "a keyword property, and only one, has a keywords list")
        if not isinstance(p.get("inherits"), bool):
            err(w, "inherits must be true or false")
        if not isinstance(p.get("initial"), str):
            err(w, "initial must be a string")
            continue
        if not p.get("description"):
            err(w, "no description")
        check_value(w, "initial", p, p["initial"], {}, None)
    for name, t in types.items():
        w = f"{path}: type '{name}'"
        if not t.get("description"):
            err(w, "no description")
        if "super" in t and t["super"] not in types:
            err(w, f"unknown super '{t['super']}'")
        for part, ptype in t.get("parts", {}).items():
            if ptype not in types:
                err(w, f"part '{part}' has unknown type '{ptype}'")
        for p in t.get("properties", []):
            if p not in props:
                err(w, f"unknown property '{p}'")
        # walk up: cycles and duplicates along the chain
        seen, chain, cur = set(), [], name
        while cur is not None and cur in types:
            if cur in chain:
                err(w, "supertype cycle: " + " -> ".join(chain + [cur]))
                break
            chain.append(cur)
            for p in types[cur].get("properties", []):
                if p in seen:
                    err(w, f"property '{p}' listed again by supertype '{cur}'")
                seen.add(p)
            cur = types[cur].get("super")
    for required in ("tint-color", "text-color"):
        if not props.get(required, {}).get("inherits"):
            err(path, f"'{required}' must inherit")
    return schema


# ---------------------------------------------------------------- sheets

class Sheet:
    def __init__(self, path):
        self.path = path
        with open(path) as f:
            self.src = f.read()
        self.meta, self.palette, self.rules = {}, {}, []  # rules: (line, selectors, decls)

    def loc(self, offset):
        return f"{self.path}:{self.src.count(chr(10), 0, offset) + 1}"


def strip_comments(src):
    # keep offsets: replace comment text by spaces (newlines kept)
    return re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), src, flags=re.S)


def parse_decls(sheet, body, base):
    decls = []
    pos = 0
    for m in re.finditer(r"([^;]*);", body):
        text = m.group(1)
        if not text.strip():
            continue
        if ":" not in text:
            err(sheet.loc(base + m.start()), f"expected 'property: value', got '{text.strip()}'")
            continue
        k, v = text.split(":", 1)
        decls.append((base + m.start() + len(text) - len(text.lstrip()), k.strip(), v.strip()))
        pos = m.end()
    if body[pos:].strip():
        err(sheet.loc(base + pos), f"declaration without ';': '{body[pos:].strip()}'")
    return decls


def parse_block_list(sheet, src, start, end, allow_at=True):
    """Parse rules and at-rules in src[start:end]."""
    i = start
    while i < end:
        while i < end and src[i].isspace():
            i += 1
        if i >= end:
            break
        if src.startswith("@define-color", i):
            j = src.index(";", i)
            m = re.fullmatch(r"@define-color\s+([A-Za-z_][\w-]*)\s+(.+)", src[i:j].strip(), re.S)
            if not m:
                err(sheet.loc(i), "malformed @define-color")
            elif m.group(1) in sheet.palette:
                err(sheet.loc(i), f"@{m.group(1)} defined twice in one sheet")
            else:
                sheet.palette[m.group(1)] = (m.group(2).strip(), sheet.loc(i))
            i = j + 1
        elif src.startswith("@import", i):
            j = src.index(";", i)
            err(sheet.loc(i), "@import not checked by this script")
            i = j + 1
        elif src.startswith("@theme", i) or src.startswith("@app", i) or src.startswith("@component", i):
            ob = src.index("{", i)
            depth, j = 0, ob
            while True:
                if src[j] == "{":
                    depth += 1
                elif src[j] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            head = src[i:ob].strip()
            if head == "@theme":
                for off, k, v in parse_decls(sheet, src[ob + 1:j], ob + 1):
                    sheet.meta[k] = (v, sheet.loc(off))
            elif head.startswith("@app"):
                if not re.fullmatch(r'@app\s+"[^"]+"', head):
                    err(sheet.loc(i), "malformed @app")
                parse_block_list(sheet, src, ob + 1, j, allow_at=False)
            else:
                err(sheet.loc(i), "@component not checked by this script")
            i = j + 1
        elif src[i] == "@":
            err(sheet.loc(i), "unknown at-rule")
            i = src.find(";", i) + 1 or end
        else:
            ob = src.index("{", i)
            cb = src.index("}", ob)
            sheet.rules.append((i, src[i:ob].strip(), parse_decls(sheet, src[ob + 1:cb], ob + 1)))
            i = cb + 1


COMPOUND = re.compile(r"(\*|[A-Z][A-Za-z0-9]*)((?:#[\w-]+|\.[\w-]+|:[\w-]+)*)")


def check_selector(sheet, off, sel, schema):
    for s in sel.split(","):
        toks = s.replace(">", " > ").split()
        if not toks or toks[0] == ">" or toks[-1] == ">":
            err(sheet.loc(off), f"bad selector '{s.strip()}'")
            continue
        for t in toks:
            if t == ">":
                continue
            m = COMPOUND.fullmatch(t)
            if not m:
                err(sheet.loc(off), f"bad compound selector '{t}'")
                continue
            if m.group(1) != "*" and m.group(1) not in schema["types"]:
                err(sheet.loc(off), f"unknown type '{m.group(1)}'")
            for st in re.findall(r":([\w-]+)", m.group(2)):
                if st not in schema["states"]:
                    err(sheet.loc(off), f"unknown state ':{st}'")


def load_chain(themes, tid, cache, depth=0):
    if tid in cache:
        return cache[tid]
    path = os.path.join(themes, tid, "theme.css")
    if depth > 16 or not os.path.isfile(path):
        err(path, f"theme '{tid}' not found or inherits too deep")
        return []
    sheet = Sheet(path)
    parse_block_list(sheet, strip_comments(sheet.src), 0, len(sheet.src))
    parent = sheet.meta.get("inherits")
    chain = []
    if parent:
        chain = load_chain(themes, parent[0].strip('"'), cache, depth + 1)
    cache[tid] = chain + [sheet]
    return cache[tid]


def check_theme(themes, tid, schema, cache):
    chain = load_chain(themes, tid, cache)
    if not chain:
        return {}
    sheet = chain[-1]
    palette = {}
    for s in chain:  # parent first, child wins
        palette.update({k: v for k, (v, _) in s.palette.items()})
    for name, (value, where) in sheet.palette.items():
        try:
            eval_color(value, palette, (name,))
        except ValueError as e:
            err(where, f"@define-color {name}: {e}")
    for k, (v, where) in sheet.meta.items():
        if k in ("name", "description"):
            if not re.fullmatch(r'"[^"]*"', v):
                err(where, f"{k} must be a quoted string")
        elif k == "variant":
            if v not in ("light", "dark"):
                err(where, "variant must be light or dark")
        elif k == "inherits":
            pass
        elif k == "accent-color":
            try:
                eval_color(v, palette)
            except ValueError as e:
                err(where, f"accent-color: {e}")
        else:
            err(where, f"unknown @theme key '{k}'")
    for key in ("name", "variant"):
        if key not in sheet.meta:
            err(sheet.path, f"@theme has no {key}")
    bundle = os.path.dirname(sheet.path)
    for off, sel, decls in sheet.rules:
        check_selector(sheet, off, sel, schema)
        for doff, prop, value in decls:
            spec = schema["properties"].get(prop)
            if spec is None:
                err(sheet.loc(doff), f"unknown property '{prop}'")
                continue
            check_value(sheet.loc(doff), prop, spec, value, palette, bundle)
    return palette


def check_scheme(path):
    with open(path) as f:
        text = f.read()
    for key in ("system", "name", "author", "variant"):
        if not re.search(rf'^{key}: "[^"]+"$', text, re.M):
            err(path, f"missing or unquoted '{key}'")
    for i in range(16):
        slot = "base0%X" % i
        if not re.search(rf'^  {slot}: "[0-9a-f]{{6}}"$', text, re.M):
            err(path, f"palette slot {slot} missing or not six lower-case hex digits")


def main():
    args = sys.argv[1:]
    show = None
    if "--palette" in args:
        i = args.index("--palette")
        show = args[i + 1]
        del args[i:i + 2]
    here = os.path.dirname(os.path.abspath(__file__))
    themes = os.path.normpath(args[0] if args else os.path.join(here, "..", "themes"))
    schema = check_schema(os.path.join(themes, "schema.json"))
    cache, checked = {}, []
    for entry in sorted(os.listdir(themes)):
        full = os.path.join(themes, entry)
        if os.path.isfile(os.path.join(full, "theme.css")):
            palette = check_theme(themes, entry, schema, cache)
            checked.append(entry)
            if entry == show:
                for k in sorted(palette):
                    try:
                        print(f"  @{k} = {hex8(eval_color(palette[k], palette, (k,)))}")
                    except ValueError as e:
                        print(f"  @{k} = ? ({e})")
        elif entry.endswith((".yaml", ".yml")):
            check_scheme(full)
            checked.append(entry)
    for e in errors:
        print(e, file=sys.stderr)
    print(f"checked schema.json and {len(checked)} themes: {len(errors)} error(s)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
