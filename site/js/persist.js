// persist.js — the last drop kept in the browser's own storage
// (IndexedDB, on the page's origin), so that a reload restores it:
// the dropped files (their texts, or bytes for a binary file, and roles)
// and the page's settings. The results are scored again from them: the
// scoring is deterministic, so the view is the same, and the drill-down,
// previews and downloads, which need the inputs, work as before. Nothing
// leaves the browser. The worker keeps it (it holds the files).
//
// The pure parts (packing and checking a kept drop) are tested with node
// --test; the IndexedDB calls run in the browser.

const DB_NAME = 'docscore';
const STORE = 'kept';
const VERSION = 1; // the kept record's layout

// KEEP_MAX is the size from which a dropped file is not kept: the
// browser's storage is not a place for large runs files (a file scored as
// a stream, 32 MiB and up by default, is never kept). The page names the
// files not kept, before a reload and after it.
export const KEEP_MAX = 8 << 20;

// splitKept splits dropped files into those kept and those not ({name,
// size}: of KEEP_MAX bytes or more, or streamed).
export function splitKept(files) {
  const kept = [];
  const left = [];
  for (const f of files) {
    if (f.streamed || f.size >= KEEP_MAX) left.push({ name: f.name, size: f.size });
    else kept.push(f);
  }
  return { kept, left };
}

// unpackLeft checks a kept list of the files not kept.
export function unpackLeft(v) {
  if (!Array.isArray(v)) return [];
  return v.filter((f) => f && typeof f.name === 'string' && Number.isFinite(f.size)).map((f) => ({ name: f.name, size: f.size }));
}

// packFiles keeps what restores a dropped file: its name, size, role (and
// whether it was detected), note, and content.
export function packFiles(files) {
  return files.map((f) => ({
    name: f.name, size: f.size, role: f.role, auto: !!f.auto, note: f.note || '',
    detected: f.detected || null, error: f.error || '', text: f.text || '', bytes: f.bytes || null,
  }));
}

// unpackFiles checks a kept file list and returns the files to add back;
// what is not a kept file is left out (another version's record, a
// damaged one).
export function unpackFiles(list, roles) {
  if (!Array.isArray(list)) return [];
  return list.filter((f) => f && typeof f.name === 'string' && f.name !== '' && typeof f.text === 'string' &&
    (f.bytes === null || f.bytes instanceof Uint8Array) && typeof f.role === 'string' && f.role in roles)
    .map((f) => ({
      name: f.name, size: Number.isFinite(f.size) ? f.size : f.text.length, role: f.role, auto: !!f.auto,
      note: typeof f.note === 'string' ? f.note : '', detected: f.detected && typeof f.detected.role === 'string' && f.detected.role in roles
        ? { role: f.detected.role, note: String(f.detected.note || '') } : { role: f.role, note: '' },
      error: typeof f.error === 'string' ? f.error : '', text: f.text, bytes: f.bytes,
    }));
}

// SETTINGS are the page's settings a kept drop restores, with their
// defaults.
// skipBadInputs (score what is valid, list what was left out) is on by
// default.
export const SETTINGS = { gate: '', preview: [], skipBadInputs: true, allowIncomplete: false, metric: 'f1' };

// unpackSettings checks kept settings, each falling back to its default.
export function unpackSettings(v) {
  const s = { ...SETTINGS };
  if (!v || typeof v !== 'object') return s;
  if (typeof v.gate === 'string') s.gate = v.gate;
  if (Array.isArray(v.preview)) s.preview = v.preview.filter((x) => Number.isInteger(x) && x > 0);
  if (typeof v.skipBadInputs === 'boolean') s.skipBadInputs = v.skipBadInputs;
  if (typeof v.allowIncomplete === 'boolean') s.allowIncomplete = v.allowIncomplete;
  if (typeof v.metric === 'string') s.metric = v.metric;
  return s;
}

function openDB() {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

// store runs fn on the object store and resolves when the transaction
// completes, with what fn's request gave.
async function store(mode, fn) {
  const db = await openDB();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const req = fn(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req ? req.result : undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error || new Error('the browser refused to keep the drop'));
    });
  } finally {
    db.close();
  }
}

// keep stores a drop: its files when given (they change less often than
// the settings), with the names and sizes of those not kept (left), and
// the settings.
export async function keep({ files, left = [], settings }) {
  await store('readwrite', (s) => {
    if (files) s.put({ version: VERSION, files: packFiles(files), left, savedAt: Date.now() }, 'files');
    return s.put({ version: VERSION, settings, savedAt: Date.now() }, 'settings');
  });
}

// kept returns the kept drop, {files, left, settings, savedAt}, or null;
// left are the files dropped but not kept ({name, size}).
export async function kept(roles) {
  const [files, settings] = await Promise.all([
    store('readonly', (s) => s.get('files')), store('readonly', (s) => s.get('settings'))]);
  if (!files || files.version !== VERSION) return null;
  const list = unpackFiles(files.files, roles);
  if (list.length === 0) return null;
  return { files: list, left: unpackLeft(files.left), settings: unpackSettings(settings && settings.settings), savedAt: files.savedAt };
}

// forget deletes the kept drop.
export async function forget() {
  await store('readwrite', (s) => {
    s.delete('files');
    return s.delete('settings');
  });
}
