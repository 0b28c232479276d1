// warmup.js — what the worker scores while it waits for files, so that
// the first drop runs optimized code on a grown heap (worker.js warmUp).

// CHECK_CALLS is how many times the sample's rule file is checked first
// (checkRules, which every drop with a rule file calls before scoring; its
// code is not all on the scoring path). SAMPLE_CALLS is how many times
// the bundled sample is scored next, and LARGER_CALLS how many times a
// runs file is last that holds LARGER_COPIES copies of the sample's (288
// image scorings). A
// WebAssembly function runs as baseline code until it has run enough to
// be optimized, and the Go heap starts small. Measured in Chromium on the
// 450-image benchmark corpus: after the sample alone, the first drop's
// call to the core took 0.55–0.73 s against 0.26–0.35 s for the next;
// with the larger runs file after it, 0.28–0.34 s.
export const CHECK_CALLS = 3;
export const SAMPLE_CALLS = 12;
export const LARGER_CALLS = 3;
export const LARGER_COPIES = 8;

// warmUpRequests returns the requests of the warm-up from the bundled
// sample's files ({name, role, text}): check, the checkRules request of
// the sample's rule file and ground truth; and the two summarizeTabular
// requests, the sample's own and the larger one, whose runs file repeats
// the sample's lines LARGER_COPIES times, each copy under run numbers of
// its own so that no image is scored twice.
export function warmUpRequests(files) {
  const ref = (f) => ({ name: f.name, text: f.text });
  const runs = files.find((f) => f.role === 'runs');
  const sample = {
    gt: files.filter((f) => f.role === 'gt').map(ref),
    runs: ref(runs),
    rules: ref(files.find((f) => f.role === 'rules')),
  };
  const lines = runs.text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const copies = [];
  for (let k = 1; k <= LARGER_COPIES; k++) {
    for (const line of lines) copies.push(JSON.stringify({ ...line, run: `${line.run}-${k}` }));
  }
  const larger = { ...sample, runs: { name: runs.name, text: copies.join('\n') + '\n' } };
  return { check: { rules: sample.rules, gt: sample.gt }, sample, larger };
}
