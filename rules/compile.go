package rules

import (
	"github.com/docscore/docscore/scoring/schema"
	"github.com/docscore/docscore/scoring/text"
)

// Replacement is one multi-token equivalence: the token sequence Form is
// replaced by Canonical.
type Replacement struct {
	Form      []string
	Canonical []string
}

// IgnoreRule is one ignore row compiled for one field: its forms as token
// sequences, in listed order.
type IgnoreRule struct {
	Forms    [][]string
	Position Position
	Side     Side
	Line     int
}

// FieldRules are the compiled rules of one field, in the order base
// normalization applies them (SPEC A.3 steps 5–7).
type FieldRules struct {
	Single  map[string][]string // step 5: one token → canonical tokens
	Multi   []Replacement       // step 6: sequence replacements, in file order
	Ignores []IgnoreRule        // step 7: in file order
}

// Compiled holds the rules of every field. Key holds the ignore rules of
// the key column, which define the readings of a model name.
type Compiled struct {
	Key    []IgnoreRule
	Fields map[string]*FieldRules
}

// Compile turns rows (normally File.Active's) into per-field tables for s.
// Rows are expected to have passed Check; fields it cannot resolve are
// skipped. Forms are normalized like the text they match: key forms by name
// normalization, others by base steps 1–3 (and place splitting for places).
func Compile(rows []Row, s *schema.Schema) *Compiled {
	c := &Compiled{Fields: map[string]*FieldRules{}}
	for _, col := range s.Columns {
		if col.Kind.IsText() {
			c.Fields[col.Name] = &FieldRules{Single: map[string][]string{}}
		}
	}
	for _, r := range rows {
		fields, problem, _ := resolveFields(r, s)
		if problem != "" {
			continue
		}
		for _, fld := range fields {
			kind := fieldKind(s, fld)
			if r.Kind == Ignore {
				rule := IgnoreRule{Position: r.Position, Side: r.Side, Line: r.Line}
				for _, form := range r.Forms {
					if toks := formTokens(form, kind); len(toks) > 0 {
						rule.Forms = append(rule.Forms, toks)
					}
				}
				if kind == keyKind {
					c.Key = append(c.Key, rule)
				} else {
					c.Fields[fld].Ignores = append(c.Fields[fld].Ignores, rule)
				}
				continue
			}
			fr := c.Fields[fld]
			canon := formTokens(r.Canonical, kind)
			for _, form := range r.Forms {
				toks := formTokens(form, kind)
				switch {
				case len(toks) == 1:
					if _, taken := fr.Single[toks[0]]; !taken {
						fr.Single[toks[0]] = canon
					}
				case len(toks) > 1:
					fr.Multi = append(fr.Multi, Replacement{Form: toks, Canonical: canon})
				}
			}
		}
	}
	return c
}

// formTokens normalizes a rule form like the text it matches.
func formTokens(form string, kind schema.Kind) []string {
	switch kind {
	case keyKind:
		return text.NameTokens(form)
	case schema.Place:
		return text.SplitElisions(text.BaseTokens(form, false))
	default:
		return text.BaseTokens(form, false)
	}
}

// valueTokens normalizes a ground-truth value for the ignore check: names by
// name normalization, other values by base steps 1–4 (and place splitting).
func valueTokens(v string, kind schema.Kind) []string {
	switch kind {
	case keyKind:
		return text.NameTokens(v)
	case schema.Place:
		return text.SplitElisions(text.BaseTokens(v, true))
	default:
		return text.BaseTokens(v, true)
	}
}
