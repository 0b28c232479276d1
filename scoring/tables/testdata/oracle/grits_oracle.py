#!/usr/bin/env python3
"""GriTS vectors for scoring/tables (SPEC H.3), from table-transformer's own code.

Loads microsoft/table-transformer's src/grits.py (path given; needs Debian's
python3-numpy and python3-fitz) and runs its grits_from_html steps on each
pair, with two changes SPEC H.3 makes: the table is read by lxml's HTML
parser (serialized back for grits.py's ElementTree, which fails on common
HTML), and positions no cell covers are padded with empty one-by-one cells
(grits.py fails on ragged grids).

    python3 grits_oracle.py PATH/TO/grits.py ../pubtabnet_sample_gt.json \
        ../pubtabnet_sample_pred.json ../grits_extra.json > ../grits_vectors.json
"""
import importlib.util
import json
import sys

import numpy as np
from lxml import etree, html

spec = importlib.util.spec_from_file_location('grits', sys.argv[1])
grits = importlib.util.module_from_spec(spec)
spec.loader.exec_module(grits)


def first_table(s):
    doc = html.fromstring('<html><body>%s</body></html>' % s if '<body' not in s else s,
                          parser=html.HTMLParser(remove_comments=True, encoding='utf-8'))
    t = doc.xpath('//table')
    return etree.tostring(t[0], encoding='unicode') if t else None


def cells(s):
    t = first_table(s) if s else None
    if t is None:
        return []
    cs = grits.html_to_cells(t)
    if not cs:
        return cs
    rows = max(max(c['row_nums']) for c in cs) + 1
    cols = max(max(c['column_nums']) for c in cs) + 1
    covered = {(r, c) for x in cs for r in x['row_nums'] for c in x['column_nums']}
    for r in range(rows):
        for c in range(cols):
            if (r, c) not in covered:
                cs.append({'row_nums': [r], 'column_nums': [c], 'cell_text': ''})
    return cs


def score(pred, true):
    tc, pc = cells(true), cells(pred)
    m = {}
    (m['top'], m['top_precision'], m['top_recall'], m['top_upper_bound']) = grits.grits_top(
        np.array(grits.cells_to_relspan_grid(tc)), np.array(grits.cells_to_relspan_grid(pc)))
    (m['con'], m['con_precision'], m['con_recall'], m['con_upper_bound']) = grits.grits_con(
        np.array(grits.cells_to_grid(tc, key='cell_text'), dtype=object),
        np.array(grits.cells_to_grid(pc, key='cell_text'), dtype=object))
    return {k: float(v) for k, v in m.items()}


def main():
    gt = json.load(open(sys.argv[2]))
    pred = json.load(open(sys.argv[3]))
    extra = json.load(open(sys.argv[4]))
    out = {}
    for k in sorted(gt):
        out[k] = score(pred.get(k, ''), gt[k]['html'])
    for k in sorted(extra):
        out[k] = score(extra[k]['pred'], extra[k]['gt'])
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
