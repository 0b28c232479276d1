// wasmload.js — starts a Go WebAssembly program in this worker (worker.js
// and every worker of the scoring pool, scorer.js) and resolves with the
// API it registers under its global name (wasm/site/internal/host).

import './wasm_exec.js';

export async function instantiate({ url, global }) {
  const go = new Go();
  let instance;
  try {
    ({ instance } = await WebAssembly.instantiateStreaming(fetch(url), go.importObject));
  } catch {
    // A host that serves .wasm under another media type: use the bytes.
    const resp = await fetch(url);
    if (!resp.ok) {
      throw new Error(`cannot load the scorer: ${resp.status} for ${url.pathname}`);
    }
    ({ instance } = await WebAssembly.instantiate(await resp.arrayBuffer(), go.importObject));
  }
  const started = new Promise((resolve) => {
    self[global + 'Ready'] = resolve;
  });
  go.run(instance);
  await started;
  return self[global];
}
