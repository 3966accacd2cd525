#!/usr/bin/env python3
"""Writes the mustache fuzz target's seeds into DIR: every test of the Mustache specification
suite (Tests/Fixtures/mustache-spec) as template, data (JSON) and up to three partials
(renamed a, b, c), split at 0x00 bytes, and the tinted fixture repositories' templates.
Run from the repository root: python3 Fuzz/mustache_seeds.py DIR"""
import glob, json, os, re, sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
n = 0
for path in sorted(glob.glob("Tests/Fixtures/mustache-spec/*.json")):
    for test in json.load(open(path))["tests"]:
        template = test["template"]
        partials = list(test.get("partials", {}).items())[:3]
        for new, (old, _) in zip("abc", partials):
            template = re.sub(r"([>< ])%s([ }]|$)" % re.escape(old), r"\g<1>%s\g<2>" % new, template)
        parts = [template, json.dumps(test["data"])] + [text for _, text in partials]
        open(os.path.join(out, "spec-%03d" % n), "wb").write("\0".join(parts).encode())
        n += 1
for path in sorted(glob.glob("Tests/Fixtures/tinted/*/templates/*.mustache")):
    data = {"scheme-name": "Fuzz", "scheme-slug": "fuzz", "base00-hex": "000000"}
    text = open(path).read() + "\0" + json.dumps(data)
    open(os.path.join(out, "tinted-%03d" % n), "wb").write(text.encode())
    n += 1
