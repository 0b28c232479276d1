#!/usr/bin/env python3
"""Independent TEDS oracle for scoring/tables (SPEC H.2).

Reads tables with lxml's HTML parser exactly as PubTabNet's src/metric.py
does (html.fromstring, body/table, the same tree and tokens), and computes
the tree edit distance with a textbook Zhang-Shasha written here (PubTabNet
uses apted, which is not packaged for Debian). Needs python3 and Debian's
python3-lxml only.

    python3 teds_oracle.py ../pubtabnet_sample_gt.json ../pubtabnet_sample_pred.json > ../teds_vectors.json
"""
import json
import sys

from lxml import html


class Node:
    def __init__(self, tag, colspan=None, rowspan=None, content=None):
        self.tag, self.colspan, self.rowspan, self.content = tag, colspan, rowspan, content
        self.children = []


def tokenize(node, out):
    out.append('<%s>' % node.tag)
    if node.text is not None:
        out.extend(list(node.text))
    for n in node.getchildren():
        tokenize(n, out)
    if node.tag != 'unk':
        out.append('</%s>' % node.tag)
    if node.tag != 'td' and node.tail is not None:
        out.extend(list(node.tail))


def load(node, structure_only):
    if node.tag == 'td':
        if structure_only:
            cell = []
        else:
            toks = []
            tokenize(node, toks)
            cell = toks[1:-1]
        return Node('td', int(node.attrib.get('colspan', '1')), int(node.attrib.get('rowspan', '1')), cell)
    n = Node(node.tag)
    for c in node.getchildren():
        n.children.append(load(c, structure_only))
    return n


def levenshtein(a, b):
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
        prev = cur
    return prev[len(b)]


def rename(a, b):
    if a.tag != b.tag or a.colspan != b.colspan or a.rowspan != b.rowspan:
        return 1.0
    if a.tag == 'td' and (a.content or b.content):
        return float(levenshtein(a.content, b.content)) / max(len(a.content), len(b.content))
    return 0.0


def postorder(root):
    nodes, lml = [None], [0]

    def walk(n):
        first = None
        for c in n.children:
            l = walk(c)
            if first is None:
                first = l
        nodes.append(n)
        if first is None:
            first = len(nodes) - 1
        lml.append(first)
        return first
    walk(root)
    keyroots = sorted({max(i for i in range(1, len(nodes)) if lml[i] == l) for l in set(lml[1:])})
    return nodes, lml, keyroots


def zhang_shasha(a, b):
    A, la, ka = postorder(a)
    B, lb, kb = postorder(b)
    n, m = len(A) - 1, len(B) - 1
    td = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in ka:
        for j in kb:
            fd = {}
            li, lj = la[i], lb[j]
            fd[(li - 1, lj - 1)] = 0.0
            for x in range(li, i + 1):
                fd[(x, lj - 1)] = fd[(x - 1, lj - 1)] + 1.0
            for y in range(lj, j + 1):
                fd[(li - 1, y)] = fd[(li - 1, y - 1)] + 1.0
            for x in range(li, i + 1):
                for y in range(lj, j + 1):
                    rem = fd[(x - 1, y)] + 1.0
                    ins = fd[(x, y - 1)] + 1.0
                    if la[x] == li and lb[y] == lj:
                        v = min(rem, ins, fd[(x - 1, y - 1)] + rename(A[x], B[y]))
                        fd[(x, y)] = v
                        td[x][y] = v
                    else:
                        fd[(x, y)] = min(rem, ins, fd[(la[x] - 1, lb[y] - 1)] + td[x][y])
    return td[n][m]


def teds(pred, true, structure_only=False):
    if not pred or not true:
        return 0.0
    parser = html.HTMLParser(remove_comments=True, encoding='utf-8')
    pred = html.fromstring(pred, parser=parser)
    true = html.fromstring(true, parser=parser)
    if not (pred.xpath('body/table') and true.xpath('body/table')):
        return 0.0
    pred, true = pred.xpath('body/table')[0], true.xpath('body/table')[0]
    n = max(len(pred.xpath('.//*')), len(true.xpath('.//*')))
    d = zhang_shasha(load(pred, structure_only), load(true, structure_only))
    return 1.0 - (float(d) / n)


DEMO_PRED = '<html><body><table><thead><tr><td><b>Name of algori</b></td><td><b>Notablefeatures</b></td></tr></thead><tbody><tr><td>MACS [23]</td><td>Uses both a control library and local statistics to minimize bias</td></tr><tr><td>SICER [15]</td><td>Designed for detecting diffusely enriched regions; for example, histone modification</td></tr><tr><td>PeakSEQ [24]</td><td>Corrects for reference genome mappability and local statistics</td></tr><tr><td>SISSRs [25]</td><td>High resolution, precise identification of binding-site location</td></tr><tr><td>F-seq [26]</td><td>Uses kernel density estimation</td></tr></tbody></table></body></html>'
DEMO_TRUE = '<html><body><table><thead><tr><td><b>Name of algorithm</b></td><td><b>Notable features</b></td></tr></thead><tbody><tr><td>MACS [23]</td><td>Uses both a control library and local statistics to minimize bias</td></tr><tr><td>SICER [14]</td><td>Designed for detecting diffusely enriched regions; for example, histone modification</td></tr><tr><td>PeakSeq [24]</td><td>Corrects for reference genome mappability and local statistics</td></tr><tr><td>SISSRs [25]</td><td>High resolution, precise identification of binding-site location</td></tr><tr><td>F-seq [26]</td><td>Uses kernel density estimation</td></tr></tbody></table></body></html>'


def main():
    gt = json.load(open(sys.argv[1]))
    pred = json.load(open(sys.argv[2]))
    out = {'demo': {'teds': teds(DEMO_PRED, DEMO_TRUE), 'teds_s': teds(DEMO_PRED, DEMO_TRUE, True)}}
    for k in sorted(gt):
        p, g = pred.get(k, ''), gt[k]['html']
        out[k] = {'teds': teds(p, g), 'teds_s': teds(p, g, True)}
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
