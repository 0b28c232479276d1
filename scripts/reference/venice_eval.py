#!/usr/bin/env python3
"""A reference scorer of per-record tabular extraction, as the Venice 39
data-extraction experiment's users run theirs (seed 000: evaluate.py with
rules.py reading EQUIVALENCES.md), written from that description and
SPEC.md section A, with the Python standard library only: difflib's
SequenceMatcher for the name gate, as evaluate.py uses it.

It is the "before" of `make bench-reference` (docscore must score the same
corpus at least 100x faster, whole process, one core) and an independent
check of docscore's numbers: scripts/benchreference's test runs it and
docscore on the same inputs and compares every count and score.

    python3 scripts/reference/venice_eval.py --gt DIR --runs runs.jsonl \
        [--rules EQUIVALENCES.md] [--gate 0.7] [--images]

It prints one JSON object: "cells" (one per model and phase, sorted),
each with images_ok, images_failed, matched, n_model, n_gt, precision,
recall, f1, name_cer, name_cer_edits, name_ref_chars and per-field
accuracy, scored and sum; with --images, "images" too (one per runs line
scored, in file order). Not covered: --schema tables, previews, intervals.
"""

import argparse
import csv
import difflib
import glob
import io
import json
import os
import re
import sys
import unicodedata

FIELDS = ["title", "arrival_date", "departure_date", "place_of_stay",
          "place_of_origin", "with_spouse", "with_siblings", "children_count"]
TEXT_FIELDS = ["title", "arrival_date", "departure_date", "place_of_stay", "place_of_origin"]
KIND = {"title": "text", "arrival_date": "date", "departure_date": "date",
        "place_of_stay": "place", "place_of_origin": "place",
        "with_spouse": "yesno", "with_siblings": "yesno", "children_count": "int"}
QUONDAM = {"q.m", "q.m.", "qm", "q", "q(uonda)m", "q(uondam)", "quondam"}
MAX_READINGS = 64

# Unicode White_Space.
WS = "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
WS_RE = re.compile("[" + re.escape(WS) + "]+")


def lower(s):
    """Lowercase by the simple per-code-point mapping."""
    out = []
    for c in s:
        lc = c.lower()
        out.append(lc if len(lc) == 1 else lc[0])
    return "".join(out)


def tokens(s):
    return [t for t in WS_RE.split(s) if t]


def is_punct(c):
    return unicodedata.category(c).startswith("P")


# --- names (SPEC A.2) -------------------------------------------------------

def normalize_name(s):
    s = lower(s.replace("\u2019", "'"))
    toks = []
    for t in tokens(s):
        if t in QUONDAM or t.rstrip(",.;:") in QUONDAM:
            t = "qm"
        toks.append(t)
    s = " ".join(toks)
    s = "".join(c for c in s if c == "?" or not is_punct(c))
    return tokens(s)


def readings(name, ignores):
    """Every reading of a normalized model name under the name ignore rows:
    breadth first, rules in file order, forms in listed order, occurrences
    left to right; no duplicates, no empty reading, at most 64."""
    if not name:
        return []
    out = [name]
    seen = {" ".join(name)}

    def add(r):
        if not r:
            return True
        k = " ".join(r)
        if k in seen:
            return True
        seen.add(k)
        out.append(r)
        return len(out) < MAX_READINGS

    q = 0
    while q < len(out):
        cur = out[q]
        q += 1
        for rule in ignores:
            for f in rule["forms"]:
                n = len(f)
                if rule["position"] == "leading":
                    if cur[:n] == f and not add(cur[n:]):
                        return out
                elif rule["position"] == "trailing":
                    if n <= len(cur) and cur[len(cur) - n:] == f and not add(cur[:len(cur) - n]):
                        return out
                else:
                    for i in range(len(cur) - n + 1):
                        if cur[i:i + n] == f and not add(cur[:i] + cur[i + n:]):
                            return out
    return out


