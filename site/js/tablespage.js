// tablespage.js — the tables view (tables.html). It collects the table
// files ("Load sample", a drop, the picker), asks its worker
// (tablesworker.js, tables.wasm) for the report — the bytes of "docscore
// score tables" — and shows its cells and tables; a chosen table's ground
// truth and prediction come from the detail operation and are drawn side
// by side with their real spans, the differing cells marked. Tests read
// document.body.dataset.tablesScored / tablesDetail (counters) and
// globalThis.docscoreTablesReport (the report's text).

import { fmtOpt4 } from './format.js';
import { el } from './view.js';
import { workerCall, bump } from './familyview.js';
import { STATS, gridRows, predictionOf, cellLines } from './tablesgrid.js';

const $ = (id) => document.getElementById(id);

const call = workerCall(new Worker(new URL('./tablesworker.js', import.meta.url), { type: 'module', name: 'docscore-tables' }));

function status(text) {
  $('tables-status').textContent = text;
}

// CLI_INTERVALS are "docscore score tables"' defaults of the intervals.
const CLI_INTERVALS = { bootstrap: 2000, ci_level: 0.95, seed: 0 };

// state: the files scored and the report.
let files = null;
let report = null;

async function score(input) {
  files = input;
  status('Scoring…');
  try {
    // The command line's interval settings, each given, so that the
    // report's provenance (SPEC F.8) is byte for byte the CLI's.
    const req = { gt: input.gt, ...CLI_INTERVALS };
    if (input.runs) req.runs = input.runs;
    else req.pred = input.pred;
    const text = await call('score', req);
    globalThis.docscoreTablesReport = text;
    report = JSON.parse(text);
    render();
    status(`Scored ${report.tables.length} table${report.tables.length === 1 ? '' : 's'} in ${report.cells.length} cell${report.cells.length === 1 ? '' : 's'}.`);
    if (report.tables.length > 0) await showDetail(0);
  } catch (err) {
    status('Cannot score these files: ' + err.message);
  } finally {
    bump('tablesScored');
  }
}

function render() {
  const cells = $('tables-cells').tBodies[0];
  cells.replaceChildren();
  for (const c of report.cells) {
    const tr = el('tr', {}, el('td', { text: c.model }), el('td', { text: c.phase }), el('td', { text: String(c.tables) }));
    cellLines(c).forEach(([, text], i) => {
      const v = c[STATS[i][0]];
      tr.append(el('td', { text, 'data-stat': STATS[i][0], 'data-value': v === null ? '' : String(v) }));
    });
    cells.append(tr);
  }
  const list = $('tables-list').tBodies[0];
  list.replaceChildren();
  report.tables.forEach((t, i) => {
    const open = el('button', { type: 'button', class: 'image-link', text: t.table, 'data-index': String(i) });
    open.addEventListener('click', () => showDetail(i));
    const tr = el('tr', { 'data-index': String(i) }, el('td', { text: t.model }), el('td', { text: t.phase }),
      el('td', { text: t.run }), el('td', {}, open), el('td', { text: t.status }));
    for (const [k] of STATS) tr.append(el('td', { text: fmtOpt4(t[k]), 'data-stat': k, 'data-value': t[k] === null ? '' : String(t[k]) }));
    list.append(tr);
  });
  $('tables-cells-s').hidden = false;
  $('tables-list-s').hidden = false;
}

// drawGrid draws a detail grid as an HTML table with its spans.
function drawGrid(grid) {
  if (!grid) return el('p', { class: 'hint', text: 'The prediction has no such table.' });
  const table = el('table', { class: 'grid' });
  for (const row of gridRows(grid)) {
    const tr = el('tr');
    for (const c of row) {
      if (c.filler) {
        tr.append(el('td', { class: 'filler' }));
        continue;
      }
      const td = el(c.header ? 'th' : 'td', { text: c.text, 'data-row': String(c.row), 'data-col': String(c.col) });
      if (c.rowspan > 1) td.rowSpan = c.rowspan;
      if (c.colspan > 1) td.colSpan = c.colspan;
      if (c.differs) {
        td.classList.add('differs');
        td.title = 'differs from the other table';
      }
      tr.append(td);
    }
    table.append(tr);
  }
  return table;
}

