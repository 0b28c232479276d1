// main.js — the page. It collects files (drop, pickers, "Load sample"),
// shows their roles, asks the worker to score, and renders the results.
// Nothing is scored or parsed on this thread.

import { WorkerClient } from './client.js';
import { ROLES } from './roles.js';
import { fmt4, fmtOpt4, fmtDelta, fmtBytes, runText, ciText, ciLookup, sigText, limitText, changeValues } from './format.js';
import { el, clear, sortableTable, plainTable, VirtualTable, collectDropped } from './view.js';
import { barChart } from './chart.js';
import { parseGate, runSpread, FOLD_FILES, filesSummary, FIELDS_AS_ROWS, skippedLines, splitMessages, changeGroups, leftOutGroups, linesText } from './layout.js';
import { Drill, renderImage, renderPageAcross, renderReceiptPage } from './drilldown.js';
import { progressText } from './stream.js';

const $ = (id) => document.getElementById(id);

const state = {
  files: [],
  view: null,
  rules: null, // the rule file's check
  preview: new Set(), // OPEN row lines switched on
  cellSort: { key: null, dir: 1 },
  metric: 'f1',
  onlyMismatches: true, // the image drill-down shows only what does not match
  allowIncomplete: false, // score an incomplete receipts run (labelled)
  receiptsReport: null, // the receipts report shown, for comparing its phases
  compareSource: '', // what the Compare section compares: "cells", "runs" or "reports"
  compareCount: 0, // comparisons answered (data-count on #compare, for tests)
  compareHad: {}, // the sources offered last time
  skipBadLines: false, // score the good lines of a runs file, list the bad ones
  skipBadInputs: true, // score what is valid, list what was left out (--skip-bad-inputs)
  fieldsAsRows: null, // the cells' fields as rows: null until the user chooses
  filesShown: 0, // files in the list when it was last folded or unfolded
};

// uncaught counts the rejections no one handled, in the page or its
// workers (data-uncaught on <body>): there should be none.
function uncaught(message) {
  document.body.dataset.uncaught = String(Number(document.body.dataset.uncaught || 0) + 1);
  document.body.dataset.uncaughtLast = message;
}
addEventListener('unhandledrejection', (e) => uncaught(String((e.reason && e.reason.message) || e.reason)));

const client = new WorkerClient((msg) => {
  if (msg.type === 'uncaught') uncaught(msg.message);
  if (msg.type === 'progress') onProgress(msg);
  // The core has warmed up (worker.js): tests wait for it.
  if (msg.type === 'warm') document.body.dataset.warm = msg.error ? 'failed: ' + msg.error : 'true';
  // The drop is kept in IndexedDB (persist.js): tests wait for it.
  if (msg.type === 'kept') {
    document.body.dataset.kept = msg.error ? 'failed: ' + msg.error : String(msg.files);
    $('kept').hidden = !!msg.error || msg.files === 0;
    if (!msg.error) keptText(msg.left || []);
  }
});
let images = null; // the VirtualTable of images

// notKeptText names the files a kept drop does not hold: "runs.jsonl
// (48.0 MB)", or "".
function notKeptText(left) {
  return left.map((f) => `${f.name} (${fmtBytes(f.size)})`).join(', ');
}

// keptText says what the kept drop holds and what it does not: a file of
// 8 MiB or more is not kept (persist.js), and a reload does not bring it
// back.
function keptText(left, restored = false) {
  const names = notKeptText(left);
  const base = restored ? 'This drop was restored from this browser (IndexedDB, never uploaded).'
    : 'The last drop is kept in this browser (IndexedDB, never uploaded) and comes back on a reload.';
  $('kept-text').textContent = base + (names ? ` Not kept: ${names}: files of 8 MiB or more are not kept, so ` +
    (restored ? `drop ${left.length === 1 ? 'it' : 'them'} again to score ${left.length === 1 ? 'it' : 'them'}.` : `a reload does not bring ${left.length === 1 ? 'it' : 'them'} back.`) : '');
  $('kept').dataset.notKept = left.map((f) => f.name).join('\n');
}

// ---- work queue: one call at a time, newest scoring wins -----------------

let chain = Promise.resolve();
function enqueue(fn) {
  chain = chain.then(fn).catch(showFatal);
  return chain;
}

let scoreQueued = false;
function rescore() {
  if (scoreQueued) return chain;
  scoreQueued = true;
  return enqueue(async () => {
    scoreQueued = false;
    await scoreNow();
  });
}

function showFatal(err) {
  hideProgress();
  showError(String((err && err.message) || err));
}

// ---- status, progress, errors --------------------------------------------

function status(text) {
  $('status').textContent = text;
}

// showErrors shows [message, hint] pairs in the alert box.
function showErrors(list) {
  const box = $('error');
  clear(box);
  box.hidden = list.length === 0;
  for (const [text, detail] of list) {
    box.append(el('p', {}, text));
    if (detail) box.append(el('p', { class: 'hint' }, detail));
  }
}

function showError(text, detail) {
  const box = $('error');
  clear(box);
  if (!text) {
    box.hidden = true;
    return;
  }
  box.append(el('p', {}, text));
  if (detail) box.append(el('p', { class: 'hint' }, detail));
  box.hidden = false;
}

// busy is the status line's text while the worker works, set once a
// phase (not at every progress message: the status is read aloud).
let busyPhase = '';
let statusBefore = ''; // the status the work replaced, put back after it
function busy(msg) {
  const key = msg.phase + '\u0000' + (msg.name || '');
  if (key === busyPhase) return;
  if (busyPhase === '') statusBefore = $('status').textContent;
  busyPhase = key;
  const name = msg.name || 'the files';
  status(msg.phase === 'read' ? 'Reading the files…' : msg.phase === 'report' ? `Writing the ${name}…`
    : msg.phase === 'compare' ? 'Comparing…' : `Scoring ${name}…` + (msg.phase === 'stream' ? ' (Cancel stops it)' : ''));
}

function onProgress(msg) {
  busy(msg);
  const box = $('progress');
  const bar = $('progress-bar');
  box.hidden = false;
  $('progress-cancel').hidden = msg.phase !== 'stream';
  if (msg.phase === 'stream') {
    // A large runs file scored as a stream (worker.js): images, rate,
    // time left, and Cancel.
    bar.max = Math.max(1, msg.total);
    bar.value = msg.done;
    $('progress-label').textContent = msg.what === 'report'
      ? `Writing the report of ${msg.name}… ${msg.total ? Math.floor((100 * msg.done) / msg.total) : 100}%`
      : progressText(msg);
    return;
  }
  if (msg.phase === 'read') {
    bar.max = Math.max(1, msg.total);
    bar.value = msg.done;
    const pct = msg.total ? Math.floor((100 * msg.done) / msg.total) : 100;
    $('progress-label').textContent = `Reading ${msg.name || 'files'}… ${pct}%`;
  } else {
    bar.removeAttribute('value'); // indeterminate
    $('progress-label').textContent = msg.phase === 'report' ? `Writing the ${msg.name}…`
      : msg.phase === 'compare' ? 'Comparing…' : `Scoring ${msg.name}…`;
  }
}

function hideProgress() {
  if (busyPhase !== '') status(statusBefore);
  busyPhase = '';
  $('progress').hidden = true;
  $('progress-cancel').hidden = true;
}

// ---- files ---------------------------------------------------------------

function addItems(items) {
  if (items.length === 0) return;
  enqueue(async () => {
    showError('');
    state.files = await client.call('addFiles', { items });
    performance.mark('docscore:files-read');
    hideProgress();
    renderFiles();
  });
  rescore();
}

function renderFiles(problems = {}) {
  const table = $('files');
  const body = table.tBodies[0];
  clear(body);
  foldFiles(problems);
  $('clear').disabled = state.files.length === 0;
  for (const f of state.files) {
    const select = el('select', {
      'aria-label': 'Role of ' + f.name, dataset: { file: f.name },
      onchange: (e) => enqueue(async () => {
        state.files = await client.call('setRole', { id: f.id, role: e.target.value });
        renderFiles();
      }).then(rescore),
    }, Object.entries(ROLES).map(([k, label]) => el('option', { value: k, selected: k === f.role }, label)));
    const notes = el('td', { class: 'notes' });
    if (f.note) notes.append(el('span', {}, f.note));
    const errs = [];
    if (f.error) errs.push(f.error);
    if (problems[f.name]) errs.push(...problems[f.name]);
    for (const e of errs) notes.append(el('p', { class: 'file-error', role: 'alert' }, e));
    const remove = el('button', {
      type: 'button', class: 'remove', 'aria-label': 'Remove ' + f.name, title: 'Remove',
      onclick: () => enqueue(async () => {
        state.files = await client.call('remove', { id: f.id });
        renderFiles();
        $('drop').querySelector('button').focus();
      }).then(rescore),
    }, '✕');
    body.append(el('tr', { dataset: { file: f.name }, class: errs.length ? 'has-error' : null },
      el('th', { scope: 'row' }, el('code', {}, f.name)),
      el('td', { class: 'num' }, fmtBytes(f.size)),
      el('td', {}, select),
      notes,
      el('td', {}, remove)));
  }
}

