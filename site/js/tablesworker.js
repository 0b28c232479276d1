// tablesworker.js — the module Web Worker of the tables view
// (tables.html): it loads tables.wasm (wasm/site/tables) on the first
// call and answers "score" (the bytes of "docscore score tables", as
// text: {gt: [files], runs: file | pred: [files]}) and "detail" (one
// table's grids, tables.TableDetail: {gt, pred, table, pred_table})
// messages, and serves the bundled tables sample (familyworker.js).

import { serveFamily } from './familyworker.js';

serveFamily({
  wasm: { url: new URL('./tables.wasm', import.meta.url), global: 'docscoreTables' },
  sampleURL: new URL('./sample-tables.json', import.meta.url),
  reports: { score: 'scoreTables' },
  values: { detail: 'tableDetail' },
});