async function showDetail(i) {
  const t = report.tables[i];
  for (const tr of $('tables-list').tBodies[0].rows) tr.classList.toggle('chosen', tr.dataset.index === String(i));
  try {
    const gt = gtFileOf(t.table);
    let pred;
    let predTable = gt.key;
    if (files.runs) {
      const p = predictionOf(files.runs.text, t);
      pred = p ? p.file : { name: 'prediction.html', text: '' };
      predTable = p ? p.table : '#1';
    } else {
      pred = files.pred.find((f) => idOf(f.name) === idOf(gt.file.name)) || files.pred[0];
    }
    const d = await call('detail', { gt: gt.file, pred, table: gt.key, pred_table: predTable });
    $('tables-detail-h').textContent = `Table ${t.table}: ${t.model}${t.phase ? ', ' + t.phase : ''}${t.run ? ', run ' + t.run : ''}`;
    $('tables-detail-scores').textContent = STATS.map(([k, label]) => `${label} ${fmtOpt4(d.score[k])}`).join(' · ');
    $('tables-gt').replaceChildren(drawGrid(d.gt));
    $('tables-pred').replaceChildren(drawGrid(d.pred));
    $('tables-detail-s').hidden = false;
  } catch (err) {
    status('Cannot show table ' + t.table + ': ' + err.message);
  } finally {
    bump('tablesDetail');
  }
}

// idOf is a file's id as the scorer pairs files: its base name up to the
// first dot.
function idOf(name) {
  const base = name.split(/[\\/]/).pop();
  const dot = base.indexOf('.');
  return dot >= 0 ? base.slice(0, dot) : base;
}

// gtFileOf finds the ground-truth file of a table key and the key in it.
function gtFileOf(key) {
  if (files.gt.length === 1 && (files.runs || files.pred.length <= 1)) return { file: files.gt[0], key };
  const hash = key.indexOf('#');
  const id = hash >= 0 ? key.slice(0, hash) : key;
  const file = files.gt.find((f) => idOf(f.name) === id) || files.gt[0];
  return { file, key: hash >= 0 ? key.slice(hash) : '#1' };
}

// classify sorts dropped or picked files: runs (.jsonl), ground truth
// (named gt… or under a gt/ folder), predictions (the rest).
async function classify(list) {
  const out = { gt: [], pred: [], runs: null };
  for (const f of list) {
    const name = f.webkitRelativePath || f.name;
    const file = { name, text: await f.text() };
    if (/\.jsonl$/i.test(name)) out.runs = file;
    else if (/^gt/i.test(f.name) || /(^|\/)gt\//i.test(name)) out.gt.push(file);
    else out.pred.push(file);
  }
  return out;
}

async function fromFiles(list) {
  const input = await classify(list);
  if (input.gt.length === 0) {
    status('No ground truth among these files: name it gt… (gt.html) or put it under a gt/ folder.');
    bump('tablesScored');
    return;
  }
  if (!input.runs && input.pred.length === 0) {
    status('No predictions among these files: add a runs file (.jsonl) or predicted table files.');
    bump('tablesScored');
    return;
  }
  await score(input);
}

$('tables-load-sample').addEventListener('click', async () => {
  status('Loading the sample…');
  const s = await call('sample');
  const input = { gt: [], pred: [], runs: null };
  for (const f of s.files) {
    if (f.role === 'tables-gt') input.gt.push({ name: f.name, text: f.text });
    else if (f.role === 'tables-runs') input.runs = { name: f.name, text: f.text };
  }
  await score(input);
});
$('tables-pick').addEventListener('change', (e) => fromFiles([...e.target.files]));
document.addEventListener('dragover', (e) => e.preventDefault());
document.addEventListener('drop', (e) => {
  e.preventDefault();
  fromFiles([...e.dataTransfer.files]);
});
