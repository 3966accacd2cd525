#!/usr/bin/python3
"""Blink (Debian's headless Chromium) as the cascade's highest anchor, beside cssselect2 in
`make bench`. See bench/blink/README.md for the method.

Reads what livery-bench wrote for workload (a) in bench/out (a.css, a.xml, a.livery.winners) and
its timings (bench/results.json, or --livery-json), styles the same trees in Chromium over the
DevTools protocol on a pipe, cross-checks a sample of computed values against Livery's winners,
prints a summary and writes bench/out/blink.json and bench/out/blink.md (one Markdown row each).

    /usr/bin/python3 bench/blink/blink_bench.py [--out bench/out] [--rounds 5] [--per-round 3] [--warmup 1]
        [--traced 5]
        [--chromium /usr/bin/chromium] [--livery-json bench/results.json] [--sample 200]

Standard library only. Exits 1 when the cross-check finds a difference, 2 when Chromium is
missing or misbehaves.
"""
import argparse
import fcntl
import json
import os
import random
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

XHTML = "http://www.w3.org/1999/xhtml"
WRAPPER_NS = "urn:livery-bench:wrapper"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


# MARK: the DevTools protocol on a pipe (fd 3: Chromium reads, fd 4: Chromium writes)


class DevTools:
    def __init__(self, chromium, profile):
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        # Chromium's ends above 4 (so that placing them on 3 and 4 clobbers neither), close-on-exec.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_child_r, from_child_w)]
        os.close(to_child_r)
        os.close(from_child_w)
        to_child_r, from_child_w = high

        def fds():  # in the child: dup2 leaves 3 and 4 open across exec
            os.dup2(to_child_r, 3)
            os.dup2(from_child_w, 4)

        args = [chromium, "--headless", "--no-sandbox", "--remote-debugging-pipe",
                "--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check",
                "--disable-gpu", "--disable-extensions", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--mute-audio",
                "--allow-file-access-from-files", "about:blank"]
        self.proc = subprocess.Popen(args, close_fds=False, preexec_fn=fds,
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(profile, "chromium.log"), "wb"))
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._next = 0
        self.events = []
        self.session = None

    def _read_message(self, timeout):
        while b"\0" not in self._buf:
            ready, _, _ = select.select([self._from_child], [], [], timeout)
            if not ready:
                raise SystemExit(f"blink: no answer from Chromium in {timeout} s")
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                raise SystemExit("blink: Chromium closed the pipe (see its log in the profile directory)")
            self._buf += chunk
        raw, _, self._buf = self._buf.partition(b"\0")
        return json.loads(raw)

    def send(self, method, params=None, session=True, timeout=600):
        self._next += 1
        msg = {"id": self._next, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        data = json.dumps(msg).encode() + b"\0"
        while data:
            n = os.write(self._to_child, data)
            data = data[n:]
        while True:
            m = self._read_message(timeout)
            if m.get("id") == self._next:
                if "error" in m:
                    raise SystemExit(f"blink: {method}: {m['error']}")
                return m["result"]
            self.events.append(m)

    def wait_event(self, method, timeout=600):
        for i, m in enumerate(self.events):
            if m.get("method") == method:
                del self.events[i]
                return m
        while True:
            m = self._read_message(timeout)
            if m.get("method") == method:
                return m
            self.events.append(m)

    def evaluate(self, expression):
        r = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                           "awaitPromise": True})
        if "exceptionDetails" in r:
            d = r["exceptionDetails"]
            raise SystemExit("blink: page script failed: "
                             + str(d.get("exception", {}).get("description", d.get("text"))))
        return r["result"].get("value")

    def close(self):
        try:
            self.send("Browser.close", session=False, timeout=10)
        except BaseException:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# MARK: the workload as Blink sees it


def syntax_for(definition):
    """The registered syntax of a property of the schema, most specific first; the universal
    syntax when Chromium rejects the others (a keyword list naming `default`, for instance)."""
    t = definition["type"]
    if t == "color":
        return ["<color>"]
    if t in ("length", "number"):  # Livery's lengths are unitless pixels: "57"
        return ["<number>"]
    if t == "duration":
        return ["<time>"]
    if t in ("size", "insets"):
        return ["<number>+"]
    if t == "string":
        return ["<string>", "*"]
    if t == "keyword":
        return [" | ".join(definition["keywords"]), "<custom-ident>", "*"]
    return ["*"]


def parse_css_rules(path):
    """a.css, one rule a line (after the comment): [(selector, [(property, value)])]."""
    rules = []
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("/*"):
            continue
        selector, _, body = line.partition("{")
        decls = []
        for d in body.rstrip("}").split(";"):
            if d.strip():
                p, _, v = d.partition(":")
                decls.append((p.strip(), v.strip()))
        rules.append((selector.strip(), decls))
    return rules


