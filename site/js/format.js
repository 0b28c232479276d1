// format.js — number formatting exactly as the Go report writers do it,
// so that what the page shows matches "docscore … --format md" character
// for character. Pure functions; tested with node --test.

// fmt4 formats x with four decimals like Go's strconv.FormatFloat(x, 'f',
// 4, 64): correctly rounded, ties to even. JavaScript's toFixed rounds ties
// up; a tie at four decimals is a value x with 32·x an odd integer.
export function fmt4(x) {
  const s = x.toFixed(4);
  const t = Math.abs(x) * 32;
  if (!Number.isInteger(t) || t % 2 === 0) {
    return s;
  }
  // |x|·10⁴ is exactly n + ½; toFixed took n + 1, Go takes the even one.
  const y = Math.abs(x) * 10000;
  const lo = Math.floor(y);
  const n = lo % 2 === 0 ? lo : lo + 1;
  const digits = String(n).padStart(5, '0');
  const out = digits.slice(0, -4) + '.' + digits.slice(-4);
  return (x < 0 || Object.is(x, -0) ? '-' : '') + out;
}

// fmtOpt4 is fmt4 with "–" for null (unscorable).
export function fmtOpt4(x) {
  return x === null || x === undefined ? '–' : fmt4(x);
}

// ciText is a statistic's confidence interval as the Markdown report
// writes it after the value (Go's stats.CI.Text): " [lo, hi]" with four
// decimals, " [–]" when the interval is null, "" when the cell has no
// intervals or no such statistic. path is "f1" or "fields.title".
export function ciText(ci, path) {
  const iv = ciLookup(ci, path);
  if (iv === undefined) return '';
  return iv === null ? ' [–]' : ' [' + fmt4(iv[0]) + ', ' + fmt4(iv[1]) + ']';
}

// ciLookup is a cell's interval of a statistic (path "f1" or
// "fields.title"): [lo, hi], null when the interval is null, undefined
// when the cell has no intervals or no such statistic.
export function ciLookup(ci, path) {
  if (!ci) return undefined;
  const dot = path.indexOf('.');
  const holder = dot < 0 ? ci : ci[path.slice(0, dot)];
  return holder ? holder[dot < 0 ? path : path.slice(dot + 1)] : undefined;
}

// fmtDelta renders a {settled, preview, delta} triple like the Markdown
// report: "0.9467 → 0.9550 (+0.0083)", no delta when it is zero; sig
// (sigText) goes inside the parentheses.
export function fmtDelta(d, sig = '') {
  if (d.settled === null || d.preview === null) {
    return fmtOpt4(d.settled) + ' → ' + fmtOpt4(d.preview);
  }
  let s = fmt4(d.settled) + ' → ' + fmt4(d.preview);
  if (d.delta !== 0) {
    s += ' (' + signed(d.delta) + sig + ')';
  }
  return s;
}

// signed is x with four decimals and its sign (Go's stats.Signed).
export function signed(x) {
  const s = fmt4(x);
  return s[0] === '-' ? s : '+' + s;
}

// sigText is the paired interval and Holm-adjusted p of statistic path of
// the preview comparison's i-th cell, as the Markdown report writes them
// after the delta (Go's stats.Report.Text): " [+lo, +hi], p=0.0040*", the
// star when significant; " [–]" for a null interval, none without
// replicates, no p when it is null; "" without a comparison.
export function sigText(cmp, i, path) {
  if (!cmp || i >= cmp.comparisons.length) return '';
  const dot = path.indexOf('.');
  const stats = cmp.comparisons[i].stats;
  const holder = dot < 0 ? stats : stats[path.slice(0, dot)];
  const s = holder ? holder[dot < 0 ? path : path.slice(dot + 1)] : undefined;
  if (!s) return '';
  let out = '';
  if (s.ci) out = ' [' + signed(s.ci[0]) + ', ' + signed(s.ci[1]) + ']';
  else if (cmp.replicates > 0) out = ' [–]';
  if (s.p_holm !== null) out += ', p=' + fmt4(s.p_holm) + (s.significant ? '*' : '');
  return out;
}

