package api

import (
	"strconv"

	"github.com/docscore/docscore/scoring/internal/jsonscan"
)

// DecodeTabularRequestFast reads a TabularRequest as the site writes it:
// one JSON object with the exact lower-case keys, each at most once, and
// values of the declared types (no nulls). It skips encoding/json's
// reflection and second pass over the files' texts, the bulk of the
// request. ok is false for anything else; the caller then decodes with
// encoding/json, which accepts the rest and explains what it refuses. When
// ok, the request is the one encoding/json gives (FuzzDecodeTabularFast
// holds it to that).
func DecodeTabularRequestFast(data []byte) (req TabularRequest, ok bool) {
	members, ok := jsonscan.Object(nil, string(data))
	if !ok {
		return TabularRequest{}, false
	}
	seen := map[string]bool{}
	for _, m := range members {
		if seen[m.Key] {
			return TabularRequest{}, false
		}
		seen[m.Key] = true
		switch m.Key {
		case "gt":
			elems, ok := jsonscan.Array(nil, m.Value)
			if !ok {
				return TabularRequest{}, false
			}
			req.GT = make([]File, len(elems))
			for i, e := range elems {
				if req.GT[i], ok = fastFile(e); !ok {
					return TabularRequest{}, false
				}
			}
		case "runs":
			if req.Runs, ok = fastFile(m.Value); !ok {
				return TabularRequest{}, false
			}
		case "rules", "schema":
			f, ok := fastFile(m.Value)
			if !ok {
				return TabularRequest{}, false
			}
			if m.Key == "rules" {
				req.Rules = &f
			} else {
				req.Schema = &f
			}
		case "gate":
			if m.Value[0] != '-' && (m.Value[0] < '0' || m.Value[0] > '9') {
				return TabularRequest{}, false
			}
			g, err := strconv.ParseFloat(m.Value, 64)
			if err != nil {
				return TabularRequest{}, false
			}
			req.Gate = &g
		case "preview", "format":
			s, ok := jsonscan.String(m.Value)
			if !ok {
				return TabularRequest{}, false
			}
			if m.Key == "preview" {
				req.Preview = s
			} else {
				req.Format = s
			}
		case "skip_bad_lines", "skip_bad_inputs":
			switch m.Value {
			case "true", "false":
				if m.Key == "skip_bad_lines" {
					req.SkipBadLines = m.Value == "true"
				} else {
					req.SkipBadInputs = m.Value == "true"
				}
			default:
				return TabularRequest{}, false
			}
		default:
			return TabularRequest{}, false
		}
	}
	return req, true
}

// fastFile reads {"name": …, "text": …, "base64": …, "part": n} with
// string values and a positive part.
func fastFile(raw string) (File, bool) {
	members, ok := jsonscan.Object(nil, raw)
	if !ok {
		return File{}, false
	}
	var f File
	var seen [4]bool
	for _, m := range members {
		if m.Key == "part" {
			// A small positive integer, as encoding/json reads it.
			n, err := strconv.Atoi(m.Value)
			if err != nil || n <= 0 || m.Value[0] == '0' || m.Value[0] == '+' || seen[3] {
				return File{}, false
			}
			f.Part, seen[3] = n, true
			continue
		}
		s, ok := jsonscan.String(m.Value)
		if !ok {
			return File{}, false
		}
		var i int
		switch m.Key {
		case "name":
			i, f.Name = 0, s
		case "text":
			i, f.Text = 1, s
		case "base64":
			i, f.Base64 = 2, s
		default:
			return File{}, false
		}
		if seen[i] {
			return File{}, false
		}
		seen[i] = true
	}
	return f, true
}