// foldFiles shows the file list, folded when it is long (FOLD_FILES) and
// nothing in it needs the user; it folds or unfolds only when the number
// of files changes, so that the user's choice stays.
function foldFiles(problems) {
  const box = $('files-box');
  const n = state.files.length;
  box.hidden = n === 0;
  const failing = state.files.some((f) => f.error) || Object.keys(problems).length > 0;
  if (failing) box.open = true;
  else if (n !== state.filesShown) box.open = n <= FOLD_FILES;
  state.filesShown = n;
  $('files-summary').textContent = filesSummary(state.files, ROLES);
  // The "what to drop" panel folds once there are files.
  const help = $('what-to-drop');
  if (n > 0 && help.dataset.auto !== 'folded') {
    help.open = false;
    help.dataset.auto = 'folded';
  }
}

// ---- scoring ---------------------------------------------------------------

function previewSpec() {
  if (!state.rules || !state.rules.rows) return '';
  const open = state.rules.rows.filter((r) => r.status === 'OPEN').map((r) => r.line);
  const on = open.filter((l) => state.preview.has(l));
  if (on.length === 0) return '';
  if (on.length === open.length) return 'open';
  return on.join(',');
}

// gateValue reads the gate box (layout.js's parseGate): {gate} to send
// (0 for the default 0.7, which the request leaves out) or {error}. A
// gate out of range is shown beside the box and nothing is scored.
function gateValue() {
  const g = parseGate($('gate').value);
  const box = $('gate');
  box.setAttribute('aria-invalid', g.error ? 'true' : 'false');
  $('gate-error').hidden = !g.error;
  $('gate-error').textContent = g.error || '';
  if (g.error) return { error: g.error };
  return { gate: g.value !== 0.7 ? g.value : 0 };
}

// settings are what a kept drop restores (persist.js).
function settings() {
  return {
    gate: $('gate').value, preview: [...state.preview], skipBadInputs: state.skipBadInputs,
    allowIncomplete: state.allowIncomplete, metric: state.metric,
  };
}

// generation counts finished scorings (data-generation on <body>), so
// that tests and assistive tools can tell a new result from an old one.
let generation = 0;

async function scoreNow() {
  try {
    await scoreFiles();
  } finally {
    document.body.dataset.generation = String(++generation);
  }
}

async function scoreFiles() {
  if (state.files.length === 0) {
    renderEmpty();
    // nothing dropped: nothing kept either
    await client.call('forget');
    $('kept').hidden = true;
    return;
  }
  const gate = gateValue();
  if (gate.error) {
    hideResults();
    showErrors([[gate.error, 'Nothing was scored: correct the gate (blank is the default 0.7).']]);
    status('Not scored: the gate is out of range (see the error below the status).');
    return;
  }
  const res = await client.call('score', {
    preview: previewSpec(), gate: gate.gate, allowIncomplete: state.allowIncomplete,
    skipBadLines: state.skipBadLines, skipBadInputs: state.skipBadInputs, settings: settings(),
  });
  performance.mark('docscore:scored');
  hideProgress();
  state.files = res.files;
  // A runs file scored as a stream (worker.js) says by how many workers,
  // and how fast: tests and measurements read it.
  const st = res.view && res.view.stream;
  document.body.dataset.streamed = st ? JSON.stringify(st) : '';
  const problems = {};
  const note = (name, text) => { (problems[name] = problems[name] || []).push(text); };
  const alerts = [];
  const fileProblem = (p) => {
    for (const name of p.files) note(name, p.message);
    alerts.push([p.message, '']);
  };
  // A rule file's check lists every error of the file, one note each; the
  // scoring's refusal of that file repeats them in one message, which the
  // alert shows, so it is not noted beside the file again.
  const checked = res.rules && !res.rules.error && res.rules.errors.length > 0 ? res.rules.file : null;
  const coreError = (e) => {
    const where = e.file ? (e.line ? `line ${e.line}: ` : '') : '';
    if (e.file && e.file !== checked && state.files.some((f) => f.name === e.file)) {
      note(e.file, where + messageWithoutPlace(e));
    }
    // An error that lists several (an inputerr.List) shows each.
    const messages = splitMessages(e.message);
    for (const m of messages.slice(1)) {
      const at = /^(.*?):(\d+): (.*)$/s.exec(m);
      if (at && at[1] === e.file && at[1] !== checked) note(e.file, `line ${at[2]}: ${at[3]}`);
    }
    for (const m of messages) alerts.push([m, '']);
    alerts[alerts.length - 1][1] = e.file ? 'Fix the file and drop it again (it replaces the old one), change its role, or remove it.' : '';
  };
  if (res.problem) fileProblem(res.problem);
  // Cancel is the user's choice, not an error: the status says it.
  const cancelled = res.error && res.error.code === 'cancelled' ? res.error.message : '';
  if (res.error && !cancelled) coreError(res.error);
  if (res.badLines) {
    // every malformed line of the runs file, not just the first
    const b = res.badLines;
    const bad = skippedLines(b.lines.map((l) => 'skipped: ' + l));
    for (const x of bad.slice(1)) note(x.file, `line ${x.line}: ${x.message}`);
    alerts.push([`${b.file} has ${bad.length} malformed line${bad.length === 1 ? '' : 's'}: ` +
      bad.map((x) => 'line ' + x.line).join(', ') + '.',
    `Fix them, or switch on "Score what is valid" to score the other ${b.images} image${b.images === 1 ? '' : 's'} and list the skipped lines.`]);
  }
  renderSchemaAdvice(res.schemaAdvice || null);
  for (const fam of [res.receipts, res.harness]) {
    if (fam && fam.problem) fileProblem(fam.problem);
    if (fam && fam.error) coreError(fam.error);
  }
  state.rules = res.rules && !res.rules.error ? res.rules : null;
  if (res.rules && res.rules.error) {
    const e = res.rules.error;
    if (e.file) note(e.file, (e.line ? `line ${e.line}: ` : '') + messageWithoutPlace(e));
  }
  if (state.rules) {
    for (const p of state.rules.errors) note(p.file, `line ${p.line}: ${p.message}`);
  }
  if (res.harness && res.harness.unresolved && res.harness.unresolved.length) {
    const cases = res.files.find((f) => f.role === 'cases');
    if (cases) {
      note(cases.name, `names ${res.harness.unresolved.join(', ')}: not among the dropped files; drop ${res.harness.unresolved.length === 1 ? 'it' : 'them'} beside the cases file`);
    }
  }
  if (res.receipts && res.receipts.refused) {
    const e = res.receipts.refused;
    note(e.file, messageWithoutPlace({ ...e, message: e.message.split('\n')[0] }));
  }
  showErrors(alerts);
  renderFiles(problems);
  renderRules();
  state.receiptsReport = res.receipts && res.receipts.report ? res.receipts.report : null;
  await renderReceipts(res.receipts);
  await renderHarness(res.harness);
  const done = [];
  if (res.view) {
    state.view = res.view;
    await renderResults();
    done.push(`Scored ${res.view.images.count} image${res.view.images.count === 1 ? '' : 's'} in this browser ` +
      `(the WebAssembly core: ${(res.view.timing.core / 1000).toFixed(1)} s)`);
  } else {
    state.view = null;
    $('results').hidden = true;
    if (res.present && !res.error && !res.problem && res.missing.length) {
      done.push('To score the tables, add ' + res.missing.join(' and '));
    }
  }
  if (res.receipts) {
    const r = res.receipts;
    if (r.report) done.push(`Scored receipts run ${r.report.run_id}: ${r.report.scored_records} pages (${(r.ms / 1000).toFixed(1)} s)`);
    else if (r.missing.length) done.push('To score receipts, add ' + r.missing.join(' and '));
    else if (r.refused) done.push('Receipts: the run is incomplete, see Receipts below');
  }
  if (res.harness && res.harness.report) {
    const s = res.harness.report.summary;
    done.push(res.harness.source === 'report' ? `Showing the harness report (${s.stages} stages)`
      : `Evaluated ${s.stages} stage${s.stages === 1 ? '' : 's'} (${(res.harness.ms / 1000).toFixed(1)} s)`);
  }
  renderCompare();
  if (done.length === 0 && !$('compare').hidden) done.push('Ready to compare: see Compare below');
  const skipped = res.view ? skippedLines(res.view.warnings) : [];
  if (skipped.length) {
    done.push(`Skipped ${skipped.length} bad line${skipped.length === 1 ? '' : 's'} of ${skipped[0].file}: ` +
      skipped.map((x) => 'line ' + x.line).join(', '));
    for (const x of skipped) note(x.file, `line ${x.line} skipped: ${x.message}`);
    renderFiles(problems);
  }
  const left = renderLeftOut(res, note);
  if (left) {
    done.push(left);
    renderFiles(problems);
  }
  if (cancelled) done.push(cancelled.replace(/\.$/, ''));
  if (alerts.length && done.length === 0) done.push('Not scored: see the error below');
  status(done.length ? done.join('. ') + '.' : directFormHint(res) || 'Nothing to score: give each file its role.');
  renderOverview(res);
  performance.mark('docscore:results');
}

