#!/usr/bin/env python3
"""Generate CPython difflib test vectors for scoring/text (ratio_test.go).

Regenerate from the repository root with:

    python3 scripts/gen_ratio_vectors.py

It uses the standard library only, no network, and a fixed seed, so the same
Python minor version writes the same file. Output:
scoring/text/testdata/ratio_vectors.jsonl, one JSON object per line:

    {"a": GT name, "b": model reading, "ratio": ..., "quick_ratio": ...,
     "real_quick_ratio": ..., "matching": M, "kind": "..."}

with ratio and friends taken from difflib.SequenceMatcher(None, a, b) (the
default autojunk=True) and M the sum of the sizes of get_matching_blocks().
Floats are written by json, which uses float.__repr__, so they round-trip
exactly. "kind" names the generator that made the vector (for messages).

The script also prints how many vectors have len(b) >= 200 and how many of
those would get a different ratio with autojunk=False, i.e. vectors where the
popular-element heuristic actually changes the result.
"""

import difflib
import json
import os
import random
import sys
import unicodedata

SEED = 20240611
OUT = os.path.join("scoring", "text", "testdata", "ratio_vectors.jsonl")

FIRST = [
    "Leon", "Iacob", "Iacobo", "Moise", "Mosè", "Salamon", "Abram", "Isach",
    "Isacco", "Samuel", "David", "Lazaro", "Anselmo", "Mandolin", "Zacaria",
    "Gabriel", "Benetto", "Iseppo", "Giuseppe", "Francesco", "Niccolò",
    "Zuanne", "Zorzi", "Domenego", "Bortolo", "Piero", "Marco", "Antonio",
    "Alvise", "Girolamo", "Lunardo", "Vettor", "Sebastian", "Orsola",
    "Caterina", "Marietta", "Stella", "Ricca", "Diamante", "Perla", "Bona",
    "Graziosa", "Simcha", "Mordechai", "Menachem", "Chaim", "Hans", "Jörg",
    "Ulrich", "Wolfgang", "Konrad", "Günther", "Jürgen", "Götz", "Matthäus",
    "Heinrich", "Kunigunde", "Margarethe", "Elisabeth", "Friedrich",
]
SURNAME = [
    "Tedesco", "Todesco", "Kiningsech", "Königsech", "Lelingen", "Luzzatto",
    "Levi", "Levi Mortera", "Morpurgo", "Grassin", "Calimani", "Sullam",
    "Cohen", "Coen", "Ascarelli", "del Banco", "dal Medigo", "Romanin",
    "Contarini", "Mocenigo", "Grimani", "Brandolin", "Dolfin", "Foscarini",
    "Zen", "Querini", "Barbarigo", "da Ponte", "Nani", "Tiepolo", "Sanudo",
    "Müller", "Schröder", "Weißkopf", "Straßburger", "Kürschner", "Fugger",
    "Welser", "Österreicher", "von Görz", "Hirsch", "Oppenheim", "Wertheimer",
    "Spira", "Norsa", "Finzi", "Sacerdoti", "Ottolenghi", "Padoa", "Vivante",
]
TITLE = [
    "ser", "messer", "don", "rabbi", "rabi", "sior", "siora", "dona",
    "mistro", "maestro", "dottor", "nobil homo", "N.H.", "Herr", "Frau",
    "magnifico", "reverendo", "pre", "fra",
]
QUONDAM = ["qm", "q.", "quondam", "qd.", "fu", "del fu", "di", "de", "q.m", "qm.", "figlio di", "f."]
PLACE = [
    "da Verona", "da Padova", "de Ferrara", "da Mantoa", "da Praga",
    "da Augusta", "de Alemagna", "da Vienna", "da Trento", "da Corfù",
    "del Ghetto Novo", "de Salonicchi", "da Costantinopoli",
]
# OCR confusions: (right, misread) pairs, applied in both directions.
CONFUSE = [
    ("rn", "m"), ("m", "rn"), ("l", "1"), ("l", "I"), ("I", "l"), ("i", "l"),
    ("e", "c"), ("c", "e"), ("u", "n"), ("n", "u"), ("o", "0"), ("O", "0"),
    ("a", "o"), ("h", "b"), ("f", "s"), ("s", "f"), ("ſ", "s"), ("ß", "B"),
    ("ß", "ss"), ("ü", "u"), ("ö", "o"), ("ä", "a"), ("ò", "o"), ("è", "e"),
    ("cl", "d"), ("d", "cl"), ("vv", "w"), ("w", "vv"), ("ri", "n"), ("t", "f"),
    ("ch", "ck"), ("z", "x"), ("y", "v"), ("q", "g"), ("g", "q"), ("in", "m"),
]
COMBINING = ["\u0300", "\u0301", "\u0302", "\u0303", "\u0308", "\u0327", "\u030c", "\u0323"]
LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
ACCENTED = "àáâãäåèéêëìíîïòóôõöùúûüçñßÀÈÉÌÒÙÄÖÜ"
WIDE = (
    "αβγδεζηθικλμνξοπρστυφχψω"
    "абвгдежзийклмнопрстуфхцчшщ"
    "אבגדהוזחטיכלמנסעפצקרשת"
    "漢字仮名東京大阪日本語中文"
    "\U0001F600\U0001F41F\U0001D11E\U00010348"
)


