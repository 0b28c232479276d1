// Type declarations of @docscore/core (node.js and browser.js share them).
// Each function's input, options and overloads are generated from
// docscore's operation registry into operations.d.ts.

export * from './operations.js';

/** A file's content: text, or bytes (read as UTF-8 text, as the command line reads its files; a file a cases file names keeps its exact bytes). */
export type Content = string | Uint8Array | ArrayBuffer | ArrayBufferView;

/** One input file: its name (kept in reports and error messages) and its content. */
export interface InputFile {
  name: string;
  text: Content;
}

/** How a call answers: the parsed JSON report (format "json", the default), its text (another format), or with raw its exact bytes. */
export interface Answer<F extends string> {
  /** The report's format, as the command line's --format; "json" by default. */
  format?: F;
  /** Answer the report's exact bytes, those the command line writes, in place of the parsed report or its text. */
  raw?: boolean;
}

/** A JSON report: its kind and the members the docscore documentation describes. */
export interface Report {
  kind?: string;
  [member: string]: unknown;
}

/** One model and phase of a tabular report: its detection and field scores (docs/tabular.md). */
export interface TabularCell {
  model: string;
  phase: string;
  precision: number;
  recall: number;
  f1: number;
  [member: string]: unknown;
}

/** A tabular report (docscore score tabular --format json). */
export interface TabularReport extends Report {
  kind: 'tabular';
  cells: TabularCell[];
}

/** A receipts report (docscore score receipts --format json). */
export interface ReceiptsReport extends Report {
  kind: 'receipts';
}

/** A tables report (docscore score tables --format json). */
export interface TablesReport extends Report {
  kind: 'tables';
}

/** A page-text report (docscore score text --format json). */
export interface TextReport extends Report {
  kind: 'text';
}

/** A comparison report (docscore compare --format json). */
export interface ComparisonReport extends Report {
  kind: 'comparison';
}

/** A plan (docscore plan --format json): what a report's sample can tell. */
export interface PlanReport extends Report {
  kind: 'plan';
}

/** A harness report (docscore eval --judge none --output). */
export type HarnessReport = Report;

export interface RulesProblem {
  file: string;
  line: number;
  /** 1-based, in characters; absent when not known. */
  column?: number;
  message: string;
  /** FILE:LINE[:COLUMN]: message */
  text: string;
  /** The line's text with a caret under the column (two lines), as the command line prints it under the error; absent when not known. */
  excerpt?: string;
}

/** The rule file's check (docscore rules check --format json). */
export interface RulesCheck {
  file: string;
  sha256: string;
  settled: number;
  open: number;
  errors: RulesProblem[];
  warnings: RulesProblem[];
  rows: Record<string, unknown>[];
}

/** The docscore version of the WebAssembly files. */
export function version(): Promise<string>;

/** Where a WebAssembly file is: a URL, a string, its bytes or a compiled module. */
export type WasmSource = URL | string | ArrayBuffer | Uint8Array | WebAssembly.Module;

/** Say where the WebAssembly files are ("docscore.wasm", "receipts.wasm", "tables.wasm", "text.wasm", "harness.wasm"), before the first call. */
export function locateWasm(sources: Partial<Record<string, WasmSource>> | ((file: string) => WasmSource | undefined)): void;

/** A failed call: the core's error code ("input", "bad_request", "incomplete", "internal"), and the file, line and column it names; the message shows the source line with a caret under the column. */
export class DocscoreError extends Error {
  code: string;
  file: string | null;
  line: number | null;
  /** 1-based column, in characters, on line. */
  column: number | null;
  /** The text of line, as the message shows it. */
  sourceLine: string | null;
}
