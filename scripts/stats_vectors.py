#!/usr/bin/env python3
"""Independent reference for SPEC F (uncertainty and comparisons).

Computes, with nothing but Python's standard library, the bootstrap
intervals, paired differences, randomization p-values, Holm adjustments and
movement lists for small hand-made tabular and receipts inputs, and writes
them with the inputs to scoring/stats/testdata/vectors.json, which the Go
test TestVectors reads. SplitMix64 and FNV-1a are implemented here from the
SPEC's description (64-bit masking), so the random streams are the Go
package's.

The draft-rule preview cases (SPEC F.6) compare each cell settled (ids
prefixed settled:) with its preview (preview:). Two are hand-made: a rule
that changes nothing (every delta 0, every p 1) and one that changes one
page. The others take the bundled sample's per-image counts from the
command line (go run ./cmd/docscore score tabular --sample, settled and
with --preview), as "docscore compare --preview" reads them from the two
reports; every statistic is computed here.

Run from the repository root:  python3 scripts/stats_vectors.py
"""
import json
import math
import os
import statistics
import subprocess
import sys

MASK = (1 << 64) - 1


def fnv1a64(key):
    h = 0xCBF29CE484222325
    for byte in key.encode("utf-8"):
        h ^= byte
        h = (h * 0x100000001B3) & MASK
    return h


class SplitMix64:
    def __init__(self, state):
        self.state = state & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def stream(seed, key):
    return SplitMix64(seed ^ fnv1a64(key))


# ---------------------------------------------------------------- units

TAB_KEYS = ["matched", "n_model", "n_gt", "name_cer_edits", "name_ref_chars"]


def tabular_units(cell, fields):
    """Page -> dict of sums over the page's images (failed ones add nothing)."""
    units = {}
    for img in cell["images"]:
        u = units.setdefault(img["page"], {"sums": {k: 0.0 for k in TAB_KEYS},
                                           "fields": {f: [0.0, 0.0] for f in fields}})
        if img["status"] != "ok":
            continue
        for k in TAB_KEYS:
            u["sums"][k] = u["sums"][k] + img[k]
        for f in fields:
            fs = img["fields"].get(f)
            if fs is not None:
                u["fields"][f][0] = u["fields"][f][0] + fs["sum"]
                u["fields"][f][1] = u["fields"][f][1] + fs["scored"]
    return units


def receipts_units(cell, structured):
    units = {}
    for p in cell["pages"]:
        units[p["sample_id"]] = p
    return units


def ordered(units):
    return sorted(units, key=lambda s: s.encode("utf-8"))


# ------------------------------------------------------------ statistics
# Each family's statistics from a list of unit records (with multiplicity),
# returned in the cell's order as (path, value or None).

def tabular_stats(recs, fields):
    m = nm = ng = ed = rc = 0.0
    fsum = {f: 0.0 for f in fields}
    fsc = {f: 0.0 for f in fields}
    for u in recs:
        s = u["sums"]
        m += s["matched"]
        nm += s["n_model"]
        ng += s["n_gt"]
        ed += s["name_cer_edits"]
        rc += s["name_ref_chars"]
        for f in fields:
            fsum[f] += u["fields"][f][0]
            fsc[f] += u["fields"][f][1]
    p = m / nm if nm > 0 else 0.0
    r = m / ng if ng > 0 else 0.0
    f1 = 2 * p * r / (p + r) if p + r > 0 else 0.0
    out = [("precision", p), ("recall", r), ("f1", f1),
           ("name_cer", ed / rc if rc != 0 else None)]
    for f in fields:
        out.append(("fields." + f, fsum[f] / fsc[f] if fsc[f] != 0 else None))
    return out


def receipts_stats(recs, structured):
    f1s = f1n = nmat = nref = 0.0
    ted = tedn = fm = fp = fr = 0.0
    for u in recs:
        if u["f1"] is not None:
            f1s += u["f1"]
            f1n += 1
        nmat += u["numeric_matched"]
        nref += u["numeric_ref"]
        if structured:
            if u.get("ted_accuracy") is not None:
                ted += u["ted_accuracy"]
                tedn += 1
            fm += u.get("fields_matched", 0)
            fp += u.get("fields_pred", 0)
            fr += u.get("fields_ref", 0)
    out = [("rouge_l_f1_mean", f1s / f1n if f1n != 0 else None),
           ("numeric_recall", nmat / nref if nref != 0 else None)]
    if structured:
        den = fm + ((fp - fm) + (fr - fm)) / 2
        out.append(("structured.ted_accuracy_mean", ted / tedn if tedn != 0 else None))
        out.append(("structured.field_f1", fm / den if den != 0 else None))
    return out


