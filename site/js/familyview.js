// familyview.js — what the views of a scoring family of their own
// (tables.html, text.html) share: calling their module worker by promise
// ({id, op, args} answered by {id, ok, value | error}, familyworker.js)
// and the counters the end-to-end tests wait on.

// workerCall returns call(op, args), a promise of the worker's answer.
export function workerCall(worker) {
  const pending = new Map();
  let nextId = 1;
  worker.onmessage = (e) => {
    const p = pending.get(e.data.id);
    if (!p) return;
    pending.delete(e.data.id);
    if (e.data.ok) p.resolve(e.data.value);
    else p.reject(new Error(e.data.error));
  };
  return (op, args) => {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, op, args });
    });
  };
}

// bump adds one to the counter document.body.dataset[key].
export function bump(key) {
  document.body.dataset[key] = String(Number(document.body.dataset[key] || 0) + 1);
}