def wildcard_table(gt, model):
    """The edit-distance table in which a GT '?' substitutes for any model
    character at no cost."""
    n, m = len(gt), len(model)
    d = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n + 1):
        d[i][0] = i
    for j in range(m + 1):
        d[0][j] = j
    for i in range(1, n + 1):
        g = gt[i - 1]
        row, prev = d[i], d[i - 1]
        for j in range(1, m + 1):
            cost = 0 if (g == "?" or g == model[j - 1]) else 1
            row[j] = min(prev[j - 1] + cost, prev[j] + 1, row[j - 1] + 1)
    return d


def resolve_illegible(gt, model):
    """Each GT '?' aligned (diagonal first, then deletion, then insertion,
    backtracking from the end) to a model character becomes it."""
    if "?" not in gt:
        return gt
    d = wildcard_table(gt, model)
    out = list(gt)
    i, j = len(gt), len(model)
    while i > 0 or j > 0:
        if i > 0 and j > 0:
            cost = 0 if (gt[i - 1] == "?" or gt[i - 1] == model[j - 1]) else 1
            if d[i][j] == d[i - 1][j - 1] + cost:
                if gt[i - 1] == "?":
                    out[i - 1] = model[j - 1]
                i, j = i - 1, j - 1
                continue
        if i > 0 and d[i][j] == d[i - 1][j] + 1:
            i -= 1
            continue
        j -= 1
    return "".join(out)


def ratio(a, b):
    return difflib.SequenceMatcher(None, a, b).ratio()


def overlap(a, b):
    A, B = set(a.split(" ")), set(b.split(" "))
    return len(A & B) / max(len(A), len(B))


def similarity(gt, reading):
    """max of the ratio and the token overlap, with the GT resolved and as
    written; and the resolved GT."""
    res = resolve_illegible(gt, reading)
    s = max(ratio(res, reading), overlap(res, reading))
    if res != gt:
        s = max(s, ratio(gt, reading), overlap(gt, reading))
    return s, res


def best_reading(gt, reads):
    best = None
    for r in reads:
        s, res = similarity(gt, r)
        if best is None or s > best[0]:
            best = (s, r, res)
    return best


def levenshtein(a, b):
    if a == b:  # most fields read right: no table for them
        return 0
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j - 1] + (ca != cb), prev[j] + 1, cur[j - 1] + 1))
        prev = cur
    return prev[-1]


# --- fields (SPEC A.3) ------------------------------------------------------

def base_tokens(v, gt_side):
    s = lower(v.replace("\u2019", "'"))
    out = []
    for t in tokens(s):
        t = t.rstrip(",.;:][")
        if gt_side and t.endswith("?"):
            t = t[:-1]
        if t:
            out.append(t)
    return out


def split_elisions(toks):
    out = []
    for t in toks:
        while True:
            k = next((i for i in range(1, len(t) - 1) if t[i] == "'"), -1)
            if k < 0:
                break
            out.append(t[:k + 1])
            t = t[k + 1:]
        out.append(t)
    return out


def replace_seq(toks, form, canon):
    out, i = [], 0
    while i < len(toks):
        if toks[i:i + len(form)] == form:
            out.extend(canon)
            i += len(form)
        else:
            out.append(toks[i])
            i += 1
    return out


def normalize_field(v, field, rules, gt_side):
    kind = KIND[field]
    toks = base_tokens(v, gt_side)
    if kind == "place":
        toks = split_elisions(toks)
    fr = rules.get(field)
    if fr:
        toks2 = []
        for t in toks:
            toks2.extend(fr["single"].get(t, [t]))
        toks = toks2
        for form, canon in fr["multi"]:
            toks = replace_seq(toks, form, canon)
        for ig in fr["ignores"]:
            if gt_side and ig["side"] == "model":
                continue
            if ig["position"] == "leading":
                for f in ig["forms"]:
                    if toks[:len(f)] == f:
                        toks = toks[len(f):]
                        break
            elif ig["position"] == "trailing":
                for f in ig["forms"]:
                    if len(f) <= len(toks) and toks[len(toks) - len(f):] == f:
                        toks = toks[:len(toks) - len(f)]
                        break
            else:
                for f in ig["forms"]:
                    toks = replace_seq(toks, f, [])
    if kind == "date":
        toks = [t[1] if len(t) == 2 and t[0] == "0" and t.isascii() and t.isdigit() else t for t in toks]
    return " ".join(toks)


