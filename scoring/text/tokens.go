package text

import "slices"

// HasTokenPrefix reports whether the token sequence toks starts with the
// non-empty sequence form.
func HasTokenPrefix(toks, form []string) bool {
	return len(form) > 0 && len(form) <= len(toks) && slices.Equal(toks[:len(form)], form)
}

// HasTokenSuffix reports whether toks ends with the non-empty sequence form.
func HasTokenSuffix(toks, form []string) bool {
	return len(form) > 0 && len(form) <= len(toks) && slices.Equal(toks[len(toks)-len(form):], form)
}

// IndexTokens returns the first index ≥ from at which the non-empty
// sequence form occurs in toks, or -1.
func IndexTokens(toks, form []string, from int) int {
	if len(form) == 0 {
		return -1
	}
	for i := max(from, 0); i+len(form) <= len(toks); i++ {
		if slices.Equal(toks[i:i+len(form)], form) {
			return i
		}
	}
	return -1
}
