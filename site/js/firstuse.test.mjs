// Tests of firstuse.js with Node's test runner (make test-site-js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { csvRows, suggestSchema, schemaText, isHeaderMismatch } from './firstuse.js';

test('csvRows reads quotes, doubled quotes and CRLF', () => {
  assert.deepEqual(csvRows('\ufeffa,b\r\n"x, y","say ""hi"""\n1,2'), [['a', 'b'], ['x, y', 'say "hi"'], ['1', '2']]);
  assert.deepEqual(csvRows('a,b\n1,2\n3,4\n', 2), [['a', 'b'], ['1', '2']]);
});

test('suggestSchema picks a key and guesses kinds', () => {
  const s = suggestSchema('Page,Item,Description,Quantity,Paid\n1,A-1,bolts,3,Y\n1,A-2,nuts,,n\n');
  assert.deepEqual(s, {
    key: 'item',
    columns: [{ name: 'description', kind: 'text' }, { name: 'quantity', kind: 'integer' }, { name: 'paid', kind: 'yesno' }],
  });
  // no identifier-like name: the first column is the key
  assert.equal(suggestSchema('vendor,total\nacme,12.50\n').key, 'vendor');
  assert.deepEqual(suggestSchema('vendor,total\nacme,12.50\n').columns, [{ name: 'total', kind: 'text' }]);
  // too few columns
  assert.equal(suggestSchema('page,name\n'), null);
  assert.equal(suggestSchema(''), null);
});

test('schemaText is a schema file scoring/schema reads', () => {
  const s = { key: 'item', columns: [{ name: 'qty, "n"', kind: 'integer' }, { name: 'paid', kind: 'yesno' }] };
  const text = schemaText(s);
  assert.deepEqual(JSON.parse(text), s);
  assert.match(text, /^\{\n {2}"key": "item",\n {2}"columns": \[\n {4}\{"name": /);
});

test('isHeaderMismatch recognises the core error of a CSV header', () => {
  assert.ok(isHeaderMismatch({ file: 'gt_page_01.csv', message: 'gt_page_01.csv:1: header lacks the column(s) name, title (expected name, title)' }));
  assert.ok(!isHeaderMismatch({ file: 'runs.jsonl', message: 'runs.jsonl:1: header lacks the column(s) x' }));
  assert.ok(!isHeaderMismatch({ file: 'a.csv', message: 'a.csv:3: expected 9 cells' }));
  assert.ok(!isHeaderMismatch(null));
});
