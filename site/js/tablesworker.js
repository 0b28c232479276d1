// tablesworker.js — the module Web Worker of the tables view
// (tables.html): it loads tables.wasm (wasm/site/tables) on the first
// call and answers "score" (the bytes of "docscore score tables", as
// text) and "detail" (one table's grids) messages, {id, op, args}, with
// {id, ok, value | error}. It also serves the bundled tables sample.

import { instantiate, callRaw } from './wasmload.js';

const wasm = { url: new URL('./tables.wasm', import.meta.url), global: 'docscoreTables' };
const sampleURL = new URL('./sample-tables.json', import.meta.url);

let api = null;
async function load() {
  if (!api) api = instantiate(wasm);
  return api;
}

const ops = {
  async sample() {
    const resp = await fetch(sampleURL);
    if (!resp.ok) throw new Error(`cannot load the tables sample: ${resp.status}`);
    return resp.json();
  },
  // score: {gt: [files], runs: file | pred: [files]} → the JSON report's text.
  async score(req) {
    const raw = await callRaw(await load(), 'scoreTables', JSON.stringify(req));
    return new TextDecoder().decode(raw);
  },
  // detail: {gt, pred, table, pred_table} → tables.TableDetail.
  async detail(req) {
    const out = await (await load()).call('tableDetail', JSON.stringify(req));
    const env = JSON.parse(out);
    if (env.error) throw new Error(env.error.message);
    return env.result;
  },
};

self.onmessage = async (e) => {
  const { id, op, args } = e.data;
  try {
    if (!ops[op]) throw new Error('unknown operation ' + op);
    self.postMessage({ id, ok: true, value: await ops[op](args) });
  } catch (err) {
    self.postMessage({ id, ok: false, error: String(err && err.message || err) });
  }
};