// renderLeftOut shows the banner of what the scoring left out (the
// report's left_out, and the tabular files that cannot be read at all),
// each with its file:line and an Open button that shows the lines
// around it; note(file, text) notes each beside its file. It returns the
// status line's part, or "" when nothing was left out.
function renderLeftOut(res, note) {
  const box = $('left-out');
  const list = $('left-out-list');
  clear(list);
  const groups = leftOutGroups(res.view ? res.view.leftOut : [], res.unreadable || []);
  box.hidden = groups.length === 0;
  box.dataset.count = String(groups.length);
  if (groups.length === 0) return '';
  let inputs = 0;
  for (const g of groups) {
    inputs += Math.max(1, g.lines.length);
    const where = g.file + (g.lines.length ? ':' + g.lines[0] + (g.column ? ':' + g.column : '') : '');
    const what = g.what === 'file' ? 'cannot be read' : g.what + (g.lines.length > 1 ? 's' : '') + ' left out';
    const excerpt = el('div', { class: 'excerpt', hidden: true });
    const open = el('button', {
      type: 'button', class: 'secondary open', 'aria-expanded': 'false', dataset: { file: g.file, line: String(g.lines[0] || 1) },
      onclick: () => enqueue(() => toggleExcerpt(open, excerpt, g)),
    }, 'Open');
    list.append(el('li', { dataset: { file: g.file, line: String(g.lines[0] || 0) } },
      el('code', { class: 'where', title: where }, where), ' ', el('strong', {}, what),
      g.lines.length > 1 ? ` (${linesText(g.lines)})` : '', ': ', g.why, ' ', open, excerpt));
    if (g.what !== 'file') note(g.file, `${linesText(g.lines) || 'the file'}: ${g.what} left out: ${g.why}`);
  }
  $('left-out-summary').textContent = `Scored what is valid: ${inputs} input${inputs === 1 ? '' : 's'} left out. ` +
    'Fix them and drop the files again, or switch off "Score what is valid" to see every error at once.';
  return `Left out ${inputs} input${inputs === 1 ? '' : 's'}: see the list at the top`;
}

// toggleExcerpt shows or hides the lines around a left-out item, the
// item's line marked.
async function toggleExcerpt(button, box, g) {
  if (!box.hidden) {
    box.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    button.textContent = 'Open';
    return;
  }
  const ex = await client.call('excerpt', { name: g.file, line: g.lines[0] || 1 });
  clear(box);
  if (!ex) {
    box.append(el('p', {}, `${g.file} is not held whole in this page (a large runs file): open it in an editor at line ${g.lines[0]}.`));
  } else {
    const pre = el('pre', { tabindex: '0', 'aria-label': `${g.file} around line ${ex.line}` });
    for (const l of ex.lines) {
      const mark = g.lines.includes(l.no);
      pre.append(el('span', { class: mark ? 'line bad' : 'line', dataset: { line: String(l.no) } },
        el('span', { class: 'no', 'aria-hidden': 'true' }, String(l.no).padStart(5) + ' '), l.text + '\n'));
    }
    box.append(pre);
  }
  box.hidden = false;
  button.setAttribute('aria-expanded', 'true');
  button.textContent = 'Close';
  const bad = box.querySelector('.line.bad');
  if (bad) bad.scrollIntoView({ block: 'nearest' });
}

// renderSchemaAdvice shows, for a CSV whose header is not the bundled
// register's, that a schema file is needed and a minimal one for the
// columns it has (the worker writes it: firstuse.js), to copy, download
// or add to the files at once.
function renderSchemaAdvice(a) {
  const box = $('schema-advice');
  box.hidden = !a;
  state.schemaAdvice = a;
  if (!a) return;
  $('schema-advice-text').textContent = `${a.file} has the columns ${[a.schema.key, ...a.schema.columns.map((c) => c.name)].join(', ')}, ` +
    'not those of the bundled traveler register. To score your own table, drop a schema file beside it: it names the key column ' +
    `that pairs records (here "${a.schema.key}") and how each other column is compared. A minimal one for these columns ` +
    '(kinds guessed from the first rows: text, integer or yesno; edit it to taste):';
  $('schema-text').textContent = a.text;
}

// directFormHint is the status for the harness's direct form (a
// prediction JSON, a path/value truth CSV, evidence) dropped without a
// cases file: the page evaluates cases files.
function directFormHint(res) {
  if (res.present || res.harness || state.files.length === 0) return '';
  const truth = state.files.find((f) => f.role === 'case-file');
  if (!truth) return '';
  return `${truth.name} is a harness path/value truth table (the direct form): the page evaluates cases files. ` +
    'Drop a cases file naming it, the prediction and the evidence, or run docscore eval --prediction … --ground-truth … on the command line.';
}

// renderOverview fills the summary at the top: one line per family
// scored, each with a link to its section; the skip link goes to it.
function renderOverview(res) {
  const list = clear($('overview-list'));
  const item = (id, text, link) => list.append(el('li', {}, text, ' ', el('a', { href: '#' + id, dataset: { family: id } }, link)));
  const v = state.view;
  if (v) {
    const f1s = v.cells.map((c) => c.f1).filter((x) => x !== null);
    const range = f1s.length ? `F1 ${fmt4(Math.min(...f1s))}–${fmt4(Math.max(...f1s))}` : 'no F1';
    item('results', `Tables: ${v.images.count} images in ${v.cells.length} cell${v.cells.length === 1 ? '' : 's'}, ${range}` +
      (v.failed.length ? `, ${v.failed.length} failed` : '') + (v.preview ? ' (preview on)' : '') + '.', 'Go to the results');
  }
  if (res.receipts && res.receipts.report) {
    const r = res.receipts.report;
    item('receipts', `Receipts: run ${r.run_id}, ${r.scored_records} pages in ${r.phases.length} phase${r.phases.length === 1 ? '' : 's'}` +
      (r.incomplete ? ' (incomplete)' : '') + '.', 'Go to the receipts');
  } else if (res.receipts && res.receipts.refused) {
    item('receipts', 'Receipts: the run is incomplete.', 'Go to the receipts');
  }
  if (res.harness && res.harness.report) {
    const s = res.harness.report.summary;
    const verdicts = ['pass', 'fail', 'uncertain'].filter((k) => s[k]).map((k) => `${s[k]} ${k}`).join(', ');
    item('harness', `Pipelines: ${s.stages} stage${s.stages === 1 ? '' : 's'}${verdicts ? ' (' + verdicts + ')' : ''}.`, 'Go to the pipelines');
  }
  if (!$('compare').hidden) item('compare', 'Compare: two cells, runs files or reports.', 'Go to Compare');
  const any = list.children.length > 0;
  $('overview').hidden = !any;
  // "Skip to the results" goes to the summary, which links every family.
  $('skip').setAttribute('href', any ? '#overview' : '#inputs');
}

// messageWithoutPlace drops the "FILE:LINE: " prefix the core puts on input
// errors, for showing next to the file.
function messageWithoutPlace(e) {
  for (const prefix of [e.file + ':' + e.line + ':', e.file + ':']) {
    if (e.message.startsWith(prefix)) {
      return e.message.slice(prefix.length).replace(/^\d+: /, '').trim();
    }
  }
  return e.message;
}

// hideResults takes every family's results away (a scoring refused).
function hideResults() {
  state.view = null;
  state.receiptsReport = null;
  for (const id of ['results', 'receipts', 'harness', 'compare', 'overview', 'schema-advice']) $(id).hidden = true;
  $('skip').setAttribute('href', '#inputs');
}

function renderEmpty() {
  renderSchemaAdvice(null);
  $('overview').hidden = true;
  $('skip').setAttribute('href', '#inputs');
  state.view = null;
  state.rules = null;
  renderFiles();
  renderRules();
  renderReceipts(null);
  renderHarness(null);
  state.receiptsReport = null;
  $('results').hidden = true;
  renderCompare();
  showError('');
  status('Drop files, choose them, or load the sample.');
}

// The receipts and harness views are modules of their own, fetched the
// first time they have something to show: a tabular-only session loads
// none of their code.
let receiptsView = null;
let pipelineView = null;

