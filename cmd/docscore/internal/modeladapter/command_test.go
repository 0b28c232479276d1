package modeladapter

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/docscore/docscore/scoring/evalcase"
	"github.com/docscore/docscore/scoring/judging"
)

// TestMain lets the test binary stand in for a local model program.
func TestMain(m *testing.M) {
	if mode := os.Getenv("DOCSCORE_JUDGE_HELPER"); mode != "" {
		os.Exit(helper(mode))
	}
	os.Exit(m.Run())
}

func helper(mode string) int {
	var req CommandRequest
	data, _ := io.ReadAll(os.Stdin)
	if err := json.Unmarshal(data, &req); err != nil {
		fmt.Fprintln(os.Stderr, "bad request:", err)
		return 2
	}
	switch mode {
	case "pass":
		if os.Getenv("OPENAI_API_KEY") != "" || os.Getenv("ANTHROPIC_API_KEY") != "" {
			fmt.Fprintln(os.Stderr, "a provider key reached the command")
			return 4
		}
		var kinds []string
		for _, a := range req.Attachments {
			kinds = append(kinds, a.MediaType+":"+fmt.Sprint(len(a.DataBase64) > 0))
		}
		if req.Purpose != "judge" || len(req.OutputSchema) == 0 || strings.Join(kinds, ",") != "image/png:true,application/pdf:true" {
			fmt.Fprintf(os.Stderr, "unexpected request: purpose %q, attachments %v\n", req.Purpose, kinds)
			return 5
		}
		fmt.Print(passAnswer)
	case "fail":
		fmt.Fprintln(os.Stderr, "model server unreachable")
		return 3
	case "slow":
		time.Sleep(2 * time.Second)
		fmt.Print(passAnswer)
	case "flood": // as "yes" does: prints until it is stopped
		line := []byte(strings.Repeat("y\n", 32<<10))
		for {
			if _, err := os.Stdout.Write(line); err != nil {
				return 1
			}
		}
	}
	return 0
}

func TestCommandAdapter(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("OPENAI_API_KEY", testKey)
	t.Setenv("ANTHROPIC_API_KEY", testKey)
	tests := []struct {
		mode    string
		timeout time.Duration
		verdict evalcase.Verdict
		err     string
	}{
		{"pass", 0, evalcase.Pass, ""},
		{"fail", 0, "", "exit status 3: model server unreachable"},
		{"slow", 100 * time.Millisecond, "", "deadline"},
		// Output without end is cut off at MaxAnswerBytes: it read 2 GB
		// in 12 s, bounded only by the call's 2-minute deadline.
		{"flood", 0, "", "printed more than 16 MiB on standard output"},
	}
	for _, tc := range tests {
		t.Run(tc.mode, func(t *testing.T) {
			t.Setenv("DOCSCORE_JUDGE_HELPER", tc.mode)
			a, err := NewCommand(fmt.Sprintf("'%s' -test.run=^$", self), CommandOptions{Model: "local-model", Policy: Policy{Timeout: tc.timeout}})
			if err != nil {
				t.Fatal(err)
			}
			if info := a.Info(); info.Provider != "command" || info.Model != "local-model" {
				t.Errorf("info %+v", info)
			}
			m := &judging.LLMJudgeMetric{Judge: &judging.ModelJudge{Adapter: a}}
			res, err := m.Evaluate(context.Background(), stage(t))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || res.Verdict != tc.verdict {
				t.Fatalf("verdict %s, err %v", res.Verdict, err)
			}
			if recs := a.UsageRecords(); len(recs) != 1 || recs[0].Provider != "command" {
				t.Errorf("usage %+v", recs)
			}
		})
	}
}

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  bool
	}{
		{"go run ./examples/judges/localjudge", []string{"go", "run", "./examples/judges/localjudge"}, false},
		{`ollama-judge --model 'llama 3' "a \"b\" c"`, []string{"ollama-judge", "--model", "llama 3", `a "b" c`}, false},
		{`a\ b  c`, []string{"a b", "c"}, false},
		{`x ''`, []string{"x", ""}, false},
		{`x 'open`, nil, true},
		{`x "open`, nil, true},
		{`x \`, nil, true},
		{"   ", nil, false},
	}
	for _, tc := range tests {
		got, err := SplitCommand(tc.in)
		if (err != nil) != tc.err || fmt.Sprintf("%q", got) != fmt.Sprintf("%q", tc.want) {
			t.Errorf("SplitCommand(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
