// Package pagetext scores the text an OCR engine read from a page against
// its ground truth (SPEC G): character and word error rates over
// extended grapheme clusters and UAX #29 words, bag-of-words precision,
// recall and F1, and the optimal edit script behind each distance.
//
// It follows OCR-D's dinglehopper exactly: text is extracted from plain
// text, PAGE-XML and ALTO as dinglehopper's page_text, alto_text and
// plain_text do (hOCR is added), normalized as its normalize_sbb does,
// and dinglehopper's own test data scores as its tests assert.
//
// Distances run over cluster (or word) ids. A bit-parallel Levenshtein
// distance (Hyyrö) gives the rates; the alignment behind them is a
// diagonal-transition search (Ukkonen, Myers) for pages with up to about
// a thousand edits, and past that a bit-parallel band (64 cells a word,
// Ukkonen's cut-off) that stores its vectors at checkpoints and traces
// back one segment at a time, so that two 200,000-character pages at 5 %
// errors align in a sixth of a CPU-second, and at 20 % in 0.4, in
// bounded memory. Every phase
// checks its context, and AlignLimits caps the work a request may cost.
//
// It passes the 2,000 lines the project aims at per package (about
// 2,700) because extraction (four formats), segmentation, the three
// alignments and the report are one family's data flow, each small; the
// three alignments must give the same edit script and are tested
// against one another here. The package is pure: it does no I/O and
// gives the same bytes natively, in the browser and in the Worker.
package pagetext
