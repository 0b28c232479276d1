package pilot

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/docscore/docscore/scoring/runfile"
)

func TestParseChatResponse(t *testing.T) {
	cases := []struct {
		in      string
		content string // "<null>" for none
		finish  string // "<null>" for none
		usage   string
		err     string
	}{
		{`{"choices":[{"message":{"content":"A"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2}}`, "A", "stop", "5/2", ""},
		{`{"choices":[{"message":{"content":null},"finish_reason":"length"}]}`, "<null>", "length", "", ""},
		{`{"choices":[{"message":{"content":[{"type":"text","text":"A"},{"type":"text","text":"B"}]},"finish_reason":null}]}`, "AB", "<null>", "", ""},
		{`{"choices":[{"message":{}}],"usage":{"completion_tokens":7}}`, "<null>", "<null>", "0/7", ""},
		{`{"choices":[{"message":{"content":"x"},"finish_reason":"stop"},{"message":{"content":"y"}}]}`, "x", "stop", "", ""},
		{`{"choices":[]}`, "", "", "", `non-empty "choices" array`},
		{`{"object":"error"}`, "", "", "", `non-empty "choices" array`},
		{`{"choices":[{"finish_reason":"stop"}]}`, "", "", "", `choices[0]: expected a "message" object`},
		{`{"choices":[{"message":{"content":5}}]}`, "", "", "", "expected a string, null or an array of text parts"},
		{`{"choices":"no"}`, "", "", "", `member "choices" is string of the wrong kind`},
		{`<html>`, "", "", "", "expected a JSON object"},
		{``, "", "", "", "expected a JSON object"},
	}
	for _, c := range cases {
		ans, err := ParseChatResponse([]byte(c.in))
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: err = %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		usage := ""
		if ans.Usage != nil {
			usage = itoa(ans.Usage.PromptTokens) + "/" + itoa(ans.Usage.CompletionTokens)
		}
		if ptrText(ans.Content) != c.content || ptrText(ans.FinishReason) != c.finish || usage != c.usage {
			t.Errorf("%s: content %q finish %q usage %q", c.in, ptrText(ans.Content), ptrText(ans.FinishReason), usage)
		}
	}
}

