// pipelineview.js — the evaluation harness's results (SPEC C): each
// pipeline drawn as a graph of its stages (inline SVG, laid out here; no
// library), coloured by verdict, with the failure context under the
// verdict; a selected stage's metrics, upstream verdicts, references and
// review items; the review queue; the judges' agreement. The page imports it the first time a
// cases file is evaluated or a harness report is dropped. layoutStages,
// formatScore, rerunAdvice and agreementLines are pure and tested with
// node --test.

import { el, svg, clear, plainTable } from './view.js';
import { fmt4 } from './format.js';

const $ = (id) => document.getElementById(id);

// Node sizes of the graph, in SVG units (CSS pixels at full width).
export const NODE = { w: 196, h: 58, gapX: 64, gapY: 20, pad: 14 };

// layoutStages places a pipeline's stages in columns: a stage's column is
// one more than the deepest stage it depends on (roots first), stages keep
// their order down a column, and each column is centred. It returns
// {nodes: [{id, index, layer, row, x, y}], edges: [{from, to}] (node
// indexes, dependency → dependent), width, height}. Unknown dependencies
// and cycles (which the harness refuses) are drawn flat, never looped on.
export function layoutStages(stages, size = NODE) {
  const index = new Map(stages.map((s, i) => [s.stage_id, i]));
  const layer = stages.map(() => -1);
  const visiting = new Set();
  const depth = (i) => {
    if (layer[i] >= 0) return layer[i];
    if (visiting.has(i)) return 0;
    visiting.add(i);
    let d = 0;
    for (const dep of stages[i].depends_on || []) {
      const j = index.get(dep);
      if (j !== undefined && j !== i) d = Math.max(d, depth(j) + 1);
    }
    visiting.delete(i);
    layer[i] = d;
    return d;
  };
  stages.forEach((_, i) => depth(i));
  const perLayer = [];
  const nodes = stages.map((s, i) => {
    const L = layer[i];
    const row = perLayer[L] || 0;
    perLayer[L] = row + 1;
    return { id: s.stage_id, index: i, layer: L, row };
  });
  const layers = Math.max(1, perLayer.length);
  const rows = Math.max(1, ...perLayer.map((n) => n || 0));
  const { w, h, gapX, gapY, pad } = size;
  for (const n of nodes) {
    const offset = ((rows - perLayer[n.layer]) * (h + gapY)) / 2;
    n.x = pad + n.layer * (w + gapX);
    n.y = pad + offset + n.row * (h + gapY);
  }
  const edges = [];
  stages.forEach((s, i) => {
    for (const dep of s.depends_on || []) {
      const j = index.get(dep);
      if (j !== undefined && j !== i) edges.push({ from: j, to: i });
    }
  });
  return {
    nodes, edges,
    width: 2 * pad + layers * w + (layers - 1) * gapX,
    height: 2 * pad + rows * h + (rows - 1) * gapY,
  };
}

// formatScore prints at most four decimals without trailing zeros, like
// the harness's Markdown report (strconv 'f', 4, then trimmed).
export function formatScore(x) {
  return fmt4(x).replace(/0+$/, '').replace(/\.$/, '');
}

// scoresText renders {name: score} sorted by name: "field_accuracy 0.75".
export function scoresText(m) {
  const keys = Object.keys(m || {}).sort();
  return keys.length ? keys.map((k) => `${k} ${formatScore(m[k])}`).join(', ') : '—';
}

