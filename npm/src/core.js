// core.js — the API of @docscore/core over the docscore WebAssembly files.
//
// Each family of scorers is its own Go program, as on docscore's page:
// docscore.wasm (tabular scoring, the rule file's check and the
// comparison of reports), receipts.wasm, tables.wasm, text.wasm and
// harness.wasm (evaluate). A file's program is instantiated the first
// time one of its functions is called, once, and then serves every call:
// globalThis[name].call(method, requestJSON, texts)
// (wasm/site/internal/host in the docscore repository). The file texts travel beside the small JSON request, not
// escaped inside it; a report comes back as its bytes, exactly those the
// command line writes.
//
// The functions, one per operation of docscore's registry, are generated
// into operations.js, which calls this module's call. node.js and
// browser.js say where the WebAssembly files are by default (setDefaults)
// and re-export the API.

import './wasm_exec.js';

const FAMILIES = {
  tabular: { file: 'docscore.wasm', global: 'docscore' },
  receipts: { file: 'receipts.wasm', global: 'docscoreReceipts' },
  tables: { file: 'tables.wasm', global: 'docscoreTables' },
  text: { file: 'text.wasm', global: 'docscoreText' },
  eval: { file: 'harness.wasm', global: 'docscoreHarness' },
  compare: { file: 'docscore.wasm', global: 'docscore' },
};

// RAW_MARKER is the envelope of an answer whose report comes as bytes.
const RAW_MARKER = '{"error":null,"result":null,"raw":true}';

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const utf8Encoder = new TextEncoder();

let defaults = null; // {sources: {file: () => URL}, read: (URL) => Promise<Response|Uint8Array>}
let located = null; // what locateWasm was given
const loaded = {}; // file → Promise of its program's API {call, version}

/** @internal node.js and browser.js set where the files are by default. */
export function setDefaults(d) {
  defaults = d;
}

/**
 * locateWasm says where the WebAssembly files are, for a bundler that does
 * not copy them itself: an object from file name ("docscore.wasm") to a
 * URL, a string, the file's bytes or a compiled WebAssembly.Module, or a
 * function of the file name returning one of them. Call it before the
 * first call that loads a file.
 */
export function locateWasm(sources) {
  if (sources === null || (typeof sources !== 'object' && typeof sources !== 'function')) {
    throw new TypeError('locateWasm: expected an object from file name to URL, bytes or WebAssembly.Module, or a function of the file name');
  }
  located = sources;
}

/** DocscoreError is a failed call: the envelope's code, file, line, column and source line. */
export class DocscoreError extends Error {
  constructor(detail) {
    super(detail.message);
    this.name = 'DocscoreError';
    this.code = detail.code;
    this.file = detail.file ?? null;
    this.line = detail.line ?? null;
    this.column = detail.column ?? null;
    this.sourceLine = detail.source_line ?? null;
  }
}

// load starts the program of a family's file once: tabular and compare
// share docscore.wasm and its one program.
function load(family) {
  const f = FAMILIES[family];
  if (!loaded[f.file]) {
    loaded[f.file] = instantiate(f).catch((err) => {
      delete loaded[f.file];
      throw err;
    });
  }
  return loaded[f.file];
}

function sourceOf(file) {
  if (located) {
    const s = typeof located === 'function' ? located(file) : located[file];
    if (s !== undefined && s !== null) return s;
  }
  if (!defaults) throw new Error('@docscore/core: no default location for the WebAssembly files (import the package by its name, or call locateWasm)');
  return defaults.sources[file]();
}

async function instantiate({ file, global }) {
  const go = new globalThis.Go();
  const instance = await instantiateSource(file, await sourceOf(file), go.importObject);
  const ready = new Promise((resolve) => {
    globalThis[global + 'Ready'] = resolve;
  });
  go.run(instance);
  await ready;
  delete globalThis[global + 'Ready'];
  return globalThis[global];
}

