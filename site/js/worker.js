// worker.js — the module Web Worker that does all the work: it reads the
// dropped files (with progress), detects their roles, runs the WebAssembly
// core and keeps the full report. The page receives only what it shows:
// cells, per-page F1, a compact image index (typed arrays, transferred),
// and one image's detail on request. Nothing leaves the browser: the only
// fetches are the wasm and the bundled sample, from the page's own origin.

import './wasm_exec.js';
import { detectRole, RECEIPT_ROLES, ROLES } from './roles.js';
import { prf, pageCompare, runText } from './format.js';

const wasmURL = new URL('./docscore.wasm', import.meta.url);
const sampleURL = new URL('./sample.json', import.meta.url);

let core = null;
const ready = start();

// start loads and runs the Go program; it resolves with the version once
// the program has registered globalThis.docscore.
async function start() {
  const go = new Go();
  let instance;
  try {
    ({ instance } = await WebAssembly.instantiateStreaming(fetch(wasmURL), go.importObject));
  } catch {
    // A host that serves .wasm under another media type: use the bytes.
    const resp = await fetch(wasmURL);
    if (!resp.ok) {
      throw new Error(`cannot load the scorer: ${resp.status} for ${wasmURL.pathname}`);
    }
    ({ instance } = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject));
  }
  const started = new Promise((resolve) => {
    self.docscoreReady = resolve;
  });
  go.run(instance);
  await started;
  core = self.docscore;
  return core.version;
}

// call runs a bridge method and returns its envelope {error, result}.
async function call(method, request) {
  await ready;
  return JSON.parse(await core.call(method, JSON.stringify(request)));
}

// ---- files -------------------------------------------------------------

const files = []; // {id, name, size, role, note, text, error}
let nextId = 1;
let last = null; // the last successful scoring: {request, reportText, preview}

function listFiles() {
  return files.map(({ id, name, size, role, note, error }) => ({ id, name, size, role, note, error }));
}

let lastProgress = 0;
function progress(msg, force = false) {
  const now = performance.now();
  if (force || now - lastProgress > 50) {
    lastProgress = now;
    self.postMessage({ type: 'progress', ...msg });
  }
}

// readText decodes a file as UTF-8, keeping a byte-order mark and every
// line ending as they are: the core sees the file's exact content.
async function readText(file, onBytes) {
  const dec = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  if (!file.stream) {
    const text = dec.decode(await file.arrayBuffer());
    onBytes(file.size);
    return text;
  }
  const reader = file.stream().getReader();
  const parts = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(dec.decode(value, { stream: true }));
    onBytes(value.byteLength);
  }
  parts.push(dec.decode());
  return parts.join('');
}

function addFile(name, size, text, role, note, error = '') {
  const i = files.findIndex((f) => f.name === name);
  const f = { id: nextId++, name, size, role, note, text, error };
  if (i >= 0) {
    files[i] = f; // dropping a file again replaces it
  } else {
    files.push(f);
  }
}

