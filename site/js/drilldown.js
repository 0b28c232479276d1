// drilldown.js — the drill-downs: one image of a tabular run (its pairs,
// misses, extras and the model's raw answer), one page across every cell
// of the report, and one receipt page (its cleaned prediction against its
// reference). A Drill is the frame they share: a section opened with its
// heading in view, previous/next by buttons and keys, Esc to close with
// focus back where the drill-down was opened from. The pure parts
// (keyAction, mismatch, pageAcross, stepTo) are tested by Node.

import { el, clear, plainTable, diffPair } from './view.js';
import { fmt4, grouped, runText } from './format.js';
import { FIELDS_AS_ROWS } from './layout.js';

// KEYS is the line the page shows under each drill-down's buttons.
export const KEYS = 'Keys: j or Alt+↓ next, k or Alt+↑ previous, Esc closes.';

// keyAction maps a key press inside a drill-down to "next", "prev",
// "close" or null. j and k are taken only outside text fields and without
// a modifier; Alt+ArrowDown/Up anywhere.
export function keyAction(e) {
  const tag = (e.target && e.target.tagName) || '';
  const typing = tag === 'INPUT' && !['checkbox', 'radio', 'button'].includes(e.target.type) || tag === 'TEXTAREA' || tag === 'SELECT';
  if (e.key === 'Escape') return 'close';
  if (e.altKey && !e.ctrlKey && !e.metaKey) {
    if (e.key === 'ArrowDown') return 'next';
    if (e.key === 'ArrowUp') return 'prev';
    return null;
  }
  if (typing || e.altKey || e.ctrlKey || e.metaKey) return null;
  if (e.key === 'j') return 'next';
  if (e.key === 'k') return 'prev';
  return null;
}

// stepTo is the position delta steps from pos in a list of n, or -1 past
// either end.
export function stepTo(n, pos, delta) {
  const next = pos + delta;
  return next >= 0 && next < n ? next : -1;
}

// mismatch says whether a pair of an image's detail has something to
// look at: a field scored below 1 or a name read with edits.
export function mismatch(p) {
  return p.name.edits > 0 || p.fields.some((f) => f.score !== null && f.score < 1);
}

// pageAcross lists a page's images in every cell of the view (the
// worker's summary: cells, pages, images as typed arrays): one entry per
// cell, {cell, label, f1 (the page's pooled F1 in the cell, null when
// none), images: [{line, run, ok, f1, matched, nGT, nModel}] in line
// order}.
export function pageAcross(v, page) {
  const k = v.pages.ids.indexOf(page);
  const p = v.pageIds.indexOf(page);
  const out = v.cells.map((c, i) => ({
    cell: i, label: `${c.model} / ${c.phase}`, f1: k >= 0 ? v.pages.f1[k][i] : null, images: [],
  }));
  const im = v.images;
  for (let i = 0; i < im.count; i++) {
    if (im.page[i] !== p) continue;
    out[im.cell[i]].images.push({
      line: im.line[i], run: v.runIds[im.run[i]], ok: !!im.ok[i], f1: im.f1[i],
      matched: im.matched[i], nGT: im.nGT[i], nModel: im.nModel[i],
    });
  }
  for (const c of out) c.images.sort((a, b) => a.line - b.line);
  return out;
}

