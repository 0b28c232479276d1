// client.js — the page's side of the worker: every call is a message
// with an id, answered once, as a Promise. Notices (progress reports, the
// end of the core's warm-up) arrive as messages without an id and go to
// onNotice.

export class WorkerClient {
  constructor(onNotice) {
    this.worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'docscore' });
    this.pending = new Map();
    this.nextId = 1;
    this.onNotice = onNotice;
    this.worker.onmessage = (e) => this.receive(e.data);
    this.worker.onerror = (e) => {
      const err = new Error('the scoring worker failed: ' + (e.message || 'unknown error'));
      for (const { reject } of this.pending.values()) reject(err);
      this.pending.clear();
    };
  }

  receive(msg) {
    if (msg.id === undefined) {
      if (this.onNotice) this.onNotice(msg);
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    if (msg.ok) {
      p.resolve(msg.value);
    } else {
      p.reject(new Error(msg.error));
    }
  }

  // call runs op in the worker with args; transfer lists objects to move.
  call(op, args = {}, transfer = []) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args }, transfer);
    });
  }
}
