// Tests of layout.js with Node's test runner (make test-site-js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseGate, axisFor, runSpread, filesSummary, skippedLines, splitMessages, reportFileName, changeGroups } from './layout.js';
import { prf, tallyText, changeValues } from './format.js';

test('parseGate refuses what --gate refuses and keeps blank as the default', () => {
  assert.deepEqual(parseGate(''), { value: 0.7 });
  assert.deepEqual(parseGate(' 0.85 '), { value: 0.85 });
  assert.deepEqual(parseGate('1'), { value: 1 });
  assert.deepEqual(parseGate('.5'), { value: 0.5 });
  for (const bad of ['2', '0', '-0.5', '1.01', 'abc', 'NaN', 'Infinity', '0x1', '1e3']) {
    const g = parseGate(bad);
    assert.ok(g.error && !('value' in g), `parseGate(${bad}) = ${JSON.stringify(g)}`);
    assert.match(g.error, /above 0 and at most 1/);
  }
  assert.match(parseGate('2').error, /got 2/);
});

test('axisFor fits the axis to close values and says so', () => {
  const a = axisFor([0.9663, 0.9781, 0.9805, 0.9902, 0.955, 0.999]);
  assert.equal(a.lo, 0.95);
  assert.equal(a.hi, 1);
  assert.equal(a.text, 'axis 0.95–1.00');
  assert.equal(a.full, false);
  assert.deepEqual(a.ticks, [0.95, 0.96, 0.97, 0.98, 0.99, 1]);
  // values spread over the range keep 0–1
  const b = axisFor([0.1, 0.9, null]);
  assert.equal(b.full, true);
  assert.equal(b.text, 'axis 0.00–1.00');
  // no values: 0–1
  assert.equal(axisFor([]).full, true);
  // a single value near the bottom: at least 0.05 wide, within [0, 1]
  const c = axisFor([0.01]);
  assert.ok(c.lo === 0 && c.hi >= 0.05 && c.hi <= 1, JSON.stringify(c));
  // one value of 1: an axis ending at 1
  const d = axisFor([1, 1]);
  assert.ok(d.hi === 1 && d.lo < 1 && d.lo >= 0.9, JSON.stringify(d));
  for (const ax of [a, b, c, d]) {
    assert.ok(ax.ticks[0] === ax.lo && ax.ticks[ax.ticks.length - 1] === ax.hi, JSON.stringify(ax));
  }
});

test('runSpread pools each run of a cell like the cell and gives min and max', () => {
  // cell 0: run 0 (two pages) and run 1; cell 1: one run; a failed image
  const images = {
    count: 5,
    cell: [0, 0, 0, 1, 0], run: [0, 0, 1, 0, 1], ok: [1, 1, 1, 1, 0],
    matched: [8, 9, 10, 5, 0], nModel: [10, 10, 10, 5, 0], nGT: [10, 9, 10, 6, 0],
  };
  const s = runSpread(images, 3);
  const run0 = prf(17, 20, 19)[2];
  assert.deepEqual(s[0], { runs: 2, min: Math.min(run0, 1), max: Math.max(run0, 1) });
  assert.deepEqual(s[1], { runs: 1, min: prf(5, 5, 6)[2], max: prf(5, 5, 6)[2] });
  assert.equal(s[2], null);
});

test('filesSummary counts the roles, most first', () => {
  const labels = { 'receipt-ref': 'Receipt references', 'receipt-run': 'Receipt run', ignore: 'Not used' };
  const files = [...Array(24).fill({ role: 'receipt-ref' }), { role: 'receipt-run' }, { role: 'ignore' }];
  assert.equal(filesSummary(files, labels), '26 files: 24 × Receipt references, 1 × Not used, 1 × Receipt run');
  assert.equal(filesSummary([{ role: 'x' }], labels), '1 file: 1 × x');
});

test('skippedLines reads the report warnings of skipped lines', () => {
  assert.deepEqual(skippedLines(['EQUIVALENCES.md:46: settled row without a witness',
    'skipped: runs.jsonl:5: expected a JSON object (one image per line): unexpected end',
    'skipped: dir/r.jsonl:12:3: not UTF-8']), [
    { file: 'runs.jsonl', line: 5, message: 'expected a JSON object (one image per line): unexpected end' },
    { file: 'dir/r.jsonl', line: 12, message: 'not UTF-8' },
  ]);
  assert.deepEqual(skippedLines(null), []);
});

