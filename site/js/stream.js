// stream.js — the pure pieces of the page's streamed scoring of a large
// runs file (worker.js, pool.js): the file's bytes cut into batches of
// whole lines as they arrive (a line may straddle chunks), the offset of
// every line (a drill-down reads its one line back from the file), the
// page's table of images built as the results come in input order, and
// the progress text (images scored, rate, time left).

import { grouped } from './format.js';

// A batch holds at most LINES lines and about BYTES bytes (one line may
// be longer); MAX_LINE bounds one line as the core's reader does
// (ingest.MaxLine).
export const LINES = 256;
export const BYTES = 1 << 20;
export const MAX_LINE = 256 << 20;

// LineSplitter cuts a file's bytes, pushed chunk by chunk, into batches
// of whole lines: onBatch({first, bytes, end}) gets the 1-based number
// of the batch's first line, its bytes (a copy, its own buffer, ready to
// transfer) and the file offset where it ends. It keeps the start of
// every line (8 bytes a line), for lineRange.
export class LineSplitter {
  constructor(name, onBatch, { lines = LINES, bytes = BYTES } = {}) {
    this.name = name;
    this.onBatch = onBatch;
    this.maxLines = lines;
    this.maxBytes = bytes;
    this.pending = []; // pieces of the batch being gathered, before the current chunk
    this.pendingBytes = 0;
    this.batchLines = 0;
    this.first = 1; // the batch's first line
    this.offset = 0; // file offset of the current chunk's start
    this.starts = new Float64Array(1024); // starts[n-1]: offset of line n
    this.lines = 1; // lines begun (the last may be empty)
  }

  // push takes the next chunk of the file (a Uint8Array).
  push(chunk) {
    let seg = 0; // where the current chunk's part of the batch starts
    let pos = 0;
    for (;;) {
      const nl = chunk.indexOf(10, pos);
      if (nl < 0) break;
      this.batchLines++;
      this.lineBegins(this.offset + nl + 1);
      pos = nl + 1;
      if (this.batchLines >= this.maxLines || this.pendingBytes + (pos - seg) >= this.maxBytes) {
        this.emit(chunk.subarray(seg, pos), this.offset + pos);
        seg = pos;
      }
    }
    if (seg < chunk.length) {
      this.pending.push(chunk.subarray(seg));
      this.pendingBytes += chunk.length - seg;
    }
    this.offset += chunk.length;
    const open = this.offset - this.starts[this.lines - 1];
    if (open > MAX_LINE) {
      throw lineError(this.name, this.lines, `line longer than ${MAX_LINE >> 20} MiB: expected one JSON value per line`);
    }
  }

  // end sends what is left: the last lines, the last one without a line
  // end.
  end() {
    if (this.pendingBytes > 0) this.emit(new Uint8Array(0), this.offset);
  }

  lineBegins(offset) {
    if (this.lines === this.starts.length) {
      const grown = new Float64Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[this.lines++] = offset;
  }

  emit(tail, end) {
    const bytes = new Uint8Array(this.pendingBytes + tail.length);
    let at = 0;
    for (const p of this.pending) {
      bytes.set(p, at);
      at += p.length;
    }
    bytes.set(tail, at);
    const first = this.first;
    this.first += this.batchLines;
    this.pending = [];
    this.pendingBytes = 0;
    this.batchLines = 0;
    this.onBatch({ first, bytes, end });
  }

  // lineRange returns the file offsets [start, end) of line n (1-based)
  // without its line end, or null for a line the file does not have.
  lineRange(n) {
    if (n < 1 || n > this.lines) return null;
    const start = this.starts[n - 1];
    const end = n < this.lines ? this.starts[n] - 1 : this.offset;
    return [start, Math.max(start, end)];
  }
}

// lineError is an error of the core's shape at a line of a file.
export function lineError(file, line, message) {
  const err = new Error(`${file}:${line}: ${message}`);
  err.detail = { code: 'input', file, line, message: `${file}:${line}: ${message}` };
  return err;
}

// Sections splits an answer of the core's stream methods: byte strings,
// each after its length (4 bytes, little-endian).
export function sections(bytes) {
  const out = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  while (at < bytes.length) {
    if (at + 4 > bytes.length) throw new Error('a section cut short');
    const n = view.getUint32(at, true);
    if (at + 4 + n > bytes.length) throw new Error('a section longer than the answer');
    out.push(bytes.subarray(at + 4, at + 4 + n));
    at += 4 + n;
  }
  return out;
}

// progressOf returns the rate (images a second) and the time left (ms,
// null until something is done) of a scoring that has taken done of
// total bytes and images images in ms milliseconds.
export function progressOf({ done, total, images, ms }) {
  const rate = ms > 0 ? (images * 1000) / ms : 0;
  const left = done > 0 && total > 0 ? Math.max(0, (ms * (total - done)) / done) : null;
  return { rate, left };
}

// durationText writes ms as "3 s", "2 min 5 s" or "1 h 4 min".
export function durationText(ms) {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

// progressText is the progress bar's label of a streamed scoring.
export function progressText({ name, done, total, images, ms }) {
  const { rate, left } = progressOf({ done, total, images, ms });
  const pct = total > 0 ? Math.floor((100 * done) / total) : 0;
  const n = grouped(images);
  const r = grouped(Math.round(rate));
  return `Scoring ${name}: ${pct}%, ${n} image${images === 1 ? '' : 's'}, ${r} images/s` +
    (left === null ? '' : `, about ${durationText(left)} left`);
}
