// Package receiptsreport is the report of a receipt OCR scoring (SPEC
// section B): its types (Report, Phase, Page, their structured metrics)
// and its writers, JSON, the per-page and per-phase CSV, and Markdown.
// Package receipts fills it.
package receiptsreport
