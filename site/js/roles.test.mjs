// Tests of roles.js with Node's test runner (make test-site-js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectRole, ROLES } from './roles.js';

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
