// receiptsview.js — the receipts results (SPEC B): the completeness
// banner, the per-phase summary and the pages table. The page imports it
// the first time receipt files are scored; it only renders what the worker
// sent (the report of receipts.wasm), with the numbers formatted like the
// Markdown report.

import { el, clear, sortableTable, plainTable } from './view.js';
import { fmt4, ciText } from './format.js';

const $ = (id) => document.getElementById(id);

// fmtOpt formats a score like the Markdown report: four decimals, "n/a"
// for null.
export function fmtOpt(x) {
  return x === null || x === undefined ? 'n/a' : fmt4(x);
}

// countsText renders {"ok": 23, "timeout": 1} as "ok 23, timeout 1",
// keys sorted, like the Markdown report.
export function countsText(m) {
  return Object.keys(m || {}).sort().map((k) => `${k} ${m[k]}`).join(', ');
}

// refusalLines splits the refusal of an incomplete run into its first line
// (without the file name the page shows beside it) and its pairs.
export function refusalLines(e) {
  const [first, ...rest] = e.message.split('\n');
  const head = e.file && first.startsWith(e.file + ': ') ? first.slice(e.file.length + 2) : first;
  return { head, pairs: rest.map((l) => l.trim()).filter(Boolean) };
}

const pageSort = { key: null, dir: 1 };