async function renderReceipts(r) {
  $('receipts').hidden = !r;
  if (!r) return;
  receiptsView = receiptsView || await import('./receiptsview.js');
  receiptDrill.hide();
  receiptsView.render(r, { allowIncomplete: state.allowIncomplete, onOpen: openReceiptPage });
}

async function renderHarness(h) {
  $('harness').hidden = !h;
  if (!h) return;
  pipelineView = pipelineView || await import('./pipelineview.js');
  pipelineView.render(h);
}

// ---- results -------------------------------------------------------------

function metricList(v) {
  const list = [
    { key: 'f1', label: 'F1', get: (c) => c.f1, delta: (p) => p.f1, ci: 'f1' },
    { key: 'precision', label: 'precision', get: (c) => c.precision, delta: (p) => p.precision, ci: 'precision' },
    { key: 'recall', label: 'recall', get: (c) => c.recall, delta: (p) => p.recall, ci: 'recall' },
    { key: 'name_cer', label: `name CER (gate ${v.gate})`, get: (c) => c.name_cer, delta: (p) => p.name_cer, lowerIsBetter: true, ci: 'name_cer' },
  ];
  for (const f of v.fields) {
    list.push({ key: 'field:' + f, label: f, get: (c) => c.fields[f].accuracy, delta: (p) => p.fields[f], field: f, ci: 'fields.' + f });
  }
  return list;
}

// nextTask lets the browser run its own work (layout, input) before the
// next step.
function nextTask() {
  return globalThis.scheduler && scheduler.yield ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}

async function renderResults() {
  const v = state.view;
  $('results').hidden = false;
  const r = v.rules;
  const rulesText = r.sha256
    ? `Rules: ${r.file}, ${r.settled} settled, ${r.open} OPEN, sha256 ${r.sha256.slice(0, 12)}.`
    : 'No rule file: built-in normalization only.';
  const nImages = v.images.count;
  $('summary').textContent = `${nImages} image${nImages === 1 ? '' : 's'} in ${v.cells.length} cell${v.cells.length === 1 ? '' : 's'}. ` +
    `Gate ${v.gate} (name CER is computed on the pairs that cleared it). ${rulesText}` +
    (v.preview ? ` Preview: ${v.preview.rows.length} OPEN row(s) switched on; the tables show the preview scores.` : '') +
    ciFootnote(v.cells.length ? v.cells[0].ci : null);
  const warn = clear($('warnings'));
  // The rule file's warnings are in the Rules section, beside its rows:
  // listed once, there. Skipped lines are in the status and the file list.
  const ruleFile = state.rules && !$('rules').hidden ? state.rules.file + ':' : null;
  for (const w of v.warnings) {
    if (ruleFile && w.startsWith(ruleFile)) continue;
    warn.append(el('li', {}, w));
  }
  // One task per section, so that the browser lays out and paints in
  // between and no single task holds the main thread for long.
  for (const [name, render] of [['cells', renderCells], ['chart', renderChart], ['pages', renderPages],
    ['preview', renderPreview], ['images', renderImages], ['failed', renderFailed]]) {
    await nextTask();
    const t = performance.now();
    render();
    performance.measure('docscore:render:' + name, { start: t });
  }
  imageDrill.hide();
  pageDrill.hide();
  images.setCurrent(-1);
  // The worker's timing of this scoring (ms: the rule file's check, the
  // core's call, the view), for tests and for whoever profiles the page.
  document.body.dataset.workerMs = JSON.stringify(Object.fromEntries(Object.entries(v.timing).map(([k, ms]) => [k, Math.round(ms)])));
}

// ciFootnote names the cells' interval settings as the Markdown report
// does (Go's stats.CI.Footnote); "" without intervals.
function ciFootnote(ci) {
  return ci ? ` In brackets: ${100 * ci.level}% bootstrap percentile intervals, ${ci.replicates} replicates over ${ci.unit}s, seed ${ci.seed}.` : '';
}

function deltaOf(metric, cellIndex) {
  const p = state.view.preview;
  return p ? metric.delta(p.cells[cellIndex]) : null;
}

function renderCells() {
  const v = state.view;
  const rows = v.cells.map((c, i) => ({ c, i }));
  const num = (metric) => ({
    key: metric.key, label: metric.label, className: 'num',
    value: (r) => metric.get(r.c),
    cell: (r) => {
      const d = deltaOf(metric, r.i);
      // as the Markdown report: the value, then its interval (SPEC F.4)
      return d ? fmtDelta(d) : fmtOpt4(metric.get(r.c)) + ciText(r.c.ci, metric.ci);
    },
    decorate: (td, r) => {
      const d = deltaOf(metric, r.i);
      if (d && d.delta !== null && d.delta !== 0) {
        const better = metric.lowerIsBetter ? d.delta < 0 : d.delta > 0;
        td.classList.add('moved', better ? 'better' : 'worse');
      }
      const val = metric.get(r.c);
      if (val !== null) td.dataset.value = String(val);
    },
  });
  const metrics = metricList(v);
  // Many fields (a table of your own) go in a table of their own, one row
  // per field, unless the user asks for them as columns.
  const many = v.fields.length > FIELDS_AS_ROWS;
  $('fields-as-rows-p').hidden = !many;
  const asRows = many && state.fieldsAsRows !== false;
  $('fields-as-rows').checked = asRows;
  const columns = [
    { key: 'model', label: 'model', value: (r) => r.c.model, cell: (r) => r.c.model },
    { key: 'phase', label: 'phase', value: (r) => r.c.phase, cell: (r) => r.c.phase },
    { key: 'ok', label: 'images ok', className: 'num', value: (r) => r.c.images_ok, cell: (r) => String(r.c.images_ok) },
    { key: 'failed', label: 'failed', className: 'num', value: (r) => r.c.images_failed, cell: (r) => String(r.c.images_failed) },
    ...metrics.filter((m) => !(asRows && m.field)).map(num),
  ];
  sortableTable($('cells'), columns, rows, state.cellSort, 'Cells: model, phase and scores' + (v.preview ? ', settled → preview (delta)' : ''),
    (sorted) => {
      // The chart follows the table's order; the phase column stays in
      // view beside the model's when the table scrolls.
      const order = sorted.map((r) => r.i).join();
      const changed = state.cellOrder !== undefined && state.cellOrder.join() !== order;
      state.cellOrder = sorted.map((r) => r.i);
      stickPhase($('cells'));
      if (changed) renderChart();
    });
  renderFieldRows(asRows ? metrics.filter((m) => m.field) : null);
  // the metric menu of the chart: the scores, then the fields
  const menu = $('metric');
  const keep = state.metric;
  const option = (m) => el('option', { value: m.key, selected: m.key === keep }, m.label);
  clear(menu).append(...metrics.filter((m) => !m.field).map(option));
  if (v.fields.length) menu.append(el('optgroup', { label: 'Fields (accuracy)' }, metrics.filter((m) => m.field).map(option)));
  if (!metrics.some((m) => m.key === keep)) state.metric = 'f1';
}

// renderFieldRows fills the fields-as-rows table (null hides it): one row
// per field, one column per cell, each the field's accuracy (or the
// preview's delta) with its interval.
function renderFieldRows(fieldMetrics) {
  const v = state.view;
  $('fields-rows').hidden = !fieldMetrics;
  if (!fieldMetrics) return;
  const header = ['field', ...v.cells.map((c) => `${c.model} / ${c.phase}`)];
  const rows = fieldMetrics.map((m) => [m.label, ...v.cells.map((c, i) => {
    const d = deltaOf(m, i);
    return d ? fmtDelta(d) : fmtOpt4(m.get(c)) + ciText(c.ci, m.ci);
  })]);
  plainTable($('fields-table'), header, rows, 'Fields as rows: accuracy per field and cell');
}

// stickPhase keeps a table's second column (phase) in view beside its
// first (model) when it scrolls sideways: its left offset is the first
// column's width.
function stickPhase(table) {
  const first = table.querySelector('thead th:first-child');
  if (!first) return;
  const w = first.getBoundingClientRect().width;
  if (w === 0) return; // not laid out (hidden): the next drawing does it
  for (const cell of table.querySelectorAll('tr > :nth-child(2)')) {
    cell.classList.add('sticky2');
    cell.style.left = w + 'px';
  }
}

