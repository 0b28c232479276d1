package api

import (
	"bytes"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

// TestBase64FilesAreScored checks that a file sent as base64 is scored as
// its decoded bytes (it was read as empty before), and that a bad base64
// or a file giving both contents is a *ParamError naming the file.
func TestBase64FilesAreScored(t *testing.T) {
	text := sampleTabular(t)
	want, err := ScoreTabular(text)
	if err != nil {
		t.Fatal(err)
	}
	enc := func(f File) File {
		return File{Name: f.Name, Base64: base64.StdEncoding.EncodeToString([]byte(f.Text))}
	}
	cases := []struct {
		name   string
		edit   func(r *TabularRequest)
		errMsg string
	}{
		{"runs as base64", func(r *TabularRequest) { r.Runs = enc(r.Runs) }, ""},
		{"rules as base64", func(r *TabularRequest) { f := enc(*r.Rules); r.Rules = &f }, ""},
		{"every file as base64", func(r *TabularRequest) {
			for i := range r.GT {
				r.GT[i] = enc(r.GT[i])
			}
			r.Runs = enc(r.Runs)
			f := enc(*r.Rules)
			r.Rules = &f
		}, ""},
		{"bad base64", func(r *TabularRequest) { r.Runs = File{Name: "r", Base64: "!!!"} }, `base64 of file "r": expected standard base64`},
		{"unpadded base64", func(r *TabularRequest) { r.Runs = File{Name: "r", Base64: "e30"} }, `base64 of file "r"`},
		{"both text and base64", func(r *TabularRequest) { r.Rules.Base64 = "e30=" }, `also gives a text`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := sampleTabular(t)
			c.edit(&req)
			got, err := ScoreTabular(req)
			if c.errMsg != "" {
				var pe *ParamError
				if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.errMsg) {
					t.Fatalf("error %v, want a ParamError with %q", err, c.errMsg)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("the report of base64 files differs from that of the same files as text:\n%.300s", got)
			}
		})
	}
}
