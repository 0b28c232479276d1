// node.test.mjs — @docscore/core, installed from its tarball, against the
// command line: every report byte for byte. Run by the Go test
// TestInstalledPackage (cmd/docscore/internal/npmpkg), which copies this
// file into a project where the tarball is installed and writes the
// command line's reports into $DOCSCORE_EXPECTED; $DOCSCORE_REPO is the
// repository, whose samples are read.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { scoreTabular, checkRules, scoreReceipts, evaluate, compare, textPage, reportMarkdown, version, DocscoreError } from '@docscore/core';

const repo = process.env.DOCSCORE_REPO;
const expected = process.env.DOCSCORE_EXPECTED;
assert.ok(repo && expected, 'DOCSCORE_REPO and DOCSCORE_EXPECTED must be set');

// file reads a file under dir, named name as the command line named it.
const file = (dir, name, encoding = 'utf8') => ({ name, text: readFileSync(join(dir, name), encoding) });
const want = (name) => new Uint8Array(readFileSync(join(expected, name)));
const text = (bytes) => new TextDecoder().decode(bytes);

// The tabular sample, named as "docscore score tabular --sample" names it.
const tabular = {
  gt: readdirSync(join(repo, 'sample/tabular/gt')).sort().map((n) => file(repo, `sample/tabular/gt/${n}`)),
  runs: file(repo, 'sample/tabular/runs.jsonl'),
  rules: file(repo, 'sample/tabular/EQUIVALENCES.md'),
};

test('scoreTabular: the sample, byte for byte the command line', async () => {
  for (const format of ['json', 'csv', 'md']) {
    assert.deepEqual(await scoreTabular(tabular, { format, raw: true }), want(`tabular.${format}`), format);
  }
  assert.equal(await scoreTabular(tabular, { format: 'md' }), text(want('tabular.md')));
  const report = await scoreTabular(tabular);
  assert.deepEqual(report, JSON.parse(text(want('tabular.json'))));
  assert.equal(report.kind, 'tabular');
});

test('scoreTabular: bytes in, the same report as text in', async () => {
  const bytes = (f) => ({ name: f.name, text: new TextEncoder().encode(f.text) });
  const got = await scoreTabular({ gt: tabular.gt.map(bytes), runs: bytes(tabular.runs), rules: bytes(tabular.rules) }, { raw: true });
  assert.deepEqual(got, want('tabular.json'));
});

test('checkRules: the rule file, as "docscore rules check --format json"', async () => {
  assert.deepEqual(await checkRules({ rules: tabular.rules }, { raw: true }), want('rules.json'));
  const check = await checkRules({ rules: tabular.rules });
  assert.equal(check.file, 'sample/tabular/EQUIVALENCES.md');
  assert.equal(check.errors.length, 0);
});

test('scoreReceipts: the receipts sample, byte for byte', async () => {
  // Named as the command line was given them (--refs sample/receipts/refs
  // --run sample/receipts/run.jsonl): the report's provenance records the
  // names its host was given.
  const refs = readdirSync(join(repo, 'sample/receipts/refs')).sort().map((n) => file(repo, `sample/receipts/refs/${n}`));
  const input = { refs, run: file(repo, 'sample/receipts/run.jsonl') };
  for (const format of ['json', 'csv', 'md']) {
    assert.deepEqual(await scoreReceipts(input, { format, raw: true }), want(`receipts.${format}`), format);
  }
  assert.equal((await scoreReceipts(input)).kind, 'receipts');
});

test('evaluate: the pipeline example, byte for byte "docscore eval --judge none"', async () => {
  const dir = join(repo, 'examples/harness/pipeline');
  const files = readdirSync(dir).filter((n) => n !== 'cases.json').map((n) => ({ name: n, text: new Uint8Array(readFileSync(join(dir, n))) }));
  const input = { cases: file(dir, 'cases.json'), files };
  assert.deepEqual(await evaluate(input, { raw: true }), want('eval.json'));
  assert.equal(await evaluate(input, { format: 'md' }), text(want('eval.md')));
});

test('compare: the sample report within itself, byte for byte', async () => {
  const base = { name: 'tabular.json', text: want('tabular.json') };
  for (const format of ['json', 'md']) {
    assert.deepEqual(await compare({ base }, { within: true, format, raw: true }), want(`compare.${format}`), format);
  }
  assert.equal((await compare({ base }, { within: true })).kind, 'comparison');
});

test('compare: a settled scoring with its preview, byte for byte "compare --preview"', async () => {
  const base = { name: 'tabular.json', text: want('tabular.json') };
  const preview = { name: 'tabular-preview.json', text: want('tabular-preview.json') };
  for (const format of ['json', 'md']) {
    assert.deepEqual(await compare({ base, new: preview }, { preview: true, format, raw: true }), want(`compare-preview.${format}`), format);
  }
  const report = await compare({ base, new: preview }, { preview: true });
  assert.ok(report.comparisons[0].a.id.startsWith('settled:'), report.comparisons[0].a.id);
  const bad = await compare({ base }, { within: true, preview: true }).then(() => null, (e) => e);
  assert.equal(bad.code, 'bad_request');
});

test('textPage and reportMarkdown: operations the command line does not answer', async () => {
  const page = await textPage({ gt: { name: '0001.gt.txt', text: 'Zu Venedig, im Jahre 1769.\n' }, ocr: { name: '0001.ocr.txt', text: 'Zu Venedlg, im Jahre 1769\n' } });
  assert.deepEqual(page, JSON.parse(text(want('textpage.json'))));
  // The Markdown "docscore eval --markdown" wrote beside the report.
  assert.deepEqual(await reportMarkdown({ report: { name: 'eval.json', text: want('eval.json') } }, { raw: true }), want('eval.md'));
  assert.equal(await reportMarkdown({ report: { name: 'eval.json', text: want('eval.json') } }), text(want('eval.md')));
});

test('a failed call rejects with the code, file and line', async () => {
  const runs = { name: 'runs.jsonl', text: tabular.runs.text + '{"image": \n' };
  const err = await scoreTabular({ ...tabular, runs }).then(() => null, (e) => e);
  assert.ok(err instanceof DocscoreError, String(err));
  assert.equal(err.code, 'input');
  assert.equal(err.file, 'runs.jsonl');
  assert.equal(err.line, tabular.runs.text.split('\n').length);
  const bad = await scoreTabular(tabular, { format: 'xml' }).then(() => null, (e) => e);
  assert.equal(bad.code, 'bad_request');
  await assert.rejects(scoreTabular({ gt: 'no', runs: tabular.runs }), TypeError);
});

test('version', async () => {
  assert.equal(typeof (await version()), 'string');
});