function renderChart() {
  const v = state.view;
  if (!v) return;
  const spread = runSpread(v.images, v.cells.length);
  const metric = metricList(v).find((m) => m.key === state.metric) || metricList(v)[0];
  const order = state.cellOrder && state.cellOrder.length === v.cells.length ? state.cellOrder : v.cells.map((_, i) => i);
  const items = order.map((i) => [v.cells[i], i]).map(([c, i]) => {
    const d = deltaOf(metric, i);
    // the error bar: the cell's interval of the metric (SPEC F.4), as
    // the cells table shows it
    const iv = ciLookup(c.ci, metric.ci) || null;
    return {
      label: `${c.model} / ${c.phase}`, value: metric.get(c), settled: d ? d.settled : undefined, delta: d,
      ci: iv, ciText: iv ? ciText(c.ci, metric.ci).trim() : '',
      // the run-to-run spread of F1 (its runs' pooled F1, lowest to highest)
      spread: metric.key === 'f1' && spread[i] && spread[i].runs > 1 ? spread[i] : null,
    };
  });
  const axis = barChart($('chart'), `${metric.label} per cell${v.preview ? ' (bar: preview, mark: settled)' : ''}`, items,
    (it) => (it.delta ? fmtDelta(it.delta) : fmtOpt4(it.value)));
  const hasSpread = items.some((it) => it.spread);
  $('chart-axis').textContent = (axis.full ? 'Axis 0–1.' : `The axis fits the data: ${axis.text} (not 0–1).`) +
    (items.some((it) => it.ci) ? ' Error bars: each cell\'s interval.' : '') +
    (hasSpread ? ' Thin orange mark under a bar: the F1 of the cell\'s runs, lowest to highest (run-to-run spread).' : '');
  $('chart').dataset.axis = axis.text;
}

function renderPages() {
  const v = state.view;
  // Each F1 opens its page across the cells (drilldown.js).
  plainTable($('pages'), ['page', ...v.cells.map((c) => `${c.model} / ${c.phase}`)],
    v.pages.ids.map((p, k) => [p, ...v.pages.f1[k].map((x, i) => el('button', {
      type: 'button', class: 'f1-link', dataset: { page: p, cell: i },
      'aria-label': `Page ${p}, ${v.cells[i].model} / ${v.cells[i].phase}: F1 ${x === null ? 'none' : fmt4(x)}. Open the page across the cells`,
      onclick: (e) => openPage(k, e.currentTarget),
    }, x === null ? '–' : fmt4(x)))]),
    'F1 per page and cell: select a value to see the page across the cells');
}

function renderRules() {
  const r = state.rules;
  const section = $('rules');
  section.hidden = !r;
  if (!r) return;
  $('rules-summary').textContent = `${r.file}: ${r.settled} settled, ${r.open} OPEN rows` +
    (r.sha256 ? `, sha256 ${r.sha256.slice(0, 12)}` : '') + '. OPEN rows change no score until you preview them.';
  const problems = clear($('rules-problems'));
  for (const p of r.errors) {
    problems.append(el('li', { class: 'error-item' }, `error: line ${p.line}${p.column ? `:${p.column}` : ''}: ${p.message}`,
      p.excerpt && el('pre', { class: 'caret' }, p.excerpt)));
  }
  for (const p of r.warnings) problems.append(el('li', { class: 'warning-item' }, `warning: line ${p.line}: ${p.message}`));
  const open = r.rows.filter((x) => x.status === 'OPEN');
  $('rules-all-p').hidden = open.length === 0 || r.errors.length > 0;
  const all = $('rules-all');
  const on = open.filter((x) => state.preview.has(x.line)).length;
  all.checked = open.length > 0 && on === open.length;
  all.indeterminate = on > 0 && on < open.length;
  const table = $('rules-table');
  table.hidden = r.rows.length === 0;
  // The table is built again: a checkbox that had the focus gets it back.
  const had = document.activeElement;
  const focused = had && table.contains(had) && had.dataset.line;
  plainTable(table, ['line', 'kind', 'status', 'field', 'forms', 'canonical / position, side', 'witness', 'preview'],
    r.rows.map((x) => [
      String(x.line), x.kind, x.status, x.fields.join(', '), x.forms.join(' / '),
      x.kind === 'equivalence' ? x.canonical : `${x.position}, ${x.side}`, x.witness,
      x.status === 'OPEN' && r.errors.length === 0
        ? el('label', {}, el('input', {
          type: 'checkbox', checked: state.preview.has(x.line), dataset: { line: x.line },
          onchange: (e) => togglePreview([x.line], e.target.checked),
        }), el('span', { class: 'sr' }, `Preview line ${x.line}`))
        : '',
    ]), 'Rows of the rule file');
  for (const tr of table.tBodies[0].rows) {
    if (tr.cells[2].textContent === 'OPEN') tr.classList.add('open-row');
  }
  if (focused) {
    const box = table.querySelector(`input[data-line="${focused}"]`);
    if (box) box.focus();
  }
}

function togglePreview(lines, on) {
  for (const l of lines) {
    if (on) state.preview.add(l);
    else state.preview.delete(l);
  }
  renderRules();
  rescore();
}

function renderPreview() {
  const v = state.view;
  const box = $('preview');
  box.hidden = !v.preview;
  if (!v.preview) return;
  const rows = clear($('preview-rows'));
  rows.append('Rows switched on: ');
  rows.append(el('ul', {}, v.preview.rows.map((x) => el('li', {},
    `line ${x.line} (${x.kind}): ${rowString(x)}`))));
  const table = $('preview-table');
  // The columns keep the report's order (the Markdown's); the first that
  // moved is scrolled into view below.
  const fields = v.fields;
  plainTable(table, ['model', 'phase', 'F1', 'name CER', ...fields],
    v.preview.cells.map((c, i) => {
      const sig = (path) => sigText(v.preview.comparison, i, path);
      return [c.model, c.phase, fmtDelta(c.f1, sig('f1')), fmtDelta(c.name_cer, sig('name_cer')),
        ...fields.map((f) => fmtDelta(c.fields[f], sig('fields.' + f)))];
    }),
    'Preview deltas per cell');
  // highlight what moved
  v.preview.cells.forEach((c, i) => {
    const tr = table.tBodies[0].rows[i];
    const ds = [c.f1, c.name_cer, ...fields.map((f) => c.fields[f])];
    ds.forEach((d, k) => {
      if (d.delta !== null && d.delta !== 0) {
        const better = k === 1 ? d.delta < 0 : d.delta > 0;
        tr.cells[k + 2].classList.add('moved', better ? 'better' : 'worse');
      }
    });
  });
  // Beside a p-value, what the sample can tell (SPEC F.7), when the
  // report says it.
  const paths = ['f1', 'name_cer', ...fields.map((f) => 'fields.' + f)];
  v.preview.cells.forEach((c, i) => {
    const tr = table.tBodies[0].rows[i];
    paths.forEach((path, k) => {
      const note = limitText(v.preview.comparison, i, path);
      if (note) tr.cells[k + 2].append(el('span', { class: 'preview-stat limit' }, ' — ' + note));
    });
  });
  scrollToMoved(table);
  renderChanges(v);
  // A report scored with a preview may carry its paired comparison,
  // settled against preview (report.preview.comparison, SPEC F.6): each
  // delta shows its interval and Holm p (sigText, above), significant ones
  // are marked, and each row lists the pages that rose or fell.
  if (v.preview.comparison) {
    import('./comparison.js').then((m) => {
      if (state.view === v) previewSignificance(m, v, table, fields);
    }).catch(showFatal);
  }
}

// scrollToMoved scrolls a table's box sideways so that its leftmost
// column with a moved cell is in view beside the sticky first column
// (a wide preview table whose only moved column is far right).
function scrollToMoved(table) {
  const box = table.closest('.scroll');
  const moved = [...table.querySelectorAll('td.moved')];
  if (!box || moved.length === 0) return;
  const left = Math.min(...moved.map((td) => td.offsetLeft));
  const pinned = table.querySelector('tbody th');
  const start = Math.max(0, left - (pinned ? pinned.offsetWidth : 0) - 16);
  table.dataset.firstMoved = String(moved.find((td) => td.offsetLeft === left).cellIndex);
  if (left + 16 > box.scrollLeft + box.clientWidth || left < box.scrollLeft + (pinned ? pinned.offsetWidth : 0)) box.scrollLeft = start;
}

// MAX_CHANGES is the most changes a group lists on the page; the
// downloads list them all.
const MAX_CHANGES = 500;

