// worker.js — the module Web Worker that does all the work: it reads the
// dropped files (with progress), detects their roles, runs the WebAssembly
// scorers and keeps the full reports. The page receives only what it
// shows: cells, per-page F1, a compact image index (typed arrays,
// transferred), one image's detail on request, the receipts report and the
// harness report. Nothing leaves the browser: the only fetches are the
// wasm files and the bundled samples, from the page's own origin.
//
// Each family of scorers is its own WebAssembly file: docscore.wasm (the
// tabular core, with the comparison of reports, SPEC F) starts with the
// worker; receipts.wasm and harness.wasm are fetched the first time their
// files are scored, never before.

import { instantiate, callRaw } from './wasmload.js';
import { detectRole, FAMILIES, ROLES, casePaths, resolveCasePath, isTextName, firstBadByte, notUTF8 } from './roles.js';
import { runText } from './format.js';
import { buildView, ViewBuilder, transferOf } from './streamview.js';
import { LineSplitter, sections } from './stream.js';
import { Pool, poolSize } from './pool.js';
import { splitTexts } from './parts.js';
import { warmUpCalls } from './warmup.js';
import { keep, kept, forget, splitKept } from './persist.js';
import { reportFileName } from './layout.js';

// MODULES are the WebAssembly files and the global name each Go program
// registers itself under (wasm/site/internal/host).
const MODULES = {
  core: { url: new URL('./docscore.wasm', import.meta.url), global: 'docscore' },
  receipts: { url: new URL('./receipts.wasm', import.meta.url), global: 'docscoreReceipts' },
  harness: { url: new URL('./harness.wasm', import.meta.url), global: 'docscoreHarness' },
};
const SAMPLES = {
  tabular: new URL('./sample.json', import.meta.url),
  receipts: new URL('./sample-receipts.json', import.meta.url),
  pipeline: new URL('./sample-pipeline.json', import.meta.url),
};

const loaded = {}; // module name → Promise of its API {call, version}

// load starts a WebAssembly file's Go program once and resolves with its
// API once the program has registered globalThis[global]. A failed load is
// forgotten, so that the next call tries again.
function load(name) {
  if (!loaded[name]) {
    loaded[name] = instantiate(MODULES[name]).catch((err) => {
      delete loaded[name];
      throw err;
    });
  }
  return loaded[name];
}

let idle = true; // no operation was asked for yet

// warmUp scores the bundled sample (fetched from the page's own origin),
// with its rule file's check, and then a larger runs file made from it
// (warmup.js), yielding to the worker's messages between calls and
// stopping at the first one: a drop waits for at most the call in
// progress (under 0.1 s for the sample, 0.1–0.2 s for the larger file
// once warm). The results are dropped; an
// error ends the warm-up and is reported, so that a broken warm-up does
// not pass unseen.
async function warmUp() {
  const resp = await fetch(SAMPLES.tabular);
  if (!resp.ok || !idle) return;
  for (const request of warmUpCalls((await resp.json()).files)) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (!idle) return;
    const env = await call('dropTabular', request);
    const error = env.error || JSON.parse(rawText(env)).error;
    if (error) {
      self.postMessage({ type: 'warm', error: error.message });
      return;
    }
  }
  self.postMessage({ type: 'warm' });
}

// The tabular core starts with the worker; a failure shows at its first
// call. Once it runs, the worker warms it up while idle.
load('core').then(warmUp).catch(() => {});

// call runs a bridge method of a module and returns its envelope
// {error, result}. The files' texts go beside the JSON request, not
// escaped inside it (parts.js). A report (or a report's summary) comes
// back as its bytes, raw (a Uint8Array, byte for byte the core's), with
// result null: never escaped into JSON, and decoded into a string only
// when read (rawText; wasm/site/internal/host).
async function call(method, request, module = 'core') {
  const api = await load(module);
  const { json, parts } = splitTexts(request);
  const out = await api.call(method, json, parts);
  if (typeof out === 'string') return JSON.parse(out);
  return { ...JSON.parse(out.envelope), raw: out.raw };
}

