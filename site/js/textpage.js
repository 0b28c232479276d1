// textpage.js — the page-text view (text.html). It collects ground truth
// and OCR ("Load sample", a drop of folders or files, the pickers), asks
// its worker (textworker.js, text.wasm) for the report — the bytes of
// "docscore score text" — and shows its cells, the chosen cell's most
// frequent confusions and its pages; a chosen page's two texts come from
// the textPage operation and are drawn aligned, line by line, with the
// substitutions, deletions and insertions marked. A long page is
// virtualized: only the rows in view (and a few either side) are in the
// DOM. Tests read document.body.dataset.ready, textScored / textDetail
// (counters), dataset.textRows (the chosen page's rows) and
// globalThis.docscoreTextReport (the JSON report's text).

import { fmt4, fmtOpt4, ciText } from './format.js';
import { el, collectDropped } from './view.js';
import { workerCall, bump } from './familyview.js';
import { alignRows, windowOf, unitText, roleOf, pageOf, recordText, OPS, WRAP } from './textalign.js';

const $ = (id) => document.getElementById(id);

const call = workerCall(new Worker(new URL('./textworker.js', import.meta.url), { type: 'module', name: 'docscore-text' }));

function status(text) {
  $('text-status').textContent = text;
}

const plural = (n, one, many = one + 's') => `${n} ${n === 1 ? one : many}`;

// state: the files scored, the report and the chosen page's rows.
let files = null;
let report = null;
let reportText = '';
let rows = [];

// request is the scoring request of the files with the options chosen;
// an option at its default is left out, as the command line leaves it
// out, so that the report's provenance is the command line's bytes.
function request(format) {
  const req = { gt: files.gt };
  if (files.runs) req.runs = files.runs;
  else req.ocr = files.ocr;
  const level = $('text-level').value;
  const normalize = $('text-normalize').value;
  if (level !== 'region') req.level = level;
  if (normalize !== 'sbb') req.normalize = normalize;
  if (format && format !== 'json') req.format = format;
  return req;
}

async function score(input, note = '') {
  files = input;
  status('Scoring…');
  try {
    reportText = await call('score', request('json'));
    globalThis.docscoreTextReport = reportText;
    report = JSON.parse(reportText);
    render();
    status(`Scored ${plural(report.pages.length, 'page')} in ${plural(report.cells.length, 'cell')}.${note}`);
    if (report.pages.length > 0) await showPage(worstFirst()[0]);
  } catch (err) {
    status('Cannot score these files: ' + err.message);
  } finally {
    bump('textScored');
  }
}

const STATS = [['cer', 'CER'], ['cer_macro', 'CER macro'], ['wer', 'WER'], ['wer_macro', 'WER macro'], ['bow_f1', 'Bag-of-words F1']];

function render() {
  const cells = $('text-cells').tBodies[0];
  cells.replaceChildren();
  for (const c of report.cells) {
    const tr = el('tr', {}, el('td', { text: c.model }), el('td', { text: c.phase }), el('td', { text: String(c.pages) }));
    for (const [k] of STATS) {
      const v = c[k];
      const td = el('td', { 'data-stat': k, 'data-value': v === null ? '' : String(v) });
      td.append(k === 'cer' || k === 'wer' ? el('strong', { text: fmtOpt4(v) }) : fmtOpt4(v), ciText(c.ci, k));
      tr.append(td);
    }
    cells.append(tr);
  }
  const ci = report.cells.find((c) => c.ci)?.ci;
  $('text-ci-note').textContent = ci
    ? `${Math.round(ci.level * 100)}% percentile intervals, ${ci.replicates} replicates, seed ${ci.seed}` +
      (report.cells.some((c) => c.ci && c.ci.few_units) ? '; from fewer than 10 pages an interval is unreliable' : '')
    : 'none';
  const notes = $('text-notes');
  notes.replaceChildren();
  const { gt_only: gtOnly = [], ocr_only: ocrOnly = [] } = report.unpaired || {};
  if (gtOnly.length > 0) notes.append(el('li', { text: `Ground truth without OCR: ${gtOnly.join(', ')}` }));
  if (ocrOnly.length > 0) notes.append(el('li', { text: `OCR without ground truth: ${ocrOnly.join(', ')}` }));
  for (const w of report.warnings || []) notes.append(el('li', { text: 'Warning: ' + w }));

  const pick = $('text-confusion-cell');
  pick.replaceChildren(...report.cells.map((c, i) => el('option', { value: String(i), text: `${c.model} / ${c.phase}` })));
  pick.disabled = report.cells.length < 2;
  renderConfusions(0);

  const list = $('text-pages').tBodies[0];
  list.replaceChildren();
  for (const i of worstFirst()) {
    const p = report.pages[i];
    const open = el('button', { type: 'button', class: 'image-link', text: p.page, 'data-index': String(i) });
    open.addEventListener('click', () => showPage(i));
    list.append(el('tr', { 'data-index': String(i) }, el('td', { text: p.model }), el('td', { text: p.phase }),
      el('td', { text: p.run === null ? '' : String(p.run) }), el('td', {}, open),
      el('td', { text: fmtOpt4(p.cer) }), el('td', { text: fmtOpt4(p.wer) }),
      el('td', { text: String(p.char_edits) }), el('td', { text: String(p.gt_chars) }), el('td', { text: fmt4(p.bow_f1) })));
  }
  for (const id of ['text-cells-s', 'text-confusions-s', 'text-pages-s']) $(id).hidden = false;
}

