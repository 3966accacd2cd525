#!/usr/bin/python3
"""The baseline of `livery build`: the same work with Debian's python3-pystache and python3-yaml
(libyaml's C loader). Reads every scheme under SCHEMES (once), computes the tinted-theming
builder variables (specification 0.11, as tinted-builder-rust makes them), renders each entry of
each REPO/templates/config.yaml for the schemes of its systems, writes the files under OUT (one
repository) or OUT/NAME (several, NAME the repository directory's name), as `livery build` does.

    /usr/bin/python3 bench/tinted/pystache_build.py REPO... SCHEMES OUT
"""
import html, os, sys, unicodedata

import pystache
import yaml

*repos, schemes_dir, out = sys.argv[1:]
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SPELLED = {"æ": "ae", "ø": "o", "œ": "oe", "ł": "l", "đ": "d", "ß": "ss", "þ": "th", "ħ": "h"}


def slugify(name):
    slug = ""
    for ch in name.lower():
        if ch in SPELLED:
            slug += SPELLED[ch]
            continue
        for c in unicodedata.normalize("NFD", ch):
            if "a" <= c <= "z" or "0" <= c <= "9":
                slug += c
            elif c in " -_" and slug and not slug.endswith("-"):
                slug += "-"
    return slug.rstrip("-")


def variables(s):
    system = s.get("system", "base16")
    slug = slugify(s.get("slug") or s["name"])
    variant = s.get("variant", "dark")
    v = {
        "scheme-name": s["name"], "scheme-author": s.get("author", ""),
        "scheme-description": s.get("description", ""), "scheme-slug": slug,
        "scheme-slug-underscored": slug.replace("-", "_"), "scheme-system": system,
        "scheme-variant": variant, "scheme-is-%s-variant" % variant: "true",
    }
    for slot, value in s["palette"].items():
        h = value.lstrip("#").lower()
        if len(h) == 3:
            h = "".join(c * 2 for c in h)
        r, g, b = h[0:2], h[2:4], h[4:6]
        v[slot + "-hex"] = r + g + b
        v[slot + "-hex-bgr"] = b + g + r
        for ch, x in zip("rgb", (r, g, b)):
            n = int(x, 16)
            v["%s-hex-%s" % (slot, ch)] = x
            v["%s-rgb-%s" % (slot, ch)] = str(n)
            v["%s-rgb16-%s" % (slot, ch)] = str(n * 257)
            v["%s-dec-%s" % (slot, ch)] = "%.8f" % (n / 255)
    return system, slug, v


schemes = []
for root, _, files in os.walk(schemes_dir):
    for f in sorted(files):
        if f.endswith((".yaml", ".yml")) and not f.startswith("."):
            with open(os.path.join(root, f), encoding="utf-8") as fh:
                schemes.append(variables(yaml.load(fh, Loader=Loader)))

# The escaping tinted-builder-rust's engine does: html.escape but `'` as &#39;.
renderer = pystache.Renderer(escape=lambda s: html.escape(s).replace("&#x27;", "&#39;"),
                             missing_tags="ignore")


def build(repo, out):
    config = yaml.load(open(os.path.join(repo, "templates", "config.yaml")), Loader=Loader)
    written = 0
    for name, entry in config.items():
        template = pystache.parse(open(os.path.join(repo, "templates", name + ".mustache"), encoding="utf-8").read())
        filename = entry.get("filename") or "%s/{{ scheme-system }}-{{ scheme-slug }}%s" % (
            entry["output"], entry.get("extension", ""))
        for system, slug, v in schemes:
            if system not in entry.get("supported-systems", ["base16"]):
                continue
            path = os.path.join(out, filename.replace("{{ scheme-slug }}", slug).replace("{{scheme-slug}}", slug)
                                .replace("{{ scheme-system }}", system).replace("{{scheme-system}}", system))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8", newline="") as fh:
                fh.write(renderer.render(template, v))
            written += 1
    return written


for repo in repos:
    target = out if len(repos) == 1 else os.path.join(out, os.path.basename(os.path.normpath(repo)))
    print("built %d files in %s" % (build(repo, target), target))