// Drill is a drill-down section: box (the section) holds a heading
// (tabindex -1) and a nav element the Drill fills with its buttons and
// the keys line. show(item) renders an item (awaited); open(items, pos,
// back) shows items[pos], back() returns focus to where it was opened
// from (it is called on close, with the item last shown); onMove(item)
// is told of each item shown (to mark it in its table).
export class Drill {
  constructor({ box, heading, nav, noun, show, onMove = () => {}, onClose = () => {} }) {
    Object.assign(this, { box, heading, show, onMove, onClose, noun });
    this.items = [];
    this.pos = -1;
    this.back = null;
    this.closes = 0; // how many times it was closed
    this.prev = el('button', { type: 'button', class: 'drill-prev', onclick: () => this.step(-1) }, `← Previous ${noun}`);
    this.next = el('button', { type: 'button', class: 'drill-next', onclick: () => this.step(1) }, `Next ${noun} →`);
    this.where = el('span', { class: 'drill-where', 'aria-live': 'polite' });
    const close = el('button', { type: 'button', class: 'drill-close secondary', onclick: () => this.close() }, 'Close');
    clear(nav).append(this.prev, this.next, close, this.where, el('span', { class: 'drill-keys hint' }, KEYS));
    box.addEventListener('keydown', (e) => this.key(e));
    // Keys pressed faster than the items render can find the focus on
    // <body> (the body re-rendered under it): the drill last opened, still
    // shown, takes them, and its heading the focus.
    document.addEventListener('keydown', (e) => {
      if (Drill.active !== this || this.box.hidden || e.defaultPrevented) return;
      if (document.activeElement && document.activeElement !== document.body) return;
      if (!keyAction(e)) return;
      this.heading.focus({ preventScroll: true });
      this.key(e);
    });
  }

  key(e) {
    const a = keyAction(e);
    if (!a) return;
    e.preventDefault();
    if (a === 'close') this.close();
    else this.step(a === 'next' ? 1 : -1);
  }

  get item() { return this.items[this.pos]; }

  // open shows items[pos] with the heading in view and focused.
  async open(items, pos, back) {
    Drill.active = this;
    this.items = items;
    this.back = back || null;
    await this.go(pos, true);
  }

  async go(pos, reveal) {
    this.pos = pos;
    const n = this.items.length;
    this.prev.disabled = stepTo(n, pos, -1) < 0;
    this.next.disabled = stepTo(n, pos, 1) < 0;
    this.where.textContent = n > 1 ? `${pos + 1} of ${n}` : '';
    const closes = this.closes;
    await this.show(this.items[pos]);
    // Closed while it rendered (Esc after quick steps): it stays closed.
    if (this.closes !== closes) return;
    this.shown = pos;
    this.box.hidden = false;
    this.onMove(this.items[pos]);
    if (reveal || !this.box.contains(document.activeElement)) {
      this.heading.focus({ preventScroll: true });
    }
    this.box.scrollIntoView({ block: 'start' });
    // An item opened on a part of it (a preview change's pair) shows
    // that part.
    const focused = this.box.querySelector('.focused-pair');
    if (focused) focused.scrollIntoView({ block: 'center' });
  }

  // step moves to the previous (-1) or next (1) item, focus staying on
  // the button or key that asked when it can.
  async step(delta) {
    const pos = stepTo(this.items.length, this.pos, delta);
    if (pos < 0 || this.box.hidden) return;
    const focused = document.activeElement;
    await this.go(pos, false);
    if ((focused === this.prev || focused === this.next) && focused.disabled) this.heading.focus({ preventScroll: true });
  }

  close() {
    if (this.box.hidden) return;
    this.box.hidden = true;
    this.closes = (this.closes || 0) + 1;
    if (Drill.active === this) Drill.active = null;
    // The item last shown (and marked), not one still rendering.
    const item = this.items[this.shown] || this.item;
    this.pos = this.shown;
    this.onClose(item);
    if (this.back) {
      const back = this.back;
      back(item);
      // Work still in flight (quick steps) may redraw under the focus:
      // once it is done, the focus goes back again if it was lost.
      const again = () => { if (this.box.hidden && document.activeElement === document.body) back(item); };
      setTimeout(again, 0);
      setTimeout(again, 300);
    }
  }

  // hide closes without moving focus (a new scoring).
  hide() {
    this.box.hidden = true;
    this.pos = -1;
  }
}

// ---- one image --------------------------------------------------------------

