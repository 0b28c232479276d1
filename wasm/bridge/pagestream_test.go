package bridge

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/docscore/docscore/scoring/api"
	"github.com/docscore/docscore/scoring/tabular"
	"github.com/docscore/docscore/scoring/tabular/tabulartest"
)

// sectionsOf splits an answer of length-prefixed sections.
func sectionsOf(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 4 {
			t.Fatalf("a section cut short: %d bytes", len(b))
		}
		n := int(binary.LittleEndian.Uint32(b))
		if 4+n > len(b) {
			t.Fatalf("section of %d bytes in %d", n, len(b)-4)
		}
		out = append(out, b[4:4+n])
		b = b[4+n:]
	}
	return out
}

// rawOf is a call's raw answer; an error envelope fails the test.
func rawOf(t *testing.T, d *Dispatcher, method string, r Request) []byte {
	t.Helper()
	a := d.AnswerRequest(method, r)
	if !a.IsRaw {
		t.Fatalf("%s: %s", method, a.Envelope)
	}
	return a.Raw
}

// streamedByPool scores req as the page's pool does: scorers
// dispatchers (one per worker) score parts of 7 lines in turn, one more
// takes the results in order. It returns Finish's answer, the images of
// the page's table and the report's parts put together.
func streamedByPool(t *testing.T, req api.TabularRequest, summary bool, scorers int) (finish []byte, images []json.RawMessage, report []byte) {
	t.Helper()
	start := func(role string) string {
		b, err := json.Marshal(struct {
			api.TabularRequest
			Summary bool   `json:"summary"`
			Role    string `json:"role"`
		}{req, summary, role})
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	runs := []byte(req.Runs.Text)
	req.Runs.Text = ""
	var pool []*Dispatcher
	for range scorers {
		d := NewMethods(nil).With(StreamMethods())
		if a := d.Answer("streamStart", start("scorer")); !strings.Contains(a.Envelope, `"error": null`) {
			t.Fatalf("streamStart scorer: %s", a.Envelope)
		}
		pool = append(pool, d)
	}
	merger := NewMethods(nil).With(StreamMethods())
	if a := merger.Answer("streamStart", start("merger")); !strings.Contains(a.Envelope, `"error": null`) {
		t.Fatalf("streamStart merger: %s", a.Envelope)
	}
	// The page hands the runs file's bytes to the merger as it reads
	// them, in pieces of any size.
	for i := 0; i < len(runs); i += 4096 {
		if a := merger.AnswerRequest("streamHash", Request{JSON: []byte("{}"), Bytes: runs[i:min(i+4096, len(runs))]}); !strings.Contains(a.Envelope, `"error": null`) {
			t.Fatalf("streamHash: %s", a.Envelope)
		}
	}
	var out, spool []byte
	lines := bytes.SplitAfter(runs, []byte("\n"))
	for i, k := 0, 0; i < len(lines); i, k = i+7, k+1 {
		part := bytes.Join(lines[i:min(i+7, len(lines))], nil)
		res := rawOf(t, pool[k%scorers], "streamScore", Request{JSON: []byte(mustJSON(t, map[string]int{"first": i + 1})), Bytes: part})
		s := sectionsOf(t, rawOf(t, merger, "streamTake", Request{Bytes: res}))
		if len(s) != 4 {
			t.Fatalf("streamTake: %d sections, want 4", len(s))
		}
		var ims []json.RawMessage
		if err := json.Unmarshal(s[0], &ims); err != nil {
			t.Fatalf("images %q: %v", s[0], err)
		}
		images = append(images, ims...)
		out, spool = append(out, s[1]...), append(spool, s[2]...)
		if s[3][0] == 1 {
			break
		}
	}
	a := merger.AnswerRequest("streamFinish", Request{})
	if !a.IsRaw {
		return []byte(a.Envelope), images, nil
	}
	if summary {
		return a.Raw, images, nil
	}
	s := sectionsOf(t, a.Raw)
	report = append(append(append(out, s[0]...), spool...), s[1]...)
	return a.Raw, images, report
}

// generatedRequest is a generated corpus with failures, raw responses
// and malformed lines at bad (0-based images).
func generatedRequest(t *testing.T, images int, bad []int, skip bool) api.TabularRequest {
	t.Helper()
	c := tabulartest.New(tabulartest.Large(images, 5))
	var runs bytes.Buffer
	if _, err := c.WriteRuns(&runs, tabulartest.RunsOptions{Images: images, BadLines: bad, Responses: true}); err != nil {
		t.Fatal(err)
	}
	req := toAPI(tabular.Request{GT: c.GT, Runs: tabular.File{Name: "runs.jsonl", Data: runs.Bytes()}}, "", "")
	req.SkipBadLines = skip
	return req
}

// TestStreamMethodsEqualScoreTabular: the report the pool's parts make
// up is scoreTabular's, byte for byte, in every format, with one worker
// and with three.
func TestStreamMethodsEqualScoreTabular(t *testing.T) {
	reqs := map[string]api.TabularRequest{
		"sample":    sampleRequest(t, "", ""),
		"generated": generatedRequest(t, 300, []int{4, 200}, true),
	}
	for name, req := range reqs {
		for _, format := range []string{"json", "csv", "md"} {
			req.Format = format
			want := rawOf(t, core, "scoreTabular", Request{JSON: []byte(mustJSON(t, req))})
			for _, scorers := range []int{1, 3} {
				_, _, got := streamedByPool(t, req, false, scorers)
				if !bytes.Equal(got, want) {
					t.Errorf("%s, %s, %d workers: %d bytes differ from scoreTabular's %d", name, format, scorers, len(got), len(want))
				}
			}
		}
	}
}

// TestStreamSummaryEqualsDropTabular: the summary is dropTabular's, its
// images null, and the images Take lists are dropTabular's, in order; a
// malformed line not skipped is dropTabular's error, with its line.
func TestStreamSummaryEqualsDropTabular(t *testing.T) {
	cases := map[string]api.TabularRequest{
		"sample":    sampleRequest(t, "", ""),
		"generated": generatedRequest(t, 300, []int{4, 200}, true),
		"bad line":  generatedRequest(t, 300, []int{150}, false),
	}
	for name, req := range cases {
		want := rawOf(t, New(api.TabularOperations()), "dropTabular", Request{JSON: []byte(mustJSON(t, req))})
		var drop struct {
			Rules   json.RawMessage
			Error   *api.ErrorDetail
			Summary map[string]json.RawMessage
		}
		if err := json.Unmarshal(want, &drop); err != nil {
			t.Fatal(err)
		}
		var wantImages []map[string]any
		if drop.Summary != nil {
			if err := json.Unmarshal(drop.Summary["images"], &wantImages); err != nil {
				t.Fatal(err)
			}
			drop.Summary["images"] = json.RawMessage("null")
		}
		wantJSON, _ := json.Marshal(drop)
		for _, scorers := range []int{1, 2} {
			finish, images, _ := streamedByPool(t, req, true, scorers)
			var got struct {
				Rules   json.RawMessage
				Error   *api.ErrorDetail
				Summary map[string]json.RawMessage
			}
			if err := json.Unmarshal(finish, &got); err != nil {
				t.Fatalf("%s: %v: %.300s", name, err, finish)
			}
			gotJSON, _ := json.Marshal(got)
			if !bytes.Equal(gotJSON, wantJSON) {
				t.Errorf("%s, %d workers: summary\n%.600s\nwant\n%.600s", name, scorers, gotJSON, wantJSON)
			}
			if drop.Error != nil {
				if drop.Error.Line == nil || got.Error == nil || got.Error.Line == nil || *got.Error.Line != *drop.Error.Line {
					t.Errorf("%s: error %+v, want that of dropTabular %+v", name, got.Error, drop.Error)
				}
				continue
			}
			if len(images) != len(wantImages) {
				t.Fatalf("%s: %d images, want %d", name, len(images), len(wantImages))
			}
			for i, raw := range images {
				var row []any
				if err := json.Unmarshal(raw, &row); err != nil {
					t.Fatal(err)
				}
				w := wantImages[i]
				ok := 0.0
				if w["status"] == "ok" {
					ok = 1
				}
				failure, _ := w["failure"].(string)
				wantRow := []any{w["line"], w["model"], w["phase"], w["run"], w["page"], ok, w["matched"], w["n_model"], w["n_gt"], w["f1"], failure}
				if !reflect.DeepEqual(row, wantRow) {
					t.Fatalf("%s: image %d: %v, want %v", name, i, row, wantRow)
				}
			}
		}
	}
}
