// streamview.js — the page's view of a tabular report (the cells, the
// per-page F1 and a compact table of images in typed arrays), built from
// the images as they come, in input order: from a whole summary
// (buildView) or from the rows a streamed scoring's merger sends
// (api.StreamMerger's image rows: line, model, phase, run, page, ok,
// matched, n_model, n_gt, f1, failure).

import { prf, pageCompare, runText } from './format.js';

const COLUMNS = ['line', 'cell', 'run', 'page', 'ok', 'matched', 'nModel', 'nGT', 'f1'];

export class ViewBuilder {
  constructor() {
    this.n = 0;
    this.cap = 0;
    this.a = {};
    this.grow(1024);
    this.cellIds = new Map(); // model \0 phase → index in order of appearance
    this.cellKeys = [];
    this.runIds = [];
    this.runIndex = new Map();
    this.pageIds = [];
    this.pageIndex = new Map();
    this.failed = [];
    this.pooled = new Map(); // cell (first appearance) \0 page → counts of its ok images
    this.okPages = new Set();
  }

  grow(cap) {
    const make = (k, old) => {
      const T = k === 'ok' ? Uint8Array : k === 'f1' ? Float64Array : Int32Array;
      const a = new T(cap);
      if (old) a.set(old);
      return a;
    };
    for (const k of COLUMNS) this.a[k] = make(k, this.a[k]);
    this.cap = cap;
  }

  // add adds image rows [line, model, phase, run, page, ok, matched,
  // nModel, nGT, f1, failure].
  add(rows) {
    for (const [line, model, phase, run, page, ok, matched, nModel, nGT, f1, failure] of rows) {
      if (this.n === this.cap) this.grow(this.cap * 2);
      const i = this.n++;
      const ck = model + '\u0000' + phase;
      let c = this.cellIds.get(ck);
      if (c === undefined) {
        c = this.cellKeys.length;
        this.cellIds.set(ck, c);
        this.cellKeys.push(ck);
      }
      const rt = runText(run);
      if (!this.runIndex.has(rt)) {
        this.runIndex.set(rt, this.runIds.length);
        this.runIds.push(rt);
      }
      if (!this.pageIndex.has(page)) {
        this.pageIndex.set(page, this.pageIds.length);
        this.pageIds.push(page);
      }
      const a = this.a;
      a.line[i] = line;
      a.cell[i] = c;
      a.run[i] = this.runIndex.get(rt);
      a.page[i] = this.pageIndex.get(page);
      a.ok[i] = ok;
      a.matched[i] = matched;
      a.nModel[i] = nModel;
      a.nGT[i] = nGT;
      a.f1[i] = f1;
      if (!ok) {
        this.failed.push({ line, model, phase, run: rt, page, failure });
        continue;
      }
      this.okPages.add(page);
      const key = c + '\u0000' + page;
      const p = this.pooled.get(key) || { matched: 0, nModel: 0, nGT: 0 };
      p.matched += matched;
      p.nModel += nModel;
      p.nGT += nGT;
      this.pooled.set(key, p);
    }
  }

  // finish returns the view of rep, the report's summary (its images
  // those added).
  finish(rep) {
    const final = new Map(rep.cells.map((c, i) => [c.model + '\u0000' + c.phase, i]));
    const remap = this.cellKeys.map((k) => final.get(k));
    const images = { count: this.n };
    for (const k of COLUMNS) images[k] = this.a[k].slice(0, this.n);
    for (let i = 0; i < this.n; i++) images.cell[i] = remap[images.cell[i]];
    const byFinal = rep.cells.map((c) => this.cellIds.get(c.model + '\u0000' + c.phase));
    const okPages = [...this.okPages].sort(pageCompare);
    const perPage = okPages.map((page) => byFinal.map((c) => {
      const p = c === undefined ? null : this.pooled.get(c + '\u0000' + page);
      return p ? prf(p.matched, p.nModel, p.nGT)[2] : null;
    }));
    return {
      gate: rep.gate, key: rep.key, fields: rep.fields, rules: rep.rules, warnings: rep.warnings, leftOut: rep.left_out || [],
      cells: rep.cells, preview: rep.preview || null,
      pages: { ids: okPages, f1: perPage },
      images, runIds: this.runIds, pageIds: this.pageIds, failed: this.failed,
    };
  }
}

// imageRow is a summary image as a row for ViewBuilder.add.
export function imageRow(im) {
  return [im.line, im.model, im.phase, im.run, im.page, im.status === 'ok' ? 1 : 0, im.matched, im.n_model, im.n_gt, im.f1, im.failure];
}

// buildView keeps what the page shows of a report, from its summary
// (tabular.Report.SummaryJSON: the images without their pairs).
export function buildView(rep) {
  const b = new ViewBuilder();
  b.add(rep.images.map(imageRow));
  return b.finish(rep);
}

// transferOf lists the view's typed arrays' buffers, to transfer.
export function transferOf(view) {
  return COLUMNS.map((k) => view.images[k].buffer);
}
