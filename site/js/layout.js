// layout.js — the pure parts of the page's layout: the gate box's check,
// the chart's axis (fitted to the data, and saying so), each cell's
// run-to-run spread, when the file list folds and when the cells table
// turns its fields into rows. No DOM, no worker; tested with node --test.

import { prf, tallyText } from './format.js';

export const DEFAULT_GATE = 0.7;

// parseGate reads the gate box as the command line reads --gate: blank is
// the default 0.7; anything else must be a number in (0, 1]. The answer
// is {value} or {error}: a gate out of range is refused, never replaced.
export function parseGate(text) {
  const s = String(text ?? '').trim();
  if (s === '') return { value: DEFAULT_GATE };
  const v = Number(s);
  if (!/^[+]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) || !Number.isFinite(v)) {
    return { error: `Gate: expected a number above 0 and at most 1, got "${s}".` };
  }
  if (!(v > 0 && v <= 1)) {
    return { error: `Gate: expected a number above 0 and at most 1, got ${s}: a name-similarity gate is a similarity in (0, 1].` };
  }
  return { value: v };
}

// niceStep is the tick step (1, 2 or 5 times a power of ten) that splits
// span into at most about five parts.
function niceStep(span) {
  const raw = span / 5;
  const p = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) {
    if (m * p >= raw * (1 - 1e-9)) return m * p;
  }
  return 10 * p;
}

// round keeps a tick free of binary noise (0.30000000000000004).
const round = (x) => Math.round(x * 1e9) / 1e9;

// axisFor fits the chart's axis to the values it shows (each a number in
// [0, 1] or null; intervals and spreads count as values): {lo, hi, ticks,
// full, text}. When everything lies in the top or bottom part of [0, 1],
// the axis is cut to a nice range around the data (at least 0.05 wide),
// so that 0.966 and 0.990 do not look alike; full says the axis is the
// whole 0–1. text names the axis for people: "axis 0.95–1.00".
export function axisFor(values) {
  const xs = values.filter((x) => typeof x === 'number' && Number.isFinite(x));
  let lo = 0;
  let hi = 1;
  if (xs.length > 0) {
    const min = Math.max(0, Math.min(...xs));
    const max = Math.min(1, Math.max(...xs));
    const span = Math.max(max - min, 0.02);
    // Cut the axis only when the data use less than half of it.
    if (span < 0.5) {
      const step = niceStep(span);
      lo = Math.max(0, Math.floor(round(min / step)) * step);
      hi = Math.min(1, Math.ceil(round(max / step)) * step);
      // the lowest value keeps a visible bar
      if (lo >= min && min > 0) lo = Math.max(0, round(lo - step));
      if (hi - lo < 0.05) {
        if (hi >= 1) lo = Math.max(0, hi - 0.05);
        else hi = Math.min(1, lo + 0.05);
      }
      if (hi <= lo) hi = Math.min(1, lo + step);
      // snap the ends to the ticks' step
      const tick = niceStep(hi - lo);
      lo = round(Math.max(0, Math.floor(round(lo / tick)) * tick));
      hi = round(Math.min(1, Math.ceil(round(hi / tick)) * tick));
    }
  }
  const step = niceStep(hi - lo);
  const ticks = [];
  for (let k = 0; lo + k * step <= hi + step / 1000; k++) ticks.push(round(lo + k * step));
  if (ticks[ticks.length - 1] < hi) ticks.push(hi);
  const digits = Math.max(0, Math.min(4, -Math.floor(Math.log10(step) + 1e-9)));
  const fmt = (x) => x.toFixed(Math.max(2, digits));
  return { lo, hi, ticks, full: lo === 0 && hi === 1, digits: Math.max(2, digits), text: `axis ${fmt(lo)}–${fmt(hi)}` };
}

// runSpread is each cell's run-to-run spread of F1: for every cell, the
// F1 of each run (its images scored ok, pooled as the cell's F1 is: the
// matched, model and ground-truth rows summed) and their min and max.
// images is the page's image index (typed arrays cell, run, ok, matched,
// nModel, nGT; count). The answer has one entry per cell: {runs, min,
// max} with runs the number of runs, or null for a cell without an image
// scored ok.
export function runSpread(images, cellCount) {
  const sums = Array.from({ length: cellCount }, () => new Map());
  for (let i = 0; i < images.count; i++) {
    if (!images.ok[i]) continue;
    const byRun = sums[images.cell[i]];
    if (!byRun) continue;
    const s = byRun.get(images.run[i]) || { matched: 0, nModel: 0, nGT: 0 };
    s.matched += images.matched[i];
    s.nModel += images.nModel[i];
    s.nGT += images.nGT[i];
    byRun.set(images.run[i], s);
  }
  return sums.map((byRun) => {
    if (byRun.size === 0) return null;
    const f1s = [...byRun.values()].map((s) => prf(s.matched, s.nModel, s.nGT)[2]);
    return { runs: f1s.length, min: Math.min(...f1s), max: Math.max(...f1s) };
  });
}

