package pilot

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/docscore/docscore/scoring/runfile"
)

// The crash tests run the real docscore binary, built once for the
// package's tests.
var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func docscoreBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "docscore-bin-")
		if binErr != nil {
			return
		}
		goTool, err := exec.LookPath("go")
		if err != nil {
			goTool = filepath.Join(runtime.GOROOT(), "bin", "go")
		}
		binPath = filepath.Join(binDir, "docscore")
		out, err := exec.Command(goTool, "build", "-o", binPath, "github.com/docscore/docscore/cmd/docscore").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// pilotProcess is a docscore pilot run started as a subprocess.
type pilotProcess struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	logs []string // stderr lines so far
	done chan error
}

func startPilot(t *testing.T, args ...string) *pilotProcess {
	t.Helper()
	p := &pilotProcess{cmd: exec.Command(docscoreBinary(t), args...), done: make(chan error, 1)}
	p.cmd.Env = append(os.Environ(), "OPENAI_API_KEY=sk-test-secret-key")
	stderr, err := p.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	read := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.logs = append(p.logs, sc.Text())
			p.mu.Unlock()
		}
		close(read)
	}()
	go func() {
		<-read
		p.done <- p.cmd.Wait()
	}()
	t.Cleanup(func() {
		if p.cmd.ProcessState == nil {
			_ = p.cmd.Process.Kill()
		}
	})
	return p
}

func (p *pilotProcess) log() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.logs...)
}

// wait returns the exit code.
func (p *pilotProcess) wait(t *testing.T) int {
	t.Helper()
	select {
	case err := <-p.done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(60 * time.Second):
		t.Fatalf("docscore did not exit; log:\n%s", strings.Join(p.log(), "\n"))
	}
	return -1
}

// waitForRecords polls the run file until it holds n records of phase.
func waitForRecords(t *testing.T, p *pilotProcess, out, phase string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(out)
		if bytes.Count(data, []byte(`"phase":"`+phase+`"`)) >= n {
			return
		}
		select {
		case err := <-p.done:
			t.Fatalf("docscore exited (%v) before %d %s records; log:\n%s", err, n, phase, strings.Join(p.log(), "\n"))
		case <-time.After(2 * time.Millisecond):
		}
	}
	t.Fatalf("no %d %s records within 30 s", n, phase)
}

// loggedRecords returns the (phase, sample) pairs the runner logged as
// recorded: it logs a request only once its record is durable.
func loggedRecords(logs []string) []pairKey {
	var out []pairKey
	for _, l := range logs {
		// "pilot: c4 3/16 s02 ok stop 0.05s · …"
		f := strings.Fields(l)
		if len(f) >= 5 && f[0] == "pilot:" && strings.Contains(f[2], "/") && f[1] != "phase" {
			out = append(out, pairKey{f[1], f[3]})
		}
	}
	return out
}

