#!/usr/bin/env python3
"""The two conversions behind sample/text/ (scripts/sample-text.sh runs them).

  sample_text.py gt SOURCE.page.xml OUT.gt.txt
      The ground truth of a PAGE file whose text is at line level only
      (LAREX's export: each TextLine has TextEquiv index 0, the
      transcription, and index 1, an OCR result; the regions' own
      TextEquiv are empty): the lines' index-0 text, regions in reading
      order, lines in file order, one line of text a line. This is the
      text "docscore score text --level line" reads from the file.

  sample_text.py runs PILOT.run.jsonl... > runs.jsonl
      The measured requests (phase c1, status ok) of docscore pilot runs as
      the records of a page-text runs file: {"model", "phase", "page",
      "text"}, the model named by the run header, phase "eng" (Tesseract's
      English model), the page by the sample id.

Python 3 standard library only.
"""
import json
import sys
import xml.etree.ElementTree as ET


def local(tag):
    return tag.rsplit('}', 1)[-1]


def first_equiv(el):
    """The text of el's TextEquiv with the lowest @index (else the first)."""
    equivs = [c for c in el if local(c.tag) == 'TextEquiv']
    if not equivs:
        return None
    indexed = [e for e in equivs if e.get('index') is not None]
    chosen = min(indexed, key=lambda e: int(e.get('index'))) if indexed else equivs[0]
    for c in chosen:
        if local(c.tag) == 'Unicode':
            return c.text or ''
    return ''


def page_gt(path):
    root = ET.parse(path).getroot()
    page = next(e for e in root.iter() if local(e.tag) == 'Page')
    regions = {e.get('id'): e for e in page.iter() if local(e.tag) == 'TextRegion'}
    order = [e for e in page.iter() if local(e.tag) == 'RegionRefIndexed']
    if order:
        ids = [e.get('regionRef') for e in sorted(order, key=lambda e: int(e.get('index')))]
        ids = [i for i in ids if i in regions]  # image regions have no text
    else:
        ids = list(regions)
    lines = []
    for rid in ids:
        for line in regions[rid]:
            if local(line.tag) == 'TextLine':
                t = first_equiv(line)
                if t is not None:
                    lines.append(t.strip())
    return '\n'.join(lines) + '\n'


def runs(paths, out):
    for p in paths:
        model = None
        with open(p, encoding='utf-8') as f:
            for raw in f:
                rec = json.loads(raw)
                if rec.get('type') == 'run':
                    model = rec['model']['name']
                elif rec.get('type') == 'request' and rec['phase'] == 'c1':
                    if rec['status'] != 'ok':
                        sys.exit(f"{p}: {rec['sample_id']} ended {rec['status']}: rerun the pilot")
                    out.write(json.dumps({'model': model, 'phase': 'eng', 'page': rec['sample_id'],
                                          'text': rec['output']}, ensure_ascii=False) + '\n')


def main(argv):
    if len(argv) == 4 and argv[1] == 'gt':
        with open(argv[3], 'w', encoding='utf-8', newline='\n') as f:
            f.write(page_gt(argv[2]))
    elif len(argv) >= 3 and argv[1] == 'runs':
        runs(argv[2:], sys.stdout)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