def gt_name(rng):
    parts = []
    if rng.random() < 0.25:
        parts.append(rng.choice(TITLE))
    parts.append(rng.choice(FIRST))
    if rng.random() < 0.55:
        parts.append(rng.choice(QUONDAM))
        parts.append(rng.choice(FIRST))
    if rng.random() < 0.85:
        parts.append(rng.choice(SURNAME))
    if rng.random() < 0.2:
        parts.append(rng.choice(PLACE))
    name = " ".join(parts)
    if rng.random() < 0.15:  # a GT "?" for a character the verifier could not read
        name = unread(rng, name, rng.randint(1, 3))
    return name


def unread(rng, s, n):
    chars = list(s)
    for _ in range(n):
        if chars:
            chars[rng.randrange(len(chars))] = "?"
    return "".join(chars)


def misread(rng, s, edits):
    """Apply `edits` OCR-style edits to s."""
    for _ in range(edits):
        if not s:
            s = rng.choice(LETTERS)
            continue
        op = rng.random()
        i = rng.randrange(len(s))
        if op < 0.30:  # confusion
            right, wrong = rng.choice(CONFUSE)
            at = s.find(right)
            if at >= 0:
                s = s[:at] + wrong + s[at + len(right):]
            else:
                s = s[:i] + rng.choice(LETTERS) + s[i + 1:]
        elif op < 0.42:  # deletion
            s = s[:i] + s[i + 1:]
        elif op < 0.52:  # insertion
            s = s[:i] + rng.choice(LETTERS + " .,'") + s[i:]
        elif op < 0.62:  # transposition
            if i + 1 < len(s):
                s = s[:i] + s[i + 1] + s[i] + s[i + 2:]
        elif op < 0.70:  # doubled letter
            s = s[:i] + s[i] + s[i:]
        elif op < 0.78:  # case
            s = s[:i] + s[i].swapcase() + s[i + 1:]
        elif op < 0.84:  # a hedging "?"
            s = s[:i] + "?" + s[i + 1:]
        elif op < 0.90:  # accent dropped or decomposed
            form = rng.choice(["NFD", "NFC", "strip"])
            if form == "strip":
                s = "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c))
            else:
                s = unicodedata.normalize(form, s)
        elif op < 0.95:  # quondam / title variants
            for q in QUONDAM:
                if " " + q + " " in s:
                    s = s.replace(" " + q + " ", " " + rng.choice(QUONDAM) + " ", 1)
                    break
            else:
                s = rng.choice(TITLE) + " " + s
        else:  # word dropped or swapped
            words = s.split(" ")
            if len(words) > 1:
                if rng.random() < 0.5:
                    del words[rng.randrange(len(words))]
                else:
                    k = rng.randrange(len(words) - 1)
                    words[k], words[k + 1] = words[k + 1], words[k]
            s = " ".join(words)
    return s


def rand_str(rng, alphabet, lo, hi):
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(lo, hi)))


def with_combining(rng, s, p):
    out = []
    for c in s:
        out.append(c)
        if c.isalpha() and rng.random() < p:
            out.append(rng.choice(COMBINING))
    return "".join(out)