async function instantiateSource(file, src, imports) {
  if (src instanceof WebAssembly.Module) return WebAssembly.instantiate(src, imports);
  if (typeof src === 'string' || src instanceof URL) {
    src = await defaults.read(src instanceof URL ? src : new URL(src, globalThis.location?.href ?? import.meta.url));
  }
  if (typeof Response !== 'undefined' && src instanceof Response) {
    if (!src.ok) throw new Error(`@docscore/core: cannot load ${file}: ${src.status} for ${src.url}`);
    if (WebAssembly.instantiateStreaming) {
      try {
        return (await WebAssembly.instantiateStreaming(src.clone(), imports)).instance;
      } catch {
        // A server that sends another media type than application/wasm.
      }
    }
    src = await src.arrayBuffer();
  }
  return (await WebAssembly.instantiate(src, imports)).instance;
}

/**
 * @internal Request is a JSON request being built (operations.js builds
 * them): files become parts, their texts sent beside the JSON.
 */
export class Request {
  constructor() {
    this.fields = {};
    this.parts = [];
  }

  // file adds one file {name, text}; binary keeps a byte array's exact
  // bytes (base64), else bytes are read as UTF-8 text, as the command
  // line reads its files.
  file(field, f, binary = false) {
    if (f === null || typeof f !== 'object' || typeof f.name !== 'string') {
      throw new TypeError(`${field}: expected a file {name: string, text: string | Uint8Array}`);
    }
    const t = f.text;
    if (typeof t === 'string') {
      this.parts.push(t);
      return { name: f.name, part: this.parts.length };
    }
    const bytes = toBytes(t);
    if (!bytes) throw new TypeError(`${field} ${f.name}: text is ${typeof t}, expected a string or a Uint8Array`);
    if (binary) return { name: f.name, base64: base64(bytes) };
    this.parts.push(utf8.decode(bytes));
    return { name: f.name, part: this.parts.length };
  }

  files(field, list, binary = false) {
    if (!Array.isArray(list)) throw new TypeError(`${field}: expected an array of files {name, text}`);
    return list.map((f, i) => this.file(`${field}[${i}]`, f, binary));
  }

  // options adds the options, camelCase names becoming the request's
  // snake_case ones (ciLevel → ci_level); the core refuses unknown ones.
  options(opts) {
    for (const [k, v] of Object.entries(opts ?? {})) {
      if (k === 'raw' || v === undefined) continue;
      this.fields[k.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase())] = v;
    }
  }

  json() {
    const big = [];
    const s = JSON.stringify(this.fields, (k, v) => {
      if (typeof v !== 'bigint') return v;
      big.push(v);
      return `\u0000bigint${big.length - 1}\u0000`;
    });
    // A bigint (a seed past 2^53) is written as its digits.
    return s.replace(/"\\u0000bigint(\d+)\\u0000"/g, (m, i) => big[Number(i)].toString());
  }
}

function toBytes(t) {
  if (t instanceof Uint8Array) return t;
  if (t instanceof ArrayBuffer) return new Uint8Array(t);
  if (ArrayBuffer.isView(t)) return new Uint8Array(t.buffer, t.byteOffset, t.byteLength);
  return null;
}

function base64(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

/**
 * @internal call runs method of family and returns the report as the
 * options ask: its bytes (raw), its text (csv, md, junit) or the parsed
 * JSON.
 */
export async function call(family, method, req, opts, defaultFormat = 'json') {
  const api = await load(family);
  const out = await api.call(method, req.json(), req.parts);
  const envelope = typeof out === 'string' ? out : out.envelope;
  if (envelope !== RAW_MARKER) {
    const env = JSON.parse(envelope);
    if (env.error) throw new DocscoreError(env.error);
    // A JSON value (checkRules): written as the command line's --format
    // json writes it, two-space indented with a final newline.
    if (opts?.raw) return utf8Encoder.encode(JSON.stringify(env.result, null, 2) + '\n');
    return env.result;
  }
  if (opts?.raw) return out.raw;
  const text = utf8.decode(out.raw);
  const format = opts?.format ?? defaultFormat;
  return format === 'json' ? JSON.parse(text) : text;
}

/** @internal need refuses an input that is not an object of files. */
export function need(input, name) {
  if (input === null || typeof input !== 'object') throw new TypeError(`expected an object with the files, such as {${name}: …}`);
}

/** version is the docscore version of the WebAssembly files. */
export async function version() {
  return (await load('tabular')).version;
}

/** @internal run turns a synchronous throw (a bad argument) into a rejection. */
export async function run(f) {
  return f();
}
