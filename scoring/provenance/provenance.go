// Package provenance says where every number of a report came from (SPEC
// F.8): the docscore version and the SPEC version it follows, the
// operation, every input's name, byte count and sha256, the rule file's
// sha256, the seed, replicates and permutations, and the options that
// change numbers. A host adds it as the last member of a JSON report
// (Append); "docscore verify" reads it back (Read), finds the inputs,
// re-runs the operation and compares the bytes. It is pure (no os, no
// net): the page hashes the files it was given, as the command line
// does, so the same inputs give the same bytes in every host.
package provenance

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/docscore/docscore/internal/sha256sum"
	"github.com/docscore/docscore/scoring/internal/jsonout"
)

// Spec is the version of the SPEC sections a report follows.
const Spec = "2026-12 (F.7, F.8, G, H)"

// Version is the docscore version written in every report. Release
// builds set it for every host alike (-X .../scoring/provenance.Version=V),
// so that the command line, the page and the Worker write the same bytes.
var Version = "dev"

// SamplePrefix starts the name of a file of the embedded sample
// ("sample/tabular/runs.jsonl"): verify takes it from the sample bundled
// with docscore when it finds no such file.
const SamplePrefix = "sample/"

// Input is one input file of a report.
type Input struct {
	// Role is the request field that carried the file: "gt", "runs",
	// "rules", "base", "report".
	Role string `json:"role"`
	// Name is the file's base name, or the embedded sample's path
	// (SamplePrefix…).
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Option is one option that changes numbers, as the request gave it.
type Option struct {
	Name  string
	Value json.RawMessage
}

// Provenance is a report's "provenance" member.
type Provenance struct {
	Version   string
	Spec      string
	Operation string
	Inputs    []Input
	// RulesSHA256 is the rule file's hash, "" when there is none.
	RulesSHA256 string
	// Seed, Replicates and Permutations are the draws' settings as they
	// took effect (defaults included); nil where the operation draws
	// nothing.
	Seed                     *uint64
	Replicates, Permutations *int
	// Options are the request's other options, in the request's order.
	Options []Option
}

// Name is the name an input is recorded under: its base name, or the
// path of a file of the embedded sample.
func Name(name string) string {
	if strings.HasPrefix(name, SamplePrefix) {
		return name
	}
	// Both separators: a name from Windows or from the page.
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return path.Clean(name)
}

// NewInput records a file given whole.
func NewInput(role, name string, data []byte) Input {
	sum := sha256sum.Sum256(data)
	return Input{Role: role, Name: Name(name), Bytes: int64(len(data)), SHA256: hex.EncodeToString(sum[:])}
}

// JSON writes the member's value, indented as a top-level member of a
// report (two spaces, its members four).
func (p *Provenance) JSON() ([]byte, error) {
	jw := jsonout.NewWriter(512 + 160*len(p.Inputs))
	jw.Open('{')
	jw.Key("version")
	jw.String(p.Version)
	jw.Key("spec")
	jw.String(p.Spec)
	jw.Key("operation")
	jw.String(p.Operation)
	jw.Key("inputs")
	jw.Open('[')
	for _, in := range p.Inputs {
		jw.Elem()
		jw.Open('{')
		jw.Key("role")
		jw.String(in.Role)
		jw.Key("name")
		jw.String(in.Name)
		jw.Key("bytes")
		jw.Int(int(in.Bytes))
		jw.Key("sha256")
		jw.String(in.SHA256)
		jw.Close('}')
	}
	jw.Close(']')
	jw.Key("rules_sha256")
	if p.RulesSHA256 == "" {
		jw.Null()
	} else {
		jw.String(p.RulesSHA256)
	}
	if p.Seed != nil {
		jw.Key("seed")
		jw.Uint(*p.Seed)
	}
	if p.Replicates != nil {
		jw.Key("replicates")
		jw.Int(*p.Replicates)
	}
	if p.Permutations != nil {
		jw.Key("permutations")
		jw.Int(*p.Permutations)
	}
	jw.Key("options")
	jw.Open('{')
	for _, o := range p.Options {
		jw.Key(o.Name)
		jw.Raw(o.Value)
	}
	jw.Close('}')
	jw.Close('}')
	b, err := jw.Bytes()
	if err != nil {
		return nil, err
	}
	// One level deeper: the member sits inside the report's object.
	b = bytes.TrimRight(b, "\n")
	return bytes.ReplaceAll(b, []byte("\n"), []byte("\n  ")), nil
}

// Append adds p as the last member, "provenance", of a JSON report
// written indented by two spaces (the report's object closes on a line
// of its own: "\n}\n").
func Append(report []byte, p *Provenance) ([]byte, error) {
	body := bytes.TrimRight(report, "\n")
	if !bytes.HasSuffix(body, []byte("\n}")) {
		return nil, fmt.Errorf("provenance: the report is not an indented JSON object")
	}
	pj, err := p.JSON()
	if err != nil {
		return nil, err
	}
	out := make([]byte, 0, len(body)+len(pj)+32)
	out = append(out, body[:len(body)-2]...)
	out = append(out, ",\n  \"provenance\": "...)
	out = append(out, pj...)
	return append(out, "\n}\n"...), nil
}

// Tail is what a streaming writer writes instead of a report's last
// "\n}\n": the provenance member and the close.
func Tail(p *Provenance) ([]byte, error) {
	pj, err := p.JSON()
	if err != nil {
		return nil, err
	}
	return append(append([]byte(",\n  \"provenance\": "), pj...), "\n}\n"...), nil
}

// Read returns a report's provenance, or an error saying it has none.
func Read(name string, report []byte) (*Provenance, error) {
	var head struct {
		Provenance *struct {
			Version      string          `json:"version"`
			Spec         string          `json:"spec"`
			Operation    string          `json:"operation"`
			Inputs       []Input         `json:"inputs"`
			RulesSHA256  *string         `json:"rules_sha256"`
			Seed         *uint64         `json:"seed"`
			Replicates   *int            `json:"replicates"`
			Permutations *int            `json:"permutations"`
			Options      json.RawMessage `json:"options"`
		} `json:"provenance"`
	}
	if err := json.Unmarshal(report, &head); err != nil {
		return nil, fmt.Errorf("%s: not a JSON report: %v", name, err)
	}
	h := head.Provenance
	if h == nil {
		return nil, fmt.Errorf("%s: has no \"provenance\" member: only JSON reports written by this version of docscore can be verified", name)
	}
	if h.Operation == "" {
		return nil, fmt.Errorf("%s: its provenance names no operation", name)
	}
	p := &Provenance{Version: h.Version, Spec: h.Spec, Operation: h.Operation, Inputs: h.Inputs,
		Seed: h.Seed, Replicates: h.Replicates, Permutations: h.Permutations}
	if h.RulesSHA256 != nil {
		p.RulesSHA256 = *h.RulesSHA256
	}
	opts, err := orderedMembers(h.Options)
	if err != nil {
		return nil, fmt.Errorf("%s: provenance options: %v", name, err)
	}
	p.Options = opts
	return p, nil
}

// orderedMembers reads a JSON object's members in order.
func orderedMembers(raw json.RawMessage) ([]Option, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, fmt.Errorf("expected an object")
	}
	var out []Option
	for d.More() {
		k, err := d.Token()
		if err != nil {
			return nil, err
		}
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, Option{Name: k.(string), Value: v})
	}
	return out, nil
}
