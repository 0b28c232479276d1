// compareview.js — the comparison view (SPEC F.6): for each comparison its
// sides, the units paired and those only one side has, one row per
// statistic (A, B, delta, interval, p, Holm p, significant, better) and
// the pages whose F1 rose or fell, each opening its drill-down. The page
// imports it on the first comparison; it only renders the report the
// worker sent (docscore.wasm's), numbers formatted as the Markdown report.

import { el, clear } from './view.js';
import {
  opt4, signed4, intervalText, statList, movementText, verdict, sideLabel, lowerIsBetter, unitNoun,
} from './comparison.js';

export { pairSpec } from './comparison.js';

const $ = (id) => document.getElementById(id);

// render shows res, the worker's answer {report, name, drill}: handlers
// are onImage(line, compared) for a tabular image and
// onReceiptPage(phase, sample) for a receipt page.
export function render(res, handlers) {
  const rep = res.report;
  const n = rep.comparisons.length;
  const within = rep.comparisons.every((c) => !c.a.id.startsWith('base:'));
  $('compare-summary').textContent = `${n} comparison${n === 1 ? '' : 's'} of ${rep.family} scores` +
    (within ? '' : ` (base ${res.name[0]}, new ${res.name[1]})`) +
    `; ${100 * rep.level}% intervals from ${rep.replicates} bootstrap replicates; p from ${rep.permutations} ` +
    `randomization rounds, Holm-adjusted per statistic; significant at α = ${rep.alpha}; seed ${rep.seed}.`;
  const body = clear($('compare-body'));
  rep.comparisons.forEach((c, i) => {
    body.append(comparison(rep, c, i, within ? ['A', 'B'] : ['base', 'new'], res.drill[i], handlers));
  });
  renderPlan(res.plan);
}

// renderPlan shows the plan of a comparison within one report (SPEC
// F.7, the bytes of docscore plan): for each cell pair and statistic the
// paired units, those that differ, the p-value floor, whether it can be
// significant, the MDE and, with an effect, the units needed and how
// many more.
function renderPlan(plan) {
  const box = $('compare-plan');
  if (!box) return;
  box.hidden = !plan;
  if (!plan) return;
  const unit = unitNoun(plan.family, 2);
  $('compare-plan-summary').textContent = `At α = ${plan.alpha} and ${100 * plan.power}% power` +
    (plan.effect ? `, for a difference of ${plan.effect}` : '') +
    `. A test on n differing ${unit} cannot give p below 2^(1−n).`;
  const table = el('table', { class: 'data plan' });
  table.append(el('caption', { class: 'sr' }, 'Minimum detectable effect and pages needed, per cell pair and statistic'));
  const head = ['cells', 'statistic', unit, 'differ', 'min p', 'can be significant', 'mde'];
  if (plan.effect) head.push('needed', 'more');
  table.append(el('thead', {}, el('tr', {}, head.map((h, k) => el('th', { scope: 'col', class: k > 1 && k !== 5 ? 'num' : null }, h)))));
  const tb = el('tbody');
  for (const p of plan.plans) {
    for (const { path, s } of statList(p.stats)) {
      if (typeof s.min_p !== 'number') continue; // a group statList does not open
      const row = [
        el('th', { scope: 'row' }, `${sideLabel(p.a)} → ${sideLabel(p.b)}`),
        el('td', {}, path),
        el('td', { class: 'num' }, String(p.units_paired)),
        el('td', { class: 'num' }, String(s.units_differ)),
        el('td', { class: 'num' }, String(Number(s.min_p.toPrecision(4)))),
        el('td', {}, s.can_be_significant ? 'yes' : 'no'),
        el('td', { class: 'num' }, opt4(s.mde)),
      ];
      if (plan.effect) {
        row.push(el('td', { class: 'num' }, s.units_needed === null ? '–' : String(s.units_needed)));
        row.push(el('td', { class: 'num' }, s.units_more === null ? '–' : String(s.units_more)));
      }
      tb.append(el('tr', { dataset: { stat: path } }, row));
    }
  }
  table.append(tb);
  clear($('compare-plan-body')).append(table);
}