const ops = {
  async version() {
    await ready;
    const env = await call('version', {});
    return env.result;
  },

  async addFiles({ items }) {
    const total = items.reduce((n, it) => n + it.file.size, 0);
    let done = 0;
    progress({ phase: 'read', done, total, name: '' }, true);
    for (const { file, path } of items) {
      const name = path || file.name;
      let text = '';
      let error = '';
      try {
        text = await readText(file, (n) => {
          done += n;
          progress({ phase: 'read', done, total, name });
        });
      } catch (err) {
        error = err instanceof TypeError ? 'not UTF-8 text (docscore reads UTF-8 files)' : String(err.message || err);
      }
      const { role, note } = error ? { role: 'ignore', note: '' } : detectRole(name, text);
      addFile(name, file.size, text, role, note, error);
    }
    progress({ phase: 'read', done: total, total, name: '' }, true);
    return listFiles();
  },

  async loadSample() {
    const resp = await fetch(sampleURL);
    if (!resp.ok) {
      throw new Error(`cannot load the sample: ${resp.status}`);
    }
    const sample = await resp.json();
    files.length = 0;
    for (const f of sample.files) {
      addFile(f.name, new TextEncoder().encode(f.text).length, f.text, f.role, 'bundled sample');
    }
    return listFiles();
  },

  async setRole({ id, role }) {
    if (!(role in ROLES)) throw new Error('unknown role ' + role);
    const f = files.find((x) => x.id === id);
    if (f) f.role = role;
    return listFiles();
  },

  async remove({ id }) {
    const i = files.findIndex((x) => x.id === id);
    if (i >= 0) files.splice(i, 1);
    return listFiles();
  },

  async clear() {
    files.length = 0;
    last = null;
    return listFiles();
  },

  score,

  async download({ format }) {
    if (!last) throw new Error('nothing scored yet');
    let text = last.reportText;
    if (format !== 'json') {
      const env = await call('scoreTabular', { ...last.request, format });
      if (env.error) throw new Error(env.error.message);
      text = env.result;
    }
    const types = { json: 'application/json', csv: 'text/csv', md: 'text/markdown' };
    const name = 'docscore-tabular' + (last.preview ? '-preview' : '') + '.' + format;
    // The report's exact bytes: the core's string, encoded as UTF-8.
    return { blob: new Blob([text], { type: types[format] + ';charset=utf-8' }), name };
  },

  async detail({ line }) {
    if (!last) throw new Error('nothing scored yet');
    // The detail reads only its own line of the runs file: send that line
    // at the same line number (blank lines before it), not the whole file.
    const runs = last.request.runs;
    const env = await call('tabularDetail', { ...last.request, runs: { name: runs.name, text: onlyLine(runs.text, line) }, line });
    if (env.error) throw new Error(env.error.message);
    return env.result;
  },
};

// onlyLine returns text with every line but line n (1-based) emptied.
function onlyLine(text, n) {
  let start = 0;
  for (let i = 1; i < n; i++) {
    const k = text.indexOf('\n', start);
    if (k < 0) return text;
    start = k + 1;
  }
  const end = text.indexOf('\n', start);
  return '\n'.repeat(n - 1) + text.slice(start, end < 0 ? text.length : end);
}

// ---- scoring -------------------------------------------------------------

function byRole(role) {
  return files.filter((f) => f.role === role && !f.error);
}

function fileRef(f) {
  return { name: f.name, text: f.text };
}

// score scores the files with their current roles. It answers
// {files, missing, problem, error, rules, receipts, view}: what is missing,
// a problem with the roles, the core's error (with file and line), the rule
// file's check, a note on receipt files, and the view of the report.
async function score({ preview = '', gate = 0 }) {
  const out = { files: listFiles(), missing: [], problem: null, error: null, rules: null, receipts: null, view: null };
  const receipts = files.filter((f) => RECEIPT_ROLES.has(f.role));
  if (receipts.length > 0) {
    out.receipts = {
      files: receipts.map((f) => f.name),
      message: 'Receipts scoring is not in this build yet: these files are recognised but not scored.',
    };
  }
  const gt = byRole('gt').sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const runs = byRole('runs');
  const rules = byRole('rules');
  const schema = byRole('schema');
  for (const [list, what] of [[runs, 'runs file'], [rules, 'rule file'], [schema, 'schema']]) {
    if (list.length > 1) {
      out.problem = { message: `more than one ${what}: set all but one to "Not used"`, files: list.map((f) => f.name) };
      last = null;
      return out;
    }
  }
  if (rules.length === 1) {
    const env = await call('checkRules', {
      rules: fileRef(rules[0]), gt: gt.map(fileRef), schema: schema.length ? fileRef(schema[0]) : undefined,
    });
    out.rules = env.error ? { error: env.error } : env.result;
  }
  if (gt.length === 0) out.missing.push('ground-truth CSVs (gt_page_NN.csv)');
  if (runs.length === 0) out.missing.push('a runs file (.jsonl)');
  if (out.missing.length > 0) {
    last = null;
    return out;
  }
  const request = { gt: gt.map(fileRef), runs: fileRef(runs[0]), format: 'json' };
  if (rules.length) request.rules = fileRef(rules[0]);
  if (schema.length) request.schema = fileRef(schema[0]);
  if (gate) request.gate = gate;
  if (preview) request.preview = preview;
  progress({ phase: 'score', done: 0, total: 0, name: runs[0].name }, true);
  const t0 = performance.now();
  const env = await call('scoreTabular', request);
  const t1 = performance.now();
  if (env.error) {
    out.error = env.error;
    last = null;
    return out;
  }
  last = { request, reportText: env.result, preview };
  out.view = buildView(JSON.parse(env.result));
  out.view.timing = { core: t1 - t0, view: performance.now() - t1 };
  const im = out.view.images;
  return {
    value: out,
    transfer: [im.line, im.cell, im.run, im.page, im.ok, im.matched, im.nModel, im.nGT, im.f1].map((a) => a.buffer),
  };
}

