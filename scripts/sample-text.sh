#!/usr/bin/env bash
# sample-text.sh — regenerate the page-text sample's OCR (sample/text/):
# docscore pilot run, with the command engine calling Tesseract, once per
# configuration in sample/text/pilot/*.toml (page segmentation modes 3 and
# 6 of the English model), then the measured requests of both runs as the
# page-text runs file sample/text/runs.jsonl; and the ground truth of
# 462875_0008 from its LAREX PAGE file (see sample/text/README.md).
# Needs tesseract (with its eng model) and python3. BIN names the docscore
# binary (default: built into bin/docscore first).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-bin/docscore}
command -v tesseract >/dev/null || { echo "sample-text: needs tesseract (apt-get install tesseract-ocr)"; exit 1; }
if [ "$BIN" = bin/docscore ]; then go build -trimpath -o "$BIN" ./cmd/docscore; fi
dir=sample/text
python3 scripts/sample_text.py gt "$dir/source/OCR-D-GT_0008.xml" "$dir/gt/462875_0008.gt.txt"
runs=()
for cfg in "$dir"/pilot/*.toml; do
  out="${cfg%.toml}.run.jsonl"
  rm -f "$out" # a pilot run file is resumed, never redone: start afresh
  "$BIN" pilot run --config "$cfg" --quiet
  runs+=("$out")
done
python3 scripts/sample_text.py runs "${runs[@]}" > "$dir/runs.jsonl.tmp"
mv "$dir/runs.jsonl.tmp" "$dir/runs.jsonl"
echo "sample-text: $(tesseract --version 2>&1 | head -1); wrote $dir/runs.jsonl ($(wc -l < "$dir/runs.jsonl") records)"