// rerunAdvice says what to rerun for a stage, in the words of the
// harness's Markdown report ("Rerun: …").
export function rerunAdvice(st) {
  let ups = Object.keys(st.upstream_verdicts || {}).filter((k) => st.upstream_verdicts[k] !== 'pass').sort();
  if (ups.length === 0) {
    // upstream_verdicts lists the direct dependencies: when they all
    // passed, the failure or the undecided verdict is further up, through them.
    ups = Object.keys(st.upstream_verdicts || {}).sort();
  }
  const upList = ups.join(', ');
  switch (st.failure_context) {
    case 'current_stage':
      if (Object.keys(st.upstream_verdicts || {}).length === 0) {
        return 'this stage failed on its own input: fix it (its action instruction or model) and rerun it, then the stages that depend on it.';
      }
      return 'this stage failed while everything upstream of it passed: fix this stage (its action instruction or model) and rerun it.';
    case 'upstream':
      return `this stage passed on the input it received; fix the failing upstream stage(s) ${upList} and rerun them, then this stage.`;
    case 'upstream_or_combined':
      return `rerun this stage with corrected input from ${upList}. If it then passes, the upstream error caused this failure; if it still fails, this stage also has a problem of its own.`;
    case 'indeterminate':
      if (st.verdict === 'uncertain' || st.verdict === 'not_applicable') {
        return 'this stage could not be decided: add an exact reference or a judge, or review it by hand, then rerun.';
      }
      return `an upstream verdict (${upList}) is uncertain or not applicable: decide it first, then read this stage again.`;
  }
  return 'nothing to rerun.';
}

// rateText prints an agreement rate like the Markdown report: "1 of 3 (0.3333)".
export function rateText(r) {
  return r.rate === null || r.rate === undefined ? `${r.count} of ${r.n}` : `${r.count} of ${r.n} (${formatScore(r.rate)})`;
}

// agreementLines renders a report's "agreement" member (absent when no
// judge ran) as lines of text, in the Markdown report's words: α over the
// judges (or why it is undefined), each panel judge's dissent, the
// self-consistency of repeated samples, the verdicts that flipped
// with the references in their second order, and each judge's Cohen's κ
// against a person's verdicts (eval --human-verdicts) with the cells
// where they differ.
export function agreementLines(a) {
  if (!a) return [];
  const out = [];
  const p = a.panel;
  if (p) {
    const alpha = p.alpha === null || p.alpha === undefined ? `undefined (${p.reason})` : formatScore(p.alpha);
    out.push(`Krippendorff's α (nominal) over ${p.judges.length} judge(s) (${p.judges.join(', ')}): ${alpha} over ${p.units} unit(s), ${p.pairable_values} pairable verdict(s)`);
    for (const j of Object.keys(p.dissent || {}).sort()) out.push(`dissent of ${j} from the panel's decision: ${rateText(p.dissent[j])}`);
  }
  const sc = a.self_consistency;
  if (sc) {
    for (const j of Object.keys(sc.judges).sort()) out.push(`self-consistency of ${j} (${sc.samples} samples): verdict changed in ${rateText(sc.judges[j])} stage(s)`);
  }
  const of = a.order_flips;
  if (of) {
    out.push(`order sensitivity: ${rateText(of)} judged stage(s) flipped with the references in a second, seeded order`);
    for (const f of of.flips) {
      out.push(`flip: ${f.pipeline_id ? f.pipeline_id + ' / ' : ''}${f.stage_id} (${f.judge}): ${f.verdict}, then ${f.shuffled_verdict} in order ${f.order.join(', ')}`);
    }
  }
  const hs = a.human_source;
  if (hs) {
    out.push(`judges against people: ${hs.verdicts} human verdict(s) by ${hs.reviewed_by} (${hs.file})`);
    if (!a.human) out.push(`Cohen's κ against people: not computed: ${a.human_reason}`);
    for (const j of Object.keys(a.human || {}).sort()) {
      const k = a.human[j];
      const kappa = k.kappa === null || k.kappa === undefined ? `undefined (${k.reason})` : formatScore(k.kappa);
      out.push(`Cohen's κ of ${j} against people: ${kappa} over ${k.n} stage(s), ${k.skipped} skipped`);
      for (const c of k.confusion) {
        if (c.judge !== c.human) out.push(`${j} said ${c.judge} where the person said ${c.human}: ${c.n} stage(s)`);
      }
    }
  }
  return out;
}

// CONTEXTS explains each failure context (SPEC C, the seed's attribution).
const CONTEXTS = {
  current_stage: 'this stage failed while every stage upstream of it passed',
  upstream: 'this stage passed on the input it received, but an upstream stage failed',
  upstream_or_combined: 'this stage and an upstream stage both failed: not to be blamed on this stage alone',
  indeterminate: 'an uncertain or not-applicable verdict, here or upstream, prevents attribution',
};

