package pilot

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Stand-ins for nvidia-smi and docker, placed first on PATH. Both append
// their command lines to $FAKE_LOG. docker keeps its containers in
// $FAKE_DOCKER_STATE, one "<id> <label>,<label>…" line each.
const fakeNvidiaSmi = `#!/bin/sh
echo "nvidia-smi $*" >> "$FAKE_LOG"
if [ "$*" != "--query-gpu=memory.free --format=csv,noheader,nounits" ]; then
  echo "stand-in nvidia-smi: unexpected arguments: $*" >&2; exit 9
fi
for v in $FAKE_GPU_FREE; do echo "$v"; done
`

const fakeDocker = `#!/bin/sh
echo "docker $*" >> "$FAKE_LOG"
state="$FAKE_DOCKER_STATE"
case "$1" in
ps)
  if [ "$2" != "-a" ] || [ "$3" != "-q" ] || [ "$4" != "--filter" ]; then
    echo "stand-in docker: unexpected ps arguments: $*" >&2; exit 9
  fi
  want="${5#label=}"
  while read -r id labels; do
    for l in $(echo "$labels" | tr ',' ' '); do
      if [ "$l" = "$want" ]; then echo "$id"; fi
    done
  done < "$state"
  ;;
rm)
  if [ "$2" != "-f" ]; then echo "stand-in docker: expected rm -f" >&2; exit 9; fi
  shift 2
  for id in "$@"; do
    grep -v "^$id " "$state" > "$state.tmp"; mv "$state.tmp" "$state"
    echo "removed $id" >> "$FAKE_LOG"
  done
  ;;
*) echo "stand-in docker: unexpected command: $*" >&2; exit 9 ;;
esac
`

// gpuFixture installs the stand-ins and returns the log and state paths.
type gpuFixture struct {
	dir, log, state, ready string
	srv                    *fakeServer
}

func newGPUFixture(t *testing.T, gpuFree string) *gpuFixture {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	for name, script := range map[string]string{"nvidia-smi": fakeNvidiaSmi, "docker": fakeDocker} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f := &gpuFixture{dir: dir, log: filepath.Join(dir, "events.log"), state: filepath.Join(dir, "containers"), ready: filepath.Join(dir, "ready")}
	// c1 and c3 carry this run's label; c2 another value of it, c4 no label.
	os.WriteFile(f.state, []byte("c1 docscore.test=pilot,team=ocr\nc2 docscore.test=other\nc3 docscore.test=pilot\nc4 -\n"), 0o644)
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("FAKE_LOG", f.log)
	t.Setenv("FAKE_DOCKER_STATE", f.state)
	t.Setenv("FAKE_GPU_FREE", gpuFree)
	t.Setenv("FAKE_READY", f.ready)
	f.srv = newFakeServer(t, nil)
	lf, err := os.OpenFile(f.log, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lf.Close() })
	f.srv.log = lf
	f.srv.ready = func() bool { _, err := os.Stat(f.ready); return err == nil }
	return f
}

func (f *gpuFixture) events(t *testing.T) []string {
	data, err := os.ReadFile(f.log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(data)), "\n")
}

// The server command: it starts a labelled "container", becomes ready
// after a moment, and logs when it is told to stop.
const fakeServerCmd = `echo "server start" >> "$FAKE_LOG"
echo "c9 docscore.test=pilot" >> "$FAKE_DOCKER_STATE"
trap 'echo "server stop" >> "$FAKE_LOG"; exit 0' TERM
sleep 0.3; touch "$FAKE_READY"
while :; do sleep 0.05; done`

func (f *gpuFixture) config(t *testing.T, minFree, index int) *Options {
	dir := writeFakeImages(t, sampleNames(3)...)
	cfg := openaiConfig(dir, filepath.Join(f.dir, "run.jsonl"), f.srv.baseURL())
	cfg.GPU = GPUConfig{MinFreeMiB: minFree, Index: index, ServerCmd: fakeServerCmd,
		HealthURL: f.srv.srv.URL + "/health", ContainerLabel: "docscore.test=pilot"}
	o := prepare(t, cfg)
	o.GPU.HealthInterval = 20 * time.Millisecond
	o.GPU.StopTimeout = 5 * time.Second
	return o
}

