// Type declarations of @docscore/core (node.js and browser.js share them).

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

/** The options every bootstrapped confidence interval takes (--bootstrap, --ci-level, --seed). */
export interface IntervalOptions {
  bootstrap?: number;
  ciLevel?: number;
  seed?: number | bigint;
}

export interface TabularInput {
  /** One or more ground-truth CSV files. */
  gt: InputFile[];
  /** The runs file (JSONL). */
  runs: InputFile;
  /** The EQUIVALENCES.md rule file. */
  rules?: InputFile;
  /** A schema file for tables other than the default register. */
  schema?: InputFile;
}

export interface TabularOptions extends IntervalOptions {
  /** The similarity gate, in (0, 1]; 0.7 by default. */
  gate?: number;
  /** OPEN rule rows to preview: "open", or line numbers "32,33". */
  preview?: string;
  skipBadLines?: boolean;
}

export interface RulesInput {
  rules: InputFile;
  gt?: InputFile[];
  schema?: InputFile;
}

export interface ReceiptsInput {
  /** CORD annotation (.json) or reference (.jsonl) files. */
  refs: InputFile[];
  /** The pilot run file (JSONL). */
  run: InputFile;
}

export interface ReceiptsOptions extends IntervalOptions {
  allowIncomplete?: boolean;
  readingOrder?: boolean;
  skipBadLines?: boolean;
}

export interface TablesInput {
  /** Ground-truth table files (.html, .md, .csv); several are paired by id (the name up to the first dot). */
  gt: InputFile[];
  /** Predicted table files, paired with gt by id. */
  pred?: InputFile[];
  /** Or a runs JSONL of {model, phase, run, table, html | markdown | csv}. */
  runs?: InputFile;
}

export interface TextInput {
  /** Ground-truth pages (plain text, PAGE-XML, ALTO, hOCR); several are paired by id (the name up to the first dot). */
  gt: InputFile[];
  /** OCR pages, paired with gt by id. */
  ocr?: InputFile[];
  /** Or a runs JSONL of {model, phase, run, page, text}. */
  runs?: InputFile;
}

export interface TextOptions extends IntervalOptions {
  /** The cell's model and phase when ocr is given. */
  model?: string;
  phase?: string;
  /** The PAGE level text is read at: "region" (default) or "line". */
  level?: 'region' | 'line';
  /** "sbb" (dinglehopper's normalization, default) or "nfc". */
  normalize?: 'sbb' | 'nfc';
}

export interface TablesOptions extends IntervalOptions {
  /** The cell's model and phase when pred is given. */
  model?: string;
  phase?: string;
  /** Read th as a td cell in TEDS (docling-eval's reading). */
  thAsTd?: boolean;
  /** Pair pred with gt by id even when one file of each is given. */
  byId?: boolean;
}

export interface EvaluateInput {
  /** The cases file (JSON or JSONL). */
  cases: InputFile;
  /** The files the cases file names, each named by the path it gives. */
  files?: InputFile[];
}

export interface CompareInput {
  /** The baseline report: the JSON of scoreTabular or scoreReceipts. */
  base: InputFile;
  /** The new report of the same family; left out with within. */
  new?: InputFile;
}

export interface CompareOptions {
  /** Compare the base report within itself. */
  within?: boolean;
  /** With within, the comparisons to make: "A:B,…". */
  pairs?: string;
  permutations?: number;
  bootstrap?: number;
  alpha?: number;
  ciLevel?: number;
  seed?: number | bigint;
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

/** A harness report (docscore eval --judge none --output). */
export type HarnessReport = Report;

export interface RulesProblem {
  file: string;
  line: number;
  message: string;
  /** FILE:LINE: message */
  text: string;
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

type Tabular = 'json' | 'csv' | 'md';

export function scoreTabular(input: TabularInput, options?: TabularOptions & Answer<'json'> & { raw?: false }): Promise<TabularReport>;
export function scoreTabular(input: TabularInput, options: TabularOptions & Answer<'csv' | 'md'> & { format: 'csv' | 'md'; raw?: false }): Promise<string>;
export function scoreTabular(input: TabularInput, options: TabularOptions & Answer<Tabular> & { raw: true }): Promise<Uint8Array>;

export function checkRules(input: RulesInput, options?: { raw?: false }): Promise<RulesCheck>;
export function checkRules(input: RulesInput, options: { raw: true }): Promise<Uint8Array>;

export function scoreReceipts(input: ReceiptsInput, options?: ReceiptsOptions & Answer<'json'> & { raw?: false }): Promise<ReceiptsReport>;
export function scoreReceipts(input: ReceiptsInput, options: ReceiptsOptions & Answer<'csv' | 'md'> & { format: 'csv' | 'md'; raw?: false }): Promise<string>;
export function scoreReceipts(input: ReceiptsInput, options: ReceiptsOptions & Answer<Tabular> & { raw: true }): Promise<Uint8Array>;
/** docscore score tables: TEDS, TEDS-S, GriTS-Top and GriTS-Con. */
export function scoreTables(input: TablesInput, options?: TablesOptions & Answer<'json'> & { raw?: false }): Promise<TablesReport>;
export function scoreTables(input: TablesInput, options: TablesOptions & Answer<'csv' | 'md'> & { format: 'csv' | 'md'; raw?: false }): Promise<string>;
export function scoreTables(input: TablesInput, options: TablesOptions & Answer<Tabular> & { raw: true }): Promise<Uint8Array>;
/** docscore score text: CER, WER, bag of words and confusions (SPEC G). */
export function scoreText(input: TextInput, options?: TextOptions & Answer<'json'> & { raw?: false }): Promise<TextReport>;
export function scoreText(input: TextInput, options: TextOptions & Answer<'csv' | 'md'> & { format: 'csv' | 'md'; raw?: false }): Promise<string>;
export function scoreText(input: TextInput, options: TextOptions & Answer<Tabular> & { raw: true }): Promise<Uint8Array>;

export function evaluate(input: EvaluateInput, options?: Answer<'json'> & { raw?: false }): Promise<HarnessReport>;
export function evaluate(input: EvaluateInput, options: Answer<'md'> & { format: 'md'; raw?: false }): Promise<string>;
export function evaluate(input: EvaluateInput, options: Answer<'json' | 'md'> & { raw: true }): Promise<Uint8Array>;

export function compare(input: CompareInput, options?: CompareOptions & Answer<'json'> & { raw?: false }): Promise<ComparisonReport>;
export function compare(input: CompareInput, options: CompareOptions & Answer<'csv' | 'md' | 'junit'> & { format: 'csv' | 'md' | 'junit'; raw?: false }): Promise<string>;
export function compare(input: CompareInput, options: CompareOptions & Answer<'json' | 'csv' | 'md' | 'junit'> & { raw: true }): Promise<Uint8Array>;

/** The docscore version of the WebAssembly files. */
export function version(): Promise<string>;

/** Where a WebAssembly file is: a URL, a string, its bytes or a compiled module. */
export type WasmSource = URL | string | ArrayBuffer | Uint8Array | WebAssembly.Module;

/** Say where the WebAssembly files are ("docscore.wasm", "receipts.wasm", "harness.wasm", "compare.wasm"), before the first call. */
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