def blink_sheet(rules):
    """The same rules, rule for rule, with XHTML as the default namespace (so that no rule matches
    the wrapper) and each property as a custom property."""
    out = [f"@namespace url({XHTML});"]
    for selector, decls in rules:
        out.append(selector + " { " + " ".join(f"--{p}: {v};" for p, v in decls) + " }")
    return "\n".join(out) + "\n"


def write_document(xml_path, doc_path):
    """The forest as one XHTML document: the trees (XHTML elements, so tag names keep their case)
    under a root in another namespace, which no rule matches, plus a probe element (a type no rule
    names) for turning expected values into Blink's computed form."""
    with open(doc_path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        out.write(f'<w:forest xmlns:w="{WRAPPER_NS}" xmlns="{XHTML}">\n')
        for line in open(xml_path, encoding="utf-8"):
            if line.strip():
                out.write(line)
        out.write("<livery-probe></livery-probe>\n</w:forest>\n")


def expected_values(xml_path, winners_path, rules, schema, properties):
    """Each node's value of each workload property from Livery's winners: the winning rule's
    declaration, else the parent's value for an inherited property, else the initial value."""
    winners = [dict(pair.split("=") for pair in line.split())
               for line in open(winners_path, encoding="utf-8").read().split("\n")[:-1]]
    decl = [dict(d) for _, d in rules]
    defs = schema["properties"]
    initial = {p: str(defs[p]["initial"]) for p in properties}
    inherits = {p: defs[p]["inherits"] for p in properties}
    values = []

    def walk(element, parent):
        w = winners[len(values)]
        mine = {}
        for p in properties:
            if p in w:
                mine[p] = decl[int(w[p])][p]
            elif inherits[p]:
                mine[p] = parent[p]
            else:
                mine[p] = initial[p]
        values.append((element.tag, mine))
        for child in element:
            walk(child, mine)

    for line in open(xml_path, encoding="utf-8"):
        if line.strip():
            walk(ET.fromstring(line), initial)
    if len(values) != len(winners):
        raise SystemExit(f"blink: {len(values)} nodes in the trees, {len(winners)} winner lines")
    return values


# MARK: the page scripts

SETUP = r"""
(() => {
  const props = %(props)s;
  const used = {};
  for (const [name, syntaxes, inherits, initial] of props) {
    let err = null;
    for (const syntax of syntaxes) {
      try {
        const d = {name: '--' + name, syntax, inherits};
        if (syntax !== '*' || initial !== null) d.initialValue = initial;
        CSS.registerProperty(d);
        used[name] = syntax;
        err = null;
        break;
      } catch (e) { err = String(e); }
    }
    if (err) throw new Error('--' + name + ': ' + err);
  }
  const control = new CSSStyleSheet();
  control.replaceSync('@namespace w url(%(wrapper)s);\n'
    + 'w|forest[flip="1"] * { --livery-recalc: 1; }\nw|forest[flip="2"] * { --livery-recalc: 2; }');
  window.__control = control;
  window.__nodes = document.getElementsByTagNameNS('%(xhtml)s', '*');
  return {used, nodes: window.__nodes.length, ua: navigator.userAgent};
})()
"""

# Makes the sheet (untimed the first time it is made: parse, adoption and the first style) or
# adopts the one made before, and forces the style.
ADOPT = r"""
(() => {
  window.__sheets = window.__sheets || {};
  let s = window.__sheets[%(label)s];
  const t0 = performance.now();
  if (!s) { s = window.__sheets[%(label)s] = new CSSStyleSheet(); s.replaceSync(%(text)s); }
  const t1 = performance.now();
  document.adoptedStyleSheets = [window.__control, s];
  const last = window.__nodes[window.__nodes.length - 2];
  getComputedStyle(last).getPropertyValue('--tint-color');
  const t2 = performance.now();
  return {rules: s.cssRules.length, parse_ms: t1 - t0, first_style_ms: t2 - t1};
})()
"""

# One repetition: set the root's `flip` attribute to the other of 1 and 2 (the control sheet's rule
# for each, `w|forest[flip="1"] *`, has a universal subject, so Blink's invalidation marks the whole
# tree for a full recalc), then force the style with getComputedStyle on the last tree node.
RECALC = r"""
(() => {
  const root = document.documentElement;
  const last = window.__nodes[window.__nodes.length - 2];
  const times = [];
  for (let i = 0; i < %(n)d; i++) {
    root.setAttribute('flip', root.getAttribute('flip') === '1' ? '2' : '1');
    const t0 = performance.now();
    getComputedStyle(last).getPropertyValue('--tint-color');
    times.push(performance.now() - t0);
  }
  return times;
})()
"""

SAMPLE = r"""
(() => {
  const sample = %(sample)s, props = %(props)s, pairs = %(pairs)s;
  const got = sample.map(i => {
    const cs = getComputedStyle(window.__nodes[i]);
    return [window.__nodes[i].localName, props.map(p => cs.getPropertyValue('--' + p).trim())];
  });
  const probe = document.getElementsByTagNameNS('%(xhtml)s', 'livery-probe')[0];
  const canon = pairs.map(([p, v]) => {
    probe.style.setProperty('--' + p, v);
    const c = getComputedStyle(probe).getPropertyValue('--' + p).trim();
    probe.style.removeProperty('--' + p);
    return c;
  });
  return {got, canon};
})()
"""

STYLE_EVENTS = ("Document::recalcStyle", "Document::RecalcStyle", "Document::updateStyle",
                "Document::UpdateStyle", "UpdateLayoutTree", "StyleEngine::RecalcStyle",
                "Document::rebuildLayoutTree", "Document::RebuildLayoutTree",
                "Document::UpdateStyleInvalidationIfNeeded", "StyleEngine::InvalidateStyle")


def traced(dt, n):
    """n repetitions under the Tracing domain: each style event's durations (ms) and the element
    counts UpdateLayoutTree reports."""
    dt.send("Tracing.start", {"transferMode": "ReportEvents", "traceConfig": {
        "includedCategories": ["devtools.timeline", "blink", "blink_style", "blink.debug"],
        "recordMode": "recordAsMuchAsPossible"}}, session=False)
    dt.evaluate(RECALC % {"n": n})
    dt.send("Tracing.end", session=False)
    events = []
    while True:
        m = dt.wait_event_any(("Tracing.dataCollected", "Tracing.tracingComplete"))
        if m["method"] == "Tracing.tracingComplete":
            break
        events += m["params"]["value"]
    if os.environ.get("BLINK_TRACE_DUMP"):
        import collections
        c = collections.Counter((e.get("cat"), e.get("name")) for e in events)
        print(c.most_common(25), file=sys.stderr)
    durations, counts, open_ = {}, [], {}
    for e in events:
        name = e.get("name")
        if name not in STYLE_EVENTS:
            continue
        key = (name, e.get("tid"))
        if e.get("ph") == "X":
            durations.setdefault(name, []).append(e.get("dur", 0) / 1e3)
        elif e.get("ph") == "B":
            open_[key] = e["ts"]
        elif e.get("ph") == "E" and key in open_:
            durations.setdefault(name, []).append((e["ts"] - open_.pop(key)) / 1e3)
        args = e.get("args", {})
        for holder in (args, args.get("beginData", {}), args.get("data", {})):
            if isinstance(holder, dict) and "elementCount" in holder:
                counts.append(holder["elementCount"])
    return durations, counts


def wait_event_any(self, methods, timeout=600):
    for i, m in enumerate(self.events):
        if m.get("method") in methods:
            del self.events[i]
            return m
    while True:
        m = self._read_message(timeout)
        if m.get("method") in methods:
            return m
        self.events.append(m)


DevTools.wait_event_any = wait_event_any


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "bench/out"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--per-round", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=1, help="untimed repetitions before each round")
    ap.add_argument("--traced", type=int, default=5, help="traced repetitions of each sheet")
    ap.add_argument("--sample", type=int, default=200)
    ap.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    ap.add_argument("--livery-json", default=os.path.join(ROOT, "bench/results.json"))
    args = ap.parse_args()
    out = args.out
    for f in ("a.css", "a.xml", "a.livery.winners"):
        if not os.path.exists(os.path.join(out, f)):
            raise SystemExit(f"blink: no {out}/{f}: run livery-bench first (make bench)")
    if not os.access(args.chromium, os.X_OK):
        print(f"blink: no Chromium at {args.chromium} (apt-get install chromium)", file=sys.stderr)
        sys.exit(2)

    schema = json.load(open(os.path.join(ROOT, "themes/schema.json"), encoding="utf-8"))
    rules = parse_css_rules(os.path.join(out, "a.css"))
    properties = sorted({p for _, d in rules for p, _ in d})
    doc = os.path.join(out, "a.blink.xhtml")
    write_document(os.path.join(out, "a.xml"), doc)
    sheet = blink_sheet(rules)
    with open(os.path.join(out, "a.blink.css"), "w", encoding="utf-8") as f:
        f.write(sheet)
    empty = f"@namespace url({XHTML});\n"
    expected = expected_values(os.path.join(out, "a.xml"), os.path.join(out, "a.livery.winners"),
                               rules, schema, properties)
    nodes = len(expected)

    version = subprocess.run([args.chromium, "--version"], capture_output=True, text=True).stdout.strip()
    profile = tempfile.mkdtemp(prefix="livery-bench-blink-")
    dt = DevTools(args.chromium, profile)
    try:
        targets = dt.send("Target.getTargets", session=False)["targetInfos"]
        page = next((t for t in targets if t["type"] == "page"), None)
        if page is None:
            page = {"targetId": dt.send("Target.createTarget", {"url": "about:blank"}, session=False)["targetId"]}
        dt.session = dt.send("Target.attachToTarget", {"targetId": page["targetId"], "flatten": True},
                             session=False)["sessionId"]
        dt.send("Page.enable")
        dt.send("Runtime.enable")
        dt.send("Page.navigate", {"url": "file://" + os.path.abspath(doc)})
        dt.wait_event("Page.loadEventFired")
        props = [[p, syntax_for(schema["properties"][p]), schema["properties"][p]["inherits"],
                  str(schema["properties"][p]["initial"])] for p in properties]
        setup = dt.evaluate(SETUP % {"props": json.dumps(props), "wrapper": WRAPPER_NS, "xhtml": XHTML})
        if setup["nodes"] != nodes + 1:  # the probe
            raise SystemExit(f"blink: the page has {setup['nodes'] - 1} tree elements, the workload {nodes}")

        result = {"engine": version, "user_agent": setup["ua"], "syntax": setup["used"], "nodes": nodes,
                  "rules": len(rules), "properties": len(properties), "rounds": args.rounds,
                  "per_round": args.per_round, "warmup": args.warmup, "traced": args.traced}
        # Rounds alternating the two sheets (the machine is shared: a slow spell then falls on
        # both), each round a warm-up repetition and then `per_round` timed ones.
        texts = {"empty": empty, "sheet": sheet}
        for label in texts:
            result[label] = {"adopt": dt.evaluate(ADOPT % {"label": json.dumps(label), "text": json.dumps(texts[label])}),
                             "recalc_ms": []}
        for _ in range(args.rounds):
            for label in texts:
                dt.evaluate(ADOPT % {"label": json.dumps(label), "text": "null"})
                dt.evaluate(RECALC % {"n": args.warmup})
                result[label]["recalc_ms"] += dt.evaluate(RECALC % {"n": args.per_round})
        for label in texts:
            dt.evaluate(ADOPT % {"label": json.dumps(label), "text": "null"})
            dt.evaluate(RECALC % {"n": args.warmup})
            durations, counts = traced(dt, args.traced)
            r = result[label]
            r["traced_ms"], r["traced_element_counts"] = durations, counts
            times = r["recalc_ms"]
            print(f"  blink {label:5}: {r['adopt']['rules']} rules; recalc {statistics.median(times):.1f} ms "
                  f"median ({min(times):.1f} best, {len(times)} runs); traced "
                  + ", ".join(f"{k} {statistics.median(v):.1f} ms ×{len(v)}" for k, v in sorted(durations.items()))
                  + (f"; elements restyled {statistics.median(counts):.0f}" if counts else ""), flush=True)

        # Cross-check, with the sheet adopted: a sample of nodes, every workload property.
        rng = random.Random(0xB11C)
        sample = sorted(rng.sample(range(nodes), min(args.sample, nodes)))
        pairs = sorted({(p, expected[i][1][p]) for i in sample for p in properties})
        checked = dt.evaluate(SAMPLE % {"sample": json.dumps(sample), "props": json.dumps(properties),
                                        "pairs": json.dumps(pairs), "xhtml": XHTML})
    finally:
        dt.close()
        if os.environ.get("BLINK_KEEP_PROFILE") is None:
            shutil.rmtree(profile, ignore_errors=True)

    canon = {pair: c for pair, c in zip(pairs, checked["canon"])}
    diffs = []
    for i, (tag, got) in zip(sample, checked["got"]):
        want_tag, want = expected[i]
        if tag != want_tag:
            diffs.append(f"node {i}: element {tag}, workload {want_tag}")
        for p, g in zip(properties, got):
            c = canon[(p, want[p])]
            if g != c:
                diffs.append(f"node {i} {want_tag} --{p}: Blink {g!r}, Livery's winner {want[p]!r} ({c!r})")
    result["crosscheck"] = {"nodes": len(sample), "properties": len(properties),
                            "values": len(sample) * len(properties), "differences": len(diffs),
                            "first": diffs[:5]}

    # Livery's figures from the same make bench run.
    livery = None
    try:
        w = next(w for w in json.load(open(args.livery_json, encoding="utf-8"))["workloads"] if w["label"] == "a")
        livery = {"indexed_seconds": statistics.median(w["indexed"]["seconds"]),
                  "floor_seconds": statistics.median(w["floor"]["seconds"]),
                  "indexed_best_seconds": min(w["indexed"]["seconds"]),
                  "floor_best_seconds": min(w["floor"]["seconds"])}
    except (OSError, StopIteration, KeyError, TypeError, ValueError):
        pass
    b_sheet = max(statistics.median(result["sheet"]["recalc_ms"]) / 1e3, 1e-9)
    b_empty = max(statistics.median(result["empty"]["recalc_ms"]) / 1e3, 1e-9)
    result["blink_nodes_per_second"] = nodes / b_sheet
    result["blink_empty_nodes_per_second"] = nodes / b_empty
    result["blink_sheet_added_ns_per_node"] = (b_sheet - b_empty) / nodes * 1e9
    def traced_s(label):
        d = result[label]["traced_ms"].get("Document::recalcStyle")
        return statistics.median(d) / 1e3 if d else None
    t_sheet, t_empty = traced_s("sheet"), traced_s("empty")
    n_times = len(result["sheet"]["recalc_ms"])
    summary = [f"Blink ({version}), workload (a): {nodes:,} nodes, {len(rules):,} rules, "
               f"{len(properties)} registered custom properties",
               f"  whole recalc (getComputedStyle, median of {n_times}), sheet: {nodes / b_sheet:,.0f} nodes/s "
               f"(best {nodes / (min(result['sheet']['recalc_ms']) / 1e3):,.0f}); empty sheet: {nodes / b_empty:,.0f} "
               f"nodes/s (best {nodes / (min(result['empty']['recalc_ms']) / 1e3):,.0f}); the sheet adds "
               f"{(b_sheet - b_empty) / nodes * 1e9:.0f} ns a node"]
    if t_sheet and t_empty:
        summary.append(f"  traced Document::recalcStyle (median of {args.traced}): sheet {t_sheet * 1e3:.0f} ms "
                       f"({nodes / t_sheet:,.0f} nodes/s), empty sheet {t_empty * 1e3:.0f} ms; the sheet adds "
                       f"{(t_sheet - t_empty) / nodes * 1e9:.0f} ns a node")
    if livery:
        li, lf = livery["indexed_seconds"], livery["floor_seconds"]
        livery["ratio_whole"] = b_sheet / li
        livery["ratio_sheet_added"] = (b_sheet - b_empty) / (li - lf)
        livery["ratio_floor_to_empty"] = b_empty / lf
        result["livery"] = livery
        summary.append(f"  Livery indexed (interned tree) {nodes / li:,.0f} nodes/s: Livery ÷ Blink "
                       f"{b_sheet / li:.1f}× whole, {(b_sheet - b_empty) / (li - lf):.1f}× on the sheet's added "
                       f"cost ({(li - lf) / nodes * 1e9:.0f} ns a node over the floor); floor ÷ empty-sheet "
                       f"recalc {b_empty / lf:.1f}×")
        bs, be = min(result["sheet"]["recalc_ms"]) / 1e3, min(result["empty"]["recalc_ms"]) / 1e3
        bi, bf = livery["indexed_best_seconds"], livery["floor_best_seconds"]
        livery["ratio_whole_best"] = bs / bi
        livery["ratio_sheet_added_best"] = (bs - be) / (bi - bf)
        summary.append(f"  from the best runs on both sides: Livery ÷ Blink {bs / bi:.1f}× whole, "
                       f"{(bs - be) / (bi - bf):.1f}× on the sheet's added cost")
        if t_sheet and t_empty:
            livery["ratio_whole_traced"] = t_sheet / li
            livery["ratio_sheet_added_traced"] = (t_sheet - t_empty) / (li - lf)
            summary.append(f"  from the traced recalc: Livery ÷ Blink {t_sheet / li:.1f}× whole, "
                           f"{(t_sheet - t_empty) / (li - lf):.1f}× on the sheet's added cost")
    summary.append(f"  cross-check: {len(sample)} nodes × {len(properties)} properties, "
                   + ("no difference" if not diffs else f"{len(diffs)} differences; first:\n    "
                      + "\n    ".join(diffs[:5])))
    print("\n".join(summary))
    with open(os.path.join(out, "blink.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1)
    with open(os.path.join(out, "blink.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(summary) + "\n")
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
