// pool.js — the pool of scoring workers of a streamed scoring: each a
// Web Worker with its own Go instance (scorer.js), as many as the
// machine has cores (navigator.hardwareConcurrency), at most 8. A part
// goes to the worker with the fewest parts in hand; the answers come
// back as promises, which the merger (worker.js) awaits in input order.
// terminate stops every worker at once (Cancel): the next scoring starts
// new ones.

export const MAX_WORKERS = 8;

export function poolSize(cores) {
  return Math.max(1, Math.min(MAX_WORKERS, cores || 1));
}

export class Pool {
  constructor(size) {
    this.size = size;
    this.workers = [];
    this.nextId = 1;
  }

  ensure() {
    while (this.workers.length < this.size) {
      const w = new Worker(new URL('./scorer.js', import.meta.url), { type: 'module', name: 'docscore-scorer-' + this.workers.length });
      const entry = { w, pending: new Map(), load: 0 };
      w.onmessage = (e) => {
        const p = entry.pending.get(e.data.id);
        if (!p) return;
        entry.pending.delete(e.data.id);
        entry.load--;
        if (e.data.ok) {
          p.resolve(e.data.value);
        } else {
          const err = new Error(e.data.error);
          err.detail = e.data.detail;
          p.reject(err);
        }
      };
      w.onerror = (e) => {
        const err = new Error('a scoring worker failed: ' + (e.message || 'unknown error'));
        for (const p of entry.pending.values()) p.reject(err);
        entry.pending.clear();
      };
      this.workers.push(entry);
    }
  }

  send(entry, msg, transfer = []) {
    const id = this.nextId++;
    entry.load++;
    const p = new Promise((resolve, reject) => {
      entry.pending.set(id, { resolve, reject });
      entry.w.postMessage({ id, ...msg }, transfer);
    });
    // A part's answer may be rejected (Cancel) before the merger awaits
    // it, or after the merger stopped at an earlier one: marked handled,
    // so that Cancel leaves no uncaught rejection; whoever awaits it
    // still gets the error.
    p.catch(() => {});
    return p;
  }

  // start readies every worker for a scoring of request.
  start(request, summary) {
    this.ensure();
    return Promise.all(this.workers.map((e) => this.send(e, { op: 'start', request, summary })));
  }

  // score sends a part (its bytes are transferred) and resolves with its
  // encoded results.
  score(first, bytes) {
    let best = this.workers[0];
    for (const e of this.workers) if (e.load < best.load) best = e;
    return this.send(best, { op: 'score', first, bytes }, [bytes.buffer]);
  }

  // terminate stops the workers; what they had in hand is rejected.
  terminate(reason = 'cancelled') {
    for (const e of this.workers) {
      e.w.terminate();
      for (const p of e.pending.values()) p.reject(new Error(reason));
    }
    this.workers = [];
  }
}
