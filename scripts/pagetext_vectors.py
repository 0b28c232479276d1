#!/usr/bin/env python3
"""Independent oracle for scoring/pagetext (SPEC G): generates a corpus of
plain-text page pairs and scores them with Python alone — the `regex`
module's \\X for grapheme clusters and its Unicode word boundaries
(?w)\\b for UAX #29 words, a full dynamic programme for the distances
and its trace back for the edit scripts — and writes the vectors that
scoring/pagetext's TestVectors checks the Go code against.

    python3 scripts/pagetext_vectors.py > scoring/pagetext/testdata/vectors.json

The corpus has combining marks, ligatures, MUFI private-use letters, emoji
sequences (ZWJ, flags, skin tones), right-to-left (Hebrew, Arabic with
marks) and CJK text, CRLF and CR line ends, and empty pages. It avoids
characters whose properties changed after Unicode 14 (Python's
unicodedata), so every implementation agrees on them.
"""
import json
import random
import sys
import unicodedata

import regex

LIGATURES = [
    ("\ueba6", "ſſ"), ("\ueba7", "ſſi"), ("\uf502", "ch"), ("\ueec4", "ck"),
    ("\uf4f9", "ll"), ("\ueba2", "ſi"), ("\ueada", "ſt"), ("ﬁ", "fi"),
    ("ﬀ", "ff"), ("ﬂ", "fl"), ("ﬃ", "ffi"), ("\ueec5", "ct"), ("\ueedc", "tz"),
    ("\uf532", "as"), ("\uf533", "is"), ("\uf534", "us"), ("\uf535", "Qu"),
    ("ĳ", "ij"), ("\ue8bf", "q&"), ("\ueba5", "ſp"), ("ﬆ", "st"),
]
EQUIVALENCES = [
    ("\ue72b", "ü"), ("\ue42c", "ä"), ("==", "–"), ("—", "–"), ("\ue644", "ö"),
    ("’", "'"), ("⸗", "-"), ("a\u0364", "ä"), ("o\u0364", "ö"), ("u\u0364", "ü"),
    ("\uf50e", "q\u0301"),
]


def normalize_sbb(s):
    s = unicodedata.normalize("NFC", s)
    for a, b in LIGATURES:
        s = s.replace(a, b)
    for a, b in EQUIVALENCES:
        s = s.replace(a, b)
    return s


def plain_text(raw):
    """dinglehopper's plain_text over a UTF-8 string (BOM dropped)."""
    if raw.startswith("\ufeff"):
        raw = raw[1:]
    if raw == "":
        return ""
    lines = regex.split(r"\r\n|\r|\n", raw)
    if lines[-1] == "":  # readlines() gives no empty last line
        lines.pop()
    return "\n".join(normalize_sbb(l.strip()) for l in lines)


def clusters(s):
    return regex.findall(r"\X", s)


UNWANTED = ("M", "P", "Z", "S")


def unwanted(c):
    cat = unicodedata.category(c)
    return cat[0] in UNWANTED or cat in ("Cc", "Cf")


def words(s):
    # The Private Use Area breaks as letters: split a copy where each
    # such character is a letter, cut the original at the same places.
    scan = "".join("\u1e01" if 0xE000 <= ord(c) <= 0xF8FF else c for c in s)
    out, pos = [], 0
    for seg in regex.split(r"(?V1w)\b", scan):
        w = s[pos:pos + len(seg)]
        pos += len(seg)
        if w and not all(unwanted(c) for c in w):
            out.append(w)
    return out


def align(a, b):
    n, m = len(a), len(b)
    D = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        for j in range(m + 1):
            if i == 0:
                D[i][j] = j
            elif j == 0:
                D[i][j] = i
            else:
                D[i][j] = min(D[i - 1][j - 1] + (a[i - 1] != b[j - 1]),
                              D[i - 1][j] + 1, D[i][j - 1] + 1)
    ops = []
    i, j = n, m
    while i > 0 or j > 0:
        if i > 0 and j > 0 and a[i - 1] == b[j - 1] and D[i - 1][j - 1] == D[i][j]:
            ops.append("="); i -= 1; j -= 1
        elif i > 0 and j > 0 and D[i - 1][j - 1] + 1 == D[i][j]:
            ops.append("S"); i -= 1; j -= 1
        elif i > 0 and D[i - 1][j] + 1 == D[i][j]:
            ops.append("D"); i -= 1
        else:
            ops.append("I"); j -= 1
    return D[n][m], "".join(reversed(ops))


