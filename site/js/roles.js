// roles.js — what a dropped file is for, decided from its name and its
// content. Pure functions (no DOM, no worker API); tested with node --test.

// ROLES maps each role to its label, in the order the role menu lists them.
export const ROLES = {
  gt: 'Ground truth (CSV)',
  runs: 'Model runs (JSONL)',
  rules: 'Rule file (EQUIVALENCES.md)',
  schema: 'Schema (JSON)',
  'receipt-run': 'Receipt run (pilot JSONL)',
  'receipt-ref': 'Receipt references (CORD)',
  cases: 'Harness cases (JSON/JSONL)',
  'case-file': 'File named by the cases',
  'harness-report': 'Harness report (JSON)',
  'runs-compare': 'Model runs, to compare (JSONL)',
  'score-report': 'Score report, to compare (JSON)',
  ignore: 'Not used',
};

// FAMILIES lists the roles of each family of scorers: tabular (SPEC A),
// receipts (SPEC B) and the evaluation harness (SPEC C). Each family is
// scored on its own, by its own WebAssembly file.
export const FAMILIES = {
  tabular: new Set(['gt', 'runs', 'rules', 'schema']),
  receipts: new Set(['receipt-run', 'receipt-ref']),
  harness: new Set(['cases', 'case-file', 'harness-report']),
};

// COMPARE_ROLES are the roles of the files a comparison reads (SPEC F.6)
// beside the scored ones: a second runs file, scored like the first and
// compared with it, and the reports of docscore score, compared with each
// other. They belong to no family: nothing is scored because of them.
export const COMPARE_ROLES = new Set(['runs-compare', 'score-report']);

// isScoreReport reports whether a parsed JSON value is the report of
// "docscore score tabular" (its cells and image rows) or "docscore score
// receipts" (its phases and pages): a report compare reads.
export function isScoreReport(v) {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  if (v.kind === 'tabular') return Array.isArray(v.cells) && Array.isArray(v.images);
  if (v.kind === 'receipts') return Array.isArray(v.phases) && Array.isArray(v.pages);
  return false;
}

// CASE_KEYS are the top-level keys of a cases file's items: a case, a
// pipeline or a cases-file object (docs/schema/cases.schema.json).
const CASE_KEYS = ['case_id', 'pipeline_id', 'stages', 'cases', 'pipelines', 'stage_metrics', 'operation_metrics',
  'default_metrics', 'operation_specs'];

// isHarnessReport reports whether a parsed JSON value is the report of
// "docscore eval" (harness.Report).
function isHarnessReport(v) {
  return v !== null && typeof v === 'object' && v.kind === 'harness' && Array.isArray(v.pipelines);
}

function isCasesItem(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && v.kind === undefined &&
    CASE_KEYS.some((k) => k in v);
}

// How much of a file the detection looks at: the first line of a JSONL,
// the head of a CSV or Markdown file. Whole JSON files are parsed only when
// smaller than WHOLE_JSON.
const HEAD = 64 * 1024;
const WHOLE_JSON = 8 * 1024 * 1024;

function baseName(name) {
  const i = name.lastIndexOf('/');
  return i >= 0 ? name.slice(i + 1) : name;
}

function extension(name) {
  const b = baseName(name).toLowerCase();
  const i = b.lastIndexOf('.');
  return i > 0 ? b.slice(i + 1) : '';
}

function stripBOM(s) {
  return s.charCodeAt(0) === 0xfeff ? s.slice(1) : s;
}

// firstLine returns the first non-blank line of text.
function firstLine(text) {
  const head = stripBOM(text.slice(0, HEAD));
  for (const line of head.split('\n')) {
    if (line.trim() !== '') return line.trim();
  }
  return '';
}