func FuzzParseChatResponse(f *testing.F) {
	f.Add([]byte(`{"choices":[{"message":{"content":"A"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":2}}`))
	f.Add([]byte(`{"choices":[{"message":{"content":[{"type":"text","text":"A"}]},"finish_reason":null}]}`))
	f.Add([]byte(`{"choices":[{"message":{"content":null}}]}`))
	f.Add([]byte(`{"error":{"message":"x"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ans, err := ParseChatResponse(data)
		if err == nil && ans == nil {
			t.Error("no answer and no error")
		}
		_ = errorMessage(data)
	})
}

func TestOpenAIRequestShape(t *testing.T) {
	srv := newFakeServer(t, nil)
	temp := 0.2
	extra, err := CanonicalExtra([]byte(`{"top_p": 0.9, "skip_special_tokens": false, "stop": ["</s>"]}`))
	if err != nil {
		t.Fatal(err)
	}
	e, err := NewOpenAI(OpenAIConfig{BaseURL: srv.baseURL() + "/", APIKey: "sk-secret", Model: "nvidia/NVIDIA-Nemotron-Parse-v1.1",
		MaxTokens: 4096, Temperature: &temp, Extra: extra, Prompt: "</s><s><predict_bbox> & <output_markdown>"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res := e.Do(context.Background(), EngineRequest{SampleID: "s1", Image: fakeImage("s1"), MediaType: "image/png"})
	if res.Status != runfile.StatusOK || ptrText(res.Output) != "TOTAL s1" {
		t.Fatalf("result %+v", res)
	}
	if len(srv.bodies) != 1 || len(srv.problems) > 0 {
		t.Fatalf("server saw %d requests, problems %v", len(srv.bodies), srv.problems)
	}
	body, h := srv.bodies[0], srv.headers[0]
	if h.Get("Authorization") != "Bearer sk-secret" || h.Get("Content-Type") != "application/json" {
		t.Errorf("headers %v", h)
	}
	if body["model"] != "nvidia/NVIDIA-Nemotron-Parse-v1.1" || body["max_tokens"] != 4096.0 || body["temperature"] != 0.2 ||
		body["top_p"] != 0.9 || body["skip_special_tokens"] != false || len(body) != 7 {
		t.Errorf("body members %v", body)
	}
	parts := body["messages"].([]any)[0].(map[string]any)["content"].([]any)
	text := parts[0].(map[string]any)
	if text["type"] != "text" || text["text"] != "</s><s><predict_bbox> & <output_markdown>" {
		t.Errorf("text part %v", text)
	}
	url := parts[1].(map[string]any)["image_url"].(map[string]any)["url"].(string)
	img, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(url, "data:image/png;base64,"))
	if !bytes.Equal(img, fakeImage("s1")) {
		t.Error("the data URL does not hold the image")
	}

	// No prompt: the image is the only part; no key: no Authorization.
	e2, _ := NewOpenAI(OpenAIConfig{BaseURL: srv.baseURL(), Model: "m"})
	defer e2.Close()
	e2.Do(context.Background(), EngineRequest{Image: fakeImage("s2"), MediaType: "image/png"})
	parts = srv.bodies[1]["messages"].([]any)[0].(map[string]any)["content"].([]any)
	if len(parts) != 1 || srv.headers[1].Get("Authorization") != "" {
		t.Errorf("parts %v, authorization %q", parts, srv.headers[1].Get("Authorization"))
	}
}

func TestCanonicalExtraAndURLs(t *testing.T) {
	got, err := CanonicalExtra([]byte(` {"z": 1, "a": {"y": 2.50, "b": [1e3]}} `))
	if err != nil || string(got) != `{"a":{"b":[1e3],"y":2.50},"z":1}` {
		t.Errorf("canonical %s, %v", got, err)
	}
	for _, bad := range []string{`[1]`, `{"model": "x"}`, `{"messages": []}`, `{"max_tokens": 5}`, `{"a":1} {"b":2}`, `null`, `{`} {
		if _, err := CanonicalExtra([]byte(bad)); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
	if got := RedactURL("http://user:hunter2@gpu-box:8000/v1"); got != "http://gpu-box:8000/v1" {
		t.Errorf("RedactURL = %s", got)
	}
	for _, bad := range []string{"localhost:8000", "ftp://x/v1", "http://"} {
		if _, err := NewOpenAI(OpenAIConfig{BaseURL: bad, Model: "m"}); err == nil {
			t.Errorf("base URL %q accepted", bad)
		}
	}
	if _, err := NewOpenAI(OpenAIConfig{BaseURL: "http://x/v1"}); err == nil {
		t.Error("no model accepted")
	}
}

func TestCommandEngine(t *testing.T) {
	dir := t.TempDir()
	img := filepath.Join(dir, "it's a receipt.png")
	os.WriteFile(img, []byte("IMAGE"), 0o644)
	cases := []struct {
		name     string
		command  string
		deadline time.Duration
		status   runfile.Status
		output   string
		exit     string // "" for none
		errHas   string
	}{
		{"stdout is the output", `cat {image}; echo " for" {sample_id}`, time.Second, runfile.StatusOK, "IMAGE for s-1\n", "0", ""},
		{"exit status", `echo partial; echo "cannot read" >&2; exit 3`, time.Second, runfile.StatusHTTPError, "partial\n", "3", "the program failed: exit status 3: cannot read"},
		{"program not found", `no-such-ocr-program-xyz {image}`, time.Second, runfile.StatusTransportError, "", "127", "the shell could not run the program"},
		{"deadline kills the group", `echo started; sleep 30 & sleep 30; wait`, 200 * time.Millisecond, runfile.StatusTransportError, "started\n", "", "killed"},
		{"foreign signal", `kill -9 $$`, time.Second, runfile.StatusTransportError, "", "", "killed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, err := NewCommand(c.command + " # {image}")
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), c.deadline)
			defer cancel()
			start := time.Now()
			res := e.Do(ctx, EngineRequest{SampleID: "s-1", Path: img})
			if el := time.Since(start); el > c.deadline+3*time.Second {
				t.Errorf("took %v: the process group was not killed at the deadline", el)
			}
			exit := ""
			if res.ExitCode != nil {
				exit = itoa(*res.ExitCode)
			}
			if res.Status != c.status || ptrText(res.Output) != c.output && c.output != "" || exit != c.exit || !strings.Contains(res.Err, c.errHas) {
				t.Errorf("result %+v (output %q, exit %q), want status %s output %q exit %q error ~%q", res, ptrText(res.Output), exit, c.status, c.output, c.exit, c.errHas)
			}
			if c.status == runfile.StatusOK && (ptrText(res.FinishReason) != "stop" || res.Err != "") {
				t.Errorf("ok result %+v", res)
			}
		})
	}
	if _, err := NewCommand("tesseract image.png -"); err == nil || !strings.Contains(err.Error(), "no {image} placeholder") {
		t.Errorf("a command without {image}: %v", err)
	}
	e, _ := NewCommand("ocr {image} --id {sample_id}")
	if got := e.CommandLine("/tmp/a b'c.png", "x;rm -rf /"); got != `ocr '/tmp/a b'\''c.png' --id 'x;rm -rf /'` {
		t.Errorf("command line %s", got)
	}
}

// The run loop maps a command engine's deadline onto timeout.
func TestCommandEngineRun(t *testing.T) {
	dir := writeFakeImages(t, "fast", "slow")
	out := filepath.Join(t.TempDir(), "run.jsonl")
	cfg := &Config{Out: out, Dataset: DatasetConfig{Path: dir}, Concurrency: []int{2},
		Command:  `case {sample_id} in slow) if [ -e "$0.warm" ]; then sleep 5; fi; touch "$0.warm";; esac; echo TOTAL {sample_id} # {image}`,
		Deadline: &Duration{Duration: 400 * time.Millisecond}}
	// $0 is the shell's name; give it a file next to the run instead.
	cfg.Command = strings.ReplaceAll(cfg.Command, "$0", filepath.Join(filepath.Dir(out), "marker"))
	o := prepare(t, cfg)
	if _, err := Run(context.Background(), *o); err != nil {
		t.Fatal(err)
	}
	run := readRunFile(t, out)
	checkExactlyOnce(t, run)
	if h := run.Header; h.Engine.Kind != "command" || h.Model.Name != "case" || h.Prompt != nil || h.PromptSHA256 != "" {
		t.Errorf("header engine %+v model %+v", h.Engine, h.Model)
	}
	for _, r := range run.Requests {
		want := runfile.StatusOK
		if r.Phase == "c2" && r.SampleID == "slow" {
			want = runfile.StatusTimeout
		}
		if r.Status != want {
			t.Errorf("%s/%s: %s (%s), want %s", r.Phase, r.SampleID, r.Status, ptrText(r.Error), want)
		}
		if want == runfile.StatusOK && ptrText(r.Output) != "TOTAL "+r.SampleID+"\n" {
			t.Errorf("%s/%s output %q", r.Phase, r.SampleID, ptrText(r.Output))
		}
	}
	var hdr map[string]json.RawMessage
	data, _ := os.ReadFile(out)
	json.Unmarshal(bytes.SplitN(data, []byte("\n"), 2)[0], &hdr)
	if _, ok := hdr["prompt_sha256"]; ok {
		t.Error("a command run records a prompt hash")
	}
}