def unit_score(case, u):
    """A unit's own score for movement: tabular page F1, receipt page F1."""
    if case["family"] == "tabular":
        return dict(tabular_stats([u], case["fields"]))["f1"]
    return u["f1"]


def components(case, u, path):
    """The parts of a unit's contribution that the statistic reads (F.7:
    a unit whose parts differ between A and B can move the difference)."""
    if case["family"] == "tabular":
        s = u["sums"]
        if path.startswith("fields."):
            return tuple(u["fields"][path[7:]])
        return {"precision": (s["matched"], s["n_model"]), "recall": (s["matched"], s["n_gt"]),
                "f1": (s["matched"], s["n_model"], s["n_gt"]),
                "name_cer": (s["name_cer_edits"], s["name_ref_chars"])}[path]
    f1 = (u["f1"], 1) if u["f1"] is not None else (0.0, 0)
    ted = (u.get("ted_accuracy"), 1) if u.get("ted_accuracy") is not None else (0.0, 0)
    return {"rouge_l_f1_mean": f1, "numeric_recall": (u["numeric_matched"], u["numeric_ref"]),
            "structured.ted_accuracy_mean": ted,
            "structured.field_f1": (u.get("fields_matched", 0), u.get("fields_pred", 0), u.get("fields_ref", 0))}[path]


def z_sum(alpha):
    nd = statistics.NormalDist()
    return nd.inv_cdf(1 - alpha / 2) + nd.inv_cdf(0.8)


def min_p(n):
    return 1.0 if n <= 1 else 2.0 ** (1 - n)


def units_needed(sd, effect, alpha, k):
    if not effect or sd is None:
        return None
    need = math.ceil((z_sum(alpha) * sd / effect) ** 2)
    floor = 1
    while max(k, 1) * min_p(floor) > alpha:
        floor += 1
    return max(need, 2, floor)


def lower_is_better(path):
    return path == "name_cer"


# ------------------------------------------------------------- intervals

def quantile(v, p):
    m = len(v)
    h = (m - 1) * p
    j = int(h)
    nxt = v[j + 1] if j + 1 < m else v[m - 1]
    return v[j] + (h - j) * (nxt - v[j])


def interval(values, units, reps, level):
    if units < 2 or len(values) == 0 or 2 * len(values) < reps:
        return None
    v = sorted(values)
    return [quantile(v, (1 - level) / 2), quantile(v, (1 + level) / 2)]


def nest(pairs):
    """[(path, x)] -> ordered dict, 'group.name' paths nested."""
    out = {}
    for path, x in pairs:
        if "." in path:
            g, n = path.split(".", 1)
            out.setdefault(g, {})[n] = x
        else:
            out[path] = x
    return out


def stats_of(case, recs):
    if case["family"] == "tabular":
        return tabular_stats(recs, case["fields"])
    return receipts_stats(recs, case.get("structured", False))


def units_of(case, cell):
    if case["family"] == "tabular":
        return tabular_units(cell, case["fields"])
    return receipts_units(cell, case.get("structured", False))


def cell_ci(case, cell, o):
    if o["replicates"] == 0:
        return None
    units = units_of(case, cell)
    ids = ordered(units)
    n = len(ids)
    g = stream(o["seed"], "ci:" + cell["id"])
    kept = None
    for _ in range(o["replicates"]):
        draw = [units[ids[g.next() % n]] for _ in range(n)]
        st = stats_of(case, draw)
        if kept is None:
            kept = [(p, []) for p, _ in st]
        for (p, vals), (_, x) in zip(kept, st):
            if x is not None:
                vals.append(x)
    ci = {"level": o["level"], "replicates": o["replicates"], "seed": o["seed"],
          "unit": "page" if case["family"] == "tabular" else "sample", "units": n}
    if n < 10:
        ci["few_units"] = True
    ci.update(nest([(p, interval(vals, n, o["replicates"], o["level"])) for p, vals in kept]))
    ci["kept"] = nest([(p, len(vals)) for p, vals in kept])
    return ci


# ----------------------------------------------------------- comparisons

