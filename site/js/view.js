// view.js — small DOM helpers: elements, sortable tables, character
// diffs, a virtualized table and the files of a drop (the bar chart is
// chart.js). No framework; nothing here knows about the worker.

const SVG = 'http://www.w3.org/2000/svg';

// el creates an element: attrs are attributes (on* keys are listeners,
// "text" sets textContent, "dataset" an object of data-*), children are
// nodes or strings.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) node.append(c);
  }
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'text') node.textContent = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : String(v));
  }
}

// svg creates an SVG element like el.
export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  setAttrs(node, attrs);
  for (const c of children.flat()) {
    if (c !== null && c !== undefined) node.append(c);
  }
  return node;
}

// clear empties a node.
export function clear(node) {
  node.replaceChildren();
  return node;
}

// sortableTable fills a <table> with columns and rows and lets the user
// sort by any column (click or Enter on its header button). A column is
// {key, label, title?, value(row) → sortable value, cell(row) → node|string,
// className?}. state {key, dir} survives re-renders.
//
// onSort, when given, is called with the rows in the order shown, after
// each drawing (a chart that follows the table's order).
export function sortableTable(table, columns, rows, state, caption, onSort) {
  clear(table);
  if (caption) table.append(el('caption', { class: 'sr' }, caption));
  const sorted = rows.slice();
  const col = columns.find((c) => c.key === state.key);
  if (col) {
    sorted.sort((a, b) => {
      const x = col.value(a);
      const y = col.value(b);
      const nx = x === null || x === undefined;
      const ny = y === null || y === undefined;
      if (nx || ny) return nx === ny ? 0 : nx ? 1 : -1; // blanks last
      return (x < y ? -1 : x > y ? 1 : 0) * state.dir;
    });
  }
  const head = el('tr');
  for (const c of columns) {
    const sort = c.key === state.key ? (state.dir > 0 ? 'ascending' : 'descending') : 'none';
    const button = el('button', {
      type: 'button', class: 'sort', title: c.title || null,
      onclick: () => {
        state.dir = state.key === c.key ? -state.dir : c.firstDir || 1;
        state.key = c.key;
        sortableTable(table, columns, rows, state, caption, onSort);
        table.querySelector(`th[data-key="${c.key}"] button`).focus();
      },
    }, c.label);
    head.append(el('th', { scope: 'col', 'aria-sort': sort, dataset: { key: c.key }, class: c.className || null }, button));
  }
  const body = el('tbody');
  for (const r of sorted) {
    const tr = el('tr');
    for (const c of columns) {
      const content = c.cell(r);
      const td = el(c.key === columns[0].key ? 'th' : 'td', { class: c.className || null });
      if (c.key === columns[0].key) td.setAttribute('scope', 'row');
      if (content instanceof Node) td.append(content);
      else td.textContent = content;
      if (c.decorate) c.decorate(td, r);
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(el('thead', {}, head), body);
  if (onSort) onSort(sorted);
}

// plainTable fills a <table> with a header row and rows of strings/nodes.
export function plainTable(table, header, rows, caption) {
  clear(table);
  if (caption) table.append(el('caption', { class: 'sr' }, caption));
  const head = el('tr', {}, header.map((h) => el('th', { scope: 'col' }, h)));
  const body = el('tbody', {}, rows.map((r) => el('tr', {}, r.map((c, i) => {
    const td = el(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row' } : {});
    if (c instanceof Node) td.append(c);
    else td.textContent = c;
    return td;
  }))));
  table.append(el('thead', {}, head), body);
}

// diffPair renders an alignment (spans {op, gt, model}) as two lines:
// the GT side with what the model missed or misread marked, and the model
// side with what it added or misread marked.
export function diffPair(spans) {
  const gt = el('span', { class: 'diff gt' });
  const model = el('span', { class: 'diff model' });
  for (const s of spans) {
    switch (s.op) {
      case 'equal':
        gt.append(s.gt);
        model.append(s.model);
        break;
      case 'replace':
        gt.append(el('del', { title: 'read as ' + JSON.stringify(s.model) }, s.gt));
        model.append(el('ins', { title: 'reads ' + JSON.stringify(s.gt) }, s.model));
        break;
      case 'delete':
        gt.append(el('del', { title: 'missing in the model value' }, s.gt));
        break;
      case 'insert':
        model.append(el('ins', { title: 'not in the ground truth' }, s.model));
        break;
    }
  }
  return [gt, model];
}

// VirtualTable shows many rows in a scrolling box, rendering only those in
// view: a 10,000-row table costs a few dozen rows of DOM. Rows are
// focusable; Enter or a click calls onOpen(index), arrows move.
export class VirtualTable {
  constructor(container, { columns, rowHeight = 30, height = 360, onOpen, label }) {
    this.columns = columns;
    this.rowHeight = rowHeight;
    this.onOpen = onOpen;
    this.order = new Int32Array(0);
    this.sort = { key: null, dir: 1 };
    this.focusIndex = 0;
    this.current = -1; // the row whose drill-down is open (setCurrent)
    this.height = height;
    this.top = 0; // the box's scrollTop, kept here so drawing never forces a layout
    this.box = el('div', { class: 'vbox', tabindex: '-1' });
    this.box.style.height = height + 'px';
    this.table = el('table', { class: 'data vtable', role: 'grid', 'aria-label': label });
    this.head = el('thead');
    this.body = el('tbody');
    this.table.append(this.head, this.body);
    this.box.append(this.table);
    clear(container).append(this.box);
    this.box.addEventListener('scroll', () => {
      this.top = this.box.scrollTop;
      this.draw();
    });
    this.renderHead();
  }

  renderHead() {
    const tr = el('tr', { 'aria-rowindex': 1 });
    for (const c of this.columns) {
      const sort = c.key === this.sort.key ? (this.sort.dir > 0 ? 'ascending' : 'descending') : 'none';
      tr.append(el('th', { scope: 'col', 'aria-sort': sort, dataset: { key: c.key } },
        el('button', { type: 'button', class: 'sort', onclick: () => this.sortBy(c) }, c.label)));
    }
    clear(this.head).append(tr);
  }

  // setRows shows count rows in their natural order.
  setRows(count) {
    this.count = count;
    this.order = new Int32Array(count);
    for (let i = 0; i < count; i++) this.order[i] = i;
    if (this.sort.key) this.applySort();
    this.table.setAttribute('aria-rowcount', String(count + 1));
    if (this.top !== 0) {
      this.top = 0;
      this.box.scrollTop = 0;
    }
    this.draw();
  }

  sortBy(c) {
    this.sort.dir = this.sort.key === c.key ? -this.sort.dir : 1;
    this.sort.key = c.key;
    this.applySort();
    this.renderHead();
    this.draw();
    this.head.querySelector(`th[data-key="${c.key}"] button`).focus();
  }

  applySort() {
    const c = this.columns.find((x) => x.key === this.sort.key);
    const keys = this.order.map((i) => i);
    const vals = Array.from(keys, (i) => c.value(i));
    const idx = Array.from(keys.keys());
    idx.sort((a, b) => (vals[a] < vals[b] ? -1 : vals[a] > vals[b] ? 1 : a - b) * this.sort.dir);
    const next = new Int32Array(idx.length);
    idx.forEach((k, j) => { next[j] = keys[k]; });
    this.order = next;
  }

  draw() {
    const top = this.top;
    const visible = Math.ceil(this.height / this.rowHeight) + 1;
    const first = Math.max(0, Math.floor(top / this.rowHeight) - 5);
    const last = Math.min(this.count, first + visible + 10);
    const rows = [];
    rows.push(this.spacer(first * this.rowHeight));
    for (let j = first; j < last; j++) rows.push(this.row(j));
    rows.push(this.spacer((this.count - last) * this.rowHeight));
    this.body.replaceChildren(...rows);
  }

  spacer(h) {
    const tr = el('tr', { class: 'spacer', 'aria-hidden': 'true' }, el('td', { colspan: this.columns.length }));
    tr.style.height = h + 'px';
    return tr;
  }

  row(j) {
    const i = this.order[j];
    const tr = el('tr', {
      tabindex: j === this.focusIndex ? '0' : '-1', 'aria-rowindex': j + 2, dataset: { index: i, pos: j },
      'aria-current': i === this.current ? 'true' : null, class: i === this.current ? 'current' : null,
      onclick: () => { this.focusIndex = j; this.onOpen(i, j); },
      onkeydown: (e) => this.key(e, j, i),
    });
    tr.style.height = this.rowHeight + 'px';
    for (const c of this.columns) {
      const td = el('td', { class: c.className || null }, c.cell(i));
      tr.append(td);
    }
    return tr;
  }

  key(e, j, i) {
    let next = j;
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      this.onOpen(i, j);
      return;
    }
    if (e.key === 'ArrowDown') next = Math.min(this.count - 1, j + 1);
    else if (e.key === 'ArrowUp') next = Math.max(0, j - 1);
    else if (e.key === 'PageDown') next = Math.min(this.count - 1, j + 10);
    else if (e.key === 'PageUp') next = Math.max(0, j - 10);
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = this.count - 1;
    else return;
    e.preventDefault();
    this.focusPos(next);
  }

  // reveal scrolls the box so that the row at position j is in view.
  reveal(j) {
    const y = j * this.rowHeight;
    if (y < this.top + this.rowHeight) this.top = Math.max(0, y - this.rowHeight);
    else if (y > this.top + this.height - 2 * this.rowHeight) this.top = y - this.height + 2 * this.rowHeight;
    this.box.scrollTop = this.top;
  }

  // focusPos focuses the row at position j, scrolled into view.
  focusPos(j) {
    this.focusIndex = j;
    this.reveal(j);
    this.draw();
    const tr = this.body.querySelector(`tr[data-pos="${j}"]`);
    if (tr) tr.focus();
  }

  // setCurrent marks row i (aria-current, class "current"; -1: none) and
  // scrolls it into the box's view without moving focus.
  setCurrent(i) {
    this.current = i;
    const j = i < 0 ? -1 : this.order.indexOf(i);
    if (j >= 0) this.reveal(j);
    this.draw();
  }
}

// collectDropped turns a drop's items into {file, path}, walking folders.
// The entries must be taken before the first await.
export async function collectDropped(dt) {
  const entries = [];
  const loose = [];
  for (const item of dt.items || []) {
    if (item.kind !== 'file') continue;
    const entry = item.webkitGetAsEntry ? item.webkitGetAsEntry() : null;
    if (entry) entries.push(entry);
    else loose.push(item.getAsFile());
  }
  if (entries.length === 0 && loose.length === 0) {
    return [...(dt.files || [])].map((file) => ({ file, path: file.name }));
  }
  // walk lists an entry's files, a folder's in the order the browser
  // gives them. Entries are opened side by side (each is a round trip to
  // the browser: for the benchmark corpus 7–28 ms against 14–48 ms one
  // after the other), and the list keeps the order of a walk.
  const walk = async (entry) => {
    if (entry.isFile) {
      const file = await new Promise((resolve, reject) => entry.file(resolve, reject));
      return [{ file, path: entry.fullPath.replace(/^\//, '') }];
    }
    if (!entry.isDirectory) return [];
    const reader = entry.createReader();
    const children = [];
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      children.push(...batch);
    }
    return (await Promise.all(children.map(walk))).flat();
  };
  const walked = await Promise.all(entries.map(walk));
  return [...loose.filter(Boolean).map((file) => ({ file, path: file.name })), ...walked.flat()];
}
