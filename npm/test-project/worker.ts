// worker.ts — @docscore/core in a module Web Worker: scores the files the
// page names and answers the Markdown report's bytes as base64. The
// WebAssembly files are found where the package looks by default, next to
// the bundle.

import { scoreTabular } from '@docscore/core';

interface Names {
  gt: string[];
  runs: string;
  rules: string;
}

const file = async (name: string) => ({ name, text: await (await fetch(name)).text() });

self.onmessage = async (ev: MessageEvent<Names>) => {
  try {
    const { gt, runs, rules } = ev.data;
    const md = await scoreTabular({ gt: await Promise.all(gt.map(file)), runs: await file(runs), rules: await file(rules) }, { format: 'md', raw: true });
    let s = '';
    for (const b of md) s += String.fromCharCode(b);
    self.postMessage({ md: btoa(s) });
  } catch (err) {
    self.postMessage({ error: String(err) });
  }
};
