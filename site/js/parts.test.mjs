// Tests of parts.js with Node's test runner (make test-site-js). The Go
// side of the same contract is api.ResolveParts and the bridge's
// TestPartsGiveTheSameAnswer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { splitTexts } from './parts.js';

test('texts leave the JSON and are named by part, in order', () => {
  const request = {
    gt: [{ name: 'gt_page_27.csv', text: 'name\nA "B"\n' }, { name: 'gt_page_28.csv', text: 'name\nC\n' }],
    runs: { name: 'runs.jsonl', text: '{"model":"m"}\n' },
    rules: { name: 'EQUIVALENCES.md', text: '' },
    schema: { name: 'schema.json', base64: 'e30=' },
    preview: 'open', gate: 0.8, format: 'json',
  };
  const before = structuredClone(request);
  const { json, parts } = splitTexts(request);
  assert.deepEqual(parts, ['name\nA "B"\n', 'name\nC\n', '{"model":"m"}\n']);
  assert.deepEqual(JSON.parse(json), {
    gt: [{ name: 'gt_page_27.csv', part: 1 }, { name: 'gt_page_28.csv', part: 2 }],
    runs: { name: 'runs.jsonl', part: 3 },
    rules: { name: 'EQUIVALENCES.md', text: '' }, // an empty text stays: there is nothing to save
    schema: { name: 'schema.json', base64: 'e30=' },
    preview: 'open', gate: 0.8, format: 'json',
  });
  assert.deepEqual(request, before, 'the request is left as it was');
});

test('a request without files is its plain JSON', () => {
  for (const request of [{}, { line: 3 }, { report: null, list: [1, 'a'] }]) {
    const { json, parts } = splitTexts(request);
    assert.equal(json, JSON.stringify(request));
    assert.deepEqual(parts, []);
  }
});

test('only objects with a string name and a string text are files', () => {
  const { json, parts } = splitTexts({ a: { text: 'no name' }, b: { name: 1, text: 'x' }, c: { name: 'n', text: 2 } });
  assert.deepEqual(parts, []);
  assert.deepEqual(JSON.parse(json), { a: { text: 'no name' }, b: { name: 1, text: 'x' }, c: { name: 'n', text: 2 } });
});