func TestCrashSafetyWithTheRealBinary(t *testing.T) {
	cases := []struct {
		name   string
		signal syscall.Signal
		phase  string // the phase during which the signal arrives
		grace  string
		hang   bool // requests in flight at the signal never answer
		// what is expected of the interrupted process
		wantCode      int
		wantEnd       bool
		wantCancelled bool
		tornWrite     bool // append half a record before the rerun, as a crash mid-write would
		twice         bool // a second SIGINT cuts the grace period short
	}{
		{name: "SIGKILL during c1", signal: syscall.SIGKILL, phase: "c1", hang: true, wantCode: -1},
		{name: "SIGKILL during c4, torn last line", signal: syscall.SIGKILL, phase: "c4", hang: true, wantCode: -1, tornWrite: true},
		{name: "SIGINT during c4: in-flight requests finish", signal: syscall.SIGINT, phase: "c4", grace: "10s", wantCode: 1, wantEnd: true},
		{name: "SIGINT during c4: in-flight requests cancelled", signal: syscall.SIGINT, phase: "c4", grace: "0s", hang: true, wantCode: 1, wantEnd: true, wantCancelled: true},
		{name: "SIGINT twice during c1: cancelled at once", signal: syscall.SIGINT, phase: "c1", grace: "60s", hang: true, wantCode: 1, wantEnd: true, wantCancelled: true, twice: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv := newFakeServer(t, nil)
			srv.delay = 20 * time.Millisecond
			names := sampleNames(16)
			dir := writeFakeImages(t, names...)
			out := filepath.Join(t.TempDir(), "run.jsonl")
			args := []string{"pilot", "run", "--dataset", dir, "--base-url", srv.baseURL(), "--model", "test-model",
				"--prompt", "Read the receipt.", "--concurrency", "1,4", "--deadline", "20s", "--out", out}
			if tc.grace != "" {
				args = append(args, "--grace", tc.grace)
			}
			p := startPilot(t, args...)
			waitForRecords(t, p, out, tc.phase, 5)
			if !tc.hang {
				// From now on each request takes a second, so that the
				// phase cannot end before the signal arrives.
				srv.slow.Store(int64(time.Second))
			}
			if tc.hang {
				// From now on requests hang; signal once one does.
				srv.hang.Store(true)
				deadline := time.Now().Add(10 * time.Second)
				for srv.hanging.Load() == 0 && time.Now().Before(deadline) {
					time.Sleep(time.Millisecond)
				}
				if srv.hanging.Load() == 0 {
					t.Fatal("no request reached the server after the hang was set")
				}
			}
			before, _ := os.ReadFile(out)
			logged := loggedRecords(p.log())
			if err := p.cmd.Process.Signal(tc.signal); err != nil {
				t.Fatal(err)
			}
			if tc.twice {
				time.Sleep(200 * time.Millisecond)
				if err := p.cmd.Process.Signal(tc.signal); err != nil {
					t.Fatal(err)
				}
			}
			signalled := time.Now()
			code := p.wait(t)
			if tc.twice && time.Since(signalled) > 10*time.Second {
				t.Errorf("the second SIGINT did not cut the 60 s grace period short")
			}
			if code != tc.wantCode {
				t.Errorf("exit code %d, want %d; log:\n%s", code, tc.wantCode, strings.Join(p.log(), "\n"))
			}
			after, _ := os.ReadFile(out)
			// Every record finished before the signal survived, byte for byte.
			if !bytes.HasPrefix(after, before) {
				t.Fatalf("records finished before the signal were lost or changed")
			}
			run := readRunFile(t, out)
			have := pairCounts(run)
			for _, k := range logged {
				if have[k] != 1 {
					t.Errorf("%s/%s was logged as recorded before the signal but appears %d times", k.phase, k.sample, have[k])
				}
			}
			for k, n := range have {
				if n != 1 {
					t.Errorf("%s/%s recorded %d times", k.phase, k.sample, n)
				}
			}
			cancelled := 0
			for _, r := range run.Requests {
				if r.Status == runfile.StatusCancelled {
					cancelled++
				}
			}
			if tc.wantEnd {
				if run.End == nil || run.End.Status != runfile.EndInterrupted || !strings.Contains(run.End.Reason, "interrupted by a signal") {
					t.Errorf("end record %+v, want interrupted by a signal", run.End)
				}
				conc := 1
				if tc.phase == "c4" {
					conc = 4
				}
				if tc.wantCancelled != (cancelled > 0) || cancelled > conc {
					t.Errorf("%d cancelled records (at most %d in flight); want cancelled: %v", cancelled, conc, tc.wantCancelled)
				}
			} else if run.End != nil {
				t.Errorf("a killed run wrote an end record %+v", run.End)
			}
			if strings.Contains(string(after), "sk-test-secret-key") || strings.Contains(strings.Join(p.log(), "\n"), "sk-test-secret-key") {
				t.Error("the API key was written out")
			}

			// Rerun: it resumes and completes; nothing recorded twice.
			srv.hang.Store(false)
			srv.slow.Store(0)
			stable := after
			if tc.tornWrite {
				stable = after
				line := `{"type":"request","phase":"c4","sample_id":"s15","image_sha256":"` + sha256Hex(fakeImage("s15"))[:20]
				if err := os.WriteFile(out, append(bytes.Clone(after), line...), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p2 := startPilot(t, args...)
			if code := p2.wait(t); code != 0 {
				t.Fatalf("rerun: exit %d; log:\n%s", code, strings.Join(p2.log(), "\n"))
			}
			final, _ := os.ReadFile(out)
			if !bytes.HasPrefix(final, stable) {
				t.Error("the rerun changed records written before")
			}
			run = readRunFile(t, out)
			checkExactlyOnce(t, run)
			if run.End == nil || run.End.Status != runfile.EndComplete {
				t.Errorf("after the rerun: end %+v, want complete", run.End)
			}
			if tc.tornWrite {
				saved, _ := filepath.Glob(out + ".partial-*")
				if len(saved) != 1 || !strings.Contains(strings.Join(p2.log(), "\n"), "was cut short") {
					t.Errorf("torn last line: saved %v; log:\n%s", saved, strings.Join(p2.log(), "\n"))
				}
			}
			if !strings.Contains(strings.Join(p2.log(), "\n"), "resuming run "+run.Header.RunID) {
				t.Errorf("the rerun did not say it resumes; log:\n%s", strings.Join(p2.log(), "\n"))
			}
		})
	}
}
