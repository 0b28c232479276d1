// Tests of format.js with Node's test runner (make test-site-js). The
// expected strings are what Go's strconv.FormatFloat(x, 'f', 4, 64)
// prints: ties at four decimals go to the even digit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmt4, fmtOpt4, fmtDelta, sigText, ciText, ciLookup, prf, pageCompare , grouped } from './format.js';

test('fmt4 rounds like Go', () => {
  const cases = [
    [0, '0.0000'], [1, '1.0000'], [0.99024, '0.9902'], [0.99025, '0.9902'],
    [1 / 32, '0.0312'], [3 / 32, '0.0938'], [5 / 32, '0.1562'], [-1 / 32, '-0.0312'],
    [0.5, '0.5000'], [2 / 3, '0.6667'], [-0.00831, '-0.0083'], [-0.00001, '-0.0000'],
    [0.123456789, '0.1235'], [12.34565, '12.3456'], [33 / 32, '1.0312'],
  ];
  for (const [x, want] of cases) {
    assert.equal(fmt4(x), want, `fmt4(${x})`);
  }
});

test('fmtOpt4 shows a dash for null', () => {
  assert.equal(fmtOpt4(null), '–');
  assert.equal(fmtOpt4(0.25), '0.2500');
});

test('fmtDelta writes the Markdown report form', () => {
  assert.equal(fmtDelta({ settled: 0.9467, preview: 0.955, delta: 0.955 - 0.9467 }), '0.9467 → 0.9550 (+0.0083)');
  assert.equal(fmtDelta({ settled: 0.0238, preview: 0.0176, delta: 0.0176 - 0.0238 }), '0.0238 → 0.0176 (-0.0062)');
  assert.equal(fmtDelta({ settled: 0.9902, preview: 0.9902, delta: 0 }), '0.9902 → 0.9902');
  assert.equal(fmtDelta({ settled: null, preview: 0.5, delta: null }), '– → 0.5000');
});

test('sigText writes the Markdown preview table form', () => {
  const stat = (ci, p, significant) => ({ ci, p_holm: p, significant });
  const cmp = {
    replicates: 2000,
    comparisons: [{ stats: { f1: stat([0.0031, 0.019], 0.004, true), fields: { title: stat(null, null, false) } } }],
  };
  const d = { settled: 0.9663, preview: 0.9775, delta: 0.9775 - 0.9663 };
  assert.equal(fmtDelta(d, sigText(cmp, 0, 'f1')), '0.9663 → 0.9775 (+0.0112 [+0.0031, +0.0190], p=0.0040*)');
  assert.equal(sigText(cmp, 0, 'fields.title'), ' [–]');
  assert.equal(sigText({ ...cmp, replicates: 0 }, 0, 'fields.title'), '');
  assert.equal(sigText(null, 0, 'f1'), '');
  assert.equal(sigText(cmp, 0, 'fields.nothing'), '');
  assert.equal(fmtDelta({ settled: 0.5, preview: 0.5, delta: 0 }, ' [+0.0000, +0.0000], p=1.0000'), '0.5000 → 0.5000');
});

test('prf follows SPEC A.6', () => {
  assert.deepEqual(prf(0, 0, 0), [0, 0, 0]);
  assert.deepEqual(prf(1, 2, 1), [0.5, 1, (2 * 0.5 * 1) / 1.5]);
  assert.deepEqual(prf(3, 0, 4), [0, 0.75, 0]);
});

test('pages sort numerically, then as text', () => {
  assert.deepEqual(['10', '9', '027', 'b', 'a'].sort(pageCompare), ['9', '10', '027', 'a', 'b']);
});

test('ciText writes the Markdown report form of an interval', () => {
  const ci = { level: 0.95, f1: [0.97123, 0.98816], name_cer: null, fields: { title: [0.5, 1], date: null }, kept: { f1: 2000 } };
  assert.equal(ciText(ci, 'f1'), ' [0.9712, 0.9882]');
  assert.equal(ciText(ci, 'name_cer'), ' [–]');
  assert.equal(ciText(ci, 'fields.title'), ' [0.5000, 1.0000]');
  assert.equal(ciText(ci, 'fields.date'), ' [–]');
  assert.equal(ciText(ci, 'recall'), '');
  assert.equal(ciText(ci, 'fields.other'), '');
  assert.equal(ciText(undefined, 'f1'), '');
  // the chart's error bars read the interval itself
  assert.deepEqual(ciLookup(ci, 'fields.title'), [0.5, 1]);
  assert.equal(ciLookup(ci, 'name_cer'), null);
  assert.equal(ciLookup(ci, 'recall'), undefined);
  assert.equal(ciLookup(null, 'f1'), undefined);
});

test('grouped writes thousands as toLocaleString("en") does', () => {
  for (const n of [0, 7, 999, 1000, 12345, 123456, 1234567, 1000000, -1, -999, -1000, -1234567, 2 ** 40]) {
    assert.equal(grouped(n), n.toLocaleString('en'), String(n));
  }
  assert.equal(grouped(1234.9), '1,234');
});

test('sigText says when a comparison cannot be significant (SPEC F.7 fields)', async () => {
  const { sigText, limitText } = await import('./format.js');
  const cmp = { replicates: 2000, comparisons: [{ few_units: true, stats: { f1: { ci: [0.01, 0.03], p_holm: 0.25, significant: false, min_p: 0.25, can_be_significant: false } } },
    { stats: { f1: { ci: [0.01, 0.03], p_holm: 0.01, significant: true } } }] };
  // The delta's text is the Markdown's; the limits are said beside it.
  assert.equal(sigText(cmp, 0, 'f1'), ' [+0.0100, +0.0300], p=0.2500');
  assert.equal(limitText(cmp, 0, 'f1'), 'cannot be significant with so few units (p ≥ 0.2500); few units: the interval is unreliable');
  // a report without the fields says nothing more
  assert.equal(limitText(cmp, 1, 'f1'), '');
  assert.equal(limitText(cmp, 0, 'fields.title'), '');
});