// renderImage fills an image's drill-down: summary and body elements, the
// detail d of the core (tabular.ImageDetail), compared for a line of the
// compared runs file. onlyMismatches hides the pairs and fields that
// match; the checkbox that switches it is built here.
//
// focus, when given ({gtLine, field, text}: a change of the preview),
// opens the image on that pair: shown even among "only mismatches",
// marked, its field's row marked, the change (before → after) in its
// caption, scrolled into view.
export function renderImage({ box, heading, summary, body }, d, { compared = false, only, onOnly, focus = null }) {
  box.dataset.line = String(d.line);
  box.dataset.compared = compared ? 'true' : 'false';
  box.dataset.status = d.status;
  heading.textContent = `Image at line ${d.line}${compared ? ' of the compared runs file' : ''}: ` +
    `${d.model} / ${d.phase}, run ${runText(d.run)}, page ${d.page}`;
  clear(body);
  const raw = rawResponse(d);
  if (d.status !== 'ok') {
    summary.textContent = `Failed (${d.failure}): counted, and excluded from every score.`;
    body.append(raw);
    return;
  }
  summary.textContent = `${d.matched} of ${d.n_gt} ground-truth rows (${d.gt_file}) matched by ${d.n_model} model rows: ` +
    `precision ${fmt4(d.precision)}, recall ${fmt4(d.recall)}, F1 ${fmt4(d.f1)}. Gate ${d.gate}` +
    (d.preview ? '; previewed OPEN rows are on.' : '.');

  const off = d.pairs.filter(mismatch).length;
  const toggle = el('input', { type: 'checkbox', id: 'detail-only', checked: only, onchange: (e) => onOnly(e.target.checked) });
  body.classList.toggle('only-mismatches', only);
  body.append(el('p', { class: 'drill-options' },
    el('label', {}, toggle, ' Only mismatches'),
    el('span', { class: 'hint' }, ` ${off} of ${d.pairs.length} pairs have a field scored below 1 or a name read with edits` +
      (only ? `; ${d.pairs.length - off} matching pair${d.pairs.length - off === 1 ? '' : 's'} and every exact field hidden.` : '.'))));

  body.append(el('h4', {}, `Pairs (${d.pairs.length})`));
  const pairs = el('div', { class: 'pairs' });
  for (const p of d.pairs) pairs.append(pairTable(d, p));
  body.append(pairs);
  // One header for the pairs: the first pair shown carries it; the
  // others keep theirs for screen readers only.
  const shown = [...pairs.children].filter((t) => !(only && t.classList.contains('all-exact') && !(focus && t.dataset.gtLine === String(focus.gtLine))));
  for (const t of pairs.children) t.tHead.classList.toggle('sr', t !== shown[0]);
  const target = focus ? pairs.querySelector(`table.pair[data-gt-line="${focus.gtLine}"]`) : null;
  if (target) {
    target.classList.add('focused-pair');
    const row = target.querySelector(focus.field === d.key ? 'tr.name-row' : `tr[data-field="${focus.field}"]`);
    if (row) row.classList.add('changed-field');
    target.caption.append(el('span', { class: 'change-note' }, ` — the preview changed ${focus.field}: ${focus.text}`));
  }

  const rowsTable = (title, rows, withLine) => {
    body.append(el('h4', {}, `${title} (${rows.length})`));
    if (rows.length === 0) {
      body.append(el('p', { class: 'hint' }, 'None.'));
      return;
    }
    const t = el('table', { class: 'data ' + (withLine ? 'misses' : 'extras') });
    const at = (r) => (withLine ? 'GT line ' + r.line : 'record ' + (r.index + 1));
    if (d.columns.length > FIELDS_AS_ROWS) {
      // Many fields: one row per field, one column per row missed, not
      // one row thousands of pixels wide.
      t.classList.add('fields-as-rows');
      plainTable(t, ['field', ...rows.map(at)],
        [[d.key, ...rows.map((r) => r.key)], ...d.columns.map((c, k) => [c.name, ...rows.map((r) => r.values[k])])], title);
    } else {
      plainTable(t, [withLine ? 'GT line' : 'record', d.key, ...d.columns.map((c) => c.name)],
        rows.map((r) => [String(withLine ? r.line : r.index + 1), r.key, ...r.values]), title);
      rows.forEach((r, i) => { t.tBodies[0].rows[i].dataset.key = r.key; });
    }
    body.append(el('div', { class: 'scroll' }, t));
  };
  rowsTable('Misses: ground-truth rows no record was paired with', d.misses, true);
  rowsTable('Extras: model records paired with no ground-truth row', d.extras, false);
  body.append(raw);
}