test('splitMessages splits a list of input errors', () => {
  assert.deepEqual(splitMessages('a:1: x\nb:2: y\n'), ['a:1: x', 'b:2: y']);
  assert.deepEqual(splitMessages('one'), ['one']);
});

test('reportFileName names a download after its input', () => {
  assert.equal(reportFileName('sample/tabular/runs.jsonl', 'scores', 'json'), 'runs.scores.json');
  assert.equal(reportFileName('my runs.jsonl', 'scores.preview', 'md'), 'my_runs.scores.preview.md');
  assert.equal(reportFileName('cases.json', 'eval', 'md'), 'cases.eval.md');
});

test('changeGroups lists each previewed row, then all together, worded as the Markdown report', () => {
  const ch = (line, field, before, after, rows, extra = {}) => ({
    line, model: 'm', phase: 'G', run: 1, page: '27', gt: 'Anna', gt_line: 4, field, before, after,
    record_before: 'Anna', record_after: 'Anna', rows, ...extra,
  });
  const preview = {
    changes: [ch(1, 'title', 0.5, 1, [51]), ch(2, 'name', 0.25, 0, [32]), ch(3, 'pairing', null, 0.9, [], { record_before: '', record_after: 'Ana' })],
    change_counts: [{ line: 32, rose: 0, fell: 0, names: 1, pairings: 0 }, { line: 51, rose: 1, fell: 0, names: 0, pairings: 0 }],
    change_total: { rose: 1, fell: 0, names: 1, pairings: 1 },
  };
  const g = changeGroups(preview);
  assert.deepEqual(g.map((x) => [x.line, x.summary, x.changes.map((c) => c.line)]), [
    [32, 'line 32: 0 fields rose, 0 fell, 1 name CER changed', [2]],
    [51, 'line 51: 1 field rose, 0 fell', [1]],
    [0, 'all rows together: 1 field rose, 0 fell, 1 name CER changed, 1 pairing changed', [1, 2, 3]],
  ]);
  // one row previewed: no "all together" group
  assert.equal(changeGroups({ ...preview, change_counts: [preview.change_counts[1]] }).length, 1);
  assert.equal(tallyText({ rose: 14, fell: 0, names: 0, pairings: 2 }), '14 fields rose, 0 fell, 2 pairings changed');
  assert.equal(changeValues(preview.changes[0], 'name'), '0.5000 → 1.0000');
  assert.equal(changeValues(preview.changes[1], 'name'), 'CER 0.2500 → 0.0000');
  assert.equal(changeValues(preview.changes[2], 'name'), 'none → Ana (0.9000)');
});

test('leftOutGroups puts unreadable files first and groups the runs lines of one reason', async () => {
  const { leftOutGroups, linesText } = await import('./layout.js');
  const missing = 'page 29 has no ground-truth file (expected gt_page_29.csv or a row with page 29; pages given: 27, 28)';
  const g = leftOutGroups([
    { file: 'EQUIVALENCES.md', line: 31, column: 0, what: 'rule row', why: 'unknown status "maybe"' },
    { file: 'runs.jsonl', line: 3, column: 0, what: 'runs line', why: missing },
    { file: 'runs.jsonl', line: 5, column: 2, what: 'runs line', why: 'invalid JSON' },
    { file: 'runs.jsonl', line: 6, column: 0, what: 'runs line', why: missing },
    { file: 'runs.jsonl', line: 9, column: 0, what: 'runs line', why: missing },
  ], [{ name: 'gt/gt_page_29.csv', error: 'not UTF-8: re-save as UTF-8', line: 3, column: 5 }]);
  assert.deepEqual(g.map((x) => [x.file, x.lines]), [
    ['gt/gt_page_29.csv', [3]], ['EQUIVALENCES.md', [31]], ['runs.jsonl', [3]], ['runs.jsonl', [5]], ['runs.jsonl', [6, 9]]]);
  assert.equal(g[2].why, 'page 29 has no ground truth: gt/gt_page_29.csv cannot be read');
  assert.equal(g[3].column, 2);
  assert.equal(leftOutGroups(undefined).length, 0);
  assert.equal(linesText([5]), 'line 5');
  assert.equal(linesText([2, 6, 9]), 'lines 2, 6, 9');
  assert.equal(linesText([1, 2, 3], 2), 'lines 1, 2 … (3 lines)');
});
