#!/usr/bin/env python3
"""Writes casefold_python.txt: every code point that Python's str.casefold()
(full case folding, Unicode CaseFolding.txt status C and F, an
implementation independent of golang.org/x/text) changes, one a line:
the code point and its fold's code points in hex, and a header line with
Python's Unicode version. TestFoldAgreesWithPython reads it.

    python3 gen_vectors.py > casefold_python.txt
"""
import sys
import unicodedata

print("# unicode", unicodedata.unidata_version)
for cp in range(0x110000):
    if 0xD800 <= cp <= 0xDFFF:
        continue
    s = chr(cp)
    f = s.casefold()
    if f != s:
        print("%04X\t%s" % (cp, " ".join("%04X" % ord(c) for c in f)))