// limitText says how much the sample can tell of statistic path of
// comparison i (SPEC F.7), when the report says it: "cannot be
// significant with so few units (p ≥ 0.2500)" for can_be_significant
// false, "few units: the interval is unreliable" for few_units; "" when
// neither (or for a report without those fields). The core's figures:
// nothing is computed here.
export function limitText(cmp, i, path) {
  if (!cmp || i >= cmp.comparisons.length) return '';
  const dot = path.indexOf('.');
  const stats = cmp.comparisons[i].stats;
  const holder = dot < 0 ? stats : stats[path.slice(0, dot)];
  const s = holder ? holder[dot < 0 ? path : path.slice(dot + 1)] : undefined;
  if (!s) return '';
  const out = [];
  if (s.can_be_significant === false && typeof s.min_p === 'number') {
    out.push(`cannot be significant with so few units (p ≥ ${fmt4(s.min_p)})`);
  }
  if (cmp.comparisons[i].few_units && s.ci) out.push('few units: the interval is unreliable');
  return out.join('; ');
}

// prf computes precision, recall and F1 in SPEC A.6's order of operations
// (the same float64 steps as the Go core).
export function prf(matched, nModel, nGT) {
  const p = nModel > 0 ? matched / nModel : 0;
  const r = nGT > 0 ? matched / nGT : 0;
  const f1 = p + r > 0 ? (2 * p * r) / (p + r) : 0;
  return [p, r, f1];
}

// pageLess orders page ids like the Markdown report: numerically when both
// are integers, else as strings.
export function pageCompare(a, b) {
  const na = /^\s*[+-]?\d+\s*$/.test(a) ? Number(a) : NaN;
  const nb = /^\s*[+-]?\d+\s*$/.test(b) ? Number(b) : NaN;
  if (!Number.isNaN(na) && !Number.isNaN(nb) && na !== nb) {
    return na < nb ? -1 : 1;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

// runText renders a run id as the reports do: strings without quotes.
export function runText(run) {
  return run === null || run === undefined ? 'null' : String(run);
}

// fmtBytes renders a file size for people.
// grouped writes a whole number with a comma between groups of three
// digits (12,345), as toLocaleString('en') does, without Intl: the first
// Intl number format of a page costs a 50 ms main-thread task (ICU's data
// loaded), which the streamed scoring's first progress report paid.
export function grouped(n) {
  const s = String(Math.trunc(Math.abs(n)));
  const head = s.length % 3 || 3;
  let out = s.slice(0, head);
  for (let i = head; i < s.length; i += 3) out += ',' + s.slice(i, i + 3);
  return (n < 0 && out !== '0' ? '-' : '') + out;
}

export function fmtBytes(n) {
  if (n < 1024) return n + ' B';
  if (n < 1024 * 1024) return (n / 1024).toFixed(1) + ' KiB';
  return (n / (1024 * 1024)).toFixed(1) + ' MiB';
}

// tallyText is a preview's change tally in words, as the Markdown report
// writes it (Go's ChangeTally.String): "14 fields rose, 0 fell", then the
// name CERs and pairings changed, when any were.
export function tallyText(t) {
  let s = `${t.rose} field${t.rose === 1 ? '' : 's'} rose, ${t.fell} fell`;
  if (t.names > 0) s += `, ${t.names} name CER${t.names === 1 ? '' : 's'} changed`;
  if (t.pairings > 0) s += `, ${t.pairings} pairing${t.pairings === 1 ? '' : 's'} changed`;
  return s;
}

// changeValues is a preview change's before → after as the Markdown
// report writes it: the field's scores, "CER …" for the name (the key
// column), the records paired with their similarity for a pairing.
export function changeValues(c, key) {
  if (c.field === 'pairing') {
    const side = (rec, sim) => (sim === null ? 'none' : `${rec} (${fmt4(sim)})`);
    return `${side(c.record_before, c.before)} → ${side(c.record_after, c.after)}`;
  }
  const v = `${fmtOpt4(c.before)} → ${fmtOpt4(c.after)}`;
  return c.field === key ? 'CER ' + v : v;
}
