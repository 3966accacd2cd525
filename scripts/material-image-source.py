#!/usr/bin/env python3
"""Prints the source colour the materialyoucolor pipeline chooses for each image given, one
`#rrggbb` line per image: Pillow decodes it and resizes it to 112x112 with its bilinear
(triangle) filter, aspect not kept; the opaque pixels go to materialyoucolor's Celebi quantizer
(128 colours) and its Score. The reference that Livery's `livery generate` is compared with in
Tests/LiveryCLITests/GenerateCommandTests.swift.

    .build/test-venv/bin/python scripts/material-image-source.py IMAGE...
"""
import sys

from PIL import Image
from materialyoucolor.quantize import QuantizeCelebi
from materialyoucolor.score.score import Score

for path in sys.argv[1:]:
    image = Image.open(path).convert("RGBA").resize((112, 112), Image.Resampling.BILINEAR)
    pixels = [p for p in image.getdata() if p[3] == 255]
    quantized = QuantizeCelebi(pixels, 128)
    ranked = Score.score(quantized)
    print("#%06x" % (ranked[0] & 0xFFFFFF))
