// Package receiptsread reads the references of a receipt OCR scoring
// (SPEC section B): CORD-v2 annotation files (ParseCORD, their words joined
// in annotation or reading order) and JSONL reference files
// (ParseJSONL), through scoring/ingest, so that an error names the file,
// line and column, and the JSON path inside a CORD document. Package
// receipts scores against what it reads.
package receiptsread