const VERDICT_TEXT = { pass: 'pass', fail: 'fail', uncertain: 'uncertain', not_applicable: 'not applicable' };

function verdictChip(v) {
  return el('span', { class: 'chip v-' + v }, VERDICT_TEXT[v] || v);
}

// clip shortens a label to n characters.
function clip(s, n) {
  return s.length <= n ? s : s.slice(0, n - 1) + '…';
}

let current = null; // the report shown
let selected = null; // {pipeline, stage} shown in the panel
let markers = 0; // arrowhead ids drawn so far

// groups lists what the report draws: its pipelines, then its cases on
// their own as one group of unconnected stages.
function groups(rep) {
  const out = rep.pipelines.map((p) => ({ id: p.pipeline_id, label: p.pipeline_id, verdict: p.verdict, stages: p.stages }));
  if (rep.cases.length) out.push({ id: '', label: 'Cases on their own', verdict: null, stages: rep.cases });
  return out;
}

// render shows the harness part of a scoring: h is the worker's
// {source, files, problem, error, report}.
export function render(h) {
  const rep = h.report;
  $('harness-results').hidden = !rep;
  clear($('harness-warnings'));
  if (!rep) {
    current = null;
    $('harness-summary').textContent = h.problem || h.error ? 'Not evaluated: see the error above.' : '';
    return;
  }
  current = rep;
  const s = rep.summary;
  const from = h.source === 'report'
    ? 'Read from a harness report (not evaluated again)'
    : `Evaluated in this browser with deterministic metrics (judge: ${rep.judge})` +
      (h.files.length ? `, with ${h.files.map((f) => f.path).join(', ')}` : '');
  $('harness-summary').textContent = `${from}. ` + (rep.source ? `Source: ${rep.source}. ` : '') +
    `${s.pipelines} pipeline(s), ${s.cases} case(s), ${s.stages} stage(s): ${s.pass} pass, ${s.fail} fail, ` +
    `${s.uncertain} uncertain, ${s.not_applicable} not applicable. Failure context: ${s.current_stage} current_stage, ` +
    `${s.upstream} upstream, ${s.upstream_or_combined} upstream_or_combined, ${s.indeterminate} indeterminate.`;
  for (const w of rep.warnings) $('harness-warnings').append(el('li', {}, w));

  const box = clear($('pipelines'));
  for (const g of groups(rep)) box.append(drawGroup(g));

  plainTable($('review-queue'), ['pipeline', 'stage', 'metric', 'verdict', 'reason'],
    rep.review_queue.map((it) => [it.pipeline_id || '(case)', it.stage_id, it.metric, verdictChip(it.verdict), it.reason]),
    'Review queue');
  if (rep.review_queue.length === 0) {
    $('review-queue').tBodies[0].append(el('tr', {}, el('td', { colspan: 5, class: 'hint' }, 'Nothing to review.')));
  }

  const lines = agreementLines(rep.agreement);
  $('harness-agreement').hidden = lines.length === 0;
  const list = clear($('agreement-lines'));
  for (const l of lines) list.append(el('li', {}, l));

  // Keep the selected stage across re-evaluations when it still exists.
  const keep = selected && findStage(selected.pipeline, selected.stage);
  if (keep) showStage(selected.pipeline, selected.stage, false);
  else {
    selected = null;
    $('stage').hidden = true;
  }
}

function findStage(pipeline, stageId) {
  if (!current) return null;
  const g = groups(current).find((x) => x.id === pipeline);
  return g ? g.stages.find((st) => st.stage_id === stageId) || null : null;
}

