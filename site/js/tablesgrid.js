// tablesgrid.js — pure helpers of the tables view (tables.html): a grid of
// the detail operation laid out as HTML table rows with real spans, the
// prediction of one report row found in a runs file, and a cell's means
// with their intervals as the Markdown report writes them. Tested with
// node --test.

import { fmtOpt4, ciText } from './format.js';

// The statistics of a tables cell, in the report's order, with their labels.
export const STATS = [
  ['teds', 'TEDS'],
  ['teds_s', 'TEDS-S'],
  ['grits_top', 'GriTS-Top'],
  ['grits_con', 'GriTS-Con'],
];

// gridRows lays out a grid ({rows, cols, cells}) as rows of what to draw:
// each cell in the row it starts in, left to right, with its spans, and a
// filler ({filler: true, row, col}) for every place no cell covers (a
// ragged row), so the drawn table keeps the grid's shape.
export function gridRows(grid) {
  const covered = Array.from({ length: grid.rows }, () => new Array(grid.cols).fill(false));
  const starts = Array.from({ length: grid.rows }, () => []);
  for (const c of grid.cells) {
    if (c.row < 0 || c.row >= grid.rows || c.col < 0 || c.col >= grid.cols) continue;
    starts[c.row].push(c);
    for (let r = c.row; r < Math.min(grid.rows, c.row + c.rowspan); r++) {
      for (let k = c.col; k < Math.min(grid.cols, c.col + c.colspan); k++) covered[r][k] = true;
    }
  }
  return starts.map((row, r) => {
    const out = row.slice();
    for (let k = 0; k < grid.cols; k++) {
      if (!covered[r][k]) out.push({ filler: true, row: r, col: k });
    }
    return out.sort((a, b) => a.col - b.col);
  });
}

// scalar is a runs line's phase or run as the report names it: a string
// as it is, a number as its text, absent as "".
function scalar(v) {
  return v === undefined || v === null ? '' : String(v);
}

const kinds = [['html', '.html'], ['markdown', '.md'], ['csv', '.csv']];

// predictionOf finds the prediction of a report row ({model, phase, run,
// table}) in a runs file's text: a file of its own ({name, text}) and the
// table's key in it ("#1" when the line names one table), or null when no
// line holds it.
export function predictionOf(runsText, row) {
  for (const line of runsText.split('\n')) {
    if (line.trim() === '') continue;
    let rec;
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    if (rec === null || typeof rec !== 'object' || rec.model !== row.model ||
        scalar(rec.phase) !== row.phase || scalar(rec.run) !== row.run) continue;
    const t = String(rec.table);
    let key;
    if (t === row.table && t.includes('#')) key = '#1';
    else if (!t.includes('#') && row.table.startsWith(t + '#')) key = row.table.slice(t.length);
    else continue;
    for (const [k, ext] of kinds) {
      if (typeof rec[k] === 'string') return { file: { name: 'prediction' + ext, text: rec[k] }, table: key };
    }
  }
  return null;
}

// cellLines is a report cell's statistics as [label, "mean [lo, hi]"]
// pairs, four decimals as the Markdown report writes them.
export function cellLines(cell) {
  return STATS.map(([k, label]) => [label, fmtOpt4(cell[k]) + ciText(cell.ci, k)]);
}