def compare(case, ca, cb, o):
    ua, ub = units_of(case, ca), units_of(case, cb)
    paired = [u for u in ordered(ua) if u in ub]
    only_a = [u for u in ordered(ua) if u not in ub]
    only_b = [u for u in ordered(ub) if u not in ua]
    n = len(paired)
    A = [ua[u] for u in paired]
    B = [ub[u] for u in paired]
    sa, sb = stats_of(case, A), stats_of(case, B)
    paths = [p for p, _ in sa]
    obs = {}
    for (p, a), (_, b) in zip(sa, sb):
        obs[p] = (a, b, b - a if a is not None and b is not None else None)

    boot = {p: [] for p in paths}
    if o["replicates"] > 0:
        g = stream(o["seed"], "boot:" + ca["id"] + "|" + cb["id"])
        for _ in range(o["replicates"]):
            idx = [g.next() % n for _ in range(n)]
            ra = stats_of(case, [A[i] for i in idx])
            rb = stats_of(case, [B[i] for i in idx])
            for (p, a), (_, b) in zip(ra, rb):
                if a is not None and b is not None:
                    boot[p].append(b - a)

    perm_kept = {p: 0 for p in paths}
    perm_count = {p: 0 for p in paths}
    if o["permutations"] > 0:
        g = stream(o["seed"], "perm:" + ca["id"] + "|" + cb["id"])
        for _ in range(o["permutations"]):
            xa, xb = [], []
            for i in range(n):
                if g.next() >> 63 == 1:
                    xa.append(B[i])
                    xb.append(A[i])
                else:
                    xa.append(A[i])
                    xb.append(B[i])
            ra, rb = stats_of(case, xa), stats_of(case, xb)
            for (p, a), (_, b) in zip(ra, rb):
                if a is None or b is None:
                    continue
                perm_kept[p] += 1
                d = obs[p][2]
                if d is not None and abs(b - a) >= abs(d) - 1e-12:
                    perm_count[p] += 1

    stats = []
    for p in paths:
        a, b, d = obs[p]
        pv = None
        if o["permutations"] > 0 and d is not None:
            pv = (perm_count[p] + 1) / (perm_kept[p] + 1)
        differ = sum(1 for x, y in zip(A, B) if components(case, x, p) != components(case, y, p))
        diffs = []
        for x, y in zip(A, B):
            va, vb = dict(stats_of(case, [x]))[p], dict(stats_of(case, [y]))[p]
            if va is not None and vb is not None:
                diffs.append(vb - va)
        sd = statistics.stdev(diffs) if len(diffs) >= 2 else None
        mde = z_sum(o["alpha"]) * sd / math.sqrt(len(diffs)) if sd is not None else None
        st = {"a": a, "b": b, "delta": d,
              "ci": interval(boot[p], n, o["replicates"], o["level"]) if o["replicates"] > 0 else None,
              "p": pv, "p_holm": None, "significant": False, "better": None,
              "min_p": min_p(differ), "can_be_significant": False, "mde": mde}
        if o.get("effect"):
            st["units_needed"] = None
        st["kept"] = {"bootstrap": len(boot[p]), "permutations": perm_kept[p]}
        st["_sd"] = sd
        stats.append((p, st))

    rose, fell, same = [], [], 0
    for u, x, y in zip(paired, A, B):
        va, vb = unit_score(case, x), unit_score(case, y)
        if va is None or vb is None:
            continue
        if vb > va:
            rose.append((-(vb - va), u.encode("utf-8"), u))
        elif vb < va:
            fell.append((-(va - vb), u.encode("utf-8"), u))
        else:
            same += 1
    out = {"a": side(case, ca), "b": side(case, cb), "units_paired": n}
    if o["replicates"] > 0 and n < 10:
        out["few_units"] = True
    return dict(out, **{
            "units_only_a": only_a, "units_only_b": only_b,
            "stats": stats,  # nested after Holm
            "movement": {"rose": [t[2] for t in sorted(rose)], "fell": [t[2] for t in sorted(fell)],
                         "same": same}})


def side(case, cell):
    s = {}
    if case["family"] == "tabular":
        s["model"] = cell["model"]
    s["phase"] = cell["phase"]
    s["id"] = cell["id"]
    return s


def holm(ps):
    k = len(ps)
    order = sorted(range(k), key=lambda i: (ps[i], i))
    adj = [None] * k
    best = 0.0
    for j, i in enumerate(order, start=1):
        best = max(best, (k - j + 1) * ps[i])
        adj[i] = min(1.0, best)
    return adj


