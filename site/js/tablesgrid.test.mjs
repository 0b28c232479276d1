import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gridRows, predictionOf, cellLines } from './tablesgrid.js';

test('gridRows keeps spans and fills the places no cell covers', () => {
  const grid = {
    rows: 3, cols: 3, cells: [
      { row: 0, col: 0, rowspan: 2, colspan: 1, text: 'a' },
      { row: 0, col: 1, rowspan: 1, colspan: 2, text: 'b' },
      { row: 1, col: 2, rowspan: 1, colspan: 1, text: 'c' },
      { row: 2, col: 0, rowspan: 1, colspan: 1, text: 'd' },
    ],
  };
  const rows = gridRows(grid);
  assert.deepEqual(rows.map((r) => r.map((c) => c.filler ? '_' : c.text)), [['a', 'b'], ['_', 'c'], ['d', '_', '_']]);
  // Row 1, column 0 is covered by a's rowspan: no filler there.
  assert.equal(rows[1][0].col, 1);
});

test('gridRows ignores cells outside the grid', () => {
  const rows = gridRows({ rows: 1, cols: 1, cells: [{ row: 0, col: 0, rowspan: 1, colspan: 1 }, { row: 5, col: 0, rowspan: 1, colspan: 1 }] });
  assert.equal(rows.length, 1);
  assert.equal(rows[0].length, 1);
});

test('predictionOf finds the line and the key in its own file', () => {
  const runs = [
    '{"model":"a","phase":"c1","run":"1","table":"#1","html":"<table></table>"}',
    'not json',
    '{"model":"a","phase":"c1","run":2,"table":"#2","markdown":"|x|"}',
    '{"model":"b","table":"doc","csv":"x,y"}',
  ].join('\n');
  assert.deepEqual(predictionOf(runs, { model: 'a', phase: 'c1', run: '1', table: '#1' }),
    { file: { name: 'prediction.html', text: '<table></table>' }, table: '#1' });
  assert.deepEqual(predictionOf(runs, { model: 'a', phase: 'c1', run: '2', table: '#2' }),
    { file: { name: 'prediction.md', text: '|x|' }, table: '#1' });
  assert.deepEqual(predictionOf(runs, { model: 'b', phase: '', run: '', table: 'doc#3' }),
    { file: { name: 'prediction.csv', text: 'x,y' }, table: '#3' });
  assert.equal(predictionOf(runs, { model: 'a', phase: 'c1', run: '1', table: '#2' }), null);
});

test('cellLines writes means and intervals as the Markdown report', () => {
  const cell = {
    teds: 0.91156, teds_s: 1, grits_top: null, grits_con: 0.5,
    ci: { teds: [0.80704, 0.99782], teds_s: [1, 1], grits_top: null, grits_con: [0.25, 0.75] },
  };
  assert.deepEqual(cellLines(cell), [
    ['TEDS', '0.9116 [0.8070, 0.9978]'],
    ['TEDS-S', '1.0000 [1.0000, 1.0000]'],
    ['GriTS-Top', '– [–]'],
    ['GriTS-Con', '0.5000 [0.2500, 0.7500]'],
  ]);
});
