package compareapi

import (
	"strconv"
	"strings"

	"github.com/docscore/docscore/scoring/internal/jsonscan"
)

// scanTabular reads a tabular report's members as encoding/json fills
// tabularJSON, in one pass of jsonscan over the text: three to four times
// faster on the benchmark corpus's 8 MB report, most of which (the image
// rows' pairs) is only checked. ok is false for a text that is not a
// tabular report of the expected shape — not JSON, another kind, a member
// of another type, a repeated key, a key encoding/json would match only
// by case-folding, a number out of range —, and the caller then reads it
// with encoding/json, which decodes the same values or names the error
// (TestScanMatchesEncodingJSON).
func scanTabular(text string) (r tabularJSON, ok bool) {
	var n jsonscan.Nested
	if !n.Parse(text, "images") {
		return r, false
	}
	top := n.Members
	kind, isString := "", false
	var cells []jsonscan.Member
	var fields []string
	ok = scanMembers(top, []string{"kind", "fields", "cells", "images"}, func(k, raw string) bool {
		switch k {
		case "kind":
			kind, isString = jsonscan.String(raw)
			return isString
		case "fields":
			elems, ok := jsonscan.Array(nil, raw)
			if !ok {
				return false
			}
			fields = make([]string, len(elems))
			for i, e := range elems {
				if fields[i], ok = jsonscan.String(e); !ok {
					return false
				}
			}
			r.Fields = &fields
			return true
		case "cells":
			elems, ok := jsonscan.Array(nil, raw)
			if !ok {
				return false
			}
			c := make([]struct {
				Model *string `json:"model"`
				Phase *string `json:"phase"`
			}, len(elems))
			for i, e := range elems {
				if cells, ok = jsonscan.Object(cells[:0], e); !ok {
					return false
				}
				if !scanMembers(cells, []string{"model", "phase"}, func(k, raw string) bool {
					if k == "model" {
						return scanString(raw, &c[i].Model)
					}
					return scanString(raw, &c[i].Phase)
				}) {
					return false
				}
			}
			r.Cells = &c
			return true
		}
		// images, split by Parse
		if !n.List {
			return false
		}
		images := make([]tabularImage, len(n.Ends))
		start := 0
		for i, end := range n.Ends {
			if !scanImage(n.Items[start:end], &images[i]) {
				return false
			}
			start = end
		}
		r.Images = &images
		return true
	})
	return r, ok && kind == "tabular" && r.Fields != nil && r.Cells != nil && r.Images != nil
}

// imageKeys are the members of an image row that tabularImage reads.
var imageKeys = []string{"model", "phase", "page", "status", "line", "matched", "n_model", "n_gt", "name_cer_edits", "name_ref_chars", "fields"}

func scanImage(members []jsonscan.Member, im *tabularImage) bool {
	return scanMembers(members, imageKeys, func(k, raw string) bool {
		switch k {
		case "model":
			return scanString(raw, &im.Model)
		case "phase":
			return scanString(raw, &im.Phase)
		case "page":
			return scanString(raw, &im.Page)
		case "status":
			return scanString(raw, &im.Status)
		case "line":
			if raw == "null" {
				return true
			}
			v, err := strconv.ParseInt(raw, 10, 64)
			im.Line = int(v)
			return err == nil && isNumber(raw)
		case "matched":
			return scanNumber(raw, &im.Matched)
		case "n_model":
			return scanNumber(raw, &im.NModel)
		case "n_gt":
			return scanNumber(raw, &im.NGT)
		case "name_cer_edits":
			return scanNumber(raw, &im.NameEdits)
		case "name_ref_chars":
			return scanNumber(raw, &im.NameRefChars)
		}
		// fields: a map, whose keys encoding/json matches exactly
		if raw == "null" {
			return true
		}
		fs, ok := jsonscan.Object(nil, raw)
		if !ok {
			return false
		}
		im.Fields = make(map[string]*tabularFieldSum, len(fs))
		for _, f := range fs {
			if _, again := im.Fields[f.Key]; again {
				return false
			}
			if f.Value == "null" {
				im.Fields[f.Key] = nil
				continue
			}
			sums, ok := jsonscan.Object(nil, f.Value)
			if !ok {
				return false
			}
			s := &tabularFieldSum{}
			if !scanMembers(sums, []string{"sum", "scored"}, func(k, raw string) bool {
				if k == "sum" {
					return scanNumber(raw, &s.Sum)
				}
				return scanNumber(raw, &s.Scored)
			}) {
				return false
			}
			im.Fields[f.Key] = s
		}
		return true
	})
}

// scanMembers calls set for each member whose key is one of keys, and
// is false, as set is, for a member encoding/json would read otherwise:
// a key given twice, or one that matches a key only by case-folding.
func scanMembers(members []jsonscan.Member, keys []string, set func(key, raw string) bool) bool {
	var seen uint64
	for _, m := range members {
		i := indexOf(keys, m.Key)
		switch {
		case i >= 0 && seen&(1<<i) != 0:
			return false
		case i >= 0:
			seen |= 1 << i
			if !set(m.Key, m.Value) {
				return false
			}
		default:
			for _, k := range keys {
				if strings.EqualFold(k, m.Key) {
					return false
				}
			}
		}
	}
	return true
}

func indexOf(keys []string, key string) int {
	for i, k := range keys {
		if k == key {
			return i
		}
	}
	return -1
}

// scanString reads a string or null into *dst.
func scanString(raw string, dst **string) bool {
	if raw == "null" {
		*dst = nil
		return true
	}
	s, ok := jsonscan.String(raw)
	*dst = &s
	return ok
}

// scanNumber reads a number or null into *dst, as encoding/json does
// (strconv.ParseFloat; out of range is an error).
func scanNumber(raw string, dst **float64) bool {
	if raw == "null" {
		*dst = nil
		return true
	}
	if !isNumber(raw) {
		return false
	}
	v, err := strconv.ParseFloat(raw, 64)
	*dst = &v
	return err == nil
}

// isNumber is whether a scanned value is a number (jsonscan has checked
// its syntax).
func isNumber(raw string) bool { return raw != "" && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') }