def report(case, o):
    comps = [compare(case, case["cells"][i], case["cells"][j], o) for i, j in case["comparisons"]]
    if comps:
        for si in range(len(comps[0]["stats"])):
            k = sum(1 for c in comps if c["stats"][si][1]["delta"] is not None)
            for c in comps:
                st = c["stats"][si][1]
                st["can_be_significant"] = st["delta"] is not None and st["min_p"] * k <= o["alpha"]
                if o.get("effect"):
                    un = units_needed(st["_sd"], o["effect"], o["alpha"], k)
                    if un is None:
                        del st["units_needed"]
                    else:
                        st["units_needed"] = un
                del st["_sd"]
            have = [c["stats"][si][1] for c in comps if c["stats"][si][1]["p"] is not None]
            for st, adj in zip(have, holm([st["p"] for st in have])):
                st["p_holm"] = adj
                st["significant"] = adj < o["alpha"]
                if st["significant"] and st["delta"] != 0:
                    up = st["delta"] > 0
                    if lower_is_better(comps[0]["stats"][si][0]):
                        up = not up
                    st["better"] = "b" if up else "a"
    for c in comps:
        c["stats"] = nest(c["stats"])
    out = {"kind": "comparison", "family": case["family"], "level": o["level"],
           "replicates": o["replicates"], "permutations": o["permutations"], "seed": o["seed"],
           "alpha": o["alpha"]}
    if o.get("effect"):
        out["effect"] = o["effect"]
    out["comparisons"] = comps
    return out


# ----------------------------------------------------------------- cases

def img(page, matched, n_model, n_gt, edits, ref, fields, status="ok", model="m", phase="G", run=1):
    return {"page": page, "status": status, "run": run, "matched": matched, "n_model": n_model,
            "n_gt": n_gt, "name_cer_edits": edits, "name_ref_chars": ref,
            "fields": {f: {"sum": s, "scored": c} for f, (s, c) in fields.items()}}


def failed(page, run=1):
    return {"page": page, "status": "failed", "run": run, "matched": 0, "n_model": 0, "n_gt": 0,
            "name_cer_edits": 0, "name_ref_chars": 0, "fields": {}}


def tcell(model, phase, images, prefix=""):
    return {"model": model, "phase": phase, "id": prefix + "tabular/" + model + "/" + phase, "images": images}


def opts(replicates=400, permutations=500, seed=0, level=0.95, alpha=0.05, effect=0):
    o = {"replicates": replicates, "permutations": permutations, "seed": seed, "level": level,
         "alpha": alpha}
    if effect:
        o["effect"] = effect
    return o


def page_images(page, base, runs=2, shift=0):
    """A page read `runs` times; base sets its quality."""
    out = []
    for r in range(runs):
        m = max(0, base - r - shift)
        out.append(img(page, m, base + 1, base + 2, 3 * r + shift + 1, 40 + base,
                       {"title": (m * 0.75 + 0.25 * r, m), "children_count": (float(max(0, m - 2)), m)}, run=r + 1))
    return out


