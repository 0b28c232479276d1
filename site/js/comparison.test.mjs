// Tests of comparison.js with Node's test runner (make test-site-js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  signed4, opt4, intervalText, statList, movementText, verdict, statNote, pairSpec, sideLabel,
  fileStem, comparisonFileName, previewStats, previewRow, cellKey, lowerIsBetter,
} from './comparison.js';

// stat builds one statistic's comparison as the report writes it.
const stat = (a, b, ci, p, pHolm, significant, better) => ({
  a, b, delta: b - a, ci, p, p_holm: pHolm, significant, better, kept: { bootstrap: 2000, permutations: 10000 },
});

// A hand-made report.preview.comparison (SPEC F.6): each cell settled (A)
// against its preview (B).
const previewComparison = {
  kind: 'comparison', family: 'tabular', level: 0.95, replicates: 2000, permutations: 10000, seed: 0, alpha: 0.05,
  comparisons: [
    {
      a: { model: 'gpt-4o', phase: 'G', id: 'settled:tabular/gpt-4o/G' },
      b: { model: 'gpt-4o', phase: 'G', id: 'preview:tabular/gpt-4o/G' },
      units_paired: 9, units_only_a: [], units_only_b: [],
      stats: {
        precision: stat(0.9, 0.92, [0.005, 0.03], 0.004, 0.008, true, 'b'),
        recall: stat(0.8, 0.8, null, 1, 1, false, null),
        f1: stat(0.85, 0.87, [0.004, 0.031], 0.002, 0.004, true, 'b'),
        name_cer: stat(0.02, 0.02, [0, 0], null, null, false, null),
        fields: { title: stat(0.95, 0.9, [-0.1, -0.01], 0.01, 0.03, true, 'a') },
      },
      movement: { rose: ['27', '29', '3', '4', '5', '6', '8'], fell: ['28', '30'], same: 0 },
    },
    {
      a: { model: 'claude', phase: 'N', id: 'settled:tabular/claude/N' },
      b: { model: 'claude', phase: 'N', id: 'preview:tabular/claude/N' },
      units_paired: 3, units_only_a: [], units_only_b: [],
      stats: { f1: stat(0.9, 0.9, [-0.001, 0.001], 1, 1, false, null), fields: {} },
      movement: { rose: ['27'], fell: [], same: 2 },
    },
  ],
};

test('numbers are written as the Markdown report writes them', () => {
  assert.equal(signed4(0.0128), '+0.0128');
  assert.equal(signed4(-0.02531), '-0.0253');
  assert.equal(signed4(0), '+0.0000');
  assert.equal(signed4(-0), '-0.0000');
  assert.equal(signed4(-0.00001), '-0.0000');
  assert.equal(signed4(0.03125), '+0.0312'); // Go's %+.4f rounds an exact tie to even
  assert.equal(signed4(-0.03125), '-0.0312');
  assert.equal(opt4(null), '–');
  assert.equal(opt4(0.51348), '0.5135');
  assert.equal(intervalText([-0.026103711150205378, -0.0009579916673301257]), '[-0.0261, -0.0010]');
  assert.equal(intervalText(null), '');
});

test('statList keeps the report order and names the fields', () => {
  const list = statList(previewComparison.comparisons[0].stats);
  assert.deepEqual(list.map((x) => x.path), ['precision', 'recall', 'f1', 'name_cer', 'fields.title']);
  assert.deepEqual(list.map((x) => x.label), ['precision', 'recall', 'f1', 'name_cer', 'title']);
  assert.ok(lowerIsBetter('name_cer') && !lowerIsBetter('f1'));
});

test('movement, verdicts and notes', () => {
  const [c0, c1] = previewComparison.comparisons;
  assert.equal(movementText('tabular', c0.movement), 'F1 rose on 7 pages, fell on 2');
  assert.equal(movementText('tabular', c1.movement), 'F1 rose on 1 page, fell on 0, stayed on 2');
  assert.equal(movementText('receipts', { rose: ['a', 'b'], fell: ['c'], same: 0 }), 'ROUGE-L F1 rose on 2 samples, fell on 1');
  assert.equal(verdict(c0.stats.f1), 'B better');
  assert.equal(verdict(c0.stats.fields.title, 'preview'), 'preview worse');
  assert.equal(verdict(c0.stats.recall), 'not significant');
  assert.equal(verdict(c0.stats.name_cer), '–');
  assert.equal(statNote(c0.stats.f1), '[+0.0040, +0.0310], Holm p 0.0040, significant');
  assert.equal(statNote(c0.stats.recall), 'Holm p 1.0000');
  assert.equal(statNote(c0.stats.name_cer), '[+0.0000, +0.0000]');
});

test('pairs and file names', () => {
  assert.equal(pairSpec({ model: 'gpt-4o', phase: 'G' }, { model: 'claude', phase: 'G' }), 'gpt-4o/G:claude/G');
  assert.equal(pairSpec({ phase: 'c1', id: 'receipts/c1' }, { phase: 'c4' }), 'c1:c4');
  assert.equal(sideLabel({ model: null, phase: 'c1' }), 'c1');
  assert.equal(fileStem('some/dir/run 2.jsonl'), 'run_2');
  assert.equal(fileStem('.json'), 'report');
  assert.equal(comparisonFileName('a.json', 'runs/b.json', 'json'), 'a-vs-b.comparison.json');
  assert.equal(comparisonFileName('a.json', 'b.json', 'junit'), 'a-vs-b.comparison.junit.xml');
});

test('previewStats keys each cell and is empty without a comparison', () => {
  const m = previewStats(previewComparison);
  assert.equal(m.size, 2);
  const g = m.get(cellKey('gpt-4o', 'G'));
  assert.equal(g.text, 'F1 rose on 7 pages, fell on 2');
  assert.deepEqual(Object.keys(g.stats), ['precision', 'recall', 'f1', 'name_cer', 'fields.title']);
  assert.equal(g.stats['fields.title'].better, 'a');
  assert.deepEqual(g.movement.fell, ['28', '30']);
  assert.equal(previewStats(undefined).size, 0);
  assert.equal(previewStats(null).size, 0);
  assert.equal(previewStats({ kind: 'comparison' }).size, 0);
});

test('previewRow lines the notes up with the delta columns of the preview table', () => {
  const m = previewStats(previewComparison);
  const row = previewRow(m.get(cellKey('gpt-4o', 'G')), ['title', 'arrival_date']);
  assert.deepEqual(row.notes, [
    { text: '[+0.0040, +0.0310], Holm p 0.0040, significant', significant: true, worse: false },
    { text: '[+0.0000, +0.0000]', significant: false, worse: false },
    { text: '[-0.1000, -0.0100], Holm p 0.0300, significant', significant: true, worse: true },
    null,
  ]);
  assert.deepEqual(row.movement, { text: 'F1 rose on 7 pages, fell on 2', rose: ['27', '29', '3', '4', '5', '6', '8'], fell: ['28', '30'] });
  const other = previewRow(m.get(cellKey('claude', 'N')), ['title']);
  assert.equal(other.notes[0].text, '[-0.0010, +0.0010], Holm p 1.0000');
  assert.deepEqual(other.notes.slice(1), [null, null]);
  assert.equal(previewRow(m.get(cellKey('nobody', 'G')), ['title']), null);
});