// render shows the receipts part of a scoring: r is the worker's
// {missing, problem, error, refused, report, allowIncomplete}.
export function render(r, { allowIncomplete, onOpen = () => {} }) {
  $('allow-incomplete').checked = allowIncomplete;
  const banner = clear($('receipts-banner'));
  banner.hidden = true;
  delete banner.dataset.state;
  banner.removeAttribute('role');
  const rep = r.report;
  $('receipts-results').hidden = !rep;
  if (r.missing.length) {
    $('receipts-summary').textContent = 'To score receipts, add ' + r.missing.join(' and ') + '.';
  } else if (r.problem || r.error) {
    $('receipts-summary').textContent = 'Not scored: see the error above.';
  } else if (r.refused) {
    $('receipts-summary').textContent = 'Not scored: the run is incomplete.';
  }
  if (r.refused) {
    const { head, pairs } = refusalLines(r.refused);
    banner.dataset.state = 'refused';
    banner.setAttribute('role', 'alert');
    banner.append(
      el('p', {}, el('strong', {}, `${r.refused.file}: `), head),
      el('ul', { class: 'pairs-list' }, pairs.map((p) => el('li', {}, el('code', {}, p)))),
      el('p', { class: 'hint' }, 'Tick “Allow an incomplete run” to score the pairs that are there; the report is then labelled incomplete.'));
    banner.hidden = false;
  }
  if (!rep) return;

  const facts = [`Run ${rep.run_id}`];
  if (rep.model) facts.push(`model ${rep.model}`);
  facts.push('references in ' + rep.reference_order.replaceAll('_', ' '));
  facts.push('run end status: ' + (rep.end_status === null ? 'none (the runner never wrote an end record)' : rep.end_status));
  $('receipts-summary').textContent = facts.join(' · ') + '. ' + (rep.complete
    ? `Complete: each of the planned phase/sample pairs (${rep.planned}) was recorded exactly once.`
    : '');
  if (!rep.complete) {
    banner.dataset.state = 'incomplete';
    banner.append(el('p', {}, el('strong', {}, 'INCOMPLETE (scored with “Allow an incomplete run”): '),
      `${rep.planned} planned pairs, ${rep.completed_records} measured records, ${rep.scored_records} pages scored; ` +
      `${rep.missing_count} missing, ${rep.duplicated.length} recorded more than once.`));
    // missing lists the first of the missing pairs; missing_count counts them all.
    const more = rep.missing_count - rep.missing.length;
    const items = [
      ...rep.missing.map((m) => `missing: ${m.phase}/${m.sample_id}`),
      ...(more > 0 ? [`missing: … and ${more} more`] : []),
      ...rep.duplicated.map((d) => `recorded ${d.count} times: ${d.phase}/${d.sample_id} (lines ${d.lines.join(', ')}; line ${d.scored_line} scored)`),
      ...rep.unplanned.map((u) => `unplanned (scored): ${u.phase}/${u.sample_id} (line ${u.line})`),
      ...(rep.skipped_lines || []).map((s) => `skipped line ${s.line}: ${s.error}`),
    ];
    banner.append(el('ul', { class: 'pairs-list' }, items.map((t) => el('li', {}, t))));
    banner.hidden = false;
  } else if (rep.unplanned.length) {
    banner.dataset.state = 'unplanned';
    banner.append(el('ul', { class: 'pairs-list' }, rep.unplanned.map((u) => el('li', {}, `unplanned (scored): ${u.phase}/${u.sample_id} (line ${u.line})`))));
    banner.hidden = false;
  }

  const structured = rep.phases.some((p) => p.structured);
  plainTable($('receipt-phases'),
    ['phase', 'pages', 'ROUGE-L F1', 'numeric recall', 'numbers matched', 'text scored', 'empty outputs', 'truncated', 'statuses', 'finish reasons',
      ...(structured ? ['TED accuracy', 'field F1'] : [])],
    rep.phases.map((p) => [
      // each score, then its interval (SPEC F.4), as the Markdown report
      p.phase + (p.primary ? ' (primary)' : ''), String(p.pages),
      fmtOpt(p.rouge_l_f1_mean) + ciText(p.ci, 'rouge_l_f1_mean'), fmtOpt(p.numeric_recall) + ciText(p.ci, 'numeric_recall'),
      `${p.numeric_matched} / ${p.numeric_ref}`, String(p.scored_text), String(p.empty_outputs), String(p.truncated),
      countsText(p.status_counts), countsText(p.finish_reason_counts),
      ...(structured ? [fmtOpt(p.structured ? p.structured.ted_accuracy_mean : null) + ciText(p.ci, 'structured.ted_accuracy_mean'),
        fmtOpt(p.structured ? p.structured.field_f1 : null) + ciText(p.ci, 'structured.field_f1')] : []),
    ]), 'Receipts: one row per phase');
  const phaseRows = $('receipt-phases').tBodies[0].rows;
  rep.phases.forEach((p, i) => {
    phaseRows[i].dataset.phase = p.phase;
    if (p.primary) phaseRows[i].classList.add('primary');
  });

  const num = (key, label, get) => ({
    key, label, className: 'num', value: (pg) => get(pg), cell: (pg) => fmtOpt(get(pg)),
  });
  const columns = [
    {
      key: 'phase', label: 'phase', value: (pg) => pg.phase, cell: (pg) => pg.phase,
      decorate: (td, pg) => {
        td.dataset.page = pg.phase + '/' + pg.sample_id;
        if (pg.flags.length) td.classList.add('flagged');
      },
    },
    {
      key: 'sample', label: 'sample', value: (pg) => pg.sample_id,
      // the page's drill-down: its prediction against its reference
      cell: (pg) => el('button', {
        type: 'button', class: 'link page-open', 'aria-label': `Open ${pg.phase} / ${pg.sample_id}: its prediction against its reference`,
        onclick: () => onOpen(pg.phase, pg.sample_id),
      }, pg.sample_id),
    },
    { key: 'line', label: 'line', className: 'num', value: (pg) => pg.line, cell: (pg) => String(pg.line) },
    { key: 'status', label: 'status', value: (pg) => pg.status, cell: (pg) => pg.status },
    { key: 'finish', label: 'finish', value: (pg) => pg.finish_reason || 'null', cell: (pg) => pg.finish_reason || 'null' },
    {
      key: 'flags', label: 'flags', value: (pg) => pg.flags.join(', '),
      cell: (pg) => el('span', {}, pg.flags.map((f) => el('span', { class: 'flag flag-' + f }, f))),
    },
    num('precision', 'precision', (pg) => pg.precision),
    num('recall', 'recall', (pg) => pg.recall),
    num('f1', 'ROUGE-L F1', (pg) => pg.f1),
    {
      key: 'numeric', label: 'numbers', className: 'num', value: (pg) => pg.numeric_matched,
      cell: (pg) => `${pg.numeric_matched} / ${pg.numeric_ref}`,
    },
    num('numeric_recall', 'numeric recall', (pg) => pg.numeric_recall),
    {
      key: 'missing', label: 'missing numbers', value: (pg) => pg.missing_numbers.length,
      cell: (pg) => el('span', { class: 'missing' }, pg.missing_numbers.map((n) => el('code', {}, n))),
    },
  ];
  if (structured) {
    columns.push(num('ted', 'TED accuracy', (pg) => (pg.structured ? pg.structured.ted_accuracy : null)));
  }
  sortableTable($('receipt-pages'), columns, rep.pages, pageSort, 'Receipts: one row per phase and sample');
}
