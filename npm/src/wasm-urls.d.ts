/** The URLs of the WebAssembly files, from a bundler's file loader: hand them to locateWasm. */
declare const wasmURLs: Record<'docscore.wasm' | 'receipts.wasm' | 'tables.wasm' | 'text.wasm' | 'harness.wasm', URL>;
export default wasmURLs;
