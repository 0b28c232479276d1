#!/usr/bin/env python3
"""Writes a tabular scoring input large enough that a million bootstrap
replicates take many seconds: gt/gt_page_N.csv (3 rows each) and
runs.jsonl (one model, one phase, every page read with some errors).
Usage: gen_tabular.py PAGES [GATE_VARIANT]"""
import json, os, sys

pages = int(sys.argv[1])
os.makedirs("gt", exist_ok=True)
cols = ["name", "title", "arrival_date", "departure_date", "place_of_stay",
        "place_of_origin", "with_spouse", "with_siblings", "children_count"]
with open("runs.jsonl", "w") as runs:
    for p in range(1, pages + 1):
        rows = []
        with open(f"gt/gt_page_{p:03d}.csv", "w") as gt:
            gt.write(",".join(cols) + "\n")
            for r in range(3):
                row = [f"Person{p}x{r} Surname{(p * 7 + r) % 13}", "", f"February {r + 1} 1769",
                       f"March {r + 2} 1769", f"Locanda {p % 5}", f"Town{(p + r) % 11}", "N", "N", str(r)]
                gt.write(",".join(row) + "\n")
                rows.append(row)
        out = []
        for r, row in enumerate(rows):
            if (p + r) % 4 == 0:
                continue  # a record missed
            rec = dict(zip(cols, row))
            if (p * 3 + r) % 5 == 0:
                rec["place_of_origin"] = "Elsewhere"
            rec["children_count"] = int(rec["children_count"])
            out.append(rec)
        line = {"model": "m", "phase": "G", "run": 1, "page": f"{p:03d}", "status": "ok",
                "response": json.dumps(out)}
        runs.write(json.dumps(line) + "\n")