// buildView keeps what the page shows of a report. The images become
// typed arrays (transferred, not copied) so that a runs file of 10,000
// images costs the page's main thread nothing to receive.
function buildView(rep) {
  const cellIndex = new Map(rep.cells.map((c, i) => [c.model + '\u0000' + c.phase, i]));
  const n = rep.images.length;
  const images = {
    count: n,
    line: new Int32Array(n), cell: new Int32Array(n), run: new Int32Array(n), page: new Int32Array(n),
    ok: new Uint8Array(n), matched: new Int32Array(n), nModel: new Int32Array(n), nGT: new Int32Array(n),
    f1: new Float64Array(n),
  };
  const runIds = [];
  const runIndex = new Map();
  const pageIds = [];
  const pageIndex = new Map();
  const failed = [];
  // per (cell, page) pooled counts for the per-page comparison
  const pooled = new Map();
  rep.images.forEach((im, i) => {
    const rt = runText(im.run);
    if (!runIndex.has(rt)) {
      runIndex.set(rt, runIds.length);
      runIds.push(rt);
    }
    if (!pageIndex.has(im.page)) {
      pageIndex.set(im.page, pageIds.length);
      pageIds.push(im.page);
    }
    const c = cellIndex.get(im.model + '\u0000' + im.phase);
    images.line[i] = im.line;
    images.cell[i] = c;
    images.run[i] = runIndex.get(rt);
    images.page[i] = pageIndex.get(im.page);
    images.ok[i] = im.status === 'ok' ? 1 : 0;
    images.matched[i] = im.matched;
    images.nModel[i] = im.n_model;
    images.nGT[i] = im.n_gt;
    images.f1[i] = im.f1;
    if (im.status !== 'ok') {
      failed.push({ line: im.line, model: im.model, phase: im.phase, run: rt, page: im.page, failure: im.failure });
      return;
    }
    const key = c + '\u0000' + im.page;
    const p = pooled.get(key) || { matched: 0, nModel: 0, nGT: 0 };
    p.matched += im.matched;
    p.nModel += im.n_model;
    p.nGT += im.n_gt;
    pooled.set(key, p);
  });
  const okPages = [...new Set(rep.images.filter((im) => im.status === 'ok').map((im) => im.page))].sort(pageCompare);
  const perPage = okPages.map((page) => rep.cells.map((_, c) => {
    const p = pooled.get(c + '\u0000' + page);
    return p ? prf(p.matched, p.nModel, p.nGT)[2] : null;
  }));
  return {
    gate: rep.gate, key: rep.key, fields: rep.fields, rules: rep.rules, warnings: rep.warnings,
    cells: rep.cells, preview: rep.preview || null,
    pages: { ids: okPages, f1: perPage },
    images, runIds, pageIds, failed,
  };
}

// ---- messages --------------------------------------------------------------

self.onmessage = async (e) => {
  const { id, op, args } = e.data;
  try {
    if (!(op in ops)) throw new Error('unknown operation ' + op);
    const res = await ops[op](args || {});
    if (res && res.transfer) {
      self.postMessage({ id, ok: true, value: res.value }, res.transfer);
    } else {
      self.postMessage({ id, ok: true, value: res });
    }
  } catch (err) {
    self.postMessage({ id, ok: false, error: String((err && err.message) || err) });
  }
};
