#!/usr/bin/env python3
"""The Material spec-2021 dynamic scheme table from the `materialyoucolor` oracle (PyPI), a port of
Google's material-color-utilities written independently of Livery.

It prints the oracle's version, the role names in MaterialScheme.roles' order, and
for every seed, scheme variant, contrast level and light/dark one line:

    AARRGGBB VARIANT CONTRAST light|dark RRGGBB RRGGBB ...   (one colour a role, in that order)

Its output is the committed fixture MaterialSchemeOracleTests.swift compares against (running the
oracle takes about half a minute of CPU, too long for every test run). Regenerate it with the
oracle in the test virtual environment (`make deps-test` installs it there):

    .build/test-venv/bin/python scripts/material-scheme-table.py \
        > Tests/Fixtures/material/scheme-table-2021.txt
"""
from importlib.metadata import version
import sys

from materialyoucolor.dynamiccolor.material_dynamic_colors import MaterialDynamicColors
from materialyoucolor.hct import Hct
from materialyoucolor.scheme import (
    SchemeContent, SchemeExpressive, SchemeFidelity, SchemeFruitSalad, SchemeMonochrome,
    SchemeNeutral, SchemeRainbow, SchemeTonalSpot, SchemeVibrant)

# The seeds of MCU's own scheme tests, the primaries and secondaries, greys and the extremes, a
# disliked dark yellow-green, Score's fallback, and colours spread over the hue circle.
SEEDS = [
    0xFF0000FF, 0xFF6750A4, 0xFFFA2BEC, 0xFFFF0000, 0xFF00FF00, 0xFFFFFF00, 0xFF00FFFF,
    0xFFFF00FF, 0xFF000000, 0xFFFFFFFF, 0xFF808080, 0xFF6B6B00, 0xFF4285F4, 0xFFB3261E,
    0xFF386A20, 0xFFF2B8B5, 0xFF1B1B1F, 0xFFE6D3A3,
]
# A fixed linear congruential sequence adds more seeds (no randomness between runs).
state = 20260126
for _ in range(12):
    state = (state * 1103515245 + 12345) % (1 << 31)
    SEEDS.append(0xFF000000 | (state & 0xFFFFFF))

VARIANTS = [
    ("tonal-spot", SchemeTonalSpot), ("content", SchemeContent), ("fidelity", SchemeFidelity),
    ("vibrant", SchemeVibrant), ("expressive", SchemeExpressive), ("monochrome", SchemeMonochrome),
    ("neutral", SchemeNeutral), ("rainbow", SchemeRainbow), ("fruit-salad", SchemeFruitSalad),
]
CONTRASTS = [-1.0, -0.5, 0.0, 0.5, 1.0]

# snake_case names in MaterialScheme.roles' order; the oracle's attribute is the camelCase name.
ROLES = [
    "background", "on_background", "surface", "surface_dim", "surface_bright",
    "surface_container_lowest", "surface_container_low", "surface_container",
    "surface_container_high", "surface_container_highest", "on_surface", "surface_variant",
    "on_surface_variant", "inverse_surface", "inverse_on_surface", "outline", "outline_variant",
    "shadow", "scrim", "surface_tint",
    "primary", "on_primary", "primary_container", "on_primary_container", "inverse_primary",
    "primary_fixed", "primary_fixed_dim", "on_primary_fixed", "on_primary_fixed_variant",
    "secondary", "on_secondary", "secondary_container", "on_secondary_container",
    "secondary_fixed", "secondary_fixed_dim", "on_secondary_fixed", "on_secondary_fixed_variant",
    "tertiary", "on_tertiary", "tertiary_container", "on_tertiary_container",
    "tertiary_fixed", "tertiary_fixed_dim", "on_tertiary_fixed", "on_tertiary_fixed_variant",
    "error", "on_error", "error_container", "on_error_container",
]


def camel(name):
    head, *rest = name.split("_")
    return head + "".join(part.capitalize() for part in rest)


def main():
    colors = MaterialDynamicColors(spec="2021")
    roles = [(name, getattr(colors, camel(name))) for name in ROLES]
    out = sys.stdout
    out.write("# materialyoucolor %s, MaterialDynamicColors(spec=\"2021\"), spec_version=\"2021\"\n"
              % version("materialyoucolor"))
    out.write("roles %s\n" % " ".join(ROLES))
    for seed in SEEDS:
        source = Hct.from_int(seed)
        for variant, scheme_class in VARIANTS:
            for contrast in CONTRASTS:
                for dark in (False, True):
                    scheme = scheme_class(source, dark, contrast, spec_version="2021")
                    values = " ".join("%06X" % (color.get_argb(scheme) & 0xFFFFFF) for _, color in roles)
                    out.write("%08X %s %s %s %s\n" % (
                        seed, variant, contrast, "dark" if dark else "light", values))


if __name__ == "__main__":
    main()
