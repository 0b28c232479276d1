// Package pilot runs model pilots for the docscore command (SPEC B.4):
// every image of a dataset is sent to an engine — an OpenAI-compatible
// chat completions server (OpenAIEngine) or a local program run per image
// (CommandEngine) — once as a warmup and then once per measured phase at
// that phase's concurrency, with a deadline per request and no retries.
//
// Preparation (Prepare) reads the dataset (LoadDataset: a directory of
// images with CORD JSON of the same stem, cord-v2 parquet files, or a
// JSONL manifest), hashes every image and builds the run header of SPEC
// B.2. Run then writes the header, appends each terminal request record
// and fsyncs it as it ends (group commit: records that end together share
// one fsync), resumes an existing run file without duplicating a pair,
// repairs a partial last line left by a crash, and on interruption stops
// starting requests, lets in-flight ones finish for a grace period,
// cancels and records the rest, and ends the file with an "interrupted"
// end record. The optional GPU procedure (GPUOptions) checks free GPU
// memory with nvidia-smi, starts the model server, waits for its health
// endpoint, stops it at the end and removes only containers carrying the
// run's label.
//
// This package is native only (files, processes, network); the run-file
// records and their statistics live in the pure package scoring/runfile.
package pilot
