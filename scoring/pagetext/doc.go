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
// Distances run over cluster (or word) ids: a diagonal-transition
// alignment (Ukkonen, Myers) that keeps its furthest-reaching points for
// the trace back, so that a 200,000-character page with few errors aligns
// in a fraction of a second, and a banded dynamic programme with
// checkpointed rows beyond it; a bit-parallel Levenshtein distance
// (Hyyrö) sizes the band. The package is pure: it does no I/O and gives
// the same bytes natively, in the browser and in the Worker.
package pagetext
