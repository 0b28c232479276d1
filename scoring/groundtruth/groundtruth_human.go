package groundtruth

import (
	"sort"

	"github.com/docscore/docscore/scoring/agreement"
	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// ReviewedGeneration is a generation and what a person approved of it:
// the rows of the approved reference (the claims as corrected plus every
// review item decided "set"). A field of the generation that is not among
// Approved was deleted or decided "omit".
type ReviewedGeneration struct {
	Report   *GroundTruthReport
	Approved []evalcase.Field
}

// HumanCategory is the nominal category of a field's reading: the path and
// the value's comparison key (the key the panel votes on), or the path and
// "absent" when the field was not read or was omitted. Keys carry a type
// prefix (str:, num:, bool:, blank), so "absent" never collides with one.
func HumanCategory(path string, value any, present bool) string {
	if !present {
		return path + "=absent"
	}
	return path + "=" + normalizedValue(value)
}

// JudgeHumanKappa returns, per first-pass provider, Cohen's κ between the
// provider's reading and the person's decision, pooled over every
// reviewed generation. A unit is one field of one generation: every
// agreed or disputed path, in report order, then any path the person
// added, sorted. Both ratings are HumanCategory values; a provider whose
// answer was unusable gave no rating (its units are Skipped), and a
// provider omitting a field rated it absent. Providers are the readings of
// purpose ground_truth, by name; the blind second reading of an
// adjudication is not a reading of the whole case and is left out.
func JudgeHumanKappa(gens []ReviewedGeneration) map[string]agreement.Kappa {
	pairs := map[string][]agreement.Pair{}
	for _, g := range gens {
		if g.Report == nil {
			continue
		}
		human := map[string]string{}
		for _, f := range g.Approved {
			human[f.Path] = HumanCategory(f.Path, f.Value, true)
		}
		var paths []string
		seen := map[string]bool{}
		add := func(p string) {
			if !seen[p] {
				seen[p] = true
				paths = append(paths, p)
			}
		}
		for _, a := range g.Report.Agreed {
			add(a.Path)
		}
		for _, d := range g.Report.Disputed {
			add(d.Path)
		}
		var extra []string
		for p := range human {
			if !seen[p] {
				extra = append(extra, p)
			}
		}
		sort.Strings(extra)
		for _, p := range extra {
			add(p)
		}
		for _, rd := range g.Report.Readings {
			if rd.Purpose != judging.PurposeGroundTruth {
				continue
			}
			claims := map[string]GroundTruthClaim{}
			for _, c := range rd.Claims {
				claims[c.Path] = c
			}
			for _, p := range paths {
				h, ok := human[p]
				if !ok {
					h = HumanCategory(p, nil, false)
				}
				j := agreement.Missing
				if rd.Status == "ok" {
					c, read := claims[p]
					j = HumanCategory(p, c.Value, read)
				}
				pairs[rd.Name] = append(pairs[rd.Name], agreement.Pair{Judge: j, Human: h})
			}
		}
	}
	out := make(map[string]agreement.Kappa, len(pairs))
	for name, ps := range pairs {
		out[name] = agreement.CohenKappa(ps)
	}
	return out
}