function pairTable(d, p) {
  const [gtName, modelName] = diffPair(p.name.diff);
  const table = el('table', {
    class: 'data pair' + (mismatch(p) ? ' mismatch' : ' all-exact'),
    dataset: { gt: p.name.gt, model: p.name.model, similarity: String(p.similarity), gtLine: String(p.gt_line) },
  });
  table.append(el('caption', {},
    el('span', { class: 'pair-gt' }, p.name.gt), ' ≈ ', el('span', { class: 'pair-model' }, p.name.model),
    el('span', { class: 'similarity' }, ` similarity ${fmt4(p.similarity)}` +
      (p.similarity_gt === 'written' ? ' (GT as written)' : '') + `, GT line ${p.gt_line}`)));
  table.append(el('thead', {}, el('tr', {},
    el('th', { scope: 'col' }, 'field'), el('th', { scope: 'col' }, 'ground truth'),
    el('th', { scope: 'col' }, 'model'), el('th', { scope: 'col', class: 'num' }, 'score'))));
  const tb = el('tbody');
  tb.append(el('tr', { class: 'name-row' + (p.name.edits > 0 ? ' edited' : '') }, el('th', { scope: 'row' }, d.key),
    el('td', {}, gtName), el('td', {}, modelName),
    el('td', { class: 'num' }, `${p.name.edits} edit${p.name.edits === 1 ? '' : 's'} / ${p.name.ref_chars}`)));
  for (const f of p.fields) {
    let gtCell;
    let modelCell;
    if (f.score === null) {
      gtCell = el('span', { class: 'blank' }, f.gt || '(blank)');
      modelCell = el('span', {}, f.model);
    } else {
      [gtCell, modelCell] = diffPair(f.diff);
    }
    tb.append(el('tr', { class: f.score === null ? 'unscorable' : f.score === 1 ? 'exact' : 'wrong', dataset: { field: f.name } },
      el('th', { scope: 'row' }, f.name),
      el('td', { title: f.gt !== f.gt_compared ? 'as written: ' + f.gt : null }, gtCell),
      el('td', { title: f.model !== f.model_compared ? 'as written: ' + f.model : null }, modelCell),
      el('td', { class: 'num' }, f.score === null ? 'unscorable' : fmt4(f.score))));
  }
  table.append(tb);
  return table;
}

// rawResponse is the model's answer on the image's line, collapsed; for a
// failed image it is open, under the reason the line failed.
function rawResponse(d) {
  const failed = d.status !== 'ok';
  const what = d.response === '' ? 'none on this line' : `${grouped(d.response.length)} characters`;
  return el('details', { class: 'raw-response', open: failed || null },
    el('summary', {}, failed ? `Raw model response — failed: ${d.failure} (${what})` : `Raw model response (${what})`),
    d.response === '' ? el('p', { class: 'hint' }, 'The line has no records and no response.')
      : el('pre', { class: 'raw', tabindex: '0' }, d.response));
}

// ---- one page across the cells ------------------------------------------------

