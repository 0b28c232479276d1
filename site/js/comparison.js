// comparison.js — reading a comparison report (SPEC F.5, F.6: the JSON of
// "docscore compare", and the "comparison" member of a tabular report
// scored with a preview) for the page: its statistics in order, each
// number formatted as the Markdown report writes it, the movement in
// words, and the names the page gives a comparison. Pure functions (no
// DOM, no worker API); tested with node --test.

import { fmt4 } from './format.js';
import { fileStem, DOWNLOAD_EXT } from './layout.js';

export { fileStem };

// signed4 formats x as Go's fmt "%+.4f" does (the Markdown report's
// deltas and intervals): a sign always, "-0.0000" for negative zero.
export function signed4(x) {
  if (Object.is(x, -0)) return '-0.0000';
  const s = fmt4(x);
  return s.startsWith('-') ? s : '+' + s;
}

// opt4 is fmt4 with "–" for null, as the Markdown report writes a missing
// value.
export function opt4(x) {
  return x === null || x === undefined ? '–' : fmt4(x);
}

// intervalText is a delta's interval as the Markdown report writes it
// after the delta, "[-0.0261, -0.0010]", or "" when there is none (null:
// too few units or kept draws; or intervals turned off).
export function intervalText(ci) {
  return Array.isArray(ci) ? `[${signed4(ci[0])}, ${signed4(ci[1])}]` : '';
}

// statList flattens a comparison's stats in report order: each
// {path, label, s}, the fields' accuracies as "fields.title" labelled
// "title".
export function statList(stats) {
  const out = [];
  for (const [k, v] of Object.entries(stats || {})) {
    if (k === 'fields') {
      for (const [f, s] of Object.entries(v || {})) out.push({ path: 'fields.' + f, label: f, s });
    } else {
      out.push({ path: k, label: k, s: v });
    }
  }
  return out;
}

// lowerIsBetter reports whether a smaller value of the statistic is the
// better one (name CER, SPEC F.5).
export function lowerIsBetter(path) {
  return path === 'name_cer';
}

// unitNoun names a family's unit (SPEC F.1): the page of a tabular
// report, the sample of a receipts report.
export function unitNoun(family, n) {
  const noun = family === 'receipts' ? 'sample' : 'page';
  return n === 1 ? noun : noun + 's';
}

// movementStatName names the statistic the movement follows (SPEC F.5):
// each unit's own F1, or its ROUGE-L F1.
export function movementStatName(family) {
  return family === 'receipts' ? 'ROUGE-L F1' : 'F1';
}

// movementText says a comparison's movement in words: "F1 rose on 7
// pages, fell on 2" (and how many stayed).
export function movementText(family, m) {
  if (!m) return '';
  const rose = m.rose.length;
  const fell = m.fell.length;
  return `${movementStatName(family)} rose on ${rose} ${unitNoun(family, rose)}, fell on ${fell}` +
    (m.same ? `, stayed on ${m.same}` : '');
}

// verdict says what a statistic's comparison concluded, from B's side:
// "B better", "B worse" (significant), or "not significant"; "–" without
// a p-value.
export function verdict(s, nameB = 'B') {
  if (s.p === null || s.p === undefined) return '–';
  if (!s.significant) return 'not significant';
  return s.better === 'b' ? `${nameB} better` : `${nameB} worse`;
}

// statNote is what the preview table adds to a delta: its interval and
// Holm-adjusted p ("[-0.0261, -0.0010], Holm p 0.0120"), "significant"
// when it is.
export function statNote(s) {
  const parts = [];
  const iv = intervalText(s.ci);
  if (iv) parts.push(iv);
  if (s.p_holm !== null && s.p_holm !== undefined) parts.push('Holm p ' + fmt4(s.p_holm));
  if (s.significant) parts.push('significant');
  return parts.join(', ');
}

// sideLabel names a side: model/phase, or a receipts phase.
export function sideLabel(side) {
  return side.model === undefined || side.model === null ? side.phase : `${side.model}/${side.phase}`;
}

// pairSpec is the --pairs value (and the request's "pairs") comparing
// cell a with cell b of one report: "modelA/G:modelB/G", or "c1:c4" for
// receipts phases.
export function pairSpec(a, b) {
  return `${sideLabel(a)}:${sideLabel(b)}`;
}


// comparisonFileName names a comparison's download: "<base>-vs-<new>.comparison.json".
export function comparisonFileName(base, next, format) {
  return `${fileStem(base)}-vs-${fileStem(next)}.comparison.${DOWNLOAD_EXT[format] || format}`;
}

// previewStats reads the comparison of a report scored with a preview
// (report.preview.comparison: each cell settled, A, against its preview,
// B): a Map from "model\u0000phase" to {stats (by path), movement}. It is
// empty when the report has no comparison, so that the page shows nothing
// more than the deltas.
export function previewStats(comparison) {
  const out = new Map();
  if (!comparison || !Array.isArray(comparison.comparisons)) return out;
  for (const c of comparison.comparisons) {
    const byPath = {};
    for (const { path, s } of statList(c.stats)) byPath[path] = s;
    out.set(c.b.model + '\u0000' + c.b.phase, {
      stats: byPath,
      movement: c.movement || null,
      text: movementText(comparison.family, c.movement),
    });
  }
  return out;
}

// previewRow is what the preview table adds to one cell's row: for its
// delta columns (F1, name CER, then each field) the note of each
// statistic ({text, significant, worse}, null where the comparison has no
// such statistic), and the movement ({text, rose, fell}). entry is a
// value of previewStats; null gives null.
export function previewRow(entry, fields) {
  if (!entry) return null;
  const notes = ['f1', 'name_cer', ...fields.map((f) => 'fields.' + f)].map((path) => {
    const s = entry.stats[path];
    if (!s) return null;
    return { text: statNote(s), significant: !!s.significant, worse: s.significant && s.better === 'a' };
  });
  const m = entry.movement;
  return { notes, movement: m ? { text: entry.text, rose: m.rose, fell: m.fell } : null };
}

// cellKey is how previewStats keys a cell.
export function cellKey(model, phase) {
  return model + '\u0000' + phase;
}
