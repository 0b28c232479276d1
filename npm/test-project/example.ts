// example.ts — @docscore/core on a web page, bundled by esbuild: the
// tabular sample scored on the page's main thread and in a Web Worker
// (worker.ts), a comparison and an error. TestInstalledPackage type-checks
// it with tsc --noEmit, bundles it and loads it in Chromium, which reads
// what the page writes into <pre id="out"> (the reports as base64).
//
// The page finds the WebAssembly files through the bundler: esbuild's
// file loader (--loader:.wasm=file) gives their URLs. The worker uses the
// package's default instead, the files copied next to the bundle.

import { scoreTabular, compare, locateWasm, DocscoreError, type CompareOptions, type InputFile, type TabularReport } from '@docscore/core';

// The options generated from the registry type-check: compare takes preview.
export const previewOptions: CompareOptions = { preview: true, effect: 0.01, seed: 7n };
import wasmURLs from '@docscore/core/wasm-urls';

locateWasm(wasmURLs);

const file = async (name: string): Promise<InputFile> => ({ name, text: await (await fetch(name)).text() });

const gtNames = ['gt_page_27.csv', 'gt_page_28.csv', 'gt_page_29.csv'].map((n) => `sample/tabular/gt/${n}`);

function base64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

async function main(): Promise<Record<string, unknown>> {
  const input = {
    gt: await Promise.all(gtNames.map(file)),
    runs: await file('sample/tabular/runs.jsonl'),
    rules: await file('sample/tabular/EQUIVALENCES.md'),
  };
  const report: TabularReport = await scoreTabular(input);
  const md: string = await scoreTabular(input, { format: 'md' });
  const json: Uint8Array = await scoreTabular(input, { raw: true });
  const within: string = await compare({ base: { name: 'tabular.json', text: json } }, { within: true, format: 'md' });
  let error: { code: string; file: string | null; line: number | null } | null = null;
  try {
    await scoreTabular({ ...input, runs: { name: 'runs.jsonl', text: '{"image": \n' } });
  } catch (e) {
    if (e instanceof DocscoreError) error = { code: e.code, file: e.file, line: e.line };
  }
  const worker = new Worker('./worker.js', { type: 'module' });
  const fromWorker = await new Promise<{ md?: string; error?: string }>((resolve) => {
    worker.onmessage = (ev: MessageEvent<{ md?: string; error?: string }>) => resolve(ev.data);
    worker.onerror = (ev: ErrorEvent) => resolve({ error: ev.message });
    worker.postMessage({ gt: gtNames, runs: 'sample/tabular/runs.jsonl', rules: 'sample/tabular/EQUIVALENCES.md' });
  });
  return {
    kind: report.kind,
    json: base64(json),
    md: base64(new TextEncoder().encode(md)),
    compare: base64(new TextEncoder().encode(within)),
    error,
    worker: fromWorker,
  };
}

const out = document.getElementById('out') as HTMLPreElement;
main().then(
  (result) => {
    out.textContent = JSON.stringify(result);
    document.body.dataset.done = 'true';
  },
  (err: unknown) => {
    out.textContent = JSON.stringify({ failed: String(err) });
    document.body.dataset.done = 'true';
  },
);
