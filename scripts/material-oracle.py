#!/usr/bin/env python3
"""Writes Tests/Fixtures/material/oracle.json: HCT coordinates, tonal palettes, key colours and
Score rankings computed by the `materialyoucolor` package (a Python port of Google's
material-color-utilities), the oracle that Tests/LiveryCoreTests/Material/MaterialOracleTests.swift
compares Livery's port against, value for value.

    make deps-test   # installs materialyoucolor into .build/test-venv
    .build/test-venv/bin/python scripts/material-oracle.py

Inputs are drawn from a fixed seed, so the file is the same on every run. Doubles are written
as C99 hexadecimal floats (float.hex), which read back to the same bits.
"""
import json, os, random, sys

import materialyoucolor
from importlib.metadata import version
from materialyoucolor.hct import Hct
from materialyoucolor.palettes.tonal_palette import TonalPalette
from materialyoucolor.score.score import Score, ScoreOptions
from materialyoucolor.temperature.temperature_cache import TemperatureCache

OUT = os.path.join(os.path.dirname(__file__), "..", "Tests", "Fixtures", "material", "oracle.json")
TONES = [0, 4, 5, 6, 10, 12, 17, 20, 22, 24, 25, 30, 35, 40, 50, 60, 70, 80, 87, 90, 92, 94,
         95, 96, 98, 99, 100]

rng = random.Random(26)

def hx(x):
    return float(x).hex()

def hct_of(argb):
    h = Hct.from_int(argb)
    return [hx(h.hue), hx(h.chroma), hx(h.tone)]

def palette_tones(palette):
    # A yellow T99 is the average of T98 and T100; materialyoucolor rounds its halves to even
    # (Python's round), MCU up: the test checks that case from T98 and T100.
    return {str(t): palette.tone(t) for t in TONES}

seeds = [0xff000000, 0xffffffff, 0xff808080, 0xffff0000, 0xff00ff00, 0xff0000ff, 0xffffff00,
         0xff00ffff, 0xffff00ff, 0xff4285f4, 0xff6750a4, 0xffb3261e, 0xffe8def8, 0xff1b1b1f]
seeds += [0xff000000 | rng.getrandbits(24) for _ in range(286)]

seed_cases = []
for argb in seeds:
    palette = TonalPalette.from_int(argb)
    hct = Hct.from_int(argb)
    keyed = TonalPalette.from_hue_and_chroma(hct.hue, hct.chroma)
    seed_cases.append({
        "argb": argb,
        "hct": hct_of(argb),
        "tones": palette_tones(palette),
        "key_color": keyed.key_color.to_int(),
        "keyed_tones": palette_tones(keyed),
    })

solve_cases = []
for _ in range(300):
    hue = rng.uniform(-30.0, 390.0)
    chroma = rng.choice([0.0, rng.uniform(0.0, 4.0), rng.uniform(0.0, 160.0)])
    tone = rng.choice([0.0, 100.0, rng.uniform(0.0, 100.0), float(rng.randint(0, 100))])
    argb = Hct.from_hct(hue, chroma, tone).to_int()
    solve_cases.append({"hue": hx(hue), "chroma": hx(chroma), "tone": hx(tone), "argb": argb,
                        "hct": hct_of(argb)})

key_cases = []
for _ in range(100):
    hue = rng.uniform(0.0, 360.0)
    chroma = rng.choice([rng.uniform(0.0, 16.0), rng.uniform(16.0, 120.0), 200.0])
    key_cases.append({"hue": hx(hue), "chroma": hx(chroma),
                      "key_color": TonalPalette.from_hue_and_chroma(hue, chroma).key_color.to_int()})

temperature_cases = []
for argb in seeds[:120]:
    cache = TemperatureCache(Hct.from_int(argb))
    temperature_cases.append({
        "argb": argb,
        "complement": cache.complement.to_int(),
        "analogous": [h.to_int() for h in cache.analogous()],
        "analogous_3_6": [h.to_int() for h in cache.analogous(3, 6)],
        "relative": hx(cache.input_relative_temperature),
    })

score_cases = []
for i in range(200):
    count = rng.choice([1, 2, 5, 16, 64, 128])
    colors = {}
    base_hue_bits = rng.getrandbits(24)
    for _ in range(count):
        # Half the populations cluster around one colour, so that hues compete within 15°.
        if rng.random() < 0.5:
            jitter = [max(0, min(255, ((base_hue_bits >> s) & 255) + rng.randint(-40, 40)))
                      for s in (16, 8, 0)]
            argb = 0xff000000 | jitter[0] << 16 | jitter[1] << 8 | jitter[2]
        else:
            argb = 0xff000000 | rng.getrandbits(24)
        colors[argb] = colors.get(argb, 0) + rng.randint(1, 5000)
    ordered = dict(sorted(colors.items()))  # ascending ARGB: the order Livery ranks ties in
    desired = rng.choice([1, 3, 4, 4, 7])
    filter_ = rng.random() < 0.75
    fallback = rng.choice([0xff4285f4, 0xff123456])
    ranked = Score.score(ordered, ScoreOptions(desired=desired, fallback_color_argb=fallback,
                                               filter=filter_))
    score_cases.append({"population": [[a, p] for a, p in ordered.items()], "desired": desired,
                        "filter": filter_, "fallback": fallback, "ranked": ranked})

data = {"generator": "scripts/material-oracle.py", "materialyoucolor": version("materialyoucolor"),
        "seeds": seed_cases, "solve": solve_cases, "key_colors": key_cases, "temperature": temperature_cases,
        "score": score_cases}
os.makedirs(os.path.dirname(OUT), exist_ok=True)
with open(OUT, "w") as f:
    json.dump(data, f, separators=(",", ":"))
    f.write("\n")
print(f"wrote {OUT}: {len(seed_cases)} seeds, {len(solve_cases)} solves, {len(key_cases)} key colours,"
      f" {len(temperature_cases)} temperatures, {len(score_cases)} rankings (materialyoucolor {data['materialyoucolor']})")
