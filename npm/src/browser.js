// browser.js — @docscore/core in browsers and Web Workers: the WebAssembly
// files are fetched from beside this module. Bundlers that follow
// new URL('./file', import.meta.url) (webpack 5, Vite, Rollup with its
// plugin) copy them; with esbuild, copy them next to the bundle, or import
// their URLs from "@docscore/core/wasm-urls" (--loader:.wasm=file) and
// hand them to locateWasm.

import { setDefaults } from './core.js';

setDefaults({
  sources: {
    'docscore.wasm': () => new URL('./docscore.wasm', import.meta.url),
    'receipts.wasm': () => new URL('./receipts.wasm', import.meta.url),
    'tables.wasm': () => new URL('./tables.wasm', import.meta.url),
    'text.wasm': () => new URL('./text.wasm', import.meta.url),
    'harness.wasm': () => new URL('./harness.wasm', import.meta.url),
  },
  read: (url) => fetch(url),
});

export * from './operations.js';
export { version, locateWasm, DocscoreError } from './core.js';
