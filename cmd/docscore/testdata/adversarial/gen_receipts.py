#!/usr/bin/env python3
"""Writes a receipts run large enough that a million bootstrap replicates
per phase take many seconds: the sample's run (run.jsonl in the current
folder) with its c1 requests copied into PHASES more phases, c1_2 … c1_N,
each planned in the run header.
Usage: gen_receipts.py PHASES"""
import json, sys

extra = int(sys.argv[1])
lines = [json.loads(l) for l in open("run.jsonl", encoding="utf-8") if l.strip()]
names = [f"c1_{i}" for i in range(2, extra + 2)]
out = []
for rec in lines:
    if rec.get("type") == "run":
        rec["planned"]["phases"] = rec["planned"]["phases"] + names
    out.append(rec)
for name in names:
    for rec in lines:
        if rec.get("type") == "request" and rec.get("phase") == "c1":
            copy = dict(rec)
            copy["phase"] = name
            out.append(copy)
with open("run.jsonl", "w", encoding="utf-8") as f:
    for rec in out:
        f.write(json.dumps(rec) + "\n")