// worstFirst lists the pages' indices by CER, the highest first (pages
// without a CER last), then in the report's order.
function worstFirst() {
  const key = (i) => (report.pages[i].cer === null ? -1 : report.pages[i].cer);
  return report.pages.map((_, i) => i).sort((a, b) => key(b) - key(a) || a - b);
}

function renderConfusions(i) {
  const c = report.cells[i];
  for (const [id, list] of [['text-char-confusions', c ? c.char_confusions : []], ['text-word-confusions', c ? c.word_confusions : []]]) {
    const body = $(id).tBodies[0];
    body.replaceChildren(...(list || []).map((x) => el('tr', {},
      el('td', {}, el('code', { text: unitText(x.gt) })), el('td', {}, el('code', { text: unitText(x.ocr) })),
      el('td', { text: String(x.count) }))));
  }
}
$('text-confusion-cell').addEventListener('change', (e) => renderConfusions(Number(e.target.value)));

// ---- one page, aligned ---------------------------------------------------

const ROW_HEIGHT = 24; // px: .text-row's height in style.css

async function showPage(i) {
  const row = report.pages[i];
  for (const tr of $('text-pages').tBodies[0].rows) tr.classList.toggle('chosen', tr.dataset.index === String(i));
  try {
    const { gt, ocr } = pageOf(row, files);
    if (!gt) throw new Error('its ground-truth file is not among the files');
    const req = { gt };
    if (files.runs) {
      const text = recordText(files.runs.text, row.line);
      if (text === null) throw new Error(`line ${row.line} of ${files.runs.name} has no text`);
      req.ocr_text = text;
    } else if (ocr) {
      req.ocr = ocr;
    } else {
      throw new Error('its OCR file is not among the files');
    }
    const { level, normalize } = request();
    if (level) req.level = level;
    if (normalize) req.normalize = normalize;
    const view = await call('page', req);
    rows = alignRows(view.segments, WRAP);
    document.body.dataset.textRows = String(rows.length);
    $('text-detail-h').textContent = `Page ${row.page}: ${row.model}${row.phase ? ', ' + row.phase : ''}${row.run !== null ? ', run ' + row.run : ''}`;
    $('text-detail-scores').textContent = `CER ${fmtOpt4(view.cer)} (${view.char_edits} edits in ${plural(view.gt_chars, 'character')}) · ` +
      `WER ${fmtOpt4(view.wer)} (${view.word_edits} in ${plural(view.gt_words, 'word')}) · bag-of-words F1 ${fmt4(view.bow_f1)} · ` +
      plural(rows.length, 'row');
    $('text-detail-s').hidden = false;
    $('text-align-space').style.height = rows.length * ROW_HEIGHT + 'px';
    $('text-align').scrollTop = 0;
    drawWindow();
  } catch (err) {
    status(`Cannot show page ${row.page}: ${err.message}`);
  } finally {
    bump('textDetail');
  }
}

// side draws one side of a row: matched text plain, the marked steps in
// spans of their kind.
function side(pieces, cls) {
  const cell = el('div', { class: 'cell ' + cls, role: 'cell' });
  for (const [op, text] of pieces) {
    if (op === '=') cell.append(text);
    else cell.append(el('span', { class: OPS[op], text }));
  }
  cell.title = pieces.map((p) => p[1]).join('');
  return cell;
}