function comparison(rep, c, i, [nameA, nameB], drill, handlers) {
  const a = sideLabel(c.a);
  const b = sideLabel(c.b);
  const title = a === b ? `${a}: ${nameA} → ${nameB}` : `${nameA} ${a} → ${nameB} ${b}`;
  const hid = `compare-c${i}-h`;
  const sec = el('section', { class: 'comparison', 'aria-labelledby': hid, dataset: { a: c.a.id, b: c.b.id } });
  sec.append(el('h3', { id: hid }, title));
  const list = (ids) => (ids.length ? ids.join(', ') : 'none');
  sec.append(el('p', { class: 'units' },
    `Paired: ${c.units_paired} ${unitNoun(rep.family, c.units_paired)}. Only in ${nameA}: ${list(c.units_only_a)}. Only in ${nameB}: ${list(c.units_only_b)}.`));
  if (c.few_units) {
    sec.append(el('p', { class: 'hint few-units' },
      `Fewer than 10 paired ${unitNoun(rep.family, 2)}: a percentile interval is unreliable here (it can exclude zero while the test cannot reject).`));
  }

  const table = el('table', { class: 'data compare-stats' });
  table.append(el('caption', { class: 'sr' }, `${title}: each statistic`));
  const head = ['statistic', nameA, nameB, 'delta', 'interval', 'p', 'Holm p', 'min p', 'mde', 'significant', 'better'];
  table.append(el('thead', {}, el('tr', {}, head.map((h, k) => el('th', { scope: 'col', class: k > 0 && k < 9 ? 'num' : null }, h)))));
  const cannot = [];
  const tb = el('tbody');
  for (const { path, s } of statList(c.stats)) {
    const delta = el('td', { class: 'num' }, s.delta === null ? '–' : signed4(s.delta));
    if (s.significant) {
      // significant: coloured as B compares with A
      delta.classList.add('moved', s.better === 'b' ? 'better' : 'worse');
    }
    const better = s.better === 'a' ? nameA : s.better === 'b' ? nameB : '–';
    const tr = el('tr', { dataset: { stat: path }, class: s.significant ? 'significant' : null },
      el('th', { scope: 'row' }, path + (lowerIsBetter(path) ? ' (lower is better)' : '')),
      el('td', { class: 'num' }, opt4(s.a)),
      el('td', { class: 'num' }, opt4(s.b)),
      delta,
      el('td', { class: 'num' }, intervalText(s.ci) || '–'),
      el('td', { class: 'num' }, opt4(s.p)),
      el('td', { class: 'num' }, opt4(s.p_holm)),
      el('td', { class: 'num' }, s.min_p === undefined ? '–' : String(Number(s.min_p.toPrecision(4)))),
      el('td', { class: 'num' }, opt4(s.mde)),
      el('td', {}, s.p === null ? '–' : s.significant ? 'yes' : s.can_be_significant === false ? 'cannot be' : 'no', s.p === null ? null : el('span', { class: 'sr' }, ` (${verdict(s, nameB)})`)),
      el('td', {}, better));
    tb.append(tr);
    if (s.can_be_significant === false && s.delta !== null) cannot.push(path);
  }
  table.append(tb);
  sec.append(el('div', { class: 'scroll' }, table));
  if (cannot.length) {
    sec.append(el('p', { class: 'hint cannot' },
      `Cannot be significant however large the difference (SPEC F.7: p has a floor of 2^(1−n), n the paired ${unitNoun(rep.family, 2)} that differ, and Holm multiplies it by the comparisons): ${cannot.join(', ')}. See docscore plan for the ${unitNoun(rep.family, 2)} needed.`));
  }

  const m = c.movement;
  sec.append(el('p', { class: 'movement' }, movementText(rep.family, m) + '.'));
  if (m.rose.length + m.fell.length > 0) {
    const det = el('details', { class: 'movement-pages' });
    det.append(el('summary', {}, `The ${unitNoun(rep.family, 2)} that rose or fell`));
    for (const [word, ids] of [['Rose', m.rose], ['Fell', m.fell]]) {
      if (ids.length === 0) continue;
      det.append(el('p', { class: 'hint' }, `${word} (largest change first):`));
      det.append(el('ul', { class: 'page-list', dataset: { moved: word.toLowerCase() } },
        ids.map((id) => el('li', {}, pageItem(rep, c, id, [nameA, nameB], drill, handlers)))));
    }
    sec.append(det);
  }
  return sec;
}

// pageItem is a unit that rose or fell: a button opening its drill-down
// where the page can open it (tabular: the first image of B's cell on
// that page, then each image of either side; receipts: B's page row),
// else its id.
function pageItem(rep, c, id, [nameA, nameB], drill, handlers) {
  if (rep.family === 'receipts') {
    if (c.a.id.startsWith('base:')) return el('code', {}, id);
    return el('button', {
      type: 'button', class: 'page-link', dataset: { page: id },
      'aria-label': `Open sample ${id} of phase ${c.b.phase}`,
      onclick: () => handlers.onReceiptPage(c.b.phase, id),
    }, id);
  }
  const sides = ['b', 'a'].filter((k) => drill && drill[k] && drill[k].pages[id]);
  if (sides.length === 0) return el('code', {}, id);
  const first = drill[sides[0]];
  const rows = first.pages[id];
  const open = rows.find((r) => r.status === 'ok') || rows[0];
  const out = [el('button', {
    type: 'button', class: 'page-link', dataset: { page: id },
    'aria-label': `Open page ${id}: ${sides[0] === 'b' ? nameB : nameA} ${sideLabel(c[sides[0]])}, line ${open.line}`,
    onclick: () => handlers.onImage(open.line, first.runs === 'compared'),
  }, 'page ' + id)];
  const images = [];
  for (const k of ['a', 'b']) {
    const d = drill && drill[k];
    if (!d || !d.pages[id]) continue;
    for (const r of d.pages[id]) {
      const who = k === 'a' ? nameA : nameB;
      images.push(el('button', {
        type: 'button', class: 'image-link', dataset: { line: r.line, side: k },
        'aria-label': `Open the image at line ${r.line} (${who} ${sideLabel(c[k])}, run ${r.run}, page ${id})`,
        onclick: () => handlers.onImage(r.line, d.runs === 'compared'),
      }, `${who} run ${r.run}: ${r.f1 === null ? 'failed' : 'F1 ' + opt4(r.f1)}`));
    }
  }
  if (images.length) out.push(el('span', { class: 'images' }, images));
  return out;
}
