// Package rules reads EQUIVALENCES.md, the rule file of the tabular scorer
// (SPEC A.5): ignore rules (tokens a model adds that the ground truth does
// not carry) and equivalences (forms that mean the same thing), each row
// settled (applied) or OPEN (a draft that changes no score unless
// previewed).
//
// The file is an ordinary Markdown document. Parse reads its headings and
// pipe tables with a small hand-written reader (internal/mdread),
// keeping every row's line number for errors and for choosing rows to
// preview; Check validates rows against a schema and, optionally, the
// ground truth; Compile turns the active rows into per-field tables for
// the scorer. The package does no I/O.
//
// # The Markdown reader
//
// The reader replaced the gomarkdown parser, which with the regexp and
// html packages it pulled in was about 700 KB of the page core's code,
// against a budget of 1.5 MB gzip-compressed. It follows gomarkdown's
// block rules (CommonExtensions without MathJax) for what decides which
// tables are seen: ATX headings ("#" at the start of the line, a space
// after) with an optional {#id}, setext headings, blank lines, indented
// and fenced code (a fence that never closes is not code), thematic
// breaks, HTML comments, block quotes, lists and definition lists (a table
// is read in an item only where the item holds blocks), paragraphs (which
// a heading, a thematic break, a quote, a closed fence or a table header
// interrupts) and GFM pipe tables: header, delimiter row, body rows while
// lines hold a pipe, escaped pipes, inline code holding pipes, runs of
// pipes spanning columns, short rows padded, "|===|" footer lines skipped.
// A cell's text is its plain text with backslash escapes and entities
// resolved, inline code without its backticks, emphasis without its
// markers, a link's text, HTML tags as written.
//
// FuzzMarkdownAgainstGomarkdown holds the reader to gomarkdown (kept as a
// test dependency) on rows, lines, warnings and errors. It deliberately
// differs where no rule file goes:
//
//   - Lines: a row or table is placed on its own line. gomarkdown's reader
//     guessed the line of a table in a block quote or list, or of one
//     whose header holds no plain text (only inline code, or empty
//     cells), by searching for its header's text, which can find an
//     earlier line holding the same words, and then read the extra cells
//     of the wrong rows' lines (the differential check gives it the line
//     this reader found, where that line holds the header's text); rows
//     after a footer line ("|===|", or a lone "|") it placed a line too
//     early when they held no plain text or were read from a copy (the
//     check skips files with a footer line).
//
//   - Inline: named entities other than &amp; &lt; &gt; &quot; &apos;
//     &nbsp; stay as written (the html package's table of 2,000 names
//     stays out of the page core); HTML blocks other than comments,
//     reference links and definitions, autolinks in angle brackets (kept
//     with their brackets) and bare URLs are read as plain text, and so
//     is "[text] (destination)": gomarkdown took white space between a
//     link's text and its destination, GFM (and GitHub's rendering of the
//     file) does not. The check skips files that hold any of them
//     (inlineOutsideSubset).
//
//   - Work: a cell or heading whose markup would cost more than a bound
//     linear in its length to read (64 positions a byte, and a million
//     more: a long run of "[" or "**" that nothing closes makes the
//     searches quadratic) is taken as written. gomarkdown keeps caches
//     of its own for such runs. The check skips such files
//     (mdread.OverBudget).
package rules
