// Command localjudge stands in for a local model behind docscore's command
// adapter (docscore eval --judge command --judge-command '…'). It reads one
// request as JSON on standard input and writes its answer, one JSON object
// matching the request's output_schema, on standard output.
//
// It is deterministic and needs nothing but Go, so examples and tests run
// anywhere. It is not a model: as a judge it looks for each predicted value
// in the text and JSON references; as a ground-truth reader it "sees" the
// text chunks (tEXt, keyword "docscore:<path>") embedded in PNG pages.
//
//	-misread PATH=VALUE  read VALUE for PATH (a model that misreads)
//	-skip PATH           never read PATH (a model that overlooks a field)
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

type request struct {
	Purpose      string          `json:"purpose"`
	Instructions string          `json:"instructions"`
	Input        json.RawMessage `json:"input"`
	Attachments  []struct {
		ArtifactID string `json:"artifact_id"`
		MediaType  string `json:"media_type"`
		DataBase64 string `json:"data_base64"`
	} `json:"attachments"`
}

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(s string) error { *m = append(*m, s); return nil }

func main() {
	var misread, skip multi
	flag.Var(&misread, "misread", "PATH=VALUE: read VALUE for PATH (repeatable)")
	flag.Var(&skip, "skip", "PATH: never read PATH (repeatable)")
	flag.Parse()
	var req request
	if err := json.NewDecoder(os.Stdin).Decode(&req); err != nil {
		fmt.Fprintln(os.Stderr, "localjudge: reading the request:", err)
		os.Exit(2)
	}
	var out any
	var err error
	switch req.Purpose {
	case "judge":
		out, err = judge(req)
	case "ground_truth", "ground_truth_adjudication":
		out, err = read(req, misread, skip)
	default:
		err = fmt.Errorf("unknown purpose %q", req.Purpose)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "localjudge:", err)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	enc.Encode(out)
}

// judge decides each prediction claim from the text and JSON references.
func judge(req request) (any, error) {
	var in struct {
		Task struct {
			PredictionClaims []struct {
				ClaimID string `json:"claim_id"`
				Path    string `json:"path"`
				Value   any    `json:"value"`
			} `json:"prediction_claims"`
		} `json:"task"`
		References []struct {
			ArtifactID string `json:"artifact_id"`
			Authority  string `json:"authority"`
			Content    any    `json:"content"`
		} `json:"references"`
	}
	if err := json.Unmarshal(req.Input, &in); err != nil {
		return nil, err
	}
	type claim struct {
		ClaimID     string  `json:"claim_id"`
		Status      string  `json:"status"`
		ReferenceID *string `json:"reference_id"`
		Evidence    string  `json:"evidence"`
	}
	claims := []claim{}
	supported, contradicted := 0, 0
	for _, c := range in.Task.PredictionClaims {
		want := text(c.Value)
		cl := claim{ClaimID: c.ClaimID, Status: "undecidable", Evidence: "no reference mentions " + want}
		for _, r := range in.References {
			id := r.ArtifactID
			if s, ok := r.Content.(string); ok && want != "" && strings.Contains(s, want) {
				cl = claim{c.ClaimID, "supported", &id, fmt.Sprintf("%q appears in %s", want, id)}
				break
			}
			if m, ok := r.Content.(map[string]any); ok {
				if v, ok := lookup(m, c.Path); ok {
					if text(v) == want {
						cl = claim{c.ClaimID, "supported", &id, fmt.Sprintf("%s is %s in %s", c.Path, want, id)}
					} else {
						cl = claim{c.ClaimID, "contradicted", &id, fmt.Sprintf("%s is %s in %s, not %s", c.Path, text(v), id, want)}
					}
					break
				}
			}
		}
		switch cl.Status {
		case "supported":
			supported++
		case "contradicted":
			contradicted++
		}
		claims = append(claims, cl)
	}
	verdict, why := "uncertain", "the references do not settle every claim"
	switch {
	case contradicted > 0:
		verdict, why = "fail", fmt.Sprintf("%d claim(s) contradicted by a reference", contradicted)
	case supported == len(claims) && supported > 0:
		verdict, why = "pass", "every claim is found in a reference"
	}
	return map[string]any{
		"verdict": verdict, "rationale": why, "confidence": 0.6,
		"claims": claims, "reference_claims": []any{},
	}, nil
}

// lookup follows a simple path ($.a.b) into a JSON object.
func lookup(m map[string]any, path string) (any, bool) {
	var v any = m
	for _, k := range strings.Split(strings.TrimPrefix(path, "$."), ".") {
		mm, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = mm[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

func text(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// read returns the fields the PNG pages carry in tEXt chunks.
func read(req request, misread, skip multi) (any, error) {
	var in struct {
		ExpectedFields []string `json:"expected_fields"`
		DisputedPaths  []string `json:"disputed_paths"`
	}
	if err := json.Unmarshal(req.Input, &in); err != nil {
		return nil, err
	}
	wanted := in.ExpectedFields
	if req.Purpose == "ground_truth_adjudication" {
		wanted = in.DisputedPaths
	}
	type seen struct{ value, page string }
	found := map[string]seen{}
	for _, a := range req.Attachments {
		data, err := base64.StdEncoding.DecodeString(a.DataBase64)
		if err != nil {
			return nil, err
		}
		for k, v := range pngText(data) {
			if p, ok := strings.CutPrefix(k, "docscore:"); ok {
				if _, dup := found[p]; !dup {
					found[p] = seen{v, a.ArtifactID}
				}
			}
		}
	}
	for _, m := range misread {
		p, v, _ := strings.Cut(m, "=")
		if s, ok := found[p]; ok {
			found[p] = seen{v, s.page}
		}
	}
	for _, p := range skip {
		delete(found, p)
	}
	if len(wanted) == 0 {
		for p := range found {
			wanted = append(wanted, p)
		}
		sort.Strings(wanted)
	}
	claims := []any{}
	for _, p := range wanted {
		s, ok := found[p]
		if !ok {
			continue
		}
		claims = append(claims, map[string]any{
			"path": p, "value": s.value, "reference_id": s.page,
			"visual_evidence": fmt.Sprintf("text %q on %s", s.value, s.page), "confidence": 0.8,
		})
	}
	return map[string]any{"claims": claims}, nil
}

// pngText returns the tEXt chunks of a PNG.
func pngText(data []byte) map[string]string {
	out := map[string]string{}
	if !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		return out
	}
	for i := 8; i+8 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[i:]))
		typ := string(data[i+4 : i+8])
		if n < 0 || i+12+n > len(data) {
			break
		}
		if typ == "tEXt" {
			if k, v, ok := bytes.Cut(data[i+8:i+8+n], []byte{0}); ok {
				out[string(k)] = string(v)
			}
		}
		i += 12 + n
	}
	return out
}