// fileStem is a file's name without its folder and its .json or .jsonl
// extension, with what a download's name should not hold replaced by "_".
export function fileStem(name) {
  const base = name.slice(name.lastIndexOf('/') + 1).replace(/\.(jsonl|json|ndjson)$/i, '');
  return base.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '') || 'report';
}

// DOWNLOAD_EXT is each report format's file extension.
export const DOWNLOAD_EXT = { json: 'json', csv: 'csv', md: 'md', junit: 'junit.xml' };

// reportFileName names a report's download after the file it scores:
// "<runs>.scores.json" (what "scores"), "<runs>.scores.preview.md".
export function reportFileName(input, what, format) {
  return `${fileStem(input)}.${what}.${DOWNLOAD_EXT[format] || format}`;
}

// FOLD_FILES is the number of files from which the file list folds.
export const FOLD_FILES = 8;

// filesSummary says what a folded file list holds: "26 files: 25 receipt
// references, 1 receipt run". files are {role}; labels maps a role to
// its label (roles.js's ROLES).
export function filesSummary(files, labels) {
  const counts = new Map();
  for (const f of files) counts.set(f.role, (counts.get(f.role) || 0) + 1);
  const parts = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([role, n]) => `${n} × ${labels[role] || role}`);
  return `${files.length} file${files.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
}

// FIELDS_AS_ROWS is the number of fields above which the cells table
// shows its fields as rows: one row per field, one column per cell.
export const FIELDS_AS_ROWS = 10;

// skippedLines reads the report's warnings for the runs lines skipped
// under "skip bad lines" ("skipped: runs.jsonl:5: …"): [{file, line,
// message}] in the order given.
export function skippedLines(warnings) {
  const out = [];
  for (const w of warnings || []) {
    const m = /^skipped: (.*?):(\d+)(?::\d+)?: (.*)$/s.exec(w);
    if (m) out.push({ file: m[1], line: Number(m[2]), message: m[3] });
  }
  return out;
}

// splitMessages splits a core error that lists several input errors (an
// inputerr.List: one "file:line: message" per line) into its messages.
export function splitMessages(message) {
  return String(message).split('\n').map((s) => s.trim()).filter(Boolean);
}

// changeGroups groups a preview's changes (report.preview.changes) for the
// page: one group per previewed row, with the changes that row makes
// alone and its tally, then, when several rows are previewed, one for
// all of them together. Each group is {line (0 for all together),
// summary, changes}.
export function changeGroups(preview) {
  const groups = (preview.change_counts || []).map((c) => ({
    line: c.line,
    summary: `line ${c.line}: ${tallyText(c)}`,
    changes: preview.changes.filter((x) => x.rows.includes(c.line)),
  }));
  if (groups.length !== 1) {
    groups.push({ line: 0, summary: `all rows together: ${tallyText(preview.change_total)}`, changes: preview.changes });
  }
  return groups;
}

// leftOutGroups groups what a scoring left out (the report's left_out,
// SPEC: --skip-bad-inputs) for the page's banner, and the dropped files
// that could not be read at all (files: [{name, error}], such as a text
// file that is not UTF-8), which come first. Entries of one file, kind
// and reason in a row become one group: {file, what, why, lines (1-based,
// in order; [] when the file as a whole), column (of the first line, 0
// when not known)}. A runs line left out because its page has no ground
// truth names the unreadable file of that page (gt_page_29.csv) when one
// was dropped: the problem is that file's, not a missing one.
export function leftOutGroups(leftOut, files = []) {
  const groups = [];
  const pageFile = new Map(); // page id → unreadable file of that page
  for (const f of files) {
    groups.push({ file: f.name, what: 'file', why: f.error, lines: f.line ? [f.line] : [], column: f.column || 0 });
    const m = /(?:^|\/)gt_page_(.+)\.csv$/i.exec(f.name);
    if (m) pageFile.set(m[1].replace(/^0+(?=\d)/, ''), f.name);
  }
  for (const x of leftOut || []) {
    let why = x.why;
    const page = /^page (\S+) has no ground-truth file/.exec(why);
    if (page && pageFile.has(page[1].replace(/^0+(?=\d)/, ''))) {
      why = `page ${page[1]} has no ground truth: ${pageFile.get(page[1].replace(/^0+(?=\d)/, ''))} cannot be read`;
    }
    const last = groups[groups.length - 1];
    if (last && last.file === x.file && last.what === x.what && last.why === why && x.line > 0 && last.lines.length > 0) {
      last.lines.push(x.line);
      continue;
    }
    groups.push({ file: x.file, what: x.what, why, lines: x.line > 0 ? [x.line] : [], column: x.column || 0 });
  }
  return groups;
}

// linesText writes a group's lines: "line 5", "lines 2, 6, 9" or
// "lines 2, 6, 9 … (12 lines)" past max.
export function linesText(lines, max = 8) {
  if (lines.length === 0) return '';
  if (lines.length === 1) return 'line ' + lines[0];
  const shown = lines.slice(0, max).join(', ');
  return 'lines ' + shown + (lines.length > max ? ` … (${lines.length} lines)` : '');
}
