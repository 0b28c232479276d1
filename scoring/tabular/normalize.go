package tabular

import (
	"slices"
	"strings"

	"github.com/docscore/docscore/rules"
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/text"
)

// normalizeField applies base normalization (SPEC A.3 steps 1–7) to one
// text value of a column of the given kind, with the column's compiled
// rules (nil for none), plus place splitting for places and the day
// zero-strip for dates. gtSide selects the ground-truth steps: the trailing
// '?' strip, and only ignore rows whose side is "both". scratch, when not
// nil, lends its slice for the tokens (the result keeps none of it).
func normalizeField(v string, kind schema.Kind, fr *rules.FieldRules, gtSide bool, scratch *[]string) string {
	var toks []string
	if scratch != nil {
		toks = text.AppendBaseTokens((*scratch)[:0], v, gtSide)
		*scratch = toks
	} else {
		toks = text.BaseTokens(v, gtSide)
	}
	if kind == schema.Place {
		toks = text.SplitElisions(toks)
	}
	if fr != nil {
		toks = applySingle(toks, fr.Single)
		for _, rep := range fr.Multi {
			toks = replaceSeq(toks, rep.Form, rep.Canonical)
		}
		for _, ig := range fr.Ignores {
			if gtSide && ig.Side == rules.ModelSide {
				continue
			}
			toks = applyIgnore(toks, ig)
		}
	}
	if kind == schema.Date {
		text.StripDayZero(toks)
	}
	return strings.Join(toks, " ")
}

// applySingle replaces every token that is a single-token form by its
// canonical tokens (step 5), one lookup per token.
func applySingle(toks []string, single map[string][]string) []string {
	if len(single) == 0 {
		return toks
	}
	var out []string
	for i, t := range toks {
		canon, ok := single[t]
		if !ok {
			if out != nil {
				out = append(out, t)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(toks)+len(canon)), toks[:i]...)
		}
		out = append(out, canon...)
	}
	if out == nil {
		return toks
	}
	return out
}

// replaceSeq replaces every occurrence of form in toks, left to right and
// without overlap, by canon (step 6).
func replaceSeq(toks, form, canon []string) []string {
	if len(form) == 0 || len(form) > len(toks) {
		return toks
	}
	var out []string
	i := 0
	for i < len(toks) {
		if text.HasTokenPrefix(toks[i:], form) {
			if out == nil {
				out = append(make([]string, 0, len(toks)), toks[:i]...)
			}
			out = append(out, canon...)
			i += len(form)
			continue
		}
		if out != nil {
			out = append(out, toks[i])
		}
		i++
	}
	if out == nil {
		return toks
	}
	return out
}

// applyIgnore applies one ignore row once (step 7): leading and trailing
// remove the first listed form found at that end; anywhere removes every
// occurrence of every form.
func applyIgnore(toks []string, ig rules.IgnoreRule) []string {
	switch ig.Position {
	case rules.Leading:
		for _, f := range ig.Forms {
			if text.HasTokenPrefix(toks, f) {
				return toks[len(f):]
			}
		}
	case rules.Trailing:
		for _, f := range ig.Forms {
			if text.HasTokenSuffix(toks, f) {
				return toks[:len(toks)-len(f)]
			}
		}
	case rules.Anywhere:
		for _, f := range ig.Forms {
			toks = replaceSeq(toks, f, nil)
		}
	}
	return toks
}

// maxReadings bounds the readings of one model name (SPEC A.2 step 2).
const maxReadings = 64

// joinEqual reports whether a and b join with spaces into the same text
// (two readings are one): their tokens compared, without joining, when
// none holds a space.
func joinEqual(a, b []string) bool {
	if len(a) == 0 || len(b) == 0 || slices.ContainsFunc(a, hasSpace) || slices.ContainsFunc(b, hasSpace) {
		return strings.Join(a, " ") == strings.Join(b, " ")
	}
	return slices.Equal(a, b)
}

func hasSpace(t string) bool { return strings.IndexByte(t, ' ') >= 0 }

// Readings returns the readings of a normalized model name under the key
// column's ignore rules (SPEC A.6): reading 0 is the name itself; rules are
// applied repeatedly, breadth first, rules in file order, forms in listed
// order, occurrences left to right, with the position test made on the
// current reading. Duplicates and empty readings are dropped; at most 64
// readings are returned.
func Readings(name []string, ignores []rules.IgnoreRule) [][]string {
	if len(name) == 0 {
		return nil
	}
	out := [][]string{name}
	if len(ignores) == 0 {
		return out
	}
	add := func(r []string) bool {
		if len(r) == 0 {
			return true
		}
		for _, o := range out {
			if joinEqual(o, r) {
				return true
			}
		}
		out = append(out, r)
		return len(out) < maxReadings
	}
	for q := 0; q < len(out); q++ {
		cur := out[q]
		for _, ig := range ignores {
			for _, f := range ig.Forms {
				switch ig.Position {
				case rules.Leading:
					if text.HasTokenPrefix(cur, f) && !add(cur[len(f):]) {
						return out
					}
				case rules.Trailing:
					if text.HasTokenSuffix(cur, f) && !add(cur[:len(cur)-len(f)]) {
						return out
					}
				case rules.Anywhere:
					for i := 0; i+len(f) <= len(cur); i++ {
						if !text.HasTokenPrefix(cur[i:], f) {
							continue
						}
						r := append(append(make([]string, 0, len(cur)-len(f)), cur[:i]...), cur[i+len(f):]...)
						if !add(r) {
							return out
						}
					}
				}
			}
		}
	}
	return out
}
