// wasm-urls.js — the URLs of the WebAssembly files, for a bundler whose
// file loader turns an import of a file into its URL (esbuild with
// --loader:.wasm=file): locateWasm(wasmURLs). The files are only fetched
// when a call needs them.

import docscore from './docscore.wasm';
import receipts from './receipts.wasm';
import tables from './tables.wasm';
import text from './text.wasm';
import harness from './harness.wasm';

const url = (path) => new URL(path, import.meta.url);

export default {
  'docscore.wasm': url(docscore),
  'receipts.wasm': url(receipts),
  'tables.wasm': url(tables),
  'text.wasm': url(text),
  'harness.wasm': url(harness),
};