// renderPageAcross fills container with a page's cells side by side: each
// cell's F1 on the page and its images, each a button that calls
// onImage(line, button).
export function renderPageAcross(container, heading, v, page, onImage) {
  heading.textContent = `Page ${page} across the cells`;
  const cells = pageAcross(v, page);
  const grid = el('div', { class: 'page-across' });
  for (const c of cells) {
    const card = el('section', { class: 'page-cell', dataset: { cell: c.label }, 'aria-label': c.label },
      el('h4', {}, c.label),
      el('p', { class: 'page-f1' }, 'F1 ', el('strong', {}, c.f1 === null ? '–' : fmt4(c.f1))));
    const list = el('ul', { class: 'page-images' });
    for (const im of c.images) {
      const text = `line ${im.line} · run ${im.run} · ` + (im.ok ? `F1 ${fmt4(im.f1)} · ${im.matched}/${im.nGT} matched` : 'failed');
      const b = el('button', { type: 'button', class: 'image-link' + (im.ok ? '' : ' failed'), dataset: { line: im.line } }, text);
      b.addEventListener('click', () => onImage(im.line, b));
      list.append(el('li', {}, b));
    }
    if (c.images.length === 0) list.append(el('li', { class: 'hint' }, 'no image of this page'));
    card.append(list);
    grid.append(card);
  }
  clear(container).append(grid);
  return cells;
}

// ---- one receipt page ---------------------------------------------------------

// renderReceiptPage fills a receipt page's drill-down from the core's
// detail (receipts.PageDetail).
export function renderReceiptPage({ box, heading, summary, body }, d) {
  box.dataset.page = d.phase + '/' + d.sample_id;
  heading.textContent = `Receipt page ${d.phase} / ${d.sample_id} (line ${d.line} of the run)`;
  const opt = (x) => (x === null || x === undefined ? 'n/a' : fmt4(x));
  summary.textContent = `ROUGE-L F1 ${opt(d.f1)} (LCS ${d.lcs} of ${d.pred_tokens} predicted and ${d.ref_tokens} reference tokens; ` +
    `precision ${opt(d.precision)}, recall ${opt(d.recall)}); numbers ${d.numeric_matched} / ${d.numeric_ref}, ` +
    `numeric recall ${opt(d.numeric_recall)}. Status ${d.status}, finish ${d.finish_reason === null ? 'null' : d.finish_reason}` +
    (d.flags.length ? `; flags: ${d.flags.join(', ')}.` : '.');
  clear(body);
  body.append(el('p', { class: 'legend hint' },
    el('mark', { class: 'lcs' }, 'highlighted'), ' tokens form a longest common subsequence of the two texts (one of them, when there are several); ',
    el('mark', { class: 'missing' }, 'struck'), ' reference numbers are missing from the prediction. Both texts are shown as scored: ' +
      'cleaned (the prediction) and case-folded.' + (d.aligned ? '' : ' These texts are too long to align here: no token is highlighted.')));
  const side = (title, segs, cls, empty) => el('section', { class: 'receipt-side ' + cls, 'aria-label': title },
    el('h4', {}, title),
    segs.length === 0 ? el('p', { class: 'hint' }, empty) : el('pre', { class: 'receipt-text', tabindex: '0' }, segs.map(segment)));
  body.append(el('div', { class: 'receipt-diff' },
    side('Prediction (cleaned)', d.prediction, 'pred', d.scored_text ? 'Empty after cleaning.' : 'Not scored as text: the request did not end with status ok and finish reason stop; the page counts as an empty prediction.'),
    side('Reference', d.reference, 'ref', 'The reference is empty.')));
  if (d.missing_numbers.length) {
    body.append(el('p', {}, 'Missing numbers: ', ...d.missing_numbers.map((n) => el('code', { class: 'missing-number' }, n))));
  }
  body.append(el('details', { class: 'raw-response' },
    el('summary', {}, d.output === null ? 'Raw model output (null)' : `Raw model output (${grouped(d.output.length)} characters)`),
    d.output === null ? el('p', { class: 'hint' }, 'The record has no output.') : el('pre', { class: 'raw', tabindex: '0' }, d.output)));
}

function segment(s) {
  if (!s.kind) return s.text;
  if (s.missing) return el('mark', { class: 'missing', title: 'missing from the prediction' }, s.text);
  if (s.lcs) return el('mark', { class: 'lcs' }, s.text);
  return el('span', { class: 'tok' }, s.text);
}
