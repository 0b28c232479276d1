// Tests of roles.js with Node's test runner (make test-site-js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectRole, ROLES, COMPARE_ROLES, FAMILIES, casePaths, resolveCasePath } from './roles.js';

const header = 'name,title,arrival_date,departure_date,place_of_stay,place_of_origin,with_spouse,with_siblings,children_count\n';

test('detectRole reads names and contents', () => {
  const cases = [
    ['gt_page_27.csv', header + 'A,,,,,,,,\n', 'gt'],
    ['sample/tabular/gt/gt_page_07.csv', header, 'gt'],
    ['pages.csv', 'page,' + header, 'gt'],
    ['other.csv', header, 'gt'],
    ['empty.csv', '', 'ignore'],
    ['runs.jsonl', '{"model": "m", "phase": "G", "run": 1, "page": "27", "records": []}\n', 'runs'],
    ['runs.jsonl', '\ufeff\n\n{"model": "m", "page": 1, "response": "[]"}\n', 'runs'],
    ['broken.jsonl', '{oops\n', 'runs'],
    ['pilot.jsonl', '{"type": "run", "run_id": "x"}\n{"type": "request"}\n', 'receipt-run'],
    ['refs.jsonl', '{"sample_id": "cord-test-0000", "reference": "TOTAL 12.000"}\n', 'receipt-ref'],
    ['cord-0.json', '{"valid_line": [{"words": [{"text": "TOTAL"}]}]}', 'receipt-ref'],
    ['cord-1.json', '{"ground_truth": "{\\"gt_parse\\": {}, \\"valid_line\\": []}"}', 'receipt-ref'],
    ['schema.json', '{"key": "name", "columns": [{"name": "title", "kind": "text"}]}', 'schema'],
    ['other.json', '{"a": 1}', 'ignore'],
    ['EQUIVALENCES.md', 'anything', 'rules'],
    ['rules.md', '# Rules\n\n## 1. Ignore rules\n\n| field | token |\n', 'rules'],
    ['README.md', '# Sample\n\nSynthetic data.\n', 'ignore'],
    ['page.png', '\x89PNG', 'ignore'],
  ];
  for (const [name, text, want] of cases) {
    const got = detectRole(name, text);
    assert.equal(got.role, want, `${name}: ${JSON.stringify(got)}`);
    assert.ok(got.role in ROLES);
  }
});

test('detectRole tells harness cases and reports from the rest', () => {
  const cases = [
    ['cases.json', '{\n  "pipelines": [{"pipeline_id": "p", "stages": []}]\n}\n', 'cases'],
    ['cases.json', '{"case_id": "c", "prediction": {}}', 'cases'],
    ['cases.jsonl', '{"operation_metrics": {}}\n{"case_id": "c"}\n', 'cases'],
    ['cases.jsonl', '{"pipeline_id": "p", "stages": []}\n', 'cases'],
    ['report.json', '{\n  "kind": "harness",\n  "report_version": 1,\n  "pipelines": [],\n  "cases": []\n}\n', 'harness-report'],
    ['other.json', '{"kind": "receipts", "pipelines": []}', 'ignore'],
    ['a.json', '{\n  "kind": "tabular",\n  "gate": 0.7,\n  "cells": [],\n  "images": []\n}\n', 'score-report'],
    ['b.json', '{"kind": "receipts", "phases": [], "pages": []}', 'score-report'],
    ['c.json', '{"kind": "tabular", "cells": []}', 'ignore'],
    ['d.json', '{"kind": "comparison", "comparisons": []}', 'ignore'],
    ['runs.jsonl', '{"model": "m", "page": "1", "records": []}\n', 'runs'],
  ];
  for (const [name, text, want] of cases) {
    assert.equal(detectRole(name, text).role, want, name);
  }
});

test('casePaths lists the references named by path', () => {
  const json = JSON.stringify({
    pipelines: [{ pipeline_id: 'p', stages: [
      { case_id: 'c', references: [{ authority: 'evidence', path: 'invoice.png' }, { authority: 'ground_truth', value: { path: 'x' } }] },
      { case_id: 'd', references: [{ authority: 'ground_truth', path: 'truth/t.csv' }, { authority: 'evidence', path: 'invoice.png' }] },
    ] }],
  });
  assert.deepEqual(casePaths(json), ['invoice.png', 'truth/t.csv']);
  assert.deepEqual(casePaths('{"case_id": "a", "references": [{"authority": "evidence", "path": "a.pdf"}]}\n\n{"case_id": "b"}\n'), ['a.pdf']);
  assert.deepEqual(casePaths('{oops'), []);
});

test('resolveCasePath finds the dropped file', () => {
  const names = ['pipeline/cases.json', 'pipeline/invoice.png', 'truth.csv', 'a/x.pdf', 'b/x.pdf'];
  assert.equal(resolveCasePath('pipeline/cases.json', 'invoice.png', names), 'pipeline/invoice.png');
  assert.equal(resolveCasePath('pipeline/cases.json', './invoice.png', names), 'pipeline/invoice.png');
  assert.equal(resolveCasePath('pipeline/cases.json', '../truth.csv', names), 'truth.csv');
  assert.equal(resolveCasePath('cases.json', 'data/truth.csv', names), 'truth.csv'); // by its base name, the only one
  assert.equal(resolveCasePath('cases.json', 'x.pdf', names), null); // two candidates
  assert.equal(resolveCasePath('cases.json', 'missing.png', names), null);
});

test('the comparison roles are roles of no family', () => {
  for (const r of COMPARE_ROLES) {
    assert.ok(r in ROLES, r);
    for (const fam of Object.values(FAMILIES)) assert.ok(!fam.has(r), r);
  }
});

test('a path/value truth CSV is a file a cases file names, not ground truth', () => {
  const r = detectRole('examples/harness/direct/truth.csv', 'path,expected\n$.heading,Safety inspection\n');
  assert.equal(r.role, 'case-file');
});

test('notUTF8 names the first byte that is not UTF-8 by line and column', async () => {
  const { firstBadByte, notUTF8, isTextName } = await import('./roles.js');
  const enc = new TextEncoder();
  const good = enc.encode('name,x\nAnzola,é\nMois');
  assert.equal(firstBadByte(good), null);
  const bad = new Uint8Array([...good, 0xe8, ...enc.encode(' Cases\n')]); // Latin-1 è
  assert.deepEqual(firstBadByte(bad), { line: 3, column: 5 });
  assert.equal(notUTF8(bad), 'not UTF-8: re-save as UTF-8 (line 3, column 5: the first byte that is not UTF-8)');
  assert.deepEqual(firstBadByte(new Uint8Array([0xff, 0x41])), { line: 1, column: 1 });
  assert.deepEqual(firstBadByte(new Uint8Array([0x61, 0x62, 0xe2, 0x82])), { line: 1, column: 3 });
  assert.ok(isTextName('gt/gt_page_29.CSV') && isTextName('runs.jsonl') && !isTextName('scan.png'));
});