def cases():
    F = ["title", "children_count"]
    pages = ["1", "10", "2", "9", "Z", "é"]  # byte order: 1 10 2 9 Z é
    a_imgs, b_imgs, c_imgs = [], [], []
    for i, p in enumerate(pages):
        a_imgs += page_images(p, 8 + i)
        b_imgs += page_images(p, 8 + i, shift=(i % 3) - 1)
        c_imgs += page_images(p, 9 + 2 * i, runs=1)
    yield {
        "name": "within: three cells, unicode page ids, Holm over three comparisons",
        "family": "tabular", "fields": F, "options": opts(seed=7, effect=0.01),
        "cells": [tcell("m1", "G", a_imgs), tcell("m2", "G", b_imgs), tcell("m1", "N", c_imgs)],
        "comparisons": [[0, 1], [0, 2], [1, 2]],
    }
    yield {
        "name": "one-page cell: null interval, null comparison interval",
        "family": "tabular", "fields": F, "options": opts(),
        "cells": [tcell("solo", "G", page_images("3", 10, runs=3)),
                  tcell("solo2", "G", page_images("3", 12, runs=2))],
        "comparisons": [[0, 1]],
    }
    yield {
        "name": "different pages: units_only_a and units_only_b; a page whose images all failed",
        "family": "tabular", "fields": F, "options": opts(seed=2**64 - 1, level=0.9),
        "cells": [
            tcell("x", "G", page_images("1", 9) + page_images("2", 11) + page_images("3", 7) + [failed("4"), failed("4", 2)],
                  prefix="base:"),
            tcell("x", "G", page_images("2", 10) + page_images("3", 7) + page_images("4", 9) + page_images("5", 6),
                  prefix="new:"),
        ],
        "comparisons": [[0, 1]],
    }
    # A field scored on one page only, on a different page in each cell: the
    # difference is defined only on draws holding both (kept < B/2: null).
    def one_field(page_scored, pages_all, base):
        out = []
        for p in pages_all:
            f = {"title": (3.0, 4)}
            if p == page_scored:
                f["children_count"] = (1.0, 2)
            out.append(img(p, base, base + 1, base, 2, 30, f))
        return out
    yield {
        "name": "a field scored on one page only",
        "family": "tabular", "fields": F, "options": opts(seed=11),
        "cells": [tcell("f", "G", one_field("a", ["a", "b", "c"], 5)),
                  tcell("g", "G", one_field("c", ["a", "b", "c"], 6))],
        "comparisons": [[0, 1]],
    }
    # Ties in movement: equal |change| ordered by id; equal F1 counted as same.
    tie_a = [img(p, 8, 10, 10, 1, 20, {"title": (7.0, 8)}) for p in ["p1", "p2", "p3", "p4", "p5", "p6"]]
    tie_b = [img("p1", 9, 10, 10, 1, 20, {"title": (7.0, 8)}),   # +0.1
             img("p2", 8, 10, 10, 0, 20, {"title": (8.0, 8)}),   # same F1
             img("p3", 7, 10, 10, 1, 20, {"title": (7.0, 8)}),   # -0.1
             img("p4", 9, 10, 10, 1, 20, {"title": (7.0, 8)}),   # +0.1 (tie with p1)
             img("p5", 10, 10, 10, 1, 20, {"title": (7.0, 8)}),  # +0.2
             img("p6", 7, 10, 10, 1, 20, {"title": (7.0, 8)})]   # -0.1 (tie with p3)
    yield {
        "name": "ties in movement",
        "family": "tabular", "fields": ["title"], "options": opts(seed=3),
        "cells": [tcell("t", "G", tie_a, "settled:"), tcell("t", "G", tie_b, "preview:")],
        "comparisons": [[0, 1]],
    }
    # A clear improvement: significant, better b; name CER lower is better.
    good_a = [img("s%02d" % i, 6, 10, 10, 9, 30, {"title": (5.0, 6)}) for i in range(12)]
    good_b = [img("s%02d" % i, 9, 10, 10, 2, 30, {"title": (5.0, 6)}) for i in range(12)]
    yield {
        "name": "significant improvement, name CER lower is better",
        "family": "tabular", "fields": ["title"], "options": opts(replicates=300, permutations=2000, effect=0.05),
        "cells": [tcell("old", "G", good_a), tcell("new", "G", good_b), tcell("old", "G", good_a, "again:")],
        "comparisons": [[0, 1], [1, 0], [0, 2]],
    }
    yield {
        "name": "bootstrap and permutations off",
        "family": "tabular", "fields": ["title"], "options": opts(replicates=0, permutations=0),
        "cells": [tcell("old", "G", good_a), tcell("new", "G", good_b)],
        "comparisons": [[0, 1]],
    }

    def rpage(sid, f1, nm, nr, ted=None, fm=0, fp=0, fr=0):
        return {"sample_id": sid, "f1": f1, "numeric_matched": nm, "numeric_ref": nr,
                "ted_accuracy": ted, "fields_matched": fm, "fields_pred": fp, "fields_ref": fr}
    c1 = [rpage("cord-0", 0.5, 3, 4, 0.8, 2, 3, 3), rpage("cord-1", None, 0, 0, None, 0, 0, 0),
          rpage("cord-2", 0.75, 5, 5, 0.6, 4, 4, 5), rpage("cord-3", 0.0, 0, 6, 0.0, 0, 2, 4),
          rpage("cord-4", 0.9, 2, 2, None, 1, 1, 1)]
    c4 = [rpage("cord-0", 0.25, 2, 4, 0.7, 1, 3, 3), rpage("cord-1", None, 0, 0, None, 0, 0, 0),
          rpage("cord-2", 0.75, 5, 5, 0.9, 5, 5, 5), rpage("cord-3", 0.5, 3, 6, 0.5, 2, 2, 4),
          rpage("cord-5", 0.4, 1, 3, 0.3, 1, 2, 2)]
    yield {
        "name": "receipts: null page F1 in no movement list, structured metrics",
        "family": "receipts", "structured": True, "options": opts(seed=5, effect=0.1),
        "cells": [{"phase": "c1", "id": "receipts/c1", "pages": c1},
                  {"phase": "c4", "id": "receipts/c4", "pages": c4}],
        "comparisons": [[0, 1], [0, 0]],
    }
    yield {
        "name": "receipts: one sample, no numbers anywhere",
        "family": "receipts", "structured": False, "options": opts(),
        "cells": [{"phase": "c1", "id": "receipts/c1", "pages": [rpage("only", 0.5, 0, 0)]},
                  {"phase": "c4", "id": "receipts/c4", "pages": [rpage("only", 0.7, 0, 0), rpage("other", None, 0, 0)]}],
        "comparisons": [[0, 1]],
    }


