// node.js — @docscore/core in Node.js (20 or later): the WebAssembly
// files are read from beside this module.

import { readFile } from 'node:fs/promises';
import { setDefaults } from './core.js';

setDefaults({
  sources: {
    'docscore.wasm': () => new URL('./docscore.wasm', import.meta.url),
    'receipts.wasm': () => new URL('./receipts.wasm', import.meta.url),
    'tables.wasm': () => new URL('./tables.wasm', import.meta.url),
    'text.wasm': () => new URL('./text.wasm', import.meta.url),
    'harness.wasm': () => new URL('./harness.wasm', import.meta.url),
  },
  read: (url) => (url.protocol === 'file:' ? readFile(url) : fetch(url)),
});

export * from './operations.js';
export { version, locateWasm, DocscoreError } from './core.js';
