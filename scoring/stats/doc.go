// Package stats computes the uncertainty of docscore's scores (SPEC F):
// a bootstrap confidence interval for every statistic of a cell, and the
// paired comparison of two cells — the difference, its interval, a
// randomization p-value, Holm's adjustment across a report's comparisons,
// and the lists of units that rose or fell. It is pure (no os, no net)
// and deterministic: the same contributions, options and ids give the
// same numbers natively, in the browser and in the Worker.
//
// It is one package of about 2,300 lines because its parts share one
// model (schemas, units, the seeded generator): the intervals, the
// comparisons and their report encoders all read the same unit sums.
//
// # Model
//
// The unit of resampling is the document the dataset sampled: the ground
// truth page of a tabular cell, the sample of a receipts phase. A unit
// contributes a fixed-width vector of sums (its Schema's components), and
// every statistic is a function of the component sums over the units of a
// draw, counted with multiplicity: a pooled ratio (precision, recall, F1,
// name CER, field accuracy, numeric recall, Donut field F1) or a mean over
// non-null values, kept as the pair (value, 1) or (0, 0) so that it is a
// ratio of sums too. A replicate is therefore one pass of additions over
// the drawn units' vectors into a reused buffer: it allocates nothing.
//
// Random numbers are SplitMix64, each stream started at
// seed xor FNV1a64(key) with the keys ci:<id>, boot:<idA>|<idB> and
// perm:<idA>|<idB>, so that adding a cell to a report changes no other
// cell's numbers. An index into n units is Next() mod n; a coin is the top
// bit of Next().
//
// # Wiring (for the next step; nothing calls this package yet)
//
// Tabular (scoring/tabular): a cell (model, phase) is a Cell with id
// TabularID(model, phase) and schema TabularSchema(report.Fields). For
// every image row of the cell, ok or failed, call Builder.Unit(page); for
// an ok image, Builder.Add(page, v) with v[TabMatched] = matched,
// v[TabNModel] = n_model, v[TabNGT] = n_gt, v[TabNameEdits] =
// name_cer_edits, v[TabNameRefChars] = name_ref_chars and, for field i in
// report order, v[TabFields+2i] = its sum and v[TabFields+2i+1] = its
// scored count. The image rows (ImageScore) already carry every one of
// these, so `docscore compare` needs no ground truth: it rebuilds the
// cells from the report's "images" array. The page is the image row's
// "page" string (SPEC F.4). Caution: that is the run's spelling, and A.6
// matches "7" to gt_page_07.csv, so two runs spelling one page "7" and
// "07" would make two units where F.1 wants one; either normalize to the
// GT page id (and write it in the image row) or refuse such a report. Interval(cell, opts) gives the
// cell's "ci" member (nil under --bootstrap 0: leave it out).
//
// Receipts (scoring/receipts): a phase is a Cell with id ReceiptsID(phase)
// and schema ReceiptsSchema(structured), one unit per page row's
// sample_id: v[RecF1Sum], v[RecF1Count] = f1, 1 (or 0, 0 when f1 is
// null); v[RecNumericMatched], v[RecNumericRef] = numeric_matched,
// numeric_ref; with structured metrics v[RecTEDSum], v[RecTEDCount] =
// ted_accuracy, 1 (or 0, 0 when null) and v[RecFieldsMatched],
// v[RecFieldsPred], v[RecFieldsRef] = fields_matched, fields_pred,
// fields_ref. A phase without a gt_parse page still uses the structured
// schema when the report has structured metrics, with zero vectors.
//
// Comparisons: name each cell (Named: the cell under its unprefixed id,
// its model and phase) and pass the pairs to CompareAll, with the id
// prefixes BasePrefix / NewPrefix for two reports (none within one
// report); a draft-rule preview is Preview (PreviewPairs: SettledPrefix /
// PreviewPrefix). CompareAll calls Compare for each pair (A the baseline)
// and NewReport, which applies Holm's adjustment per statistic; "docscore
// compare" (scoring/api/compareapi) and the tabular scorer's preview both
// go through it. Report.Regressed is the condition of
// --fail-on-regression. Report.JSON (and WriteJSON, into a report's own
// writer) writes SPEC F.6's JSON without reflection, the bytes
// encoding/json writes for it; CI marshals with encoding/json.
//
// # Choices where SPEC F is silent
//
//   - --permutations 0 makes every p null (no test ran), as a null p is
//     treated: out of Holm's k, never significant.
//   - A comparison interval is null under the same rule as a cell's:
//     fewer than two paired units, or kept < B/2.
//   - In "kept", grouped statistics sit inside their group's object, as
//     the intervals do: "kept": {"f1": 2000, "fields": {"title": 2000}}.
//   - Receipts' structured statistics sit under "structured", named as in
//     the phase's "structured" member.
//   - Movement compares a unit's scores exactly (no tolerance): equal
//     sums give bit-equal scores.
//   - better is null when the delta is 0, which cannot be significant.
//   - Donut field F1 is undefined at 0/0 (kept counts it), as its point
//     estimate is null there; A.2's "0 at 0/0" is kept for the traveler
//     precision, recall and F1.
//   - F1 is computed as SPEC A.6 pins it (P, R, then 2·P·R/(P+R)), not as
//     2·TP/(2·TP+FP+FN): equal in exact arithmetic, not in the last bit.
//   - The seed is written as a JSON integer up to 2⁶⁴−1; JavaScript reads
//     integers above 2⁵³ inexactly, so hosts may want to bound --seed.
//   - The randomization stream is keyed by the ordered pair, so comparing
//     B with A instead of A with B flips every delta exactly but draws
//     other coins: p moves within Monte Carlo error.
package stats