// drawGroup draws one pipeline as a figure holding its graph.
function drawGroup(g) {
  const lay = layoutStages(g.stages);
  const { w, h } = NODE;
  const title = g.verdict ? `Pipeline ${g.label}: ${VERDICT_TEXT[g.verdict] || g.verdict}` : g.label;
  const fig = el('figure', { class: 'pipeline', dataset: { pipeline: g.id } },
    el('figcaption', {}, g.verdict ? verdictChip(g.verdict) : null, ' ', el('strong', {}, g.label),
      ` · ${g.stages.length} stage${g.stages.length === 1 ? '' : 's'}`));
  const markerId = 'arrow-' + ++markers;
  const graph = svg('svg', {
    viewBox: `0 0 ${lay.width} ${lay.height}`, width: lay.width, height: lay.height, class: 'graph',
    role: 'group', 'aria-label': title,
  });
  graph.append(svg('defs', {}, svg('marker', {
    id: markerId, viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse',
  }, svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }))));
  for (const e of lay.edges) {
    const a = lay.nodes[e.from];
    const b = lay.nodes[e.to];
    const x1 = a.x + w;
    const y1 = a.y + h / 2;
    const x2 = b.x - 2;
    const y2 = b.y + h / 2;
    const mid = (x1 + x2) / 2;
    graph.append(svg('path', {
      d: `M${x1},${y1} C${mid},${y1} ${mid},${y2} ${x2},${y2}`, class: 'edge',
      'marker-end': `url(#${markerId})`, dataset: { from: a.id, to: b.id },
    }));
  }
  for (const n of lay.nodes) {
    const st = g.stages[n.index];
    const ctx = st.failure_context;
    const label = `Stage ${st.stage_id}: ${VERDICT_TEXT[st.verdict] || st.verdict}` +
      (ctx ? `, failure context ${ctx}` : '') + `. ${scoresText(st.scores)}. Select for details.`;
    const node = svg('g', {
      class: 'stage v-' + st.verdict, tabindex: '0', role: 'button', 'aria-label': label,
      transform: `translate(${n.x},${n.y})`,
      dataset: { pipeline: g.id, stage: st.stage_id, verdict: st.verdict, context: ctx || '' },
      onclick: () => showStage(g.id, st.stage_id, true),
      onkeydown: (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          showStage(g.id, st.stage_id, true);
        }
      },
    });
    node.append(svg('title', {}, label));
    node.append(svg('rect', { width: w, height: h, rx: 8, class: 'node' }));
    node.append(svg('text', { x: 12, y: 22, class: 'node-id' }, clip(st.stage_id, 24)));
    node.append(svg('text', { x: 12, y: 42, class: 'node-verdict' },
      clip((VERDICT_TEXT[st.verdict] || st.verdict) + (ctx ? ' · ' + ctx : ''), 30)));
    graph.append(node);
  }
  fig.append(el('div', { class: 'graph-scroll' }, graph));
  return fig;
}