function parseObject(s) {
  try {
    const v = JSON.parse(s);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

// csvHeader splits the first line of a CSV into trimmed, lower-cased
// names (quotes removed; enough to recognise a header).
function csvHeader(text) {
  const line = stripBOM(text.slice(0, HEAD)).split(/\r?\n/, 1)[0] || '';
  return line.split(',').map((h) => h.replace(/^\s*"?|"?\s*$/g, '').trim().toLowerCase());
}

// isCORD reports whether a parsed JSON value is a CORD-v2 annotation: the
// ground_truth object (valid_line), a file holding it, or a dataset row
// with gt_parse.
function isCORD(v) {
  if (v === null || typeof v !== 'object') return false;
  if (Array.isArray(v)) return v.length > 0 && isCORD(v[0]);
  if (Array.isArray(v.valid_line) || 'gt_parse' in v) return true;
  if (typeof v.ground_truth === 'string') return isCORD(parseObject(v.ground_truth));
  return isCORD(v.ground_truth ?? null);
}

// detectRole returns {role, note} for a file: role is a key of ROLES and
// note says why, for the file list.
export function detectRole(name, text) {
  const base = baseName(name);
  const lower = base.toLowerCase();
  const ext = extension(name);

  if (ext === 'csv') {
    if (/^gt_page_.+\.csv$/i.test(base)) {
      return { role: 'gt', note: 'page ' + base.replace(/^gt_page_/i, '').replace(/\.csv$/i, '') };
    }
    const header = csvHeader(text);
    if (header.length === 2 && header[0] === 'path' && header[1] === 'expected') {
      return { role: 'case-file', note: 'a path/value truth table of the harness (its direct form): a cases file names it' };
    }
    if (header.includes('page')) {
      return { role: 'gt', note: 'pages from its page column' };
    }
    if (header.length > 1) {
      return { role: 'gt', note: 'no page in its name (gt_page_NN.csv) nor a page column' };
    }
    return { role: 'ignore', note: 'a CSV without a header row' };
  }

  if (ext === 'md' || ext === 'markdown') {
    if (lower === 'equivalences.md') {
      return { role: 'rules', note: '' };
    }
    const head = text.slice(0, HEAD);
    if (/^#{1,6}[^\n]*(ignore|equivalen)/im.test(head) && /^\s*\|/m.test(head)) {
      return { role: 'rules', note: 'has ignore or equivalence tables' };
    }
    return { role: 'ignore', note: 'Markdown without rule tables' };
  }

  if (ext === 'jsonl' || ext === 'ndjson' || ext === 'json' || ext === 'txt') {
    const first = parseObject(firstLine(text));
    if (first !== null) {
      if (isHarnessReport(first)) {
        return { role: 'harness-report', note: 'a report of docscore eval' };
      }
      if (isCasesItem(first)) {
        return { role: 'cases', note: 'cases and pipelines for the evaluation harness' };
      }
      if (first.type === 'run') {
        return { role: 'receipt-run', note: 'a pilot run (its first line is the run header)' };
      }
      if ('sample_id' in first && 'reference' in first) {
        return { role: 'receipt-ref', note: 'receipt references (JSONL)' };
      }
      if ('model' in first && ('records' in first || 'response' in first || 'page' in first)) {
        return { role: 'runs', note: '' };
      }
    }
    if (ext === 'json' && text.length <= WHOLE_JSON) {
      let whole = null;
      try {
        whole = JSON.parse(stripBOM(text));
      } catch {
        whole = null;
      }
      if (whole !== null && typeof whole === 'object' && !Array.isArray(whole) &&
          typeof whole.key === 'string' && Array.isArray(whole.columns)) {
        return { role: 'schema', note: 'key column ' + whole.key };
      }
      if (isCORD(whole)) {
        return { role: 'receipt-ref', note: 'a CORD annotation' };
      }
      if (isHarnessReport(whole)) {
        return { role: 'harness-report', note: 'a report of docscore eval' };
      }
      if (isScoreReport(whole)) {
        return { role: 'score-report', note: `a ${whole.kind} report of docscore score: drop two to compare them` };
      }
      if (isCasesItem(whole)) {
        return { role: 'cases', note: 'cases and pipelines for the evaluation harness' };
      }
    }
    if (ext === 'jsonl' || ext === 'ndjson') {
      return { role: 'runs', note: 'no model, page and records on its first line' };
    }
    return { role: 'ignore', note: 'JSON docscore does not recognise' };
  }

  return { role: 'ignore', note: 'not a file docscore reads' };
}

// casePaths returns the paths a cases file names (its references' "path"),
// in the order they appear, each once. A file that does not parse names
// none: the harness reports its error.
export function casePaths(text) {
  const values = [];
  const body = stripBOM(text);
  try {
    values.push(JSON.parse(body));
  } catch {
    for (const line of body.split('\n')) {
      if (line.trim() === '') continue;
      try {
        values.push(JSON.parse(line));
      } catch {
        return [];
      }
    }
  }
  const out = [];
  const walk = (v) => {
    if (Array.isArray(v)) {
      v.forEach(walk);
    } else if (v !== null && typeof v === 'object') {
      if (typeof v.path === 'string' && 'authority' in v && !out.includes(v.path)) out.push(v.path);
      Object.values(v).forEach(walk);
    }
  };
  values.forEach(walk);
  return out;
}

// normalizePath resolves "." and ".." in a slash-separated path.
function normalizePath(p) {
  const out = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out.join('/');
}

// resolveCasePath finds the dropped file a cases file names by path p:
// p against the cases file's folder (as "docscore eval" reads it), p as
// it is, then the only dropped file with p's base name. names are the
// dropped files' names; the answer is one of them or null.
export function resolveCasePath(casesName, p, names) {
  const have = new Set(names);
  const dir = casesName.includes('/') ? casesName.slice(0, casesName.lastIndexOf('/')) : '';
  for (const c of [normalizePath(dir + '/' + p), normalizePath(p)]) {
    if (have.has(c)) return c;
  }
  const base = baseName(p);
  const same = names.filter((n) => baseName(n) === base);
  return same.length === 1 ? same[0] : null;
}

// TEXT_EXT are the extensions of the text files docscore reads: a file
// of one of them that is not UTF-8 is that file's problem (re-save it),
// not a binary file.
const TEXT_EXT = new Set(['csv', 'jsonl', 'ndjson', 'json', 'md', 'markdown', 'txt']);

// isTextName reports whether a file's name says it is text docscore reads.
export function isTextName(name) {
  return TEXT_EXT.has(extension(name));
}

// firstBadByte returns the 1-based line and column (in characters) of
// the first byte of bytes that is not UTF-8, or null when all of it is.
export function firstBadByte(bytes) {
  const dec = new TextDecoder('utf-8', { fatal: true });
  let lo = 0;
  let hi = bytes.length;
  try {
    dec.decode(bytes);
    return null;
  } catch {
    // the longest prefix that decodes ends before the bad byte
  }
  // Binary search on the prefix that decodes; a prefix may end inside a
  // good multi-byte character, so the answer is checked byte by byte.
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid;
    }
  }
  let bad = lo; // bytes[0:lo] decode as a stream (maybe ending mid-character)
  const text = new TextDecoder('utf-8').decode(bytes.subarray(0, bad));
  let line = 1;
  let col = 1;
  for (const ch of text) {
    if (ch === '\n') {
      line++;
      col = 1;
    } else if (ch !== '\ufffd') {
      col++;
    }
  }
  return { line, column: col };
}

// notUTF8 is the problem of a text file that is not UTF-8, named on that
// file: what to do and where the first bad byte is.
export function notUTF8(bytes) {
  const at = firstBadByte(bytes);
  const where = at ? ` (line ${at.line}, column ${at.column}: the first byte that is not UTF-8)` : '';
  return 'not UTF-8: re-save as UTF-8' + where;
}