// renderChanges lists what the preview changed (report.preview.changes):
// per previewed row (and for all together) a folded list with its tally
// in the summary; each change is a button that opens its image, stepping
// through the group's images. The list is built when first unfolded.
function renderChanges(v) {
  const box = clear($('preview-changes'));
  box.append(el('h4', {}, 'What the preview changed'),
    el('p', { class: 'hint' }, 'Each pair and field whose score or pairing the preview changed, with the previewed rows that change it alone. Select one to open its image.'));
  for (const g of changeGroups(v.preview)) {
    const det = el('details', { class: 'preview-changes', dataset: { row: g.line } }, el('summary', {}, g.summary));
    det.addEventListener('toggle', () => {
      if (!det.open || det.dataset.filled) return;
      det.dataset.filled = 'true';
      const lines = [...new Set(g.changes.map((c) => c.line))];
      const items = lines.map((line) => ({ line, compared: false }));
      const shown = g.changes.slice(0, MAX_CHANGES);
      det.append(el('ul', {}, shown.map((c) => el('li', {}, el('button', {
        type: 'button', class: 'image-link change-link' + (worse(c, v.key) ? ' worse' : ''),
        dataset: { line: c.line, gtLine: c.gt_line, field: c.field },
        onclick: (e) => {
          const from = e.currentTarget;
          // The image opens on this change's pair, marked, before → after.
          const at = lines.indexOf(c.line);
          for (const it of items) delete it.focus;
          items[at].focus = { gtLine: c.gt_line, field: c.field === 'pairing' ? v.key : c.field, text: changeValues(c, v.key) };
          imageDrill.open(items, at, (item) => {
            const b = det.querySelector(`button[data-line="${item.line}"]`);
            (b || from).focus();
          });
        },
      }, `image ${c.line} · ${c.model} / ${c.phase} run ${runText(c.run)} · page ${c.page} · ${c.gt} (line ${c.gt_line}) · ${c.field}: ${changeValues(c, v.key)}` +
        (g.line === 0 ? ` · ${c.rows.length ? 'row ' + c.rows.join(', ') : 'rows together'}` : ''))))));
      if (g.changes.length > shown.length) {
        det.append(el('p', { class: 'hint' }, `The first ${shown.length} of ${g.changes.length}; the downloaded report lists them all.`));
      }
    });
    box.append(det);
  }
}

// worse says whether a change is for the worse: a field's score fell, a
// name's CER rose, or a ground-truth row lost its pair.
function worse(c, key) {
  if (c.field === 'pairing') return c.after === null;
  if (c.before === null || c.after === null) return false;
  return c.field === key ? c.after > c.before : c.after < c.before;
}

// previewSignificance adds the preview's comparison to the preview table
// (comparison.js reads it); fields are the table's, in its order.
function previewSignificance(m, v, table, fields) {
  const stats = m.previewStats(v.preview.comparison);
  v.preview.cells.forEach((c, i) => {
    const row = m.previewRow(stats.get(m.cellKey(c.model, c.phase)), fields);
    if (!row) return;
    const tr = table.tBodies[0].rows[i];
    // The interval and Holm p are in the cell's text already (sigText, as
    // the Markdown report writes them): a significant delta is marked.
    row.notes.forEach((n, k) => {
      if (n && n.significant) tr.cells[k + 2].classList.add('significant');
    });
    if (!row.movement) return;
    const cell = v.cells.findIndex((x) => x.model === c.model && x.phase === c.phase);
    const det = el('details', { class: 'preview-movement' }, el('summary', {}, row.movement.text));
    for (const [word, ids] of [['rose', row.movement.rose], ['fell', row.movement.fell]]) {
      if (ids.length === 0) continue;
      det.append(el('p', {}, `F1 ${word} on: `, ...ids.map((id) => {
        const line = firstImageLine(cell, id);
        return line ? el('button', { type: 'button', class: 'image-link', dataset: { page: id },
          'aria-label': `Open page ${id} of ${c.model} / ${c.phase} (line ${line})`, onclick: () => openDetail(line) }, id)
          : el('code', {}, id);
      })));
    }
    tr.cells[2].append(det);
  });
}

// firstImageLine is the runs-file line of the first image scored ok of a
// cell on a page (0 when there is none): the drill-down a page opens.
function firstImageLine(cell, page) {
  const v = state.view;
  const im = v.images;
  const p = v.pageIds.indexOf(page);
  if (p < 0 || cell < 0) return 0;
  for (let i = 0; i < im.count; i++) {
    if (im.cell[i] === cell && im.page[i] === p && im.ok[i]) return im.line[i];
  }
  return 0;
}

// rowString renders a rule row like the Markdown report (rules.Row.String).
function rowString(x) {
  const base = `${x.fields.join(', ')} | ${x.forms.join(' / ')} | `;
  return x.kind === 'equivalence' ? base + `${x.canonical} | ${x.status}` : base + `${x.position} | ${x.side} | ${x.status}`;
}

function renderImages() {
  const v = state.view;
  const im = v.images;
  const cell = (i) => v.cells[im.cell[i]];
  if (!images) {
    images = new VirtualTable($('images'), {
      label: 'Images, one per line of the runs file',
      onOpen: (i, j) => openImageRow(j),
      columns: [],
    });
  }
  images.columns = [
    { key: 'line', label: 'line', className: 'num', value: (i) => im.line[i], cell: (i) => String(im.line[i]) },
    { key: 'model', label: 'model', value: (i) => cell(i).model, cell: (i) => cell(i).model },
    { key: 'phase', label: 'phase', value: (i) => cell(i).phase, cell: (i) => cell(i).phase },
    { key: 'run', label: 'run', value: (i) => v.runIds[im.run[i]], cell: (i) => v.runIds[im.run[i]] },
    { key: 'page', label: 'page', value: (i) => v.pageIds[im.page[i]], cell: (i) => v.pageIds[im.page[i]] },
    { key: 'status', label: 'status', value: (i) => im.ok[i], cell: (i) => (im.ok[i] ? 'ok' : 'failed') },
    { key: 'matched', label: 'matched', className: 'num', value: (i) => im.matched[i], cell: (i) => String(im.matched[i]) },
    { key: 'n_model', label: 'model rows', className: 'num', value: (i) => im.nModel[i], cell: (i) => String(im.nModel[i]) },
    { key: 'n_gt', label: 'GT rows', className: 'num', value: (i) => im.nGT[i], cell: (i) => String(im.nGT[i]) },
    { key: 'f1', label: 'F1', className: 'num', value: (i) => im.f1[i], cell: (i) => (im.ok[i] ? fmt4(im.f1[i]) : '–') },
  ];
  images.renderHead();
  images.setRows(im.count);
}

// FAILED_PLAIN is the most failed images drawn as a plain table; more
// (a large runs file's thousands) go to a virtualized one, so that no
// task of the main thread draws them all.
const FAILED_PLAIN = 500;
let failedTable = null; // the VirtualTable of many failed images

function renderFailed() {
  const v = state.view;
  const f = v.failed;
  $('failed').hidden = f.length === 0;
  const many = f.length > FAILED_PLAIN;
  $('failed-table').parentElement.hidden = many;
  $('failed-virtual').hidden = !many;
  if (!many) {
    plainTable($('failed-table'), ['line', 'model', 'phase', 'run', 'page', 'why'],
      f.map((x) => [String(x.line), x.model, x.phase, x.run, x.page, x.failure]), 'Failed images');
    return;
  }
  clear($('failed-table'));
  failedTable = failedTable || new VirtualTable($('failed-virtual'), { label: 'Failed images', columns: [], onOpen: () => {} });
  const col = (key, label, value, num = false) => ({ key, label, className: num ? 'num' : '', value, cell: (i) => String(value(i)) });
  failedTable.columns = [
    col('line', 'line', (i) => f[i].line, true), col('model', 'model', (i) => f[i].model), col('phase', 'phase', (i) => f[i].phase),
    col('run', 'run', (i) => f[i].run), col('page', 'page', (i) => f[i].page), col('why', 'why', (i) => f[i].failure),
  ];
  failedTable.renderHead();
  failedTable.setRows(f.length);
}

// ---- drill-down (drilldown.js) -------------------------------------------

// The image drill-down: items are {line, compared}, shown in the order of
// the list it was opened from (the images table as sorted, a page across
// the cells, or one image).
const imageDrill = new Drill({
  box: $('detail'), heading: $('detail-h'), nav: $('detail-nav'), noun: 'image',
  show: (item) => enqueue(async () => {
    const d = await client.call('detail', { line: item.line, compared: item.compared });
    const parts = { box: $('detail'), heading: $('detail-h'), summary: $('detail-summary'), body: $('detail-body') };
    const only = (on) => {
      state.onlyMismatches = on;
      renderImage(parts, d, { compared: item.compared, only: on, onOnly: only, focus: item.focus });
      $('detail-only').focus();
    };
    renderImage(parts, d, { compared: item.compared, only: state.onlyMismatches, onOnly: only, focus: item.focus });
  }),
  // the image's row in the images table is marked while it is shown
  onMove: (item) => images.setCurrent(item.compared ? -1 : state.view.images.line.indexOf(item.line)),
  onClose: () => images.setCurrent(-1),
});

// openDetail shows one image, at a line of the scored runs file, or with
// compared of the runs file compared with it (the Compare section);
// closing returns focus to what had it.
function openDetail(line, compared = false) {
  const from = document.activeElement;
  imageDrill.open([{ line, compared }], 0, () => from && from.focus());
}