// showStage fills the stage panel.
function showStage(pipeline, stageId, focus) {
  const st = findStage(pipeline, stageId);
  if (!st) return;
  selected = { pipeline, stage: stageId };
  for (const n of document.querySelectorAll('#pipelines g.stage')) {
    n.classList.toggle('selected', n.dataset.pipeline === pipeline && n.dataset.stage === stageId);
  }
  const box = $('stage');
  box.hidden = false;
  box.dataset.pipeline = pipeline;
  box.dataset.stage = stageId;
  $('stage-h').textContent = `${pipeline ? pipeline + ' / ' : ''}${stageId}: ${VERDICT_TEXT[st.verdict] || st.verdict}` +
    (st.failure_context ? ` (${st.failure_context})` : '');
  const body = clear($('stage-body'));

  const ups = Object.keys(st.upstream_verdicts || {}).sort();
  const facts = el('dl', { class: 'facts' },
    el('dt', {}, 'verdict'), el('dd', { class: 'stage-verdict' }, verdictChip(st.verdict)),
    el('dt', {}, 'failure context'), el('dd', { class: 'stage-context' },
      st.failure_context ? [el('code', {}, st.failure_context), ': ' + CONTEXTS[st.failure_context]] : 'none: nothing failed here or upstream'),
    el('dt', {}, 'upstream verdicts'), el('dd', { class: 'stage-upstream' }, ups.length === 0 ? 'none (no stage upstream)'
      : ups.map((u) => el('button', {
        type: 'button', class: 'upstream', dataset: { stage: u, verdict: st.upstream_verdicts[u] },
        'aria-label': `Upstream stage ${u}: ${st.upstream_verdicts[u]}; show it`,
        onclick: () => showStage(pipeline, u, true),
      }, u + ' ', verdictChip(st.upstream_verdicts[u])))),
    el('dt', {}, 'rerun'), el('dd', { class: 'stage-rerun' }, rerunAdvice(st)),
    el('dt', {}, 'case'), el('dd', {}, st.case_id),
    el('dt', {}, 'operation'), el('dd', {}, st.operation || '—'),
    el('dt', {}, 'depends on'), el('dd', {}, (st.depends_on || []).join(', ') || '—'),
    el('dt', {}, 'metrics from'), el('dd', {}, st.metric_selection),
    el('dt', {}, 'scores'), el('dd', { class: 'stage-scores' }, scoresText(st.scores)),
    st.producer ? [el('dt', {}, 'producer'), el('dd', {}, [st.producer.provider, st.producer.model].filter(Boolean).join(' / '))] : null,
    el('dt', {}, 'fingerprint'), el('dd', {}, el('code', { title: st.fingerprint }, st.fingerprint.slice(0, 16)),
      st.from_checkpoint ? ' (from a checkpoint)' : ''));
  body.append(facts);

  body.append(el('h4', {}, `Metrics (${st.metrics.length})`));
  if (st.metrics.length === 0) {
    body.append(el('p', { class: 'hint' }, 'No metric applies to this stage.'));
  } else {
    const t = el('table', { class: 'data metrics' });
    plainTable(t, ['metric', 'verdict', 'scores', 'reason'],
      st.metrics.map((m) => [m.metric, verdictChip(m.verdict), scoresText(m.scores), metricReason(m)]), 'Metrics of the stage');
    st.metrics.forEach((m, i) => {
      t.tBodies[0].rows[i].dataset.metric = m.metric;
      t.tBodies[0].rows[i].dataset.verdict = m.verdict;
    });
    body.append(el('div', { class: 'scroll' }, t));
  }

  if (st.references.length) {
    body.append(el('h4', {}, `References (${st.references.length})`));
    const t = el('table', { class: 'data' });
    plainTable(t, ['artifact', 'authority', 'kind', 'media type', 'comparison', 'sha256'],
      st.references.map((r) => [r.artifact_id, r.authority, r.kind, r.media_type, r.comparison_mode,
        el('code', { title: r.sha256 }, String(r.sha256 || '').slice(0, 16))]), 'References of the stage');
    body.append(el('div', { class: 'scroll' }, t));
  }

  const review = current.review_queue.filter((it) => (it.pipeline_id || '') === pipeline && it.stage_id === stageId);
  body.append(el('h4', {}, `Review (${review.length})`));
  body.append(review.length === 0 ? el('p', { class: 'hint' }, 'Nothing to review for this stage.')
    : el('ul', { class: 'review' }, review.map((it) => el('li', {}, el('code', {}, it.metric), ': ', verdictChip(it.verdict), ' ', it.reason))));
  if (st.warnings.length) {
    body.append(el('h4', {}, 'Warnings'), el('ul', { class: 'warnings' }, st.warnings.map((w) => el('li', {}, w))));
  }
  if (focus) box.focus();
}

// metricReason is a metric's reason with its mismatched fields and, folded,
// its details.
function metricReason(m) {
  const out = el('div', {}, m.reason || '');
  const mism = [];
  const list = (v) => (Array.isArray(v) ? v : []);
  for (const r of list(m.details && m.details.references)) {
    for (const x of list(r && r.mismatches)) {
      mism.push(`${x.path}: expected ${JSON.stringify(x.expected)}, got ${x.missing ? 'missing' : JSON.stringify(x.actual)} (${r.artifact_id})`);
    }
  }
  if (mism.length) out.append(el('ul', { class: 'mismatches' }, mism.map((t) => el('li', {}, el('code', {}, t)))));
  if (m.details) {
    out.append(el('details', {}, el('summary', {}, 'details'), el('pre', {}, JSON.stringify(m.details, null, 2))));
  }
  if (m.requires_review) out.append(el('p', { class: 'hint' }, 'Needs review by a person.'));
  return out;
}
