#!/usr/bin/env python3
"""Independent reference implementation (Python standard library only) of
the agreement statistics in scoring/agreement, and the generator of
vectors.json, which the Go tests read.

Krippendorff's alpha (nominal) follows K. Krippendorff, "Computing
Krippendorff's Alpha-Reliability" (2011): build the coincidence matrix
o_ck = sum over units u with m_u >= 2 pairable values of
(number of c-k pairs in u) / (m_u - 1); n_c = sum_k o_ck; n = sum_c n_c;
alpha = 1 - (n - 1) * (sum_{c != k} o_ck) / (sum_{c != k} n_c * n_k).
With no pairable value alpha is undefined; with a single value in all
pairable units (no variation, D_e = 0) alpha is undefined too.

Cohen's kappa: kappa = (p_o - p_e) / (1 - p_e), p_o the observed share of
agreement, p_e = sum_c (row_c / n) * (col_c / n); undefined when p_e = 1.

Run: python3 gen_vectors.py > vectors.json
"""
import json
from fractions import Fraction


def alpha_nominal(units):
    """units: list of lists of ratings, None for a missing rating."""
    o = {}
    for u in units:
        vals = [v for v in u if v is not None]
        m = len(vals)
        if m < 2:
            continue
        for i, a in enumerate(vals):
            for j, b in enumerate(vals):
                if i == j:
                    continue
                o[(a, b)] = o.get((a, b), Fraction(0)) + Fraction(1, m - 1)
    cats = sorted({a for a, _ in o})
    nc = {c: sum((o.get((c, k), Fraction(0)) for k in cats), Fraction(0)) for c in cats}
    n = sum(nc.values(), Fraction(0))
    if n == 0:
        return None, "no unit has two or more ratings", int(n)
    do = sum((v for (a, b), v in o.items() if a != b), Fraction(0))
    de = sum((nc[c] * nc[k] for c in cats for k in cats if c != k), Fraction(0))
    if de == 0:
        return None, "no variation", int(n)
    return float(1 - (n - 1) * do / de), "", int(n)


def kappa(pairs):
    n = len(pairs)
    if n == 0:
        return None, "no paired ratings"
    po = Fraction(sum(1 for a, b in pairs if a == b), n)
    cats = sorted({a for a, _ in pairs} | {b for _, b in pairs})
    pe = sum((Fraction(sum(1 for a, _ in pairs if a == c), n) * Fraction(sum(1 for _, b in pairs if b == c), n) for c in cats), Fraction(0))
    if pe == 1:
        return None, "no variation"
    return float((po - pe) / (1 - pe)), ""


def krippendorff_2011():
    # "Computing Krippendorff's Alpha-Reliability", section C (nominal
    # data, any number of observers, missing values): observers A-D,
    # units 1-12, "." missing. Published nominal alpha = 0.743.
    rows = [
        "1 2 3 3 2 1 4 1 2 . . .",
        "1 2 3 3 2 2 4 1 2 5 . 3",
        ". 3 3 3 2 3 4 2 2 5 1 .",
        "1 2 3 3 2 4 4 1 2 5 1 .",
    ]
    obs = [[None if x == "." else x for x in r.split()] for r in rows]
    return [[obs[o][u] for o in range(4)] for u in range(12)]


def main():
    alpha_cases = []

    def add_alpha(name, units, note=""):
        a, reason, n = alpha_nominal(units)
        alpha_cases.append({"name": name, "units": units, "alpha": a, "reason": reason, "pairable": n, "note": note})

    add_alpha("krippendorff-2011-nominal", krippendorff_2011(),
              "Krippendorff (2011), Computing Krippendorff's Alpha-Reliability, section C: published alpha = 0.743")
    add_alpha("two-coders-binary",
              [["a", "a"], ["a", "b"], ["b", "b"], ["b", "b"], ["a", "a"], ["b", "a"]])
    add_alpha("perfect-agreement-with-variation", [["pass", "pass", "pass"], ["fail", "fail", None]])
    add_alpha("all-agree-one-value", [["pass", "pass"], ["pass", "pass", "pass"]])
    add_alpha("one-judge", [["pass"], ["fail"], [None]])
    add_alpha("no-units", [])
    add_alpha("systematic-disagreement", [["pass", "fail"], ["fail", "pass"]])
    add_alpha("missing-heavy", [[None, "x", "y"], ["x", None, "x"], ["y", "y", None], [None, None, "x"]])

    kappa_cases = []

    def add_kappa(name, pairs, note=""):
        k, reason = kappa(pairs)
        kappa_cases.append({"name": name, "pairs": pairs, "kappa": k, "reason": reason, "note": note})

    # The classic 2x2 example (e.g. Wikipedia, "Cohen's kappa"): 50
    # proposals, both yes 20, A yes B no 5, A no B yes 10, both no 15;
    # p_o = 0.7, p_e = 0.5, kappa = 0.4 by hand.
    classic = [["yes", "yes"]] * 20 + [["yes", "no"]] * 5 + [["no", "yes"]] * 10 + [["no", "no"]] * 15
    add_kappa("classic-2x2", classic, "p_o = 35/50 = 0.7; p_e = 0.5*0.6 + 0.5*0.4 = 0.5; kappa = 0.2/0.5 = 0.4")
    add_kappa("perfect", [["pass", "pass"], ["fail", "fail"]])
    add_kappa("one-category", [["pass", "pass"], ["pass", "pass"]])
    add_kappa("empty", [])
    add_kappa("three-categories",
              [["pass", "pass"], ["pass", "fail"], ["fail", "fail"], ["not_applicable", "fail"], ["not_applicable", "not_applicable"], ["pass", "pass"]])

    json.dump({"generator": "gen_vectors.py", "alpha": alpha_cases, "kappa": kappa_cases}, __import__("sys").stdout, indent=2, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
