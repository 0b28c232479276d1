// Tests of pipelineview.js's pure functions with Node's test runner
// (make test-site-js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { layoutStages, formatScore, scoresText, rerunAdvice, agreementLines, rateText, NODE } from './pipelineview.js';

test('layoutStages puts each stage one column after its deepest dependency', () => {
  const stages = [
    { stage_id: 'extract' },
    { stage_id: 'total', depends_on: ['extract'] },
    { stage_id: 'tax', depends_on: ['extract'] },
    { stage_id: 'report', depends_on: ['total', 'extract', 'tax'] },
  ];
  const lay = layoutStages(stages);
  assert.deepEqual(lay.nodes.map((n) => [n.id, n.layer, n.row]), [['extract', 0, 0], ['total', 1, 0], ['tax', 1, 1], ['report', 2, 0]]);
  assert.deepEqual(lay.edges, [{ from: 0, to: 1 }, { from: 0, to: 2 }, { from: 1, to: 3 }, { from: 0, to: 3 }, { from: 2, to: 3 }]);
  const { w, h, gapX, gapY, pad } = NODE;
  assert.equal(lay.width, 2 * pad + 3 * w + 2 * gapX);
  assert.equal(lay.height, 2 * pad + 2 * h + gapY);
  // a column of one is centred against the column of two
  assert.equal(lay.nodes[0].y, pad + (h + gapY) / 2);
  assert.equal(lay.nodes[2].y, pad + h + gapY);
  assert.equal(lay.nodes[3].x, pad + 2 * (w + gapX));
});

test('layoutStages draws cycles and unknown dependencies flat', () => {
  const lay = layoutStages([{ stage_id: 'a', depends_on: ['b'] }, { stage_id: 'b', depends_on: ['a', 'ghost'] }, { stage_id: 'c', depends_on: ['c'] }]);
  assert.equal(lay.nodes.length, 3);
  assert.ok(lay.nodes.every((n) => Number.isFinite(n.x) && Number.isFinite(n.y)));
  assert.deepEqual(lay.edges, [{ from: 1, to: 0 }, { from: 0, to: 1 }]);
  assert.deepEqual(layoutStages([]).nodes, []);
});

test('formatScore and scoresText print like the Markdown report', () => {
  assert.equal(formatScore(1), '1');
  assert.equal(formatScore(0.75), '0.75');
  assert.equal(formatScore(0), '0');
  assert.equal(formatScore(2 / 3), '0.6667');
  assert.equal(formatScore(0.00001), '0');
  assert.equal(scoresText({ recall: 0.5, f1: 0.25 }), 'f1 0.25, recall 0.5');
  assert.equal(scoresText({}), '—');
});

test('rerunAdvice follows the failure context', () => {
  assert.match(rerunAdvice({ failure_context: 'current_stage', upstream_verdicts: {} }), /failed on its own input/);
  assert.match(rerunAdvice({ failure_context: 'current_stage', upstream_verdicts: { a: 'pass' } }), /everything upstream of it passed/);
  assert.equal(rerunAdvice({ failure_context: 'upstream', upstream_verdicts: { b: 'fail', a: 'fail', c: 'pass' } }),
    'this stage passed on the input it received; fix the failing upstream stage(s) a, b and rerun them, then this stage.');
  assert.match(rerunAdvice({ failure_context: 'upstream_or_combined', upstream_verdicts: { x: 'fail' } }), /^rerun this stage with corrected input from x\./);
  // A failure further up a chain: the direct dependencies passed, and the advice names them.
  assert.match(rerunAdvice({ failure_context: 'upstream', upstream_verdicts: { b: 'pass', a: 'pass' } }), /upstream stage\(s\) a, b and rerun/);
  assert.match(rerunAdvice({ failure_context: 'indeterminate', verdict: 'uncertain', upstream_verdicts: {} }), /could not be decided/);
  assert.match(rerunAdvice({ failure_context: 'indeterminate', verdict: 'fail', upstream_verdicts: { u: 'uncertain' } }), /upstream verdict \(u\)/);
  assert.equal(rerunAdvice({ failure_context: null, upstream_verdicts: {} }), 'nothing to rerun.');
});

test('agreementLines renders the report\'s agreement member', () => {
  assert.deepEqual(agreementLines(undefined), []);
  assert.equal(rateText({ count: 0, n: 0, rate: null }), '0 of 0');
  const lines = agreementLines({
    panel: { alpha: -0.25, units: 2, pairable_values: 6, judges: ['claude', 'gpt', 'llama'], dissent: { llama: { count: 2, n: 2, rate: 1 }, gpt: { count: 0, n: 2, rate: 0 } } },
    self_consistency: { samples: 3, judges: { 'openai/m': { count: 1, n: 3, rate: 1 / 3 } } },
    order_flips: { count: 1, n: 3, rate: 1 / 3, flips: [{ case_id: 'c', stage_id: 's', judge: 'openai/m', verdict: 'pass', shuffled_verdict: 'fail', order: ['r-b', 'r-a'] }] },
  });
  assert.deepEqual(lines, [
    "Krippendorff's α (nominal) over 3 judge(s) (claude, gpt, llama): -0.25 over 2 unit(s), 6 pairable verdict(s)",
    "dissent of gpt from the panel's decision: 0 of 2 (0)",
    "dissent of llama from the panel's decision: 2 of 2 (1)",
    'self-consistency of openai/m (3 samples): verdict changed in 1 of 3 (0.3333) stage(s)',
    'order sensitivity: 1 of 3 (0.3333) judged stage(s) flipped with the references in a second, seeded order',
    'flip: s (openai/m): pass, then fail in order r-b, r-a',
  ]);
  assert.match(agreementLines({ panel: { alpha: null, reason: 'one judge', units: 0, pairable_values: 0, judges: ['x'], dissent: {} } })[0], /: undefined \(one judge\) over 0 unit/);
  // Judges against people (eval --human-verdicts): the worked example of
  // TestEvalHumanVerdicts, and a judge that used one category only.
  const human = agreementLines({
    human_source: { file: 'people.json', sha256: 'ab', reviewed_by: 'ann@example.org', verdicts: 4 },
    human: {
      'openai/m': { kappa: 0.4, n: 3, skipped: 1, confusion: [{ judge: 'fail', human: 'fail', n: 1 }, { judge: 'pass', human: 'fail', n: 1 }, { judge: 'pass', human: 'pass', n: 1 }] },
      local: { kappa: null, reason: 'no variation', n: 1, skipped: 0, confusion: [{ judge: 'pass', human: 'pass', n: 1 }] },
    },
  });
  assert.deepEqual(human, [
    'judges against people: 4 human verdict(s) by ann@example.org (people.json)',
    "Cohen's κ of local against people: undefined (no variation) over 1 stage(s), 0 skipped",
    "Cohen's κ of openai/m against people: 0.4 over 3 stage(s), 1 skipped",
    'openai/m said pass where the person said fail: 1 stage(s)',
  ]);
  assert.deepEqual(agreementLines({ human_source: { file: 'p.json', sha256: 'ab', reviewed_by: 'x', verdicts: 0 }, human_reason: 'no verdict' }), [
    'judges against people: 0 human verdict(s) by x (p.json)',
    "Cohen's κ against people: not computed: no verdict",
  ]);
});
