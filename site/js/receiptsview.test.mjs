// Tests of receiptsview.js's pure functions with Node's test runner
// (make test-site-js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fmtOpt, countsText, refusalLines } from './receiptsview.js';

test('fmtOpt and countsText print like the Markdown report', () => {
  assert.equal(fmtOpt(0.5880441191144785), '0.5880');
  assert.equal(fmtOpt(null), 'n/a');
  assert.equal(countsText({ timeout: 1, ok: 23 }), 'ok 23, timeout 1');
  assert.equal(countsText({}), '');
});

test('refusalLines splits the refusal of an incomplete run', () => {
  const e = {
    file: 'run.jsonl',
    message: 'run.jsonl: run "p" is incomplete: 1 of 48 planned phase/sample pairs missing; refusing\n  missing:    c4/x\n  duplicated: c1/y recorded 2 times (lines 31, 32)',
  };
  assert.deepEqual(refusalLines(e), {
    head: 'run "p" is incomplete: 1 of 48 planned phase/sample pairs missing; refusing',
    pairs: ['missing:    c4/x', 'duplicated: c1/y recorded 2 times (lines 31, 32)'],
  });
});
