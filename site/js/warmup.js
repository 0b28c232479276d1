// warmup.js — what the worker scores while it waits for files, so that
// the first drop runs optimized code on a grown heap (worker.js warmUp).

// SAMPLE_CALLS is how many times the bundled sample is scored first (with
// its rule file's check, as a drop's dropTabular call makes it), and
// LARGER_CALLS how many times a runs file is last that holds
// LARGER_COPIES copies of the sample's (288 image scorings). A
// WebAssembly function runs as baseline code until it has run enough to
// be optimized, and the Go heap starts small. Measured in Chromium on the
// 450-image benchmark corpus: after the sample alone, the first drop's
// call to the core took 0.55–0.73 s against 0.26–0.35 s for the next;
// with the larger runs file after it, 0.28–0.34 s.
export const SAMPLE_CALLS = 12;
export const LARGER_CALLS = 3;
export const LARGER_COPIES = 8;

// warmUpRequests returns the two dropTabular requests of the warm-up from
// the bundled sample's files ({name, role, text}): the sample's own and
// the larger one, whose runs file repeats the sample's lines
// LARGER_COPIES times, each copy under run numbers of its own so that no
// image is scored twice.
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
  return { sample, larger };
}

// warmUpCalls returns the warm-up's dropTabular requests in order:
// SAMPLE_CALLS of the sample, then LARGER_CALLS of the larger one. Each
// names its runs file as no other does (warm-up-N/…): the core keeps the
// files of its last call (api.TabularSession) and would answer the same
// files again from them, without the parsing and scoring a warm-up is
// for.
export function warmUpCalls(files) {
  const { sample, larger } = warmUpRequests(files);
  const list = [...Array(SAMPLE_CALLS).fill(sample), ...Array(LARGER_CALLS).fill(larger)];
  return list.map((r, i) => ({ ...r, runs: { ...r.runs, name: `warm-up-${i + 1}/${r.runs.name}` } }));
}
