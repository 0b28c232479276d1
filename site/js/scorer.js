// scorer.js — a worker of the scoring pool (pool.js): its own Go
// instance of docscore.wasm, which scores the parts of a large runs file
// it is sent (bridge.StreamMethods' streamScore) and sends back their
// results, encoded, for the merger in worker.js. It sees only the parts
// it scores.

import { instantiate, callRaw } from './wasmload.js';
import { splitTexts } from './parts.js';

const core = instantiate({ url: new URL('./docscore.wasm', import.meta.url), global: 'docscore' });

// answer returns a call's raw bytes, or throws its error.
async function answer(method, json, parts, bytes) {
  return callRaw(await core, method, json, parts, bytes);
}

self.onmessage = async (e) => {
  const { id, op } = e.data;
  try {
    if (op === 'start') {
      const { json, parts } = splitTexts({ ...e.data.request, summary: e.data.summary, role: 'scorer' });
      await answer('streamStart', json, parts);
      self.postMessage({ id, ok: true });
    } else if (op === 'score') {
      const raw = await answer('streamScore', JSON.stringify({ first: e.data.first }), [], e.data.bytes);
      self.postMessage({ id, ok: true, value: raw }, [raw.buffer]);
    } else {
      throw new Error('unknown operation ' + op);
    }
  } catch (err) {
    self.postMessage({ id, ok: false, error: String((err && err.message) || err), detail: err.detail || null });
  }
};
