// Tests of the drill-downs' pure parts: keys, steps, what counts as a
// mismatch, and a page across the cells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keyAction, stepTo, mismatch, pageAcross, KEYS } from './drilldown.js';

const key = (k, extra = {}) => ({ key: k, altKey: false, ctrlKey: false, metaKey: false, target: { tagName: 'DIV' }, ...extra });

test('keyAction: j/k and Alt+arrows step, Esc closes', () => {
  assert.equal(keyAction(key('j')), 'next');
  assert.equal(keyAction(key('k')), 'prev');
  assert.equal(keyAction(key('ArrowDown', { altKey: true })), 'next');
  assert.equal(keyAction(key('ArrowUp', { altKey: true })), 'prev');
  assert.equal(keyAction(key('Escape')), 'close');
  // plain arrows scroll, modified letters are the browser's
  assert.equal(keyAction(key('ArrowDown')), null);
  assert.equal(keyAction(key('j', { ctrlKey: true })), null);
  assert.equal(keyAction(key('k', { metaKey: true })), null);
  assert.equal(keyAction(key('x')), null);
  // typing in a field is typing; a checkbox is not a field
  assert.equal(keyAction(key('j', { target: { tagName: 'INPUT', type: 'text' } })), null);
  assert.equal(keyAction(key('j', { target: { tagName: 'TEXTAREA' } })), null);
  assert.equal(keyAction(key('j', { target: { tagName: 'INPUT', type: 'checkbox' } })), 'next');
  assert.equal(keyAction(key('ArrowDown', { altKey: true, target: { tagName: 'INPUT', type: 'text' } })), 'next');
  assert.match(KEYS, /j .*k .*Esc/);
});

test('stepTo stops at both ends', () => {
  assert.equal(stepTo(3, 0, 1), 1);
  assert.equal(stepTo(3, 2, 1), -1);
  assert.equal(stepTo(3, 0, -1), -1);
  assert.equal(stepTo(1, 0, 1), -1);
});

test('mismatch: a field below 1 or a name with edits', () => {
  const pair = (edits, ...scores) => ({ name: { edits }, fields: scores.map((score) => ({ score })) });
  assert.equal(mismatch(pair(0, 1, 1, null)), false);
  assert.equal(mismatch(pair(0, 1, 0.5)), true);
  assert.equal(mismatch(pair(0, 0)), true);
  assert.equal(mismatch(pair(2, 1, null)), true);
  assert.equal(mismatch(pair(0)), false);
});

test('pageAcross lists each cell with its F1 and images of the page', () => {
  const v = {
    cells: [{ model: 'a', phase: 'G' }, { model: 'b', phase: 'G' }, { model: 'c', phase: 'N' }],
    pages: { ids: ['27', '28'], f1: [[0.5, null, 1], [0.25, 0.75, null]] },
    pageIds: ['28', '27'], // the images' page numbering is the summary's own
    runIds: ['1', '2'],
    images: {
      count: 5,
      line: Int32Array.from([1, 2, 3, 4, 5]),
      cell: Int32Array.from([0, 0, 1, 0, 2]),
      page: Int32Array.from([1, 0, 1, 1, 1]),
      run: Int32Array.from([0, 0, 0, 1, 0]),
      ok: Uint8Array.from([1, 1, 0, 1, 1]),
      f1: Float64Array.from([0.5, 0.25, 0, 0.5, 1]),
      matched: Int32Array.from([1, 1, 0, 1, 2]),
      nGT: Int32Array.from([2, 2, 2, 2, 2]),
      nModel: Int32Array.from([2, 3, 0, 2, 2]),
    },
  };
  const got = pageAcross(v, '27');
  assert.deepEqual(got.map((c) => [c.label, c.f1, c.images.map((x) => x.line)]),
    [['a / G', 0.5, [1, 4]], ['b / G', null, [3]], ['c / N', 1, [5]]]);
  assert.deepEqual(got[1].images[0], { line: 3, run: '1', ok: false, f1: 0, matched: 0, nGT: 2, nModel: 0 });
  assert.equal(got[0].images[1].run, '2');
  assert.deepEqual(pageAcross(v, '28').map((c) => c.images.map((x) => x.line)), [[2], [], []]);
  assert.deepEqual(pageAcross(v, '99').map((c) => c.f1), [null, null, null]);
});