// callBytes runs a stream method of the core with bytes beside the
// request and returns its raw answer, or throws its error (with the
// core's detail).
async function callBytes(method, request, bytes) {
  const { json, parts } = splitTexts(request);
  return callRaw(await load('core'), method, json, parts, bytes);
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

// A rejection no one handled is a bug: the page counts them
// (data-uncaught on <body>), so that tests see them.
self.addEventListener('unhandledrejection', (e) => {
  self.postMessage({ type: 'uncaught', message: String((e.reason && e.reason.message) || e.reason) });
});

// rawText returns a raw answer's report as text.
function rawText(env) {
  return utf8.decode(env.raw);
}

// ---- files -------------------------------------------------------------

// files are the dropped files: {id, name, size, role, note, auto, text,
// bytes}. text is the UTF-8 content; bytes the content of a binary file
// (null otherwise); auto says the role was detected, not chosen.
const files = [];
let nextId = 1;
let last = null; // the last tabular scoring: {request, preview}
let lastReceipts = null; // the last receipts scoring: {request, report (bytes), incomplete}
let lastHarness = null; // {request, report (bytes)} for a cases file, or {file} for a dropped report
let lastCompare = null; // the last comparison: {request, json (bytes), name}
let tabularJSON = null; // the report of the last tabular scoring, once written: {of: last, text}

const TEXT_ONLY = 'not UTF-8 text (docscore reads UTF-8 files)';

// fileError is what is wrong with a file in its role: a binary file can
// only be a file a cases file names.
function fileError(f) {
  if (f.error) return f.error;
  // A text file that is not UTF-8 says so on itself, in any role it is
  // read in (a cases file may name it as bytes).
  if (f.notUTF8 && f.role !== 'ignore' && f.role !== 'case-file') return f.notUTF8.message;
  return f.bytes && f.role !== 'ignore' && f.role !== 'case-file' ? TEXT_ONLY : '';
}

function listFiles() {
  return files.map((f) => ({ id: f.id, name: f.name, size: f.size, role: f.role, note: f.note, error: fileError(f) }));
}

// config: a runs file from streamFrom bytes is scored as a stream by a
// pool of workers (streamRuns); the page may change both (tests do:
// main.js reads them from its URL).
const config = { streamFrom: 32 << 20, pool: poolSize(self.navigator && navigator.hardwareConcurrency) };
// HEAD_BYTES of a streamed file tell its role.
const HEAD_BYTES = 1 << 20;

let lastProgress = 0;
function progress(msg, force = false) {
  const now = performance.now();
  if (force || now - lastProgress > 50) {
    lastProgress = now;
    self.postMessage({ type: 'progress', ...msg });
  }
}

// STREAM_MIN is the size from which a file is read in chunks, with
// progress; a smaller one is read in one go, which is faster (a 2.8 MB
// runs file: 42–46 ms against 56–61 ms in chunks).
const STREAM_MIN = 8 << 20;

// readText decodes a file as UTF-8, keeping a byte-order mark and every
// line ending as they are: the core sees the file's exact content.
async function readText(file, onBytes) {
  const dec = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  if (!file.stream || file.size < STREAM_MIN) {
    const text = dec.decode(await file.arrayBuffer());
    onBytes(file.size);
    return text;
  }
  const reader = file.stream().getReader();
  const parts = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parts.push(dec.decode(value, { stream: true }));
      onBytes(value.byteLength);
    }
    parts.push(dec.decode());
  } catch (err) {
    reader.cancel().catch(() => {});
    throw err;
  }
  return parts.join('');
}

// filesVersion counts changes to the file list, so that a kept drop
// (persist.js) stores the files again only when they changed.
let filesVersion = 0;
let keptVersion = -1;

function addFile(f) {
  filesVersion++;
  const i = files.findIndex((x) => x.name === f.name);
  const entry = { id: nextId++, error: '', bytes: null, text: '', ...f };
  if (i >= 0) {
    files[i] = entry; // dropping a file again replaces it
  } else {
    files.push(entry);
  }
}

// linkCaseFiles gives the files a cases file names by path the role
// "case-file", and takes it back from those no cases file names any more.
// Roles the user chose are left alone.
function linkCaseFiles() {
  const names = files.map((f) => f.name);
  const named = new Map(); // file name → the cases file naming it
  for (const c of files) {
    if (c.role !== 'cases' || fileError(c)) continue;
    for (const p of casePaths(c.text)) {
      const hit = resolveCasePath(c.name, p, names);
      if (hit && hit !== c.name && !named.has(hit)) named.set(hit, c.name);
    }
  }
  for (const f of files) {
    if (!f.auto) continue;
    if (named.has(f.name) && f.role !== 'cases' && f.role !== 'harness-report') {
      f.role = 'case-file';
      f.note = 'named by ' + named.get(f.name);
    } else if (!named.has(f.name) && f.role === 'case-file') {
      f.role = f.detected.role;
      f.note = f.detected.note;
    }
  }
}

