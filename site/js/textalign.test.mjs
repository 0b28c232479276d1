import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alignRows, windowOf, unitText, roleOf, pageOf, recordText, clusters } from './textalign.js';

// show writes a row as "gt | ocr", marked pieces as op(text).
const show = (row) => ['gt', 'ocr'].map((side) => row[side].map(([op, t]) => (op === '=' ? t : op + '(' + t + ')')).join('')).join(' | ');

test('alignRows pairs the lines and marks each kind of step', () => {
  // GT "Dies ist\neine Tst!" read as "Dies ist\nein Test.".
  const segs = [
    { op: '=', gt: 'Dies ist\nein' },
    { op: 'D', gt: 'e' },
    { op: '=', gt: ' T' },
    { op: 'I', ocr: 'e' },
    { op: '=', gt: 'st' },
    { op: 'S', gt: '!', ocr: '.' },
  ];
  const rows = alignRows(segs);
  assert.deepEqual(rows.map(show), ['Dies ist | Dies ist', 'einD(e) TstS(!) | ein TI(e)stS(.)']);
  assert.deepEqual(rows.map((r) => r.line), [1, 2]);
});

test('alignRows ends a row at a marked break, shown as ⏎', () => {
  // The OCR breaks a GT line in two; later it joins two GT lines.
  const rows = alignRows([
    { op: '=', gt: 'ab' },
    { op: 'I', ocr: '\n' },
    { op: '=', gt: 'cd' },
    { op: 'S', gt: '\n', ocr: ' ' },
    { op: '=', gt: 'ef' },
  ]);
  assert.deepEqual(rows.map(show), ['ab | abI(⏎)', 'cdS(⏎) | cdS( )', 'ef | ef']);
  assert.deepEqual(rows.map((r) => r.line), [1, 1, 2]);
});

test('alignRows wraps long lines and keeps every character in order', () => {
  const gt = 'x'.repeat(250);
  const rows = alignRows([{ op: '=', gt }, { op: 'I', ocr: 'y'.repeat(30) }], 100);
  assert.deepEqual(rows.map((r) => r.gt.map((p) => p[1]).join('').length), [100, 100, 50]);
  assert.equal(rows.map((r) => r.ocr.map((p) => p[1]).join('')).join(''), gt + 'y'.repeat(30));
  assert.equal(rows.length, 3);
});

test('alignRows counts grapheme clusters, never splits one', () => {
  const gt = 'm\u0303'.repeat(5); // m̃: two code points, one character
  const rows = alignRows([{ op: '=', gt }], 2);
  assert.deepEqual(rows.map((r) => clusters(r.gt[0][1]).length), [2, 2, 1]);
  assert.equal(rows.map((r) => r.gt[0][1]).join(''), gt);
});

test('alignRows of an empty page is one empty row; blank lines stay', () => {
  assert.deepEqual(alignRows([]), [{ gt: [], ocr: [], line: 1 }]);
  assert.deepEqual(alignRows([{ op: '=', gt: 'a\n\nb' }]).map(show), ['a | a', ' | ', 'b | b']);
});

test('windowOf clamps to the rows there are', () => {
  assert.deepEqual(windowOf(0, 400, 20, 10000, 10), [0, 30]);
  assert.deepEqual(windowOf(20000, 400, 20, 10000, 10), [990, 1030]);
  assert.deepEqual(windowOf(199800, 400, 20, 10000, 10), [9980, 10000]);
  assert.deepEqual(windowOf(0, 400, 20, 3, 10), [0, 3]);
});

test('unitText writes spaces and breaks as the Markdown report does', () => {
  assert.equal(unitText('a b\n'), 'a␣b⏎');
  assert.equal(unitText('ε'), 'ε');
});

test('roleOf sorts a dropped folder', () => {
  const cases = [
    ['text/gt/00000119.gt.xml', '', 'gt'],
    ['gt/0001.txt', '', 'gt'],
    ['ground-truth/0001.xml', '', 'gt'],
    ['0001.gt.txt', '', 'gt'],
    ['gt.txt', '', 'gt'],
    ['tesseract/0001.xml', '', 'ocr'],
    ['0001.tesseract.txt', '', 'ocr'],
    ['gtx/0001.txt', '', 'ocr'],
    ['runs.jsonl', '{"model":"m","phase":"p","page":"1","text":"x"}', 'runs'],
    ['pilot/psm3.run.jsonl', '{"type":"run","run_id":"pilot-1"}', 'pilot'],
    ['images/00000119.tif', '', 'ignore'],
    ['README.md', '', 'ignore'],
    ['text/LICENSE', '', 'ignore'],
    ['pilot/psm3.toml', '', 'ignore'],
    ['.DS_Store', '', 'ignore'],
  ];
  for (const [path, first, want] of cases) assert.equal(roleOf(path, first), want, path);
});

test('pageOf finds a row\'s files', () => {
  const files = {
    gt: [{ name: 'gt/a.gt.txt' }, { name: 'gt/b.gt.xml' }],
    ocr: [{ name: 'ocr/a.tess.txt' }, { name: 'ocr/b.tess.xml' }],
    runs: null,
  };
  assert.deepEqual(pageOf({ page: 'b', ocr_file: 'b.tess.xml' }, files), { gt: files.gt[1], ocr: files.ocr[1] });
  const one = { gt: [{ name: 'x.txt' }], ocr: [{ name: 'y.txt' }], runs: null };
  assert.deepEqual(pageOf({ page: 'x', ocr_file: 'y.txt' }, one), { gt: one.gt[0], ocr: one.ocr[0] });
  assert.deepEqual(pageOf({ page: 'a', line: 2 }, { ...files, runs: { name: 'r.jsonl' } }), { gt: files.gt[0], ocr: null });
});

test('recordText reads the record on a line', () => {
  const runs = '{"text":"one"}\n{"text":"two\\nlines"}\n{"text":"three"}';
  assert.equal(recordText(runs, 2), 'two\nlines');
  assert.equal(recordText(runs, 3), 'three');
  assert.equal(recordText(runs, 4), null);
});
