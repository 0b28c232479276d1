// textworker.js — the module Web Worker of the page-text view
// (text.html): it loads text.wasm (wasm/site/text) on the first call and
// answers "score" (textapi.TextRequest → the bytes of "docscore score
// text", as text) and "page" (textapi.TextPageRequest → one page's
// aligned view, pagetext.PageView) messages, and serves the bundled
// page-text sample (familyworker.js).

import { serveFamily } from './familyworker.js';

serveFamily({
  wasm: { url: new URL('./text.wasm', import.meta.url), global: 'docscoreText' },
  sampleURL: new URL('./sample-text.json', import.meta.url),
  reports: { score: 'scoreText' },
  values: { page: 'textPage' },
});