// toBase64 encodes bytes as standard base64.
function toBase64(bytes) {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

function fromBase64(s) {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

const ops = {
  async version() {
    const env = await call('version', {});
    return env.result;
  },

  async addFiles({ items }) {
    const total = items.reduce((n, it) => n + it.file.size, 0);
    let done = 0;
    progress({ phase: 'read', done, total, name: '' }, true);
    const readOne = async ({ file, path }) => {
      const name = path || file.name;
      let got = 0;
      const count = (n) => {
        got += n;
        done += n;
        progress({ phase: 'read', done, total, name });
      };
      try {
        if (file.size >= config.streamFrom && file.stream && /\.(jsonl|ndjson|json|txt)$/i.test(name)) {
          // A large runs file is not read now: it is scored as a stream
          // (streamRuns). Its head tells its role.
          const head = new TextDecoder('utf-8').decode(await file.slice(0, HEAD_BYTES).arrayBuffer());
          const detected = detectRole(name, head);
          if (detected.role === 'runs') {
            count(file.size);
            return { name, file, streamed: true, detected };
          }
        }
        return { name, file, text: await readText(file, count) };
      } catch (err) {
        if (err instanceof TypeError) {
          // Not UTF-8: keep the bytes, for a cases file that names it. A
          // text file (by its name) keeps the role its name and content
          // give it, and says on itself that it is not UTF-8.
          const bytes = new Uint8Array(await file.arrayBuffer());
          count(file.size - got);
          if (isTextName(name)) {
            const at = firstBadByte(bytes) || { line: 0, column: 0 };
            const lossy = new TextDecoder('utf-8').decode(bytes.subarray(0, HEAD_BYTES));
            return { name, file, bytes, notUTF8: { message: notUTF8(bytes), ...at }, detected: detectRole(name, lossy) };
          }
          return { name, file, bytes };
        }
        return { name, file, error: String(err.message || err) };
      }
    };
    // A runs file dropped where one is already scored is the run to
    // compare with it (SPEC F.6), not a second runs file to refuse.
    const scored = files.find((f) => f.role === 'runs' && !fileError(f));
    // The files are read at once (the browser serves the reads side by
    // side) and added in the order given.
    for (const { name, file, text = '', bytes = null, error = '', streamed = false, detected: head = null, notUTF8: bad = null } of await Promise.all(items.map(readOne))) {
      let detected = error ? { role: 'ignore', note: '' }
        : bad ? head : bytes ? { role: 'ignore', note: 'a binary file: used when a cases file names it' } : head || detectRole(name, text);
      if (detected.role === 'runs' && scored && scored.name !== name && !files.some((f) => f.role === 'runs-compare')) {
        detected = { role: 'runs-compare', note: `a second runs file: scored like ${scored.name} and compared with it under Compare` };
      }
      addFile({ name, size: file.size, text, bytes, error, role: detected.role, note: detected.note, auto: true, detected, ...(streamed ? { streamed, file } : {}), ...(bad ? { notUTF8: bad } : {}) });
    }
    linkCaseFiles();
    progress({ phase: 'read', done: total, total, name: '' }, true);
    return listFiles();
  },

  // loadSample loads a bundled sample: it replaces the files (add false)
  // or goes beside them (add true; a file of the same name is replaced).
  async loadSample({ which = 'tabular', add = false }) {
    const resp = await fetch(SAMPLES[which]);
    if (!resp.ok) {
      throw new Error(`cannot load the sample: ${resp.status}`);
    }
    const sample = await resp.json();
    if (!add) files.length = 0;
    for (const f of sample.files) {
      const bytes = f.base64 ? fromBase64(f.base64) : null;
      const text = f.text || '';
      addFile({
        name: f.name, size: bytes ? bytes.length : new TextEncoder().encode(text).length, text, bytes,
        role: f.role, note: f.note || 'bundled sample', auto: false,
      });
    }
    return listFiles();
  },

  async setRole({ id, role }) {
    if (!(role in ROLES)) throw new Error('unknown role ' + role);
    const f = files.find((x) => x.id === id);
    if (f) {
      f.role = role;
      f.auto = false;
      filesVersion++;
    }
    linkCaseFiles();
    return listFiles();
  },

  async remove({ id }) {
    const i = files.findIndex((x) => x.id === id);
    if (i >= 0) files.splice(i, 1);
    filesVersion++;
    linkCaseFiles();
    return listFiles();
  },

  async clear() {
    files.length = 0;
    filesVersion++;
    last = null;
    lastReceipts = null;
    lastHarness = null;
    lastCompare = null;
    return listFiles();
  },

  score,

  compare,

  // cancel stops a streamed scoring in progress (its workers are
  // stopped; the page stays usable and the next scoring starts new
  // ones).
  async cancel() {
    const had = !!job;
    if (job) job.cancel();
    return had;
  },

  // configure sets when a runs file is streamed, and the pool's size.
  async configure({ streamFrom, pool: size }) {
    if (Number.isFinite(streamFrom) && streamFrom >= 0) config.streamFrom = streamFrom;
    if (Number.isFinite(size) && size >= 1) config.pool = poolSize(size);
    return { ...config };
  },

  // restore adds back the drop kept in this browser (persist.js), if
  // any: {files, settings, savedAt}, or null.
  async restore() {
    let k = null;
    try {
      k = await kept(ROLES);
    } catch {
      return null; // storage refused (a private window): nothing kept
    }
    if (!k || files.length > 0) return null;
    for (const f of k.files) addFile(f);
    linkCaseFiles();
    keptVersion = filesVersion;
    notKept = k.left;
    return { files: listFiles(), left: k.left, settings: k.settings, savedAt: k.savedAt };
  },

  // excerpt returns the lines of a dropped file around line (1-based):
  // {name, line, lines: [{no, text}]}, or null for a file not read whole
  // (a streamed runs file). A file that is not UTF-8 is shown decoded
  // with U+FFFD for its bad bytes.
  async excerpt({ name, line, around = 3 }) {
    const f = files.find((x) => x.name === name);
    if (!f || f.streamed) return null;
    const text = f.bytes ? new TextDecoder('utf-8').decode(f.bytes) : f.text;
    const all = text.split('\n');
    const from = Math.max(1, line - around);
    const to = Math.min(all.length, Math.max(line, 1) + around);
    const lines = [];
    for (let no = from; no <= to; no++) lines.push({ no, text: all[no - 1].replace(/\r$/, '').slice(0, 2000) });
    return { name, line, lines };
  },

  // forget deletes the kept drop.
  async forget() {
    keptVersion = -1;
    await forget();
    return true;
  },

  async download({ family = 'tabular', format }) {
    const types = { json: 'application/json', csv: 'text/csv', md: 'text/markdown' };
    let data; // the report's bytes, or a dropped report's text
    let name;
    // A report may be written now (for a large runs file, seconds).
    progress({ phase: 'report', done: 0, total: 0, name: format.toUpperCase() + ' report' }, true);
    if (family === 'tabular') {
      if (!last) throw new Error('nothing scored yet');
      // The page showed the report's summary: the report is written now
      // (a streamed runs file is read and scored again, into parts).
      if (last.streamed) {
        data = (await streamRuns(last.streamed.file, last.request, { summary: false, format })).blob;
      } else {
        const env = await call('scoreTabular', { ...last.request, format });
        if (env.error) throw new Error(env.error.message);
        data = env.raw;
      }
      name = [last.request.runs.name, 'scores' + (last.preview ? '.preview' : '')];
    } else if (family === 'receipts') {
      if (!lastReceipts) throw new Error('no receipts report');
      data = lastReceipts.report;
      if (format !== 'json') {
        const env = await call('scoreReceipts', { ...lastReceipts.request, format }, 'receipts');
        if (env.error) throw new Error(env.error.message);
        data = env.raw;
      }
      name = [lastReceipts.request.run.name, 'scores' + (lastReceipts.incomplete ? '.incomplete' : '')];
    } else if (family === 'harness') {
      if (!lastHarness) throw new Error('no harness report');
      if (format === 'json') {
        data = lastHarness.file ? lastHarness.file.text : lastHarness.report;
      } else {
        const env = lastHarness.file
          ? await call('reportMarkdown', { report: fileRef(lastHarness.file) }, 'harness')
          : await call('evaluate', { ...lastHarness.request, format }, 'harness');
        if (env.error) throw new Error(env.error.message);
        data = env.raw;
      }
      name = [lastHarness.file ? lastHarness.file.name : lastHarness.request.cases.name, 'eval'];
    } else if (family === 'compare') {
      if (!lastCompare) throw new Error('nothing compared yet');
      data = lastCompare.json;
      if (format !== 'json') {
        const env = await call('compare', { ...lastCompare.request, format });
        if (env.error) throw new Error(env.error.message);
        data = env.raw;
      }
      types.junit = 'application/xml';
      const { comparisonFileName } = await import('./comparison.js');
      return { blob: new Blob([data], { type: types[format] + ';charset=utf-8' }), name: comparisonFileName(lastCompare.name[0], lastCompare.name[1], format) };
    } else {
      throw new Error('unknown report ' + family);
    }
    // The report's exact bytes: the core's, or the dropped file's text
    // encoded as UTF-8, named after its input: "<runs>.scores.json".
    return { blob: new Blob([data], { type: types[format] + ';charset=utf-8' }), name: reportFileName(name[0], name[1], format) };
  },

  async receiptPage({ phase, sample }) {
    if (!lastReceipts) throw new Error('score the receipts first');
    const { refs, run } = lastReceipts.request;
    const env = await call('receiptPage', { refs, run, phase, sample_id: sample }, 'receipts');
    if (env.error) throw new Error(env.error.message);
    return env.result;
  },

  async detail({ line, compared = false }) {
    if (!last) throw new Error('nothing scored yet');
    // The detail reads only its own line of the runs file: send that line
    // at the same line number (blank lines before it), not the whole file.
    // compared: a line of the runs file compared with the scored one.
    const runs = compared ? comparedRuns() : last.request.runs;
    if (!runs) throw new Error('no runs file to compare');
    let text;
    if (last.streamed && !compared) {
      // A streamed file: its one line, read back by its offsets.
      const r = last.streamed.lines.lineRange(line);
      if (!r) throw new Error(`${runs.name} has no line ${line}`);
      text = '\n'.repeat(line - 1) + utf8.decode(await last.streamed.file.file.slice(r[0], r[1]).arrayBuffer());
    } else {
      text = onlyLine(runs.text, line);
    }
    const env = await call('tabularDetail', { ...last.request, runs: { name: runs.name, text }, line });
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
  return files.filter((f) => f.role === role && !fileError(f));
}

function byName(a, b) {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

function fileRef(f) {
  return { name: f.name, text: f.text };
}

function hasFamily(family) {
  return files.some((f) => FAMILIES[family].has(f.role));
}

// score scores every family whose files are present, each on its own:
// {files, missing, problem, error, rules, view} for tabular files (as
// before receipts and the harness came), and {receipts} and {harness}.
// skipBadLines reports and skips malformed runs lines (tabular and
// receipts), as the command line's --skip-bad-lines. settings are the
// page's, kept with the files (persist.js) once the scoring is done.
// skipBadInputs scores what is valid of the tabular files and lists what
// was left out, as --skip-bad-inputs (and skips bad receipt run lines).
async function score({ preview = '', gate = 0, allowIncomplete = false, skipBadLines = false, skipBadInputs = false, settings = null }) {
  const receipts = await scoreReceipts(allowIncomplete, skipBadLines || skipBadInputs);
  const harness = await scoreHarness();
  const tab = await scoreTabular(preview, gate, skipBadLines, skipBadInputs);
  const out = { ...tab.value, files: listFiles(), receipts, harness };
  if (settings) keepDrop(settings);
  return tab.transfer ? { value: out, transfer: tab.transfer } : out;
}

// keepDrop keeps the files and settings in IndexedDB (persist.js), one
// write after the other, and tells the page when it is done ({type:
// "kept"}); without files, the kept drop is deleted.
let keeping = Promise.resolve();
let notKept = []; // the files of the last drop kept that were not kept
function keepDrop(settings) {
  keeping = keeping.then(async () => {
    try {
      if (files.length === 0) {
        await forget();
        keptVersion = -1;
      } else {
        const changed = keptVersion !== filesVersion;
        const version = filesVersion;
        // A streamed runs file (a gigabyte) is not kept, nor is a file
        // of 8 MiB or more: the page names them (persist.js).
        // A drop restored holds no file not kept: those of the drop kept
        // are named until the files change.
        const { kept: small, left } = splitKept(files);
        if (changed) notKept = left;
        await keep({ files: changed ? small : null, left: notKept, settings });
        keptVersion = version;
      }
      self.postMessage({ type: 'kept', files: files.length, left: notKept });
    } catch (err) {
      self.postMessage({ type: 'kept', error: String((err && err.message) || err) });
    }
  });
}

async function scoreTabular(preview, gate, skipBadLines = false, skipBadInputs = false) {
  const out = { present: hasFamily('tabular'), missing: [], problem: null, error: null, rules: null, view: null };
  // The tabular files that cannot be read at all (not UTF-8): left out
  // of the request, listed first in the page's banner.
  out.unreadable = skipBadInputs ? files.filter((f) => FAMILIES.tabular.has(f.role) && fileError(f))
    .map((f) => ({ name: f.name, error: fileError(f), line: f.notUTF8 ? f.notUTF8.line : 0, column: f.notUTF8 ? f.notUTF8.column : 0 })) : [];
  const gt = byRole('gt').sort(byName);
  const runs = byRole('runs');
  const rules = byRole('rules');
  const schema = byRole('schema');
  for (const [list, what] of [[runs, 'runs file'], [rules, 'rule file'], [schema, 'schema']]) {
    if (list.length > 1) {
      const compare = what === 'runs file' ? ', or one to "Model runs, to compare" to compare it with the other' : '';
      out.problem = { message: `more than one ${what}: set all but one to "Not used"${compare}`, files: list.map((f) => f.name) };
      last = null;
      return { value: out };
    }
  }
  const tRules = performance.now();
  if (gt.length === 0) out.missing.push('ground-truth CSVs (gt_page_NN.csv)');
  if (runs.length === 0) out.missing.push('a runs file (.jsonl)');
  if (!out.present || out.missing.length > 0) {
    // Nothing to score: the rule file alone is checked. (With files to
    // score, the scoring call checks it: dropTabular.)
    if (rules.length === 1) {
      const env = await call('checkRules', {
        rules: fileRef(rules[0]), gt: gt.map(fileRef), schema: schema.length ? fileRef(schema[0]) : undefined,
      });
      out.rules = env.error ? { error: env.error } : env.result;
    }
    if (!out.present) out.missing = [];
    last = null;
    return { value: out };
  }
  const request = { gt: gt.map(fileRef), runs: fileRef(runs[0]) };
  if (rules.length) request.rules = fileRef(rules[0]);
  if (schema.length) request.schema = fileRef(schema[0]);
  if (gate) request.gate = gate;
  if (preview) request.preview = preview;
  if (skipBadLines) request.skip_bad_lines = true;
  if (skipBadInputs) request.skip_bad_inputs = true;
  if (runs[0].streamed) return streamTabular(out, request, runs[0], preview);
  progress({ phase: 'score', done: 0, total: 0, name: runs[0].name }, true);
  const t0 = performance.now();
  // The page shows the rule file's check and the report's summary; the
  // report itself (megabytes for a large runs file) is written when it is
  // downloaded. The core keeps the files it parsed and the report it
  // scored (api.TabularSession): a preview switched on or off, a
  // drill-down and a download reuse them.
  const env = await call('dropTabular', request);
  const t1 = performance.now();
  const drop = env.error ? { rules: null, error: env.error, summary: null } : JSON.parse(rawText(env));
  out.rules = drop.rules;
  if (drop.error) {
    out.error = drop.error;
    last = null;
    await adviseOn(out, request, schema.length > 0);
    return { value: out };
  }
  last = { request, preview };
  out.view = buildView(drop.summary);
  // What the worker spent, in ms: the rule file's check (now made within
  // the core's call), the core's call and turning its summary into the
  // page's view.
  out.view.timing = { rules: t0 - tRules, core: t1 - t0, view: performance.now() - t1 };
  return { value: out, transfer: transferOf(out.view) };
}

// streamTabular scores a streamed runs file (streamRuns) into out.
async function streamTabular(out, request, runs, preview) {
  if (preview) {
    out.error = { code: 'input', file: runs.name, message: `${runs.name}: a preview needs the whole runs file in memory: not available for a file this large (${runs.size} bytes), which is scored as a stream` };
    last = null;
    return { value: out };
  }
  let res;
  try {
    res = await streamRuns(runs, request, { summary: true });
  } catch (err) {
    last = null;
    if (err instanceof Cancelled) {
      out.error = { code: 'cancelled', message: 'Scoring cancelled: drop the files again, or change a setting, to score them.' };
      return { value: out };
    }
    if (!err.detail) throw err;
    res = { drop: { rules: null, error: err.detail, summary: null } };
  }
  out.rules = res.drop.rules;
  if (res.drop.error) {
    out.error = res.drop.error;
    last = null;
    return { value: out };
  }
  last = { request, preview, streamed: { file: runs, lines: res.lines } };
  out.view = res.view;
  out.view.timing = { rules: 0, core: res.view.stream.ms, view: 0 };
  return { value: out, transfer: transferOf(out.view) };
}

// scoreReceipts scores the receipt files (SPEC B) with receipts.wasm:
// null when there are none, else {files, missing, problem, error,
// refused, report, allowIncomplete, ms}. refused is the refusal of an
// incomplete run (error code "incomplete"), which allowIncomplete lifts.
async function scoreReceipts(allowIncomplete, skipBadLines = false) {
  lastReceipts = null;
  if (!hasFamily('receipts')) return null;
  const refs = byRole('receipt-ref').sort(byName);
  const runs = byRole('receipt-run');
  const out = { missing: [], problem: null, error: null, refused: null, report: null, allowIncomplete, ms: 0 };
  if (runs.length > 1) {
    out.problem = { message: 'more than one receipt run: set all but one to "Not used"', files: runs.map((f) => f.name) };
    return out;
  }
  if (refs.length === 0) out.missing.push('CORD references (.json annotations or a .jsonl of sample_id and reference)');
  if (runs.length === 0) out.missing.push('a pilot run (.jsonl whose first line is the run header)');
  if (out.missing.length > 0) return out;
  const request = { refs: refs.map(fileRef), run: fileRef(runs[0]), format: 'json' };
  if (allowIncomplete) request.allow_incomplete = true;
  if (skipBadLines) request.skip_bad_lines = true;
  progress({ phase: 'score', done: 0, total: 0, name: runs[0].name }, true);
  const t0 = performance.now();
  const env = await call('scoreReceipts', request, 'receipts');
  out.ms = performance.now() - t0;
  if (env.error) {
    if (env.error.code === 'incomplete') out.refused = env.error;
    else out.error = env.error;
    return out;
  }
  out.report = JSON.parse(rawText(env));
  lastReceipts = { request, report: env.raw, incomplete: out.report.incomplete };
  return out;
}

// scoreHarness evaluates a cases file with harness.wasm, or reads a
// dropped harness report (no wasm needed to show it): null when there is
// neither, else {source, files, problem, error, report, ms}.
async function scoreHarness() {
  lastHarness = null;
  const cases = byRole('cases');
  const reports = byRole('harness-report');
  if (cases.length + reports.length === 0) return null;
  const out = { source: '', files: [], problem: null, error: null, report: null, ms: 0 };
  if (cases.length + reports.length > 1) {
    out.problem = {
      message: 'more than one cases file or harness report: set all but one to "Not used"',
      files: [...cases, ...reports].map((f) => f.name),
    };
    return out;
  }
  if (reports.length === 1) {
    const f = reports[0];
    out.source = 'report';
    let rep;
    try {
      rep = JSON.parse(f.text.replace(/^\ufeff/, ''));
    } catch (err) {
      out.error = { code: 'input', file: f.name, message: `${f.name}: expected a harness report (JSON): ${err.message}` };
      return out;
    }
    const bad = checkReport(rep);
    if (bad) {
      out.error = { code: 'input', file: f.name, message: `${f.name}: ${bad}` };
      return out;
    }
    out.report = rep;
    lastHarness = { file: f };
    return out;
  }
  const c = cases[0];
  out.source = 'cases';
  // The files it names, under the paths it names them by.
  const names = files.map((f) => f.name);
  const given = [];
  out.unresolved = [];
  for (const p of casePaths(c.text)) {
    const hit = resolveCasePath(c.name, p, names);
    const f = hit && files.find((x) => x.name === hit);
    if (!f || f.error) {
      out.unresolved.push(p);
      continue;
    }
    given.push(f.bytes ? { name: p, base64: toBase64(f.bytes) } : { name: p, text: f.text });
    out.files.push({ path: p, file: f.name });
  }
  const request = { cases: fileRef(c), format: 'json' };
  if (given.length) request.files = given;
  progress({ phase: 'score', done: 0, total: 0, name: c.name }, true);
  const t0 = performance.now();
  const env = await call('evaluate', request, 'harness');
  out.ms = performance.now() - t0;
  if (env.error) {
    out.error = env.error;
    return out;
  }
  out.report = JSON.parse(rawText(env));
  lastHarness = { request, report: env.raw };
  return out;
}

// adviseOn adds to a refused tabular scoring what helps the user fix it:
// for a ground-truth CSV whose header is not the schema's (and no schema
// file dropped), a minimal schema for the columns it has (firstuse.js);
// for a malformed runs line, every bad line of the runs file (the core
// stops at the first; scored again with skip_bad_lines to list them).
async function adviseOn(out, request, hasSchema) {
  const e = out.error;
  const { isHeaderMismatch, suggestSchema, schemaText } = await import('./firstuse.js');
  if (!hasSchema && isHeaderMismatch(e)) {
    const f = files.find((x) => x.name === e.file);
    const s = f ? suggestSchema(f.text) : null;
    if (s) out.schemaAdvice = { file: e.file, schema: s, text: schemaText(s), name: 'schema.json' };
    return;
  }
  if (e.file === request.runs.name && e.line && !request.skip_bad_lines) {
    const env = await call('dropTabular', { ...request, skip_bad_lines: true });
    if (env.error) return;
    const drop = JSON.parse(rawText(env));
    if (drop.error || !drop.summary) return;
    const bad = drop.summary.warnings.filter((w) => w.startsWith('skipped: '));
    if (bad.length > 0) out.badLines = { file: e.file, lines: bad.map((w) => w.slice('skipped: '.length)), images: drop.summary.images.length };
  }
}


// ---- streamed scoring (a large runs file) ---------------------------------

// A runs file from config.streamFrom bytes is never read whole: its
// bytes are read with File.stream(), cut into parts of whole lines
// (stream.js), scored by the pool's workers (pool.js, each its own Go
// instance) and their results taken in input order by this worker's own
// core (bridge.StreamMethods), which gives the page's summary and table
// of images as they come, or the report's bytes in parts, kept in a Blob
// of parts. The report is byte for byte the command line's.

let pool = null;
let job = null; // the streamed scoring in progress: {cancel()}

class Cancelled extends Error {}

// BlobParts gathers a report's parts, handing them to Blobs every 32 MB
// so that the browser, not this worker's heap, holds them.
class BlobParts {
  constructor() {
    this.blobs = [];
    this.cur = [];
    this.bytes = 0;
  }

  push(bytes) {
    if (bytes.length === 0) return;
    this.cur.push(bytes.slice());
    this.bytes += bytes.length;
    if (this.bytes >= 32 << 20) this.seal();
  }

  seal() {
    if (this.cur.length) this.blobs.push(new Blob(this.cur));
    this.cur = [];
    this.bytes = 0;
  }

  blob() {
    this.seal();
    return new Blob(this.blobs);
  }
}

// streamRuns scores the streamed runs file f with request's other files
// and options: summary true answers {drop (dropTabular's answer, its
// images null), view (the page's view, or null), lines (every line's
// offsets)}; false answers {blob}, the report in format. Cancel (the
// cancel operation) rejects it with Cancelled.
async function streamRuns(f, request, { summary, format = 'json' }) {
  if (job) job.cancel();
  const me = { cancelled: false, reader: null };
  me.cancel = () => {
    me.cancelled = true;
    if (me.reader) me.reader.cancel().catch(() => {});
    if (pool) pool.terminate();
    pool = null;
  };
  job = me;
  if (pool && pool.size !== config.pool) {
    pool.terminate();
    pool = null;
  }
  pool = pool || new Pool(config.pool);
  const p = pool;
  const req = { ...request, runs: { name: f.name, text: '' } };
  delete req.preview;
  delete req.format;
  if (!summary) req.format = format;
  const t0 = performance.now();
  const ready = [];
  const splitter = new LineSplitter(f.name, (b) => ready.push(b));
  const builder = summary ? new ViewBuilder() : null;
  const outParts = new BlobParts();
  const spoolParts = new BlobParts();
  const queue = []; // parts sent, in input order: {promise, end}
  const limit = 2 * p.size + 2;
  let taken = 0;
  let images = 0;
  let stopped = false;
  const take = async () => {
    const { promise, end } = queue.shift();
    const results = await promise;
    if (me.cancelled) throw new Cancelled();
    const s = sections(await callBytes('streamTake', {}, results));
    if (builder && s[0].length > 2) {
      const rows = JSON.parse(utf8.decode(s[0]));
      builder.add(rows);
      images += rows.length;
    }
    outParts.push(s[1]);
    spoolParts.push(s[2]);
    stopped = s[3][0] === 1;
    taken = end;
    progress({ phase: 'stream', what: summary ? 'score' : 'report', name: f.name, done: taken, total: f.size, images, ms: performance.now() - t0 });
  };
  try {
    await Promise.all([p.start(req, summary), callBytes('streamStart', { ...req, summary, role: 'merger' })]);
    if (me.cancelled) throw new Cancelled();
    progress({ phase: 'stream', what: summary ? 'score' : 'report', name: f.name, done: 0, total: f.size, images: 0, ms: 0 }, true);
    me.reader = f.file.stream().getReader();
    for (;;) {
      const { done, value } = await me.reader.read();
      if (me.cancelled) throw new Cancelled();
      if (done) splitter.end();
      else {
        // A report's provenance (SPEC F.8) describes the runs file by
        // the bytes read here, the file read once: the merger hashes them.
        if (!summary) await callBytes('streamHash', {}, value);
        splitter.push(value);
      }
      for (const b of ready) queue.push({ promise: p.score(b.first, b.bytes), end: b.end });
      ready.length = 0;
      while (!stopped && (queue.length > limit || (done && queue.length > 0))) await take();
      if (stopped || done) break;
    }
    if (stopped) me.reader.cancel().catch(() => {});
  } catch (err) {
    if (me.cancelled || err instanceof Cancelled) throw new Cancelled('cancelled');
    if (me.reader) me.reader.cancel().catch(() => {});
    throw err;
  } finally {
    if (job === me) job = null;
  }
  const fin = await callBytes('streamFinish', {});
  const ms = performance.now() - t0;
  progress({ phase: 'stream', what: summary ? 'score' : 'report', name: f.name, done: f.size, total: f.size, images, ms }, true);
  if (summary) {
    const drop = JSON.parse(utf8.decode(fin));
    const view = drop.summary ? builder.finish(drop.summary) : null;
    if (view) view.stream = { workers: p.size, images, ms, bytes: f.size };
    return { drop, view, lines: splitter };
  }
  const s = sections(fin);
  const parts = [outParts.blob(), s[0].slice(), spoolParts.blob(), s[1].slice()];
  return { blob: new Blob(parts) };
}

// ---- comparisons (SPEC F.6) ------------------------------------------------

// comparedRuns is the runs file to compare with the scored one (role
// "runs-compare"), or null.
function comparedRuns() {
  const list = byRole('runs-compare');
  return list.length === 1 ? fileRef(list[0]) : null;
}

// currentTabularJSON returns the JSON report of the last tabular scoring
// as text, written once per scoring (the page shows only its summary).
async function currentTabularJSON() {
  if (!last) throw new Error('score the tables first: the comparison reads their report');
  if (last.streamed) throw new Error('a comparison reads the whole report: not available for a runs file scored as a stream');
  if (tabularJSON && tabularJSON.of === last) return tabularJSON.text;
  progress({ phase: 'report', done: 0, total: 0, name: 'JSON report' }, true);
  const env = await call('scoreTabular', { ...last.request, format: 'json' });
  if (env.error) throw new Error(env.error.message);
  tabularJSON = { of: last, text: rawText(env) };
  return tabularJSON.text;
}

// compare answers the page's comparison: source "cells" compares cells
// of the scored report of family (with pairs "A:B", or every two cells
// sharing a model or a phase without), "runs" the scored runs file with
// the one to compare (scored like it: same ground truth, rule file,
// schema, gate and preview), "reports" the two dropped reports, the
// first as base. options are compare's numbers (permutations, bootstrap,
// alpha, ci_level, seed). The answer: {report (parsed), error, name,
// drill, ms}; drill maps, per comparison and side, the pages that rose
// or fell to their image rows, for the drill-down.
async function compare({ source, family = 'tabular', pairs = '', options = {} }) {
  const { comparisonFileName, fileStem } = await import('./comparison.js');
  lastCompare = null;
  let request;
  let name;
  const drillOf = {}; // side ("a", "b") → {runs: "scored"|"compared", text} of a tabular report the page can drill into
  if (source === 'cells') {
    let text;
    if (family === 'receipts') {
      if (!lastReceipts) throw new Error('score the receipts first: the comparison reads their report');
      text = rawText({ raw: lastReceipts.report });
    } else {
      text = await currentTabularJSON();
      drillOf.a = drillOf.b = { runs: 'scored', text };
    }
    const base = 'docscore-' + family;
    request = { base: { name: base + '.json', text }, within: true };
    if (pairs) request.pairs = pairs;
    name = pairs ? pairs.split(':').map((x) => x.replace(/\//g, '_')) : [base, 'within'];
  } else if (source === 'runs') {
    const runs = comparedRuns();
    if (!runs) throw new Error('no runs file to compare: give one the role "Model runs, to compare"');
    const text = await currentTabularJSON();
    progress({ phase: 'score', done: 0, total: 0, name: runs.name }, true);
    const env = await call('scoreTabular', { ...last.request, runs, format: 'json' });
    if (env.error) return { error: env.error };
    const other = rawText(env);
    const a = last.request.runs.name;
    // Named as the command line would save them (runs.json), so that the
    // reports' provenance (SPEC F.8) is what docscore compare writes.
    request = { base: { name: fileStem(a) + '.json', text }, new: { name: fileStem(runs.name) + '.json', text: other } };
    name = [a, runs.name];
    drillOf.a = { runs: 'scored', text };
    drillOf.b = { runs: 'compared', text: other };
  } else if (source === 'reports') {
    const reports = byRole('score-report');
    if (reports.length !== 2) {
      throw new Error(`${reports.length} reports to compare: give exactly two files the role "Score report, to compare"`);
    }
    request = { base: fileRef(reports[0]), new: fileRef(reports[1]) };
    name = [reports[0].name, reports[1].name];
  } else {
    throw new Error('unknown comparison ' + source);
  }
  for (const k of ['permutations', 'bootstrap', 'alpha', 'ci_level', 'seed', 'effect']) {
    if (options[k] !== undefined && options[k] !== null) request[k] = options[k];
  }
  progress({ phase: 'compare', done: 0, total: 0, name: 'comparison' }, true);
  const t0 = performance.now();
  const env = await call('compare', { ...request, format: 'json' });
  const ms = performance.now() - t0;
  if (env.error) return { error: env.error, ms };
  const json = env.raw;
  const report = JSON.parse(rawText(env));
  lastCompare = { request, json, name };
  // Beside a comparison within one report, its plan (SPEC F.7): every
  // cell pair's floor, MDE and pages needed for the effect asked.
  let plan = null;
  if (request.within) {
    const preq = { report: request.base, format: 'json' };
    for (const k of ['pairs', 'alpha', 'effect']) if (request[k] !== undefined && request[k] !== null) preq[k] = request[k];
    const penv = await call('plan', preq);
    if (!penv.error) plan = JSON.parse(rawText(penv));
  }
  return { report, plan, name, file: comparisonFileName(name[0], name[1], 'json'), stems: name.map(fileStem), drill: drillPages(report, drillOf), ms };
}

// drillPages lists, for each comparison of a tabular report and each side
// the page can open (drillOf), the image rows of the pages that rose or
// fell: {runs, pages: {page: [{line, run, status, f1}]}}.
function drillPages(report, drillOf) {
  if (report.family !== 'tabular') return [];
  const parsed = new Map(); // text → images by cell and page
  const index = (text) => {
    if (!parsed.has(text)) {
      const byCell = new Map();
      for (const im of JSON.parse(text).images) {
        const key = im.model + '\u0000' + im.phase + '\u0000' + im.page;
        if (!byCell.has(key)) byCell.set(key, []);
        byCell.get(key).push({ line: im.line, run: runText(im.run), status: im.status, f1: im.status === 'ok' ? im.f1 : null });
      }
      parsed.set(text, byCell);
    }
    return parsed.get(text);
  };
  return report.comparisons.map((c) => {
    const out = {};
    for (const side of ['a', 'b']) {
      const d = drillOf[side];
      if (!d) continue;
      const byCell = index(d.text);
      const pages = {};
      for (const page of [...c.movement.rose, ...c.movement.fell]) {
        const rows = byCell.get(c[side].model + '\u0000' + c[side].phase + '\u0000' + page);
        if (rows) pages[page] = rows;
      }
      out[side] = { runs: d.runs, pages };
    }
    return out;
  });
}

// checkReport returns what keeps a parsed JSON value from being a harness
// report the page can draw ("" when nothing does): the fields it reads,
// with their types. The Markdown download reads the report strictly, in
// harness.wasm.
function checkReport(rep) {
  const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (!isObj(rep) || rep.kind !== 'harness') return 'expected a harness report ("kind": "harness")';
  if (rep.report_version !== 1) return `report_version ${rep.report_version}: this page reads version 1`;
  for (const k of ['pipelines', 'cases', 'review_queue', 'warnings']) {
    if (!Array.isArray(rep[k])) return `expected "${k}" to be a list`;
  }
  if (!isObj(rep.summary)) return 'expected "summary" to be an object';
  const stage = (st, at) => {
    if (!isObj(st)) return `${at}: expected a stage object`;
    for (const k of ['case_id', 'stage_id', 'verdict', 'metric_selection', 'fingerprint']) {
      if (typeof st[k] !== 'string') return `${at}.${k}: expected a string`;
    }
    for (const k of ['metrics', 'references', 'warnings']) {
      if (!Array.isArray(st[k])) return `${at}.${k}: expected a list`;
    }
    for (const k of ['upstream_verdicts', 'scores']) {
      if (!isObj(st[k])) return `${at}.${k}: expected an object`;
    }
    if (st.depends_on !== null && !Array.isArray(st.depends_on)) return `${at}.depends_on: expected a list`;
    return '';
  };
  for (const [i, p] of rep.pipelines.entries()) {
    if (!isObj(p) || typeof p.pipeline_id !== 'string' || !Array.isArray(p.stages)) return `pipelines[${i}]: expected a pipeline_id and stages`;
    for (const [k, st] of p.stages.entries()) {
      const bad = stage(st, `pipelines[${i}].stages[${k}]`);
      if (bad) return bad;
    }
  }
  for (const [i, st] of rep.cases.entries()) {
    const bad = stage(st, `cases[${i}]`);
    if (bad) return bad;
  }
  return '';
}

// ---- messages --------------------------------------------------------------

self.onmessage = async (e) => {
  const { id, op, args } = e.data;
  // Asking for the version, for a kept drop that may not exist, setting
  // the streaming's options or cancelling is no work: the warm-up goes
  // on (a restored drop is scored by 'score').
  if (op !== 'version' && op !== 'restore' && op !== 'configure' && op !== 'cancel') idle = false;
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
