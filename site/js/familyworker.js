// familyworker.js — the module Web Worker of a family's view
// (tablesworker.js, textworker.js): it loads the family's WebAssembly on
// the first call and answers {id, op, args} messages with {id, ok, value |
// error}: "sample" (the bundled sample's JSON), each report operation (the
// report's bytes as text) and each value operation (its JSON result).

import { instantiate, callRaw } from './wasmload.js';

// serveFamily serves the worker: wasm is {url, global} (wasmload.js),
// sampleURL the sample's JSON, reports and values map operation names to
// the core's methods.
export function serveFamily({ wasm, sampleURL, reports = {}, values = {} }) {
  let api = null;
  const load = () => (api ||= instantiate(wasm));
  const ops = {
    async sample() {
      const resp = await fetch(sampleURL);
      if (!resp.ok) throw new Error(`cannot load the sample: ${resp.status}`);
      return resp.json();
    },
  };
  for (const [op, method] of Object.entries(reports)) {
    ops[op] = async (req) => new TextDecoder().decode(await callRaw(await load(), method, JSON.stringify(req)));
  }
  for (const [op, method] of Object.entries(values)) {
    ops[op] = async (req) => {
      const env = JSON.parse(await (await load()).call(method, JSON.stringify(req)));
      if (env.error) throw new Error(env.error.message);
      return env.result;
    };
  }
  self.onmessage = async (e) => {
    const { id, op, args } = e.data;
    try {
      if (!ops[op]) throw new Error('unknown operation ' + op);
      self.postMessage({ id, ok: true, value: await ops[op](args) });
    } catch (err) {
      self.postMessage({ id, ok: false, error: String(err && err.message || err) });
    }
  };
}
