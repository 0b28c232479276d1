// chart.js — the cells' bar chart as inline SVG, drawn at the width it
// is shown at (its text keeps its size on a phone), on an axis fitted to
// the data (layout.js's axisFor), with each cell's interval as an error
// bar and its run-to-run spread as a thin range mark.

import { svg, clear } from './view.js';
import { axisFor } from './layout.js';

// NARROW is the width under which a row's label goes above its bar.
const NARROW = 600;

// barChart draws one horizontal bar per item into container: items are
// {label, value (0..1 or null), settled? (a marker), ci? ([lo, hi]: an
// error bar), ciText?, spread? ({min, max, runs}: the run-to-run range)}.
// format(item) is the value's text. It returns the axis it drew
// (axisFor's answer).
//
// It draws the chart twice, for wide and for narrow screens (a label
// above each bar, the text the same size at 390 px); the style sheet
// shows one. Measuring the container instead would force a layout of the
// whole page (0.3–0.4 s with 10,000 images).
export function barChart(container, title, items, format) {
  clear(container);
  const values = [];
  for (const it of items) {
    values.push(it.value);
    if (it.settled !== undefined && it.settled !== null) values.push(it.settled);
    if (Array.isArray(it.ci)) values.push(...it.ci);
    if (it.spread) values.push(it.spread.min, it.spread.max);
  }
  const axis = axisFor(values);
  container.append(draw(title, items, format, axis, 950), draw(title, items, format, axis, NARROW_WIDTH));
  return axis;
}

// NARROW_WIDTH is the width the narrow chart is drawn at (a 390 px
// screen less the page's padding); it scales a little with the screen.
const NARROW_WIDTH = 370;

function draw(title, items, format, axis, width) {
  const narrow = width < NARROW;
  const rowH = narrow ? 48 : 28;
  const labelW = narrow ? 0 : Math.min(300, Math.round(width * 0.3));
  const valueW = narrow ? 0 : Math.min(230, Math.round(width * 0.25));
  // room at both ends for the first and last tick's text
  const x0 = labelW + (narrow ? 16 : 0);
  const barW = width - labelW - valueW - (narrow ? 36 : 24);
  const height = items.length * rowH + 26;
  const x = (v) => x0 + (barW * (Math.max(axis.lo, Math.min(axis.hi, v)) - axis.lo)) / (axis.hi - axis.lo);
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height}`, width: '100%', class: 'bars ' + (narrow ? 'narrow' : 'wide'),
    role: 'img', 'aria-label': `${title}; ${axis.text}`, dataset: { lo: String(axis.lo), hi: String(axis.hi) },
  });
  chart.append(svg('title', {}, `${title}; ${axis.text}`));
  for (const t of axis.ticks) {
    const tx = x(t);
    chart.append(svg('line', { x1: tx, x2: tx, y1: 0, y2: height - 20, class: 'grid' }));
    chart.append(svg('text', { x: tx, y: height - 5, class: 'axis', 'text-anchor': 'middle' }, t.toFixed(axis.digits)));
  }
  items.forEach((it, i) => {
    const y = i * rowH;
    const barY = narrow ? y + 22 : y + 5;
    const barH = narrow ? 16 : rowH - 10;
    const mid = barY + barH / 2;
    const g = svg('g', { class: 'bar-row' });
    // A long label is cut to its room, with the whole of it on hover.
    const room = Math.max(8, Math.floor((narrow ? width * 0.7 : labelW - 8) / 7));
    const text = it.label.length > room ? it.label.slice(0, room - 1) + '…' : it.label;
    if (narrow) {
      g.append(svg('text', { x: 0, y: y + 15, class: 'label' }, svg('title', {}, it.label), text));
      g.append(svg('text', { x: width - 2, y: y + 15, 'text-anchor': 'end', class: 'value' }, format(it)));
    } else {
      g.append(svg('text', { x: labelW - 8, y: mid + 4, 'text-anchor': 'end', class: 'label' }, svg('title', {}, it.label), text));
    }
    const v = it.value === null ? axis.lo : it.value;
    g.append(svg('rect', { x: x0, y: barY, width: Math.max(0, x(v) - x0), height: barH, rx: 2, class: 'bar' }));
    if (Array.isArray(it.ci)) {
      // the interval: a line from lo to hi with a cap at each end
      const [lo, hi] = [x(it.ci[0]), x(it.ci[1])];
      const bar = svg('g', { class: 'errorbar', dataset: { lo: String(it.ci[0]), hi: String(it.ci[1]) } });
      bar.append(svg('title', {}, `${it.label}: interval ${it.ciText || ''}`.trim()));
      bar.append(svg('line', { x1: lo, x2: hi, y1: mid, y2: mid }));
      for (const cx of [lo, hi]) bar.append(svg('line', { x1: cx, x2: cx, y1: mid - 6, y2: mid + 6 }));
      g.append(bar);
    }
    if (it.spread) {
      // the runs' F1, lowest to highest: a thin mark under the bar
      const sy = barY + barH + 2;
      const mark = svg('g', { class: 'spread-mark', dataset: { min: String(it.spread.min), max: String(it.spread.max) } });
      mark.append(svg('title', {}, `${it.label}: F1 of its ${it.spread.runs} run${it.spread.runs === 1 ? '' : 's'} from ${it.spread.min.toFixed(4)} to ${it.spread.max.toFixed(4)}`));
      mark.append(svg('line', { x1: x(it.spread.min), x2: Math.max(x(it.spread.max), x(it.spread.min) + 1), y1: sy, y2: sy, class: 'spread' }));
      g.append(mark);
    }
    if (it.settled !== undefined && it.settled !== null) {
      const sx = x(it.settled);
      g.append(svg('line', { x1: sx, x2: sx, y1: barY - 3, y2: barY + barH + 3, class: 'settled' }));
    }
    if (!narrow) g.append(svg('text', { x: x0 + barW + 8, y: mid + 4, class: 'value' }, format(it)));
    chart.append(g);
  });
  return chart;
}