def rate(edits, n):
    if n > 0:
        return edits / n
    return 0.0 if edits == 0 else None


def score(gt_raw, ocr_raw):
    gt, ocr = plain_text(gt_raw), plain_text(ocr_raw)
    gc, oc = clusters(gt), clusters(ocr)
    gw, ow = words(gt), words(ocr)
    ce, cops = align(gc, oc)
    we, wops = align(gw, ow)
    bag = {}
    for w in gw:
        bag[w] = bag.get(w, 0) + 1
    matched = 0
    for w in ow:
        if bag.get(w, 0) > 0:
            bag[w] -= 1
            matched += 1
    p = matched / len(ow) if ow else 0.0
    r = matched / len(gw) if gw else 0.0
    f = 2 * p * r / (p + r) if p + r > 0 else 0.0
    return {
        "gt": gt_raw, "ocr": ocr_raw, "gt_text": gt, "ocr_text": ocr,
        "gt_chars": len(gc), "ocr_chars": len(oc), "char_edits": ce,
        "gt_words": len(gw), "ocr_words": len(ow), "word_edits": we,
        "cer": rate(ce, len(gc)), "wer": rate(we, len(gw)),
        "bow_matched": matched, "bow_precision": p, "bow_recall": r, "bow_f1": f,
        "char_ops": cops, "word_ops": wops, "words": gw,
    }


PIECES = [
    "Lorem", "ipsum", "dolor", "ſprochene", "Amtmännin", "deſſelben", "vergaß",
    "e\u0301te\u0301", "Schlym\u0303", "Schly\u00f1", "q\u0301", "a\u0364de", "o\u0364de",
    "ﬁel", "Auﬀ", "\uf502en", "\ueba6e", "\ue72bber", "\ue42cpfel", "\ue8bf",
    "👩\u200d👩\u200d👧", "🇩🇪", "👍🏽", "❤\ufe0f", "שָׁלוֹם", "עברית", "العَرَبِيَّة", "سلام",
    "日本語", "中文字", "ひらがな", "カタカナ", "한국어", "3,14", "1.000", "—", "’s", "==",
    "ver⸗", "„braune“", "[x]", "(a)", "?", "!", ",", ".", "Ωμέγα", "Кириллица",
    "x\u0308\u0301", "\u1100\u1161\u11a8",
]
NOISE = ["e", "c", "rn", "m", "ſ", "f", "1", "l", "é", ".", " ", "\u0301", "ﬁ",
         "日", "ש", "👍", "\ue72b", "", "a\u0364"]


def make_text(rng, nwords):
    lines, line = [], []
    for _ in range(nwords):
        line.append(rng.choice(PIECES))
        if rng.random() < 0.15:
            lines.append(" ".join(line))
            line = []
    lines.append(" ".join(line))
    ends = rng.choice(["\n", "\n", "\r\n", "\r"])
    text = ends.join(("  " if rng.random() < 0.2 else "") + l for l in lines)
    if rng.random() < 0.5:
        text += ends
    return text


def corrupt(rng, text, edits):
    cs = regex.findall(r"\X", text)
    for _ in range(edits):
        p = rng.randrange(len(cs) + 1)
        k = rng.randrange(3)
        if k == 0:
            cs.insert(p, rng.choice(NOISE))
        elif p < len(cs):
            if k == 1:
                del cs[p]
            else:
                cs[p] = rng.choice(NOISE)
    return "".join(cs)


def main():
    rng = random.Random(20261207)
    pairs = [("", ""), ("", "Lorem ipsum"), ("Lorem ipsum", ""), ("\ufeff", ""),
             ("   \n\t\n", ""), ("...", "!!!"), ("\ufeffLorem\r\nipsum\r\n", "Lorem\nipsvm")]
    for _ in range(150):
        gt = make_text(rng, rng.randrange(0, 40))
        ocr = corrupt(rng, gt, rng.randrange(0, 12)) if rng.random() < 0.9 else make_text(rng, rng.randrange(0, 20))
        pairs.append((gt, ocr))
    vectors = [score(g, o) for g, o in pairs]
    json.dump({"generator": "scripts/pagetext_vectors.py", "python": sys.version.split()[0],
               "regex": regex.__version__, "unicodedata": unicodedata.unidata_version,
               "pages": vectors}, sys.stdout, ensure_ascii=True, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