def char_accuracy(gt, model):
    if not gt:
        return 1.0 if not model else 0.0
    return min(1.0, max(0.0, 1 - levenshtein(gt, model) / len(gt)))


INT_RE = re.compile(r"^[0-9]+$")


def as_int(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return int(v) if v.is_integer() else None
    if isinstance(v, str):
        t = v.strip(WS)
        if t[:1] in "+-":
            sign, t = t[0], t[1:]
        else:
            sign = ""
        if INT_RE.match(t):
            return int(sign + t)
    return None


def text_value(v):
    """A record value as text: booleans Y/N, null and containers blank."""
    if v is None or isinstance(v, (list, dict)):
        return ""
    if isinstance(v, bool):
        return "Y" if v else "N"
    if isinstance(v, float):
        return repr(v) if not v.is_integer() else str(int(v))
    return str(v)


def blank(v):
    return text_value(v).strip(WS) == ""


def score_field(field, gt_raw, model_val, rules):
    """A score in [0, 1], or None when unscorable."""
    kind = KIND[field]
    if blank(gt_raw):
        if field == "title":
            return 1.0 if blank(model_val) else 0.0
        return None
    if kind == "yesno":
        return 1.0 if gt_raw.strip(WS).upper() == text_value(model_val).strip(WS).upper() else 0.0
    if kind == "int":
        g = as_int(gt_raw)
        if g is None:
            return 1.0 if gt_raw.strip(WS) == text_value(model_val).strip(WS) else 0.0
        return 1.0 if as_int(model_val) == g else 0.0
    return char_accuracy(normalize_field(gt_raw, field, rules, True),
                         normalize_field(text_value(model_val), field, rules, False))


# --- the rule file (SPEC A.5) -----------------------------------------------

HEADING = re.compile(r"^(#{1,6})\s+(.*)$")


def split_row(line):
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    cells, cur, i = [], [], 0
    while i < len(line):
        if line[i] == "\\" and i + 1 < len(line) and line[i + 1] == "|":
            cur.append("|")
            i += 2
            continue
        if line[i] == "|":
            cells.append("".join(cur))
            cur = []
        else:
            cur.append(line[i])
        i += 1
    cells.append("".join(cur))
    out = []
    for c in cells:
        c = c.strip()
        if len(c) >= 2 and c.startswith("`") and c.endswith("`"):
            c = c.strip("`").strip()
        out.append(c)
    return out


def parse_rules(path):
    """The settled rows of the ignore and equivalence sections, per field:
    {field: {"single": {form: canon}, "multi": [(form, canon)],
    "ignores": [row]}} and the name ignore rows."""
    lines = open(path, encoding="utf-8-sig").read().splitlines()
    section, level, fence = None, 0, False
    tables = []  # (section, header, rows)
    header = None
    for line in lines:
        if line.lstrip().startswith("```") or line.lstrip().startswith("~~~"):
            fence = not fence
            header = None
            continue
        if fence:
            continue
        m = HEADING.match(line)
        if m:
            title = m.group(2).lower()
            lvl = len(m.group(1))
            kind = "ignore" if "ignore" in title else ("equiv" if "equivalen" in title else None)
            if kind:
                section, level = kind, lvl
            elif section and lvl <= level:
                section = None
            header = None
            continue
        if section is None or not line.strip().startswith("|"):
            header = None
            continue
        cells = split_row(line)
        if header is None:
            header = [c.lower() for c in cells]
            tables.append((section, header, []))
            continue
        if all(re.match(r"^:?-+:?$", c) for c in cells if c):
            continue
        tables[-1][2].append(cells)
    rules, name_ignores = {}, []

    def fr(f):
        return rules.setdefault(f, {"single": {}, "multi": [], "ignores": []})

    syn = {"token", "tokens", "form", "forms"}
    singles, multis = [], []
    for section, header, rows in tables:
        col = {h: i for i, h in enumerate(header)}
        fcol = next((col[h] for h in header if h in syn), None)
        need = ["field", "status"] + (["position", "side"] if section == "ignore" else ["canonical"])
        if fcol is None or any(h not in col for h in need):
            continue
        for r in rows:
            r = r + [""] * (len(header) - len(r))
            if r[col["status"]].lower() != "settled":
                continue
            fields = [f.strip() for f in r[col["field"]].split(",")]
            if fields == ["*"]:
                fields = TEXT_FIELDS
            forms = r[fcol].split(" / ")
            if section == "ignore":
                pos, side = r[col["position"]].lower(), r[col["side"]].lower()
                for f in fields:
                    if f == "name":
                        name_ignores.append({"forms": [normalize_name(x) for x in forms], "position": pos, "side": side})
                    else:
                        fr(f)["ignores"].append({"forms": [base_tokens(x, False) for x in forms], "position": pos, "side": side})
            else:
                for f in fields:
                    canon = base_tokens(r[col["canonical"]], False)
                    for x in forms:
                        t = base_tokens(x, False)
                        if len(t) == 1:
                            singles.append((f, t[0], canon))
                        elif len(t) > 1:
                            multis.append((f, t, canon))
    for f, t, canon in singles:
        fr(f)["single"].setdefault(t, canon)
    for f, t, canon in multis:
        fr(f)["multi"].append((t, canon))
    return rules, name_ignores


# --- inputs (SPEC A.1) ------------------------------------------------------

def read_gt(paths):
    pages = {}
    for p in paths:
        m = re.search(r"gt_page_([^/\\]+)\.csv$", p)
        default = m.group(1) if m else os.path.splitext(os.path.basename(p))[0]
        with open(p, encoding="utf-8-sig", newline="") as fh:
            rd = csv.reader(fh)
            header = None
            for row in rd:
                if header is None:
                    header = [h.strip().lower() for h in row]
                    continue
                if all(c.strip(WS) == "" for c in row):
                    continue
                rec = {h: (row[i] if i < len(row) else "") for i, h in enumerate(header)}
                page = rec.get("page", "").strip() or default
                pages.setdefault(page, []).append(rec)
    return pages


def find_page(pages, page):
    if page in pages:
        return pages[page]
    try:
        n = int(page)
    except (TypeError, ValueError):
        return None
    for k, v in pages.items():
        try:
            if int(k) == n:
                return v
        except ValueError:
            pass
    return None


DECODER = json.JSONDecoder()


def records_of(obj):
    """The image's records, or None for a failed run."""
    st = obj.get("status")
    if st is not None and st != "ok":
        return None
    if "records" in obj and obj["records"] is not None:
        recs = obj["records"]
        if isinstance(recs, list) and all(isinstance(r, dict) for r in recs):
            return recs
        return None
    text = obj.get("response")
    if not isinstance(text, str):
        return None
    i = text.find("[")
    while i >= 0:
        try:
            v, _ = DECODER.raw_decode(text, i)
            if isinstance(v, list) and all(isinstance(r, dict) for r in v):
                return v
        except ValueError:
            pass
        i = text.find("[", i + 1)
    return None


# --- scoring ----------------------------------------------------------------

def score_image(gt_rows, recs, rules, name_ignores, gate):
    gts = []
    for r in gt_rows:
        n = normalize_name(r.get("name", ""))
        gts.append(" ".join(n))
    models = []
    for r in recs:
        v = r.get("name")
        n = normalize_name(v) if isinstance(v, str) else []
        models.append([" ".join(x) for x in readings(n, name_ignores)])
    cands = []
    for mi, reads in enumerate(models):
        if not reads:
            continue
        for gi, g in enumerate(gts):
            if not g:
                continue
            s, r, res = best_reading(g, reads)
            if s >= gate:
                cands.append((-s, mi, gi, r, res))
    cands.sort(key=lambda c: (c[0], c[1], c[2]))
    used_m, used_g, pairs = set(), set(), []
    for c in cands:
        if c[1] in used_m or c[2] in used_g:
            continue
        used_m.add(c[1])
        used_g.add(c[2])
        pairs.append(c)
    img = {"matched": len(pairs), "n_model": len(recs), "n_gt": len(gt_rows),
           "name_cer_edits": 0, "name_ref_chars": 0, "fields": {f: {"sum": 0.0, "scored": 0} for f in FIELDS}}
    for _, mi, gi, reading, res in pairs:
        img["name_cer_edits"] += wildcard_table(res, reading)[len(res)][len(reading)]
        img["name_ref_chars"] += len(res)
        for f in FIELDS:
            s = score_field(f, gt_rows[gi].get(f, ""), recs[mi].get(f), rules)
            if s is not None:
                img["fields"][f]["sum"] += s
                img["fields"][f]["scored"] += 1
    return img


def prf(matched, n_model, n_gt):
    p = matched / n_model if n_model else 0.0
    r = matched / n_gt if n_gt else 0.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return p, r, f1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gt", required=True, nargs="+", help="ground-truth CSV folder or files")
    ap.add_argument("--runs", required=True)
    ap.add_argument("--rules")
    ap.add_argument("--gate", type=float, default=0.7)
    ap.add_argument("--images", action="store_true", help="print the image rows too")
    a = ap.parse_args()
    paths = []
    for g in a.gt:
        paths += sorted(glob.glob(os.path.join(g, "*.csv"))) if os.path.isdir(g) else [g]
    pages = read_gt(paths)
    rules, name_ignores = parse_rules(a.rules) if a.rules else ({}, [])
    cells, images = {}, []
    with open(a.runs, encoding="utf-8-sig") as fh:
        for line in fh:
            if not line.strip():
                continue
            obj = json.loads(line)
            key = (str(obj.get("model", "")), str(obj.get("phase", "")))
            cell = cells.setdefault(key, {"images_ok": 0, "images_failed": 0, "matched": 0, "n_model": 0, "n_gt": 0,
                                          "name_cer_edits": 0, "name_ref_chars": 0,
                                          "fields": {f: {"sum": 0.0, "scored": 0} for f in FIELDS}})
            page = str(obj.get("page", ""))
            gt_rows = find_page(pages, page)
            if gt_rows is None:
                sys.exit("runs line: page %s has no ground truth" % page)
            recs = records_of(obj)
            if recs is None:
                cell["images_failed"] += 1
                images.append({"model": key[0], "phase": key[1], "run": obj.get("run"), "page": page, "status": "failed"})
                continue
            img = score_image(gt_rows, recs, rules, name_ignores, a.gate)
            cell["images_ok"] += 1
            for k in ("matched", "n_model", "n_gt", "name_cer_edits", "name_ref_chars"):
                cell[k] += img[k]
            for f in FIELDS:
                cell["fields"][f]["sum"] += img["fields"][f]["sum"]
                cell["fields"][f]["scored"] += img["fields"][f]["scored"]
            img.update({"model": key[0], "phase": key[1], "run": obj.get("run"), "page": page, "status": "ok"})
            images.append(img)
    out = []
    for (model, phase) in sorted(cells):
        c = cells[(model, phase)]
        p, r, f1 = prf(c["matched"], c["n_model"], c["n_gt"])
        row = {"model": model, "phase": phase, "images_ok": c["images_ok"], "images_failed": c["images_failed"],
               "matched": c["matched"], "n_model": c["n_model"], "n_gt": c["n_gt"],
               "precision": p, "recall": r, "f1": f1,
               "name_cer": c["name_cer_edits"] / c["name_ref_chars"] if c["name_ref_chars"] else 0.0,
               "name_cer_edits": c["name_cer_edits"], "name_ref_chars": c["name_ref_chars"], "fields": {}}
        for f in FIELDS:
            fs = c["fields"][f]
            row["fields"][f] = {"accuracy": fs["sum"] / fs["scored"] if fs["scored"] else None,
                                "scored": fs["scored"], "sum": fs["sum"]}
        out.append(row)
    report = {"kind": "tabular", "gate": a.gate, "cells": out}
    if a.images:
        report["images"] = images
    json.dump(report, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
