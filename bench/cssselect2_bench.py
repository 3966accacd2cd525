#!/usr/bin/env python3
"""The cssselect2 + tinycss2 side of `make bench`.

Given the same sheet as Livery (written as CSS over element names, see bench/README.md for the
encoding) and the same trees (as XML, one tree per line), does what a style engine does for each
element: matches every rule with cssselect2's Matcher, orders the matches by (specificity, source
order), takes each property's winning declaration, and computes every property's value (the
winner's, else the parent's for an inherited property, else the initial value). Prints one JSON
object with the timings; with --winners, also writes the winning rule of every property of every
node (one line per node, in document order, `property=rule-index` pairs sorted by property name),
which livery-bench compares with Livery's own.

Usage: cssselect2_bench.py --sheet S.css --trees T.xml --schema schema.json --runs N
           [--winners OUT] [--max-nodes N]
"""

import argparse
import json
import statistics
import sys
import time
import xml.etree.ElementTree as ET

import cssselect2
import tinycss2


def load_sheet(path):
    """Parses the sheet: returns the matcher and the number of rules. Payload of each selector:
    (rule index, [(property index, value text)])."""
    text = open(path, encoding="utf-8").read()
    rules = tinycss2.parse_stylesheet(text, skip_comments=True, skip_whitespace=True)
    return rules


def build_matcher(rules, prop_index):
    matcher = cssselect2.Matcher()
    count = 0
    for index, rule in enumerate(rules):
        if rule.type != "qualified-rule":
            raise SystemExit(f"unexpected {rule.type} in the sheet")
        selectors = cssselect2.compile_selector_list(rule.prelude)
        decls = []
        for d in tinycss2.parse_blocks_contents(rule.content, skip_comments=True, skip_whitespace=True):
            if d.type != "declaration":
                raise SystemExit(f"rule {index}: unexpected {d.type}")
            decls.append((prop_index[d.lower_name], tinycss2.serialize(d.value).strip()))
        for selector in selectors:
            matcher.add_selector(selector, (index, decls))
        count += 1
    return matcher, count


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sheet", required=True)
    ap.add_argument("--trees", required=True)
    ap.add_argument("--schema", required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--winners")
    args = ap.parse_args()

    schema = json.load(open(args.schema, encoding="utf-8"))
    names = sorted(schema["properties"])
    prop_index = {n: i for i, n in enumerate(names)}
    inherits = [schema["properties"][n]["inherits"] for n in names]
    initial = [str(schema["properties"][n]["initial"]) for n in names]
    not_inherited = [i for i, f in enumerate(inherits) if not f]

    t0 = time.perf_counter()
    rules = load_sheet(args.sheet)
    t1 = time.perf_counter()
    matcher, rule_count = build_matcher(rules, prop_index)
    t2 = time.perf_counter()

    # XML parsing is outside the timed part; the cssselect2 wrappers are made inside it (they
    # cache per element what they compute, so a run on old wrappers would not start cold).
    roots = [ET.fromstring(line) for line in open(args.trees, encoding="utf-8") if line.strip()]
    node_count = sum(1 for r in roots for _ in r.iter())

    match = matcher.match

    def run(record):
        out = [] if record else None

        def walk(element, parent_values):
            values = list(parent_values)
            for i in not_inherited:
                values[i] = initial[i]
            winners = {} if record else None
            for _specificity, _order, _pseudo, (index, decls) in match(element):
                for p, v in decls:
                    values[p] = v
                    if record:
                        winners[p] = index
            if record:
                out.append(" ".join(f"{names[p]}={w}" for p, w in sorted(winners.items(), key=lambda x: names[x[0]])))
            for child in element.iter_children():
                walk(child, values)

        start = time.perf_counter()
        for root in roots:
            walk(cssselect2.ElementWrapper.from_xml_root(root), initial)
        return time.perf_counter() - start, out

    times = []
    for _ in range(args.runs):
        seconds, _ = run(False)
        times.append(seconds)
    if args.winners:
        _, lines = run(True)
        with open(args.winners, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")

    json.dump(
        {
            "engine": "cssselect2 %s + tinycss2 %s (Python %s)"
            % (cssselect2.VERSION if hasattr(cssselect2, "VERSION") else "?", tinycss2.__version__,
               sys.version.split()[0]),
            "rules": rule_count,
            "nodes": node_count,
            "parse_seconds": t1 - t0,
            "compile_seconds": t2 - t1,
            "run_seconds": times,
            "best_nodes_per_second": node_count / min(times) if times else None,
            "median_nodes_per_second": node_count / statistics.median(times) if times else None,
        },
        sys.stdout,
    )
    print()


if __name__ == "__main__":
    main()
