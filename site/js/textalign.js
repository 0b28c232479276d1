// textalign.js — pure helpers of the page-text view (text.html): a page's
// alignment (the segments of the textPage operation) cut into rows of
// its two texts side by side, the window of rows a scrolled view shows,
// how a confusion's text is written, and how dropped files are sorted.
// No DOM; tested with node --test (textalign.test.mjs).

// WRAP is the longest run of characters a row holds on one side: a line
// longer than it (a page with no line breaks, a long insertion) goes on
// over several rows.
export const WRAP = 64;

// OPS names the classes of the alignment's marked steps: a substitution
// (GT read as other text), a deletion (GT the OCR lacks) and an insertion
// (OCR the GT lacks); matches are left plain.
export const OPS = { S: 'sub', D: 'del', I: 'ins' };

// clusters splits s into user-perceived characters (grapheme clusters,
// as the scorer counts them), code points where Intl.Segmenter is absent.
const segmenter = typeof Intl !== 'undefined' && Intl.Segmenter ? new Intl.Segmenter('und', { granularity: 'grapheme' }) : null;
export function clusters(s) {
  if (segmenter) return Array.from(segmenter.segment(s), (x) => x.segment);
  return Array.from(s);
}

// alignRows cuts a page's segments ({op: "=" | "S" | "D" | "I", gt, ocr};
// a match gives its text as gt only) into rows, each {gt, ocr, line}:
// gt and ocr are lists of [op, text] pieces ("=" for matched text), line
// the ground truth's line number the row starts in. A row ends at a line
// break of either text — a matched break ends both sides' lines at once,
// a break in marked text shows as ⏎ inside its mark — or when a side
// reaches wrap characters. Nothing is left out: each side's characters
// come in order, a marked break written ⏎.
export function alignRows(segments, wrap = WRAP) {
  const rows = [];
  let line = 1;
  let row = { gt: [], ocr: [], line };
  let width = { gt: 0, ocr: 0 };
  const end = () => {
    rows.push(row);
    row = { gt: [], ocr: [], line };
    width = { gt: 0, ocr: 0 };
  };
  const put = (side, op, text) => {
    if (text === '') return;
    const list = row[side];
    const last = list[list.length - 1];
    if (last && last[0] === op) last[1] += text;
    else list.push([op, text]);
    width[side] += 1;
  };
  for (const seg of segments) {
    const op = seg.op;
    const gt = op === 'I' ? '' : seg.gt || '';
    const ocr = op === '=' ? gt : op === 'D' ? '' : seg.ocr || '';
    if (op === '=') {
      for (const c of clusters(gt)) {
        if (c === '\n' || c === '\r\n' || c === '\r') {
          line++;
          end();
          continue;
        }
        if (width.gt >= wrap || width.ocr >= wrap) end();
        put('gt', '=', c);
        put('ocr', '=', c);
      }
      continue;
    }
    // A marked step: the GT side's clusters, then the OCR side's. A
    // substitution pairs them cluster for cluster, so they are walked
    // together; a deletion or an insertion has one side.
    const a = clusters(gt);
    const b = clusters(ocr);
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      let broke = false;
      for (const [side, c] of [['gt', a[i]], ['ocr', b[i]]]) {
        if (c === undefined) continue;
        const nl = c === '\n' || c === '\r\n' || c === '\r';
        if (width[side] >= wrap) end();
        put(side, op, nl ? '⏎' : c);
        if (nl) {
          if (side === 'gt') line++;
          broke = true;
        }
      }
      if (broke) end();
    }
  }
  if (row.gt.length > 0 || row.ocr.length > 0 || rows.length === 0) rows.push(row);
  return rows;
}

// windowOf is the range of rows [first, last) a view of height px
// scrolled to top px shows, with overscan rows either side, for rows
// rowHeight px high.
export function windowOf(top, height, rowHeight, total, overscan = 10) {
  const first = Math.max(0, Math.floor(top / rowHeight) - overscan);
  const last = Math.min(total, Math.ceil((top + height) / rowHeight) + overscan);
  return [first, Math.max(first, last)];
}

// unitText writes a confusion's side as the Markdown report does: ε for
// nothing, ␣ for a space, ⏎ for a line break.
export function unitText(s) {
  return s.replaceAll('\n', '⏎').replaceAll(' ', '␣');
}

// pageID is a file's page id as the scorer pairs files: its base name up
// to the first dot.
export function pageID(name) {
  const base = name.split(/[\\/]/).pop();
  const dot = base.indexOf('.');
  return dot >= 0 ? base.slice(0, dot) : base;
}

// baseName is a path's last element.
export function baseName(name) {
  return name.split(/[\\/]/).pop();
}

// IGNORED are the files a dropped folder may hold that are no pages:
// scans, documents, notes, configurations.
const IGNORED = /\.(png|jpe?g|tiff?|gif|bmp|webp|pdf|odt|md|toml|json|py|sh)$|(^|\/)(LICENSE|README)[^/]*$/i;

// roleOf sorts a dropped file by its path (and, for a .jsonl, its first
// line): "runs" (a runs file), "pilot" (a docscore pilot run file: not a
// runs file), "gt" (under a gt/ or ground-truth/ folder, or named
// gt… or ….gt.…), "ignore" (a scan or a note), else "ocr".
export function roleOf(path, firstLine = '') {
  const base = baseName(path);
  if (/\.jsonl$/i.test(base)) return /^\s*\{\s*"type"\s*:\s*"run"/.test(firstLine) ? 'pilot' : 'runs';
  if (IGNORED.test(path) || base.startsWith('.')) return 'ignore';
  if (/(^|\/)(gt|ground[-_ ]?truth)\//i.test(path) || /^gt([^a-z]|$)/i.test(base) || /\.gt\./i.test(base)) return 'gt';
  return 'ocr';
}

// pageOf finds a report row's files: the ground truth whose page id is
// the row's page (the only one when one page was scored from one file
// each), and the OCR file named by the row's ocr_file.
export function pageOf(row, files) {
  const single = files.gt.length === 1 && !files.runs && files.ocr.length === 1;
  const gt = single ? files.gt[0] : files.gt.find((f) => pageID(f.name) === row.page);
  let ocr = null;
  if (!files.runs) ocr = single ? files.ocr[0] : files.ocr.find((f) => baseName(f.name) === row.ocr_file) || null;
  return { gt: gt || null, ocr };
}

// recordText is the text of a runs file's record on a line (1-based).
export function recordText(runs, line) {
  let start = 0;
  for (let i = 1; i < line; i++) {
    const nl = runs.indexOf('\n', start);
    if (nl < 0) return null;
    start = nl + 1;
  }
  let stop = runs.indexOf('\n', start);
  if (stop < 0) stop = runs.length;
  const rec = JSON.parse(runs.slice(start, stop));
  return typeof rec.text === 'string' ? rec.text : null;
}
