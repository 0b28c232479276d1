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

// callRaw runs a method of a started program's API with bytes beside the
// request and returns its raw answer (a Uint8Array), or null for an
// envelope without error; an error envelope is thrown, with the core's
// error as the exception's detail.
export async function callRaw(api, method, json, parts, bytes) {
  const out = await api.call(method, json, parts, bytes);
  if (typeof out !== 'string') return out.raw;
  const env = JSON.parse(out);
  if (env.error) {
    const err = new Error(env.error.message);
    err.detail = env.error;
    throw err;
  }
  return null;
}