let drawn = [-1, -1];
function drawWindow() {
  const view = $('text-align');
  const [first, last] = windowOf(view.scrollTop, view.clientHeight || 480, ROW_HEIGHT, rows.length);
  if (first === drawn[0] && last === drawn[1] && view.dataset.rows === String(rows.length)) return;
  drawn = [first, last];
  view.dataset.rows = String(rows.length);
  const out = $('text-align-rows');
  out.style.top = first * ROW_HEIGHT + 'px';
  const kids = [];
  for (let r = first; r < last; r++) {
    const row = rows[r];
    const newLine = r === 0 || rows[r - 1].line !== row.line;
    kids.push(el('div', { class: 'text-row', role: 'row', 'data-row': String(r) },
      el('div', { class: 'cell n', role: 'cell', text: newLine ? String(row.line) : '' }),
      side(row.gt, 'gt'), side(row.ocr, 'ocr')));
  }
  out.replaceChildren(...kids);
}
let frame = 0;
$('text-align').addEventListener('scroll', () => {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    drawWindow();
  });
});
window.addEventListener('resize', () => {
  drawn = [-1, -1];
  if (rows.length > 0) drawWindow();
});

// ---- files -----------------------------------------------------------------

// sortFiles reads and sorts {file, path} items: ground truth, OCR, the
// runs file; what is no page (scans, notes, pilot run files) is left out
// and said.
async function sortFiles(items) {
  const out = { gt: [], ocr: [], runs: null };
  const left = [];
  let runsFiles = 0;
  for (const { file, path } of items) {
    const first = /\.jsonl$/i.test(path) ? await file.slice(0, 256).text() : '';
    const role = roleOf(path, first);
    if (role === 'ignore' || role === 'pilot') {
      left.push(path);
      continue;
    }
    const f = { name: path, text: await file.text() };
    if (role === 'runs') {
      runsFiles++;
      out.runs = f;
    } else out[role].push(f);
  }
  return { input: out, left, runsFiles };
}

async function fromItems(items) {
  if (items.length === 0) return;
  const { input, left, runsFiles } = await sortFiles(items);
  let note = left.length > 0 ? ` Left out (no page): ${left.length > 5 ? left.slice(0, 5).join(', ') + ', …' : left.join(', ')}.` : '';
  if (input.gt.length === 0) {
    status('No ground truth among these files: put it under a gt/ folder or name it ….gt.… (0001.gt.xml).' + note);
    bump('textScored');
    return;
  }
  if (runsFiles > 1) {
    status(`${runsFiles} runs files among these files: drop one at a time.`);
    bump('textScored');
    return;
  }
  if (input.runs && input.ocr.length > 0) {
    note += ` The runs file is scored; the ${plural(input.ocr.length, 'OCR file')} beside it left out.`;
    input.ocr = [];
  }
  if (!input.runs && input.ocr.length === 0) {
    status('No OCR among these files: add the OCR files (paired by the name up to the first dot) or a runs file (.jsonl).' + note);
    bump('textScored');
    return;
  }
  const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  input.gt.sort(byName);
  input.ocr.sort(byName);
  await score(input, note);
}

$('text-load-sample').addEventListener('click', async () => {
  status('Loading the sample…');
  try {
    const s = await call('sample');
    const input = { gt: [], ocr: [], runs: null };
    for (const f of s.files) {
      if (f.role === 'text-gt') input.gt.push({ name: f.name, text: f.text });
      else if (f.role === 'text-runs') input.runs = { name: f.name, text: f.text };
    }
    $('text-level').value = 'region';
    $('text-normalize').value = 'sbb';
    await score(input);
  } catch (err) {
    status('Cannot load the sample: ' + err.message);
    bump('textScored');
  }
});
for (const id of ['text-pick', 'text-pick-folder']) {
  $(id).addEventListener('change', (e) => fromItems([...e.target.files].map((file) => ({ file, path: file.webkitRelativePath || file.name }))));
}
for (const id of ['text-level', 'text-normalize']) {
  $(id).addEventListener('change', () => {
    if (files) score(files);
  });
}
document.addEventListener('dragover', (e) => e.preventDefault());
document.addEventListener('drop', async (e) => {
  e.preventDefault();
  fromItems(await collectDropped(e.dataTransfer));
});

// Downloads: the report in the format asked, exactly the bytes of
// "docscore score text --format F" on the same files and options.
for (const b of document.querySelectorAll('[data-download]')) {
  b.addEventListener('click', async () => {
    if (!files) return;
    const format = b.dataset.download;
    try {
      const text = format === 'json' ? reportText : await call('score', request(format));
      const type = { json: 'application/json', csv: 'text/csv', md: 'text/markdown' }[format];
      const url = URL.createObjectURL(new Blob([text], { type }));
      const a = el('a', { href: url, download: 'text-report.' + format });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60000);
    } catch (err) {
      status('Cannot write the report: ' + err.message);
    }
  });
}

// The view is ready for input (the end-to-end tests wait on it).
document.body.dataset.ready = 'true';