def name_list(rng, min_len):
    """Several names joined like a table row or a register line."""
    s = gt_name(rng)
    while len(s) < min_len:
        s += rng.choice([", ", "; ", " e ", " / ", " "]) + gt_name(rng)
    return s


def long_pairs(rng):
    """Pairs with len >= 200 on at least one side, where autojunk can act."""
    out = []
    for _ in range(150):  # a long register line against its misreading
        a = name_list(rng, rng.randint(200, 420))
        out.append(("long_names", a, misread(rng, a, rng.randint(1, 40))))
    for _ in range(120):  # small alphabets: many popular elements
        alpha = rng.choice(["ab", "abc", "abcd", "ab ", "aeiou", "01", "xyz?"])
        a = rand_str(rng, alpha, 150, 400)
        b = rand_str(rng, alpha, 200, 400) if rng.random() < 0.5 else misread(rng, a, 20) + rand_str(rng, alpha, 50, 120)
        out.append(("long_small_alpha", a, b))
    for _ in range(80):  # long b, short a (a GT name against a whole page)
        b = name_list(rng, rng.randint(200, 500))
        a = gt_name(rng) if rng.random() < 0.7 else rand_str(rng, "ae ion", 1, 30)
        out.append(("short_a_long_b", a, b))
    for _ in range(80):  # long a, short b (autojunk does not act: it looks at b)
        a = name_list(rng, rng.randint(200, 500))
        b = gt_name(rng)
        out.append(("long_a_short_b", a, b))
    for _ in range(60):  # lengths right at the threshold 200
        n = rng.choice([198, 199, 200, 201, 202, 299, 300, 301])
        alpha = rng.choice(["abcdefgh", "ab", LETTERS[:10] + " "])
        b = rand_str(rng, alpha, n, n)
        a = misread(rng, b, rng.randint(0, 15))
        out.append(("threshold", a, b))
    for _ in range(60):  # long, larger alphabets with a few frequent letters
        alpha = "e" * 10 + " " * 8 + "aion" * 3 + LETTERS + ACCENTED
        a = rand_str(rng, alpha, 200, 350)
        b = misread(rng, a, rng.randint(5, 60))
        out.append(("long_mixed", a, b))
    for _ in range(40):  # a popular letter that bridges two good blocks
        core = rand_str(rng, LETTERS, 5, 12)
        filler = "x" * rng.randint(3, 8)
        unit = core + filler + core[::-1]
        b = unit * max(rng.randint(8, 20), 220 // len(unit) + 1)
        a = core + filler + core[::-1] + rand_str(rng, "xy", 0, 10) + core
        if rng.random() < 0.5:
            a, b = b[: rng.randint(200, len(b))], b
        out.append(("popular_bridge", a, b))
    for _ in range(30):  # long identical and nearly identical
        a = name_list(rng, rng.randint(200, 300))
        b = a if rng.random() < 0.5 else a[:-1]
        out.append(("long_identical", a, b))
    return out


def medium_pairs(rng):
    """Pairs with 64 < len(b) < 200: longer than one machine word, too
    short for autojunk (docscore's Go code takes a separate path there)."""
    out = []
    for _ in range(100):  # two or three names on a line against a misreading
        a = name_list(rng, rng.randint(65, 190))[:199]
        b = misread(rng, a, rng.randint(0, 25))[:199]
        if len(b) <= 64:
            b = b + " " + gt_name(rng) * 3
            b = b[:199]
        out.append(("medium_names", a, b))
    for _ in range(80):  # small alphabets
        alpha = rng.choice(["ab", "abc", "a b", "abcdefgh"])
        b = rand_str(rng, alpha, 65, 199)
        a = misread(rng, b, rng.randint(0, 30)) if rng.random() < 0.6 else rand_str(rng, alpha, 0, 120)
        out.append(("medium_small_alpha", a, b))
    for _ in range(40):  # a short GT name against a medium line
        out.append(("medium_short_a", gt_name(rng), name_list(rng, rng.randint(65, 180))[:199]))
    return out


def short_pairs(rng):
    out = []
    names = [gt_name(rng) for _ in range(800)]
    for gt in names:  # GT name against 2–3 model readings
        for _ in range(rng.randint(2, 3)):
            out.append(("name_misread", gt, misread(rng, gt, rng.choice([0, 1, 1, 2, 2, 3, 4, 6, 9]))))
    for _ in range(1000):  # unrelated names, as in an all-pairs score matrix
        out.append(("name_other", rng.choice(names), rng.choice(names)))
    for _ in range(300):  # the same name read as its NFD/NFC form, or with marks
        gt = rng.choice(names)
        b = unicodedata.normalize(rng.choice(["NFD", "NFC"]), misread(rng, gt, rng.randint(0, 2)))
        if rng.random() < 0.4:
            b = with_combining(rng, b, 0.2)
        out.append(("name_unicode", gt, b))
    for _ in range(300):  # GT with "?" against readings
        gt = unread(rng, rng.choice(names), rng.randint(1, 5))
        out.append(("name_question", gt, misread(rng, gt.replace("?", rng.choice(LETTERS)), rng.randint(0, 3))))
    for _ in range(500):  # random short strings, small alphabets (many ties)
        alpha = rng.choice(["ab", "abc", "aab", "ab?", "a b", "abcd", "01"])
        out.append(("small_alpha", rand_str(rng, alpha, 0, 30), rand_str(rng, alpha, 0, 30)))
    for _ in range(300):  # random strings, large alphabets
        alpha = LETTERS + ACCENTED + WIDE + "?., '"
        a = rand_str(rng, alpha, 0, 60)
        b = misread(rng, a, rng.randint(0, 8)) if rng.random() < 0.6 else rand_str(rng, alpha, 0, 60)
        out.append(("large_alpha", a, b))
    for _ in range(150):  # combining marks on random text
        a = with_combining(rng, rand_str(rng, LETTERS[:8] + " ", 1, 30), 0.3)
        b = with_combining(rng, misread(rng, a, rng.randint(0, 4)), 0.1)
        out.append(("combining", a, b))
    fixed = [
        ("", ""), ("", "a"), ("a", ""), ("a", "a"), ("a", "b"), ("?", "?"),
        ("?", "a"), ("a", "?"), ("??", "?"), ("abcd", "bcde"), (" abcd", "abcd abcd"),
        ("abxcd", "abcd"), ("Leon qm Iacob Tedesco", "Leon qm Iacob Tedesco"),
        ("Leon qm Iacob Tedesco", "Leon q. Iacob Todesco"),
        ("Francesco Kin?gsech", "Francesco Kiningsech"),
        ("Niccolò ?lelingen", "Nicolo Lelingen"),
        ("Niccolò", "Niccolo\u0300"), ("Mosè", "Mose\u0300"), ("ß", "ss"),
        ("private Thread", "private volatile Thread"), ("qabxcd", "abycdf"),
        ("\U0001F600a", "a\U0001F600"), ("aaaa", "aa"), ("aa", "aaaa"),
    ]
    for a, b in fixed:
        out.append(("fixed", a, b))
        if a != b:
            out.append(("fixed", b, a))
    return out


def vector(kind, a, b):
    sm = difflib.SequenceMatcher(None, a, b)
    return {
        "a": a,
        "b": b,
        "ratio": sm.ratio(),
        "quick_ratio": sm.quick_ratio(),
        "real_quick_ratio": sm.real_quick_ratio(),
        "matching": sum(m.size for m in sm.get_matching_blocks()),
        "kind": kind,
    }


def main():
    rng = random.Random(SEED)
    pairs = short_pairs(rng) + long_pairs(rng) + medium_pairs(rng)
    long_b = changed = medium_b = 0
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        for kind, a, b in pairs:
            v = vector(kind, a, b)
            if 64 < len(b) < 200:
                medium_b += 1
            if len(b) >= 200:
                long_b += 1
                if difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() != v["ratio"]:
                    changed += 1
            f.write(json.dumps(v, ensure_ascii=False) + "\n")
    size = os.path.getsize(OUT)
    print(f"{OUT}: {len(pairs)} vectors, {size} bytes (Python {sys.version.split()[0]})")
    print(f"64 < len(b) < 200: {medium_b} vectors")
    print(f"len(b) >= 200: {long_b} vectors; autojunk changes the ratio in {changed}")


if __name__ == "__main__":
    main()
