// Tests of warmup.js with Node's test runner (make test-site-js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { warmUpRequests, warmUpCalls, LARGER_COPIES, SAMPLE_CALLS, LARGER_CALLS } from './warmup.js';

const runsText = readFileSync(new URL('../../sample/tabular/runs.jsonl', import.meta.url), 'utf8');
const files = [
  { name: 'gt_page_27.csv', role: 'gt', text: 'name\nA\n' },
  { name: 'runs.jsonl', role: 'runs', text: runsText },
  { name: 'EQUIVALENCES.md', role: 'rules', text: '# rules\n' },
  { name: 'notes.txt', role: 'ignore', text: 'x' },
];

test('the sample request holds the sample files by role', () => {
  const { sample } = warmUpRequests(files);
  assert.deepEqual(sample, {
    gt: [{ name: 'gt_page_27.csv', text: 'name\nA\n' }],
    runs: { name: 'runs.jsonl', text: runsText },
    rules: { name: 'EQUIVALENCES.md', text: '# rules\n' },
  });
});

test('every warm-up call names its runs file as no other does', () => {
  const { sample, larger } = warmUpRequests(files);
  const calls = warmUpCalls(files);
  assert.equal(calls.length, SAMPLE_CALLS + LARGER_CALLS);
  assert.equal(new Set(calls.map((c) => c.runs.name)).size, calls.length, 'a runs name given twice');
  calls.forEach((c, i) => {
    const want = i < SAMPLE_CALLS ? sample : larger;
    assert.equal(c.runs.text, want.runs.text);
    assert.equal(c.runs.name, `warm-up-${i + 1}/runs.jsonl`);
    assert.deepEqual(c.gt, want.gt);
    assert.deepEqual(c.rules, want.rules);
  });
  assert.equal(sample.runs.name, 'runs.jsonl', 'the requests given are not changed');
});

test('the larger runs file repeats every image under runs of its own', () => {
  const { sample, larger } = warmUpRequests(files);
  const original = runsText.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const lines = larger.runs.text.trimEnd().split('\n').map((l) => JSON.parse(l));
  assert.equal(lines.length, LARGER_COPIES * original.length);
  const key = (o) => JSON.stringify([o.model, o.phase, o.run, o.page]);
  assert.equal(new Set(lines.map(key)).size, lines.length, 'no image is scored twice');
  lines.forEach((o, i) => {
    const { run, ...rest } = original[i % original.length];
    const { run: copyRun, ...copyRest } = o;
    assert.deepEqual(copyRest, rest);
    assert.equal(copyRun, `${run}-${Math.floor(i / original.length) + 1}`);
  });
  assert.equal(larger.gt, sample.gt);
  assert.equal(larger.rules, sample.rules);
});