def sample_cells(preview, prefix):
    """The sample's cells, settled or with --preview, from the command line."""
    args = ["go", "run", "./cmd/docscore", "score", "tabular", "--sample", "--bootstrap", "0"]
    if preview:
        args += ["--preview", preview]
    rep = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    cells = []
    for c in rep["cells"]:
        imgs = [{"page": im["page"], "status": im["status"], "matched": im["matched"], "n_model": im["n_model"],
                 "n_gt": im["n_gt"], "name_cer_edits": im["name_cer_edits"], "name_ref_chars": im["name_ref_chars"],
                 "fields": im["fields"]}
                for im in rep["images"] if im["model"] == c["model"] and im["phase"] == c["phase"]]
        cells.append(tcell(c["model"], c["phase"], imgs, prefix))
    return rep["fields"], cells


def preview_case(name, fields, settled, preview, o):
    """Each settled cell (A) against its preview (B), in report order."""
    n = len(settled)
    return {"name": name, "family": "tabular", "fields": fields, "options": o, "preview": True,
            "cells": settled + preview, "comparisons": [[i, n + i] for i in range(n)]}


def preview_cases():
    F = ["title", "children_count"]
    pages = ["1", "2", "3", "4"]
    settled = [tcell("m", "G", sum((page_images(p, 8 + i) for i, p in enumerate(pages)), []), "settled:"),
               tcell("m", "N", sum((page_images(p, 6 + i, runs=1) for i, p in enumerate(pages)), []), "settled:")]
    same = [dict(c, id=c["id"].replace("settled:", "preview:", 1)) for c in settled]
    yield preview_case("preview: a rule that changes nothing", F, settled, same, opts(seed=4))
    # The rule rescues two names and one title on page 3 of cell m/G only.
    changed = json.loads(json.dumps(same))
    for im in changed[0]["images"]:
        if im["page"] == "3":
            im["matched"] += 1
            im["fields"]["title"]["sum"] += 1.0
            im["fields"]["title"]["scored"] += 1
    yield preview_case("preview: a rule that changes one page", F, settled, changed, opts(seed=4))
    # STATS_VECTORS_REUSE=1 takes the sample's per-image counts from the
    # vectors file already written instead of running the command line
    # (they change only when the scorer does; every statistic is still
    # computed here).
    old = {}
    if os.environ.get("STATS_VECTORS_REUSE"):
        with open(vectors_path(), encoding="utf-8") as f:
            old = {c["name"]: c for c in json.load(f)["cases"]}
    for sel in ["open", "52"]:
        name = "preview: the sample, --preview " + sel
        if name in old:
            yield preview_case(name, old[name]["fields"], old[name]["cells"][:len(old[name]["cells"]) // 2],
                               old[name]["cells"][len(old[name]["cells"]) // 2:], opts(replicates=2000, permutations=10000))
            continue
        fields, a = sample_cells("", "settled:")
        _, b = sample_cells(sel, "preview:")
        yield preview_case("preview: the sample, --preview " + sel, fields, a, b,
                           opts(replicates=2000, permutations=10000))


def vectors_path():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.join(here, "..", "scoring", "stats", "testdata", "vectors.json")


def main():
    out = []
    for case in list(cases()) + list(preview_cases()):
        o = case["options"]
        expected = {"cells": [cell_ci(case, c, o) for c in case["cells"]], "report": report(case, o)}
        out.append(dict(case, expected=expected))
    path = vectors_path()
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"generator": "scripts/stats_vectors.py", "cases": out}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print("wrote", os.path.normpath(path), len(out), "cases", file=sys.stderr)


if __name__ == "__main__":
    main()