// openImageRow opens the image at position j of the images table, stepping
// through the table in its order; closing focuses the last image's row.
function openImageRow(j) {
  const im = state.view.images;
  const items = Array.from(images.order, (i) => ({ line: im.line[i], compared: false }));
  imageDrill.open(items, j, (item) => images.focusPos(images.order.indexOf(im.line.indexOf(item.line))));
}

// The page drill-down: a page across every cell, stepping through the
// pages of the per-page table.
const pageDrill = new Drill({
  box: $('page-view'), heading: $('page-view-h'), nav: $('page-view-nav'), noun: 'page',
  show: async (k) => {
    const v = state.view;
    const page = v.pages.ids[k];
    $('page-view').dataset.page = page;
    const cells = renderPageAcross($('page-view-body'), $('page-view-h'), v, page, (line, button) => {
      const items = cells.flatMap((c) => c.images.map((x) => ({ line: x.line, compared: false })));
      imageDrill.open(items, items.findIndex((x) => x.line === line), (item) => {
        const b = $('page-view-body').querySelector(`button[data-line="${item.line}"]`);
        (b && !$('page-view').hidden ? b : button).focus();
      });
    });
  },
});

function openPage(k, button) {
  pageDrill.open(state.view.pages.ids.map((_, i) => i), k, (i) => {
    const b = $('pages').querySelector(`button[data-page="${CSS.escape(state.view.pages.ids[i])}"][data-cell="${button.dataset.cell}"]`);
    (b || button).focus();
  });
}

// The receipt page drill-down: items are "phase/sample" keys, in the
// pages table's order.
const receiptDrill = new Drill({
  box: $('receipt-page'), heading: $('receipt-page-h'), nav: $('receipt-page-nav'), noun: 'page',
  show: (key) => enqueue(async () => {
    const cut = key.indexOf('/');
    const d = await client.call('receiptPage', { phase: key.slice(0, cut), sample: key.slice(cut + 1) });
    renderReceiptPage({ box: $('receipt-page'), heading: $('receipt-page-h'), summary: $('receipt-page-summary'), body: $('receipt-page-body') }, d);
  }),
  onMove: (key) => markReceiptRow(key),
  onClose: () => markReceiptRow(''),
});

function receiptRow(key) {
  const th = document.querySelector(`#receipt-pages th[data-page="${CSS.escape(key)}"]`);
  return th ? th.parentNode : null;
}

function markReceiptRow(key) {
  for (const old of document.querySelectorAll('#receipt-pages tr.opened')) {
    old.classList.remove('opened');
    old.removeAttribute('aria-current');
  }
  const tr = key && receiptRow(key);
  if (tr) {
    tr.classList.add('opened');
    tr.setAttribute('aria-current', 'true');
  }
}

// openReceiptPage opens a receipt page's drill-down (phase, sample),
// stepping through the pages table in its order; closing focuses the
// page's button in its row.
function openReceiptPage(phase, sample) {
  const keys = [...document.querySelectorAll('#receipt-pages th[data-page]')].map((th) => th.dataset.page);
  const from = document.activeElement;
  markReceiptRow(phase + '/' + sample); // at once, while the page is fetched
  receiptDrill.open(keys, Math.max(0, keys.indexOf(phase + '/' + sample)), (key) => {
    const tr = receiptRow(key);
    const b = tr && tr.querySelector('button.page-open');
    (b || from).focus();
  });
}

// ---- comparison (SPEC F.6) ---------------------------------------------------

// The comparison's view is a module of its own, fetched on the first
// comparison (with docscore.wasm, in the worker).
let compareView = null;

// compareCells lists the cells one report's comparison can pick: the
// tabular report's (model / phase), then the receipts report's phases.
function compareCells() {
  const out = [];
  if (state.view) {
    for (const c of state.view.cells) out.push({ family: 'tabular', model: c.model, phase: c.phase, label: `${c.model} / ${c.phase}` });
  }
  if (state.receiptsReport) {
    for (const p of state.receiptsReport.phases) out.push({ family: 'receipts', phase: p.phase, label: `receipts: ${p.phase}` });
  }
  return out;
}

// compareSources says what can be compared: two cells of a scored report,
// the scored runs file with a second one, dropped reports.
function compareSources() {
  const cells = compareCells();
  const runs = state.files.filter((f) => f.role === 'runs-compare' && !f.error);
  const reports = state.files.filter((f) => f.role === 'score-report' && !f.error);
  return {
    cells: cells.length >= 2 ? cells : null,
    runs: state.view && runs.length ? runs : null,
    reports: reports.length ? reports : null,
  };
}

// renderCompare shows the Compare section when there is something to
// compare; a new scoring takes the last comparison's result away.
function renderCompare() {
  const src = compareSources();
  const box = $('compare');
  box.hidden = !(src.cells || src.runs || src.reports);
  $('compare-result').hidden = true;
  $('compare-error').hidden = true;
  if (box.hidden) {
    state.compareHad = {};
    return;
  }
  for (const k of ['cells', 'runs', 'reports']) $(`compare-src-${k}-l`).hidden = !src[k];
  if (src.runs) {
    const scored = state.files.find((f) => f.role === 'runs');
    $('compare-src-runs-text').textContent = `The scored runs file${scored ? ' ' + scored.name : ''} (base) with ${src.runs.map((f) => f.name).join(', ')}`;
  }
  if (src.reports) {
    $('compare-src-reports-text').textContent = src.reports.length === 2
      ? `Report ${src.reports[0].name} (base) with ${src.reports[1].name}`
      : `${src.reports.length} dropped report${src.reports.length === 1 ? '' : 's'}: drop two to compare them`;
  }
  // A source that was not there before (a second runs file or a report
  // just dropped) is the one to compare; else the choice stays.
  const fresh = ['reports', 'runs'].find((k) => src[k] && !state.compareHad[k]);
  if (fresh || !src[state.compareSource]) {
    state.compareSource = fresh || (src.reports && src.reports.length === 2 ? 'reports' : src.runs ? 'runs' : src.cells ? 'cells' : 'reports');
  }
  state.compareHad = { cells: !!src.cells, runs: !!src.runs, reports: !!src.reports };
  $('compare-src-' + state.compareSource).checked = true;
  if (src.cells) {
    for (const [id, fallback] of [['compare-a', 0], ['compare-b', 1]]) {
      const menu = $(id);
      const keep = menu.value;
      clear(menu).append(...src.cells.map((c, i) => el('option', { value: c.family + '\u0000' + c.label, selected: i === fallback }, c.label)));
      if (src.cells.some((c) => c.family + '\u0000' + c.label === keep)) menu.value = keep;
    }
  }
  showCompareSource();
}

function showCompareSource() {
  const cells = state.compareSource === 'cells';
  $('compare-cells').hidden = !cells;
  $('compare-all').hidden = !cells;
}

// compareOptions reads the options, each a number as the command line's
// flags take it; their ranges are the core's to check.
function compareOptions() {
  const read = (id, name, whole) => {
    const text = $(id).value.trim();
    const v = Number(text);
    if (text === '' || !Number.isFinite(v) || (whole && !/^\d+$/.test(text))) {
      throw new Error(`${name}: expected ${whole ? 'a whole number' : 'a number'}, got "${text}"`);
    }
    return v;
  };
  return {
    permutations: read('compare-permutations', 'permutations', true),
    bootstrap: read('compare-bootstrap', 'bootstrap replicates', true),
    alpha: read('compare-alpha', 'α', false),
    ci_level: read('compare-level', 'interval level', false),
    seed: read('compare-seed', 'seed', true),
    effect: $('compare-effect').value.trim() === '' ? null : read('compare-effect', 'effect', false),
  };
}

// runCompare asks the worker for the comparison chosen (all: every two
// cells of the report sharing a model or a phase) and shows it, or the
// core's error.
async function runCompare(all) {
  const box = $('compare');
  const errBox = clear($('compare-error'));
  errBox.hidden = true;
  $('compare-result').hidden = true;
  let res;
  try {
    compareView = compareView || await import('./compareview.js');
    const source = state.compareSource;
    let family = 'tabular';
    let pairs = '';
    if (source === 'cells') {
      const cells = compareCells();
      const a = cells[$('compare-a').selectedIndex];
      const b = cells[$('compare-b').selectedIndex];
      family = a.family;
      if (!all) {
        if (a === b) throw new Error('Choose two different cells: A and B are the same cell.');
        if (a.family !== b.family) throw new Error('Choose two cells of one report: A is a tabular cell and B a receipts phase, or the other way round.');
        pairs = compareView.pairSpec(a, b);
      }
    }
    res = await client.call('compare', { source, family, pairs, options: compareOptions() });
  } catch (err) {
    res = { error: { message: String((err && err.message) || err) } };
  } finally {
    hideProgress();
  }
  box.dataset.count = String(++state.compareCount);
  if (res.error) {
    box.dataset.state = 'error';
    errBox.append(el('p', {}, res.error.message));
    errBox.hidden = false;
    return;
  }
  box.dataset.state = 'done';
  box.dataset.ms = String(Math.round(res.ms));
  compareView.render(res, {
    onImage: (line, compared) => openDetail(line, compared),
    onReceiptPage: (phase, sample) => openReceiptPage(phase, sample),
  });
  $('compare-result').hidden = false;
}