func TestGPUProcedureOrder(t *testing.T) {
	f := newGPUFixture(t, "81000\n1200")
	o := f.config(t, 40000, 0)
	var notes strings.Builder
	o.Progress = NewProgress(&notes, false, true)
	if _, err := Run(context.Background(), *o); err != nil {
		t.Fatalf("%v\n%s", err, notes.String())
	}
	ev := f.events(t)
	first := func(s string) int {
		return slices.IndexFunc(ev, func(e string) bool { return strings.HasPrefix(e, s) })
	}
	last := func(s string) int {
		for i := len(ev) - 1; i >= 0; i-- {
			if strings.HasPrefix(ev[i], s) {
				return i
			}
		}
		return -1
	}
	order := []int{
		first("docker ps -a -q --filter label=docscore.test=pilot"),
		first("removed c1"),
		first("nvidia-smi --query-gpu=memory.free --format=csv,noheader,nounits"),
		first("server start"),
		first("health 200"),
		first("request"),
		last("request"),
		first("server stop"),
		last("docker ps -a -q --filter label=docscore.test=pilot"),
		first("removed c9"),
	}
	for i, at := range order {
		if at < 0 || i > 0 && at <= order[i-1] && !(i == 6 && at == order[5]) {
			t.Fatalf("step %d out of order (%v); events:\n%s", i, order, strings.Join(ev, "\n"))
		}
	}
	// The health endpoint was polled until it answered 2xx (the server
	// becomes ready 0.3 s after it starts; polling may begin before the
	// server's shell logs its start).
	if h503 := last("health 503"); h503 < 0 || h503 > first("health 200") || first("nvidia-smi") > first("health 503") {
		t.Errorf("health polling: events:\n%s", strings.Join(ev, "\n"))
	}
	if n := strings.Count(strings.Join(ev, "\n"), "request"); n != 3*3 {
		t.Errorf("%d requests, want 9 (3 warmups and 3 per phase)", n)
	}
	state, _ := os.ReadFile(f.state)
	if string(state) != "c2 docscore.test=other\nc4 -\n" {
		t.Errorf("containers left:\n%s\nwant only c2 (another label value) and c4 (no label)", state)
	}
	for _, want := range []string{"removed 2 container(s) labelled docscore.test=pilot before starting: c1 c3", "GPU 0: 81000 MiB free",
		"server ready", "server stopped", "removed 1 container(s) labelled docscore.test=pilot after the run: c9"} {
		if !strings.Contains(notes.String(), want) {
			t.Errorf("notes lack %q:\n%s", want, notes.String())
		}
	}
}

func TestGPUProcedureRefusesLowMemory(t *testing.T) {
	f := newGPUFixture(t, "81000\n1200")
	o := f.config(t, 40000, 1)
	_, err := Run(context.Background(), *o)
	if err == nil || !strings.Contains(err.Error(), "GPU 1 has 1200 MiB free, less than --gpu-min-free-mib 40000: not starting") {
		t.Fatalf("err = %v, want a refusal for GPU 1", err)
	}
	ev := strings.Join(f.events(t), "\n")
	if strings.Contains(ev, "server start") || strings.Contains(ev, "request") {
		t.Errorf("a server started or a request was sent after the refusal:\n%s", ev)
	}
	if _, err := os.Stat(o.Out); !os.IsNotExist(err) {
		t.Errorf("the run file was created: %v", err)
	}
}

func TestGPUProcedureFailures(t *testing.T) {
	t.Run("no nvidia-smi", func(t *testing.T) {
		f := newGPUFixture(t, "81000")
		o := f.config(t, 100, 0)
		t.Setenv("PATH", t.TempDir())
		_, err := Run(context.Background(), *o)
		if err == nil || !strings.Contains(err.Error(), "nvidia-smi") || !strings.Contains(err.Error(), "free GPU memory could not be read") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("unreadable memory", func(t *testing.T) {
		f := newGPUFixture(t, "[N/A]")
		o := f.config(t, 100, 0)
		_, err := Run(context.Background(), *o)
		if err == nil || !strings.Contains(err.Error(), `free memory "[N/A]": expected a number of MiB`) {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("missing GPU", func(t *testing.T) {
		f := newGPUFixture(t, "81000")
		o := f.config(t, 100, 2)
		_, err := Run(context.Background(), *o)
		if err == nil || !strings.Contains(err.Error(), "nvidia-smi lists 1 GPU(s): --gpu-index 2 is not among them") {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("server exits before it is healthy", func(t *testing.T) {
		f := newGPUFixture(t, "81000")
		o := f.config(t, 100, 0)
		o.GPU.ServerCmd = `echo "server start" >> "$FAKE_LOG"; echo "c9 docscore.test=pilot" >> "$FAKE_DOCKER_STATE"; exit 3`
		_, err := Run(context.Background(), *o)
		if err == nil || !strings.Contains(err.Error(), "the server command exited (exit status 3) before") {
			t.Errorf("err = %v", err)
		}
		if state, _ := os.ReadFile(f.state); strings.Contains(string(state), "c9") {
			t.Errorf("the labelled container of the failed start was left:\n%s", state)
		}
		if _, err := os.Stat(o.Out); !os.IsNotExist(err) {
			t.Error("a run file was written although the server never became ready")
		}
	})
	t.Run("health deadline", func(t *testing.T) {
		f := newGPUFixture(t, "81000")
		o := f.config(t, 100, 0)
		o.GPU.ServerCmd = `trap 'echo "server stop" >> "$FAKE_LOG"; exit 0' TERM; while :; do sleep 0.05; done`
		o.GPU.HealthTimeout = 300 * time.Millisecond
		_, err := Run(context.Background(), *o)
		if err == nil || !strings.Contains(err.Error(), "did not answer 2xx within 300ms (last: HTTP 503") {
			t.Errorf("err = %v", err)
		}
		if !slices.Contains(f.events(t), "server stop") {
			t.Error("the server was not stopped after the health deadline")
		}
	})
	t.Run("bad label", func(t *testing.T) {
		g := &GPUOptions{ContainerLabel: "no-equals-sign"}
		if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "expected KEY=VALUE") {
			t.Errorf("err = %v", err)
		}
	})
}
