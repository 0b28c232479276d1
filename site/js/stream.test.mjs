// Tests of stream.js and streamview.js with Node's test runner (make test-site-js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LineSplitter, sections, progressOf, progressText, durationText, MAX_LINE } from './stream.js';
import { ViewBuilder, buildView, imageRow } from './streamview.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

// split cuts text into chunks of size bytes and returns the batches.
function split(text, size, opts) {
  const batches = [];
  const s = new LineSplitter('runs.jsonl', (b) => batches.push({ ...b, text: dec.decode(b.bytes) }), opts);
  const bytes = enc.encode(text);
  for (let i = 0; i < bytes.length; i += size) s.push(bytes.subarray(i, i + size));
  s.end();
  return { batches, s };
}

test('batches are whole lines, numbered, whatever the chunks', () => {
  const text = 'a1\nbb2\n\nccc4\r\nd5';
  for (const size of [1, 2, 3, 5, 100]) {
    const { batches } = split(text, size, { lines: 2 });
    assert.deepEqual(batches.map((b) => [b.first, b.text, b.end]), [
      [1, 'a1\nbb2\n', 7], [3, '\nccc4\r\n', 14], [5, 'd5', 16],
    ], `chunks of ${size}`);
  }
});

test('a batch ends at its byte bound, after a whole line', () => {
  const { batches } = split('aaaa\nbbbb\ncccc\n', 3, { bytes: 6 });
  assert.deepEqual(batches.map((b) => b.text), ['aaaa\nbbbb\n', 'cccc\n']);
});

test('every line\'s offsets, for a drill-down', () => {
  const text = 'a1\nbb2\n\nccc4\r\nd5';
  const { s } = split(text, 3, { lines: 2 });
  const at = (n) => {
    const r = s.lineRange(n);
    return r && text.slice(r[0], r[1]);
  };
  assert.deepEqual([1, 2, 3, 4, 5].map(at), ['a1', 'bb2', '', 'ccc4\r', 'd5']);
  assert.equal(s.lineRange(6), null);
  assert.equal(s.lineRange(0), null);
});

test('a file ending in a line end has no last batch of nothing', () => {
  const { batches } = split('x\ny\n', 1, { lines: 10 });
  assert.deepEqual(batches.map((b) => [b.first, b.text]), [[1, 'x\ny\n']]);
});

test('a line longer than the core reads is an error at its line', () => {
  const s = new LineSplitter('r.jsonl', () => {});
  s.push(enc.encode('{}\n'));
  const big = new Uint8Array(MAX_LINE + 1);
  assert.throws(() => s.push(big), /^Error: r\.jsonl:2: line longer than 256 MiB/);
});

test('sections are read back; a cut answer is refused', () => {
  const b = new Uint8Array([2, 0, 0, 0, 65, 66, 0, 0, 0, 0, 1, 0, 0, 0, 7]);
  assert.deepEqual(sections(b).map((x) => [...x]), [[65, 66], [], [7]]);
  assert.throws(() => sections(b.subarray(0, 5)));
  assert.throws(() => sections(b.subarray(0, 2)));
});

test('rate and time left', () => {
  assert.deepEqual(progressOf({ done: 25, total: 100, images: 500, ms: 2000 }), { rate: 250, left: 6000 });
  assert.equal(progressOf({ done: 0, total: 100, images: 0, ms: 0 }).left, null);
  assert.equal(durationText(5400), '5 s');
  assert.equal(durationText(125000), '2 min 5 s');
  assert.equal(durationText(3840000), '1 h 4 min');
  assert.equal(progressText({ name: 'r.jsonl', done: 25, total: 100, images: 12500, ms: 2000 }),
    'Scoring r.jsonl: 25%, 12,500 images, 6,250 images/s, about 6 s left');
});

const rep = {
  gate: 0.7, key: 'name', fields: ['title'], rules: {}, warnings: [],
  cells: [{ model: 'a', phase: 'G' }, { model: 'b', phase: 'G' }],
  images: [
    { line: 1, model: 'b', phase: 'G', run: 1, page: '10', status: 'ok', matched: 2, n_model: 3, n_gt: 2, f1: 0.8 },
    { line: 2, model: 'a', phase: 'G', run: '2', page: '9', status: 'failed', failure: 'timeout', matched: 0, n_model: 0, n_gt: 0, f1: 0 },
    { line: 3, model: 'a', phase: 'G', run: 1, page: '9', status: 'ok', matched: 1, n_model: 1, n_gt: 2, f1: 0.6666666666666666 },
    { line: 5, model: 'b', phase: 'G', run: 1, page: '9', status: 'ok', matched: 1, n_model: 1, n_gt: 1, f1: 1 },
  ],
};

test('the view built in parts is the view of the whole summary', () => {
  const whole = buildView(rep);
  const b = new ViewBuilder();
  b.add(rep.images.slice(0, 1).map(imageRow));
  b.add([]);
  b.add(rep.images.slice(1).map(imageRow));
  assert.deepEqual(b.finish(rep), whole);
  assert.deepEqual([...whole.images.cell], [1, 0, 0, 1]);
  assert.deepEqual(whole.pages.ids, ['9', '10']);
  assert.deepEqual(whole.pages.f1, [[0.6666666666666666, 1], [null, 0.8]]);
  assert.deepEqual(whole.failed, [{ line: 2, model: 'a', phase: 'G', run: '2', page: '9', failure: 'timeout' }]);
  assert.equal(whole.images.count, 4);
});

test('the table grows past its first size', () => {
  const b = new ViewBuilder();
  const rows = [];
  for (let i = 1; i <= 5000; i++) rows.push([i, 'm', 'p', i, 'p1', 1, 1, 1, 1, 1, undefined]);
  b.add(rows);
  const v = b.finish({ cells: [{ model: 'm', phase: 'p' }] });
  assert.equal(v.images.count, 5000);
  assert.equal(v.images.line[4999], 5000);
  assert.equal(v.runIds.length, 5000);
});

test('the pool has a worker a core, at most 8', async () => {
  const { poolSize } = await import('./pool.js');
  assert.deepEqual([undefined, 1, 2, 8, 16].map(poolSize), [1, 1, 2, 8, 8]);
});