// ---- downloads -------------------------------------------------------------

// download saves a report: what is "json", "csv" or "md" for the tabular
// report, "receipts-json"… for the receipts report, "harness-json"… for
// the harness's.
async function download(what) {
  const [family, format] = what.includes('-') ? what.split('-') : ['tabular', what];
  let blob;
  let name;
  try {
    ({ blob, name } = await client.call('download', { family, format }));
  } finally {
    hideProgress();
  }
  saveBlob(blob, name);
}

// saveBlob offers a blob as a download named name.
function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = el('a', { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60000);
}

// ---- wiring --------------------------------------------------------------

function wire() {
  // Files dropped anywhere on the page are taken; the browser must not
  // navigate to them.
  document.addEventListener('dragover', (e) => {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    document.body.classList.add('dragging');
  });
  document.addEventListener('dragleave', (e) => {
    if (e.relatedTarget === null) document.body.classList.remove('dragging');
  });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    document.body.classList.remove('dragging');
    performance.mark('docscore:drop');
    collectDropped(e.dataTransfer).then(addItems, showFatal);
  });
  $('pick-files').addEventListener('click', () => $('file-input').click());
  $('pick-folder').addEventListener('click', () => $('folder-input').click());
  for (const id of ['file-input', 'folder-input']) {
    $(id).addEventListener('change', (e) => {
      performance.mark('docscore:drop');
      const items = [...e.target.files].map((file) => ({ file, path: file.webkitRelativePath || file.name }));
      e.target.value = '';
      addItems(items);
    });
  }
  // A sample loaded over dropped files asks first: beside them, or
  // instead of them.
  let asked = null;
  const loadSample = (which, add) => {
    performance.mark('docscore:drop');
    $('sample-ask').hidden = true;
    if (!add) state.preview.clear();
    enqueue(async () => {
      showError('');
      state.files = await client.call('loadSample', { which, add });
      renderFiles();
    });
    rescore();
  };
  for (const [id, which] of [['load-sample', 'tabular'], ['load-receipts-sample', 'receipts'], ['load-pipeline-sample', 'pipeline']]) {
    $(id).addEventListener('click', () => {
      if (state.files.length === 0) {
        loadSample(which, false);
        return;
      }
      asked = which;
      $('sample-ask-text').textContent = `Load the ${$(id).textContent.replace(/^Load /, '')} beside the ${state.files.length} file${state.files.length === 1 ? '' : 's'} you dropped, or instead of them?`;
      $('sample-ask').hidden = false;
      $('sample-add').focus();
    });
  }
  $('sample-add').addEventListener('click', () => loadSample(asked, true));
  $('sample-replace').addEventListener('click', () => loadSample(asked, false));
  $('sample-cancel').addEventListener('click', () => {
    $('sample-ask').hidden = true;
    $('load-sample').focus();
  });
  $('allow-incomplete').addEventListener('change', (e) => {
    state.allowIncomplete = e.target.checked;
    rescore();
  });
  $('clear').addEventListener('click', () => {
    state.preview.clear();
    enqueue(async () => {
      state.files = await client.call('clear');
    });
    rescore();
  });
  $('gate').addEventListener('change', () => rescore());
  $('gate').addEventListener('input', () => {
    // say at once what is wrong; the scoring waits for the change
    const g = parseGate($('gate').value);
    $('gate').setAttribute('aria-invalid', g.error ? 'true' : 'false');
    $('gate-error').hidden = !g.error;
    $('gate-error').textContent = g.error || '';
  });
  $('skip-bad-inputs').addEventListener('change', (e) => {
    state.skipBadInputs = e.target.checked;
    rescore();
  });
  $('fields-as-rows').addEventListener('change', (e) => {
    state.fieldsAsRows = e.target.checked;
    if (state.view) renderCells();
  });
  $('forget').addEventListener('click', () => {
    state.preview.clear();
    enqueue(async () => {
      await client.call('forget');
      state.files = await client.call('clear');
      $('kept').hidden = true;
      delete document.body.dataset.kept;
    });
    rescore().then(() => status('Forgotten: nothing of the last drop is kept in this browser.'));
  });
  $('schema-add').addEventListener('click', () => {
    const a = state.schemaAdvice;
    if (!a) return;
    addItems([{ file: new File([a.text], a.name, { type: 'application/json' }), path: a.name }]);
    // The advice goes away with the button: focus goes to the results
    // (or the status), not to the page's start.
    rescore().then(() => ($('results').hidden ? $('status') : $('results')).focus());
  });
  $('schema-copy').addEventListener('click', () => {
    const a = state.schemaAdvice;
    if (!a) return;
    navigator.clipboard.writeText(a.text).then(() => status('The schema is copied: save it as schema.json beside your CSVs.'),
      () => { getSelection().selectAllChildren($('schema-text')); status('Select and copy the schema shown (the browser refused the clipboard).'); });
  });
  $('schema-download').addEventListener('click', () => {
    const a = state.schemaAdvice;
    if (a) saveBlob(new Blob([a.text], { type: 'application/json;charset=utf-8' }), a.name);
  });
  let resizing = 0;
  addEventListener('resize', () => {
    clearTimeout(resizing);
    resizing = setTimeout(() => {
      if (state.view) {
        renderChart();
        stickPhase($('cells'));
      }
    }, 150);
  });
  for (const r of document.querySelectorAll('input[name="compare-source"]')) {
    r.addEventListener('change', () => {
      state.compareSource = r.value;
      showCompareSource();
    });
  }
  $('compare-run').addEventListener('click', () => enqueue(() => runCompare(false)));
  $('compare-all').addEventListener('click', () => enqueue(() => runCompare(true)));
  $('metric').addEventListener('change', (e) => {
    state.metric = e.target.value;
    renderChart();
  });
  $('rules-all').addEventListener('change', (e) => {
    const open = state.rules ? state.rules.rows.filter((r) => r.status === 'OPEN').map((r) => r.line) : [];
    togglePreview(open, e.target.checked);
  });
  for (const b of document.querySelectorAll('[data-download]')) {
    b.addEventListener('click', () => enqueue(() => download(b.dataset.download)));
  }
}

wire();
// Cancel stops a streamed scoring at once: it goes past the queue of
// calls, which waits for that scoring.
$('progress-cancel').addEventListener('click', () => {
  // The button goes away with the progress: focus goes to the status,
  // which says the scoring was cancelled, not to the page's start.
  $('status').focus();
  client.call('cancel').catch(showFatal);
});
enqueue(async () => {
  // ?stream-from=BYTES&pool=N: when a runs file is scored as a stream,
  // and by how many workers (tests and measurements set them).
  const q = new URLSearchParams(location.search);
  if (q.has('stream-from') || q.has('pool')) {
    await client.call('configure', { streamFrom: q.has('stream-from') ? Number(q.get('stream-from')) : undefined, pool: q.has('pool') ? Number(q.get('pool')) : undefined });
  }
  const v = await client.call('version');
  $('version').textContent = `docscore ${v.docscore}: scoring core compiled to WebAssembly with ${v.go}, running in a Web Worker. ` +
    'This page makes no request beyond its own origin.';
  $('schema-link').href = $('formats-link').href.split('#')[0] + '#schema-file-other-tables';
  // The last drop kept in this browser comes back (persist.js).
  const kept = await client.call('restore');
  if (kept) {
    const s = kept.settings;
    $('gate').value = s.gate || '0.7';
    state.preview = new Set(s.preview);
    state.skipBadInputs = $('skip-bad-inputs').checked = s.skipBadInputs;
    state.allowIncomplete = $('allow-incomplete').checked = s.allowIncomplete;
    state.metric = s.metric;
    state.files = kept.files;
    renderFiles();
    await scoreNow();
    // The OPEN rows previewed are known once the rule file is read.
    if (state.preview.size && previewSpec()) await scoreNow();
    $('kept').hidden = false;
    keptText(kept.left, true);
    const lost = notKeptText(kept.left);
    status(`Restored the last drop from this browser (kept ${new Date(kept.savedAt).toLocaleString()})` +
      (lost ? `; not kept, files of 8 MiB or more: ${lost}: drop ${kept.left.length === 1 ? 'it' : 'them'} again` : '') + ': ' + $('status').textContent);
  } else {
    status('Ready: drop files, choose them, or load the sample.');
  }
  document.body.dataset.ready = 'true';
});
