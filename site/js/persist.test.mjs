// Tests of persist.js's pure parts with Node's test runner (make
// test-site-js); its IndexedDB calls run in the browser tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { packFiles, unpackFiles, unpackSettings, SETTINGS } from './persist.js';
import { ROLES } from './roles.js';

test('a kept file list comes back as it was', () => {
  const files = [
    { id: 3, name: 'runs.jsonl', size: 10, role: 'runs', auto: true, note: '', detected: { role: 'runs', note: '' }, error: '', text: '{"model": "m"}\n', bytes: null },
    { id: 4, name: 'x.png', size: 3, role: 'case-file', auto: false, note: 'named', detected: null, error: '', text: '', bytes: new Uint8Array([1, 2, 3]) },
  ];
  const back = unpackFiles(structuredClone(packFiles(files)), ROLES);
  assert.equal(back.length, 2);
  assert.deepEqual(back[0], { name: 'runs.jsonl', size: 10, role: 'runs', auto: true, note: '', detected: { role: 'runs', note: '' }, error: '', text: '{"model": "m"}\n', bytes: null });
  assert.deepEqual([...back[1].bytes], [1, 2, 3]);
  assert.deepEqual(back[1].detected, { role: 'case-file', note: '' });
  assert.ok(!('id' in back[0]));
});

test('what is not a kept file is left out', () => {
  assert.deepEqual(unpackFiles(null, ROLES), []);
  assert.deepEqual(unpackFiles([{ name: 'a', text: 'x', role: 'nope', bytes: null }, { name: '', text: '', role: 'gt', bytes: null },
    { name: 'b', text: 1, role: 'gt', bytes: null }, 7], ROLES), []);
});

test('settings fall back to their defaults', () => {
  assert.deepEqual(unpackSettings(undefined), SETTINGS);
  assert.deepEqual(unpackSettings({ gate: '0.8', preview: [51, 'x', -1, 52], skipBadInputs: false, metric: 'recall', allowIncomplete: 'yes' }),
    { gate: '0.8', preview: [51, 52], skipBadInputs: false, allowIncomplete: false, metric: 'recall' });
  // Scoring what is valid is the default.
  assert.equal(unpackSettings({ skipBadLines: false }).skipBadInputs, true);
});

test('files of 8 MiB or more, and streamed ones, are not kept, and named', async () => {
  const { splitKept, unpackLeft, KEEP_MAX } = await import('./persist.js');
  const { kept, left } = splitKept([{ name: 'a.csv', size: 10 }, { name: 'runs.jsonl', size: 48e6 },
    { name: 'edge.txt', size: KEEP_MAX }, { name: 'small.jsonl', size: 5, streamed: true }, { name: 'b', size: KEEP_MAX - 1 }]);
  assert.deepEqual(kept.map((f) => f.name), ['a.csv', 'b']);
  assert.deepEqual(left, [{ name: 'runs.jsonl', size: 48e6 }, { name: 'edge.txt', size: KEEP_MAX }, { name: 'small.jsonl', size: 5 }]);
  assert.deepEqual(unpackLeft([{ name: 'x', size: 3 }, { name: 1, size: 2 }, null]), [{ name: 'x', size: 3 }]);
  assert.deepEqual(unpackLeft(undefined), []);
});
