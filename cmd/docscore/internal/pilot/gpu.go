package pilot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// GPUOptions configure the optional GPU procedure around a run: check the
// free GPU memory, start the model server, wait for its health endpoint,
// stop it at the end, and remove the containers carrying a label. Zero
// values leave a step out.
type GPUOptions struct {
	// MinFreeMiB refuses to start unless nvidia-smi reports at least this
	// much free memory on GPU Index.
	MinFreeMiB int
	Index      int
	// ServerCmd starts the model server (run by /bin/sh -c in its own
	// process group); its output goes to ServerLog.
	ServerCmd string
	ServerLog string
	// HealthURL is polled (GET, every HealthInterval) until it answers
	// 2xx, for at most HealthTimeout.
	HealthURL      string
	HealthTimeout  time.Duration
	HealthInterval time.Duration
	// StopTimeout is how long the server may take to stop after SIGTERM
	// before it is killed.
	StopTimeout time.Duration
	// ContainerLabel (KEY=VALUE) names the containers to remove before the
	// server starts and after it stops; no other container is touched.
	ContainerLabel string
}

// Enabled reports whether any step is asked for.
func (o *GPUOptions) Enabled() bool {
	return o != nil && (o.MinFreeMiB > 0 || o.ServerCmd != "" || o.HealthURL != "" || o.ContainerLabel != "")
}

// Validate checks the options' values.
func (o *GPUOptions) Validate() error {
	if o == nil {
		return nil
	}
	if o.MinFreeMiB < 0 || o.Index < 0 {
		return errors.New("--gpu-min-free-mib and --gpu-index must not be negative")
	}
	if o.ContainerLabel != "" {
		k, _, ok := strings.Cut(o.ContainerLabel, "=")
		if !ok || strings.TrimSpace(k) == "" || strings.ContainsAny(o.ContainerLabel, " \t\n") {
			return fmt.Errorf("--container-label %q: expected KEY=VALUE without spaces, such as docscore.pilot=nemotron", o.ContainerLabel)
		}
	}
	if o.HealthURL != "" && !strings.HasPrefix(o.HealthURL, "http://") && !strings.HasPrefix(o.HealthURL, "https://") {
		return fmt.Errorf("--health-url %q: expected an http:// or https:// URL", o.HealthURL)
	}
	return nil
}

// GPUFreeMiB runs nvidia-smi --query-gpu=memory.free
// --format=csv,noheader,nounits and returns the free memory of GPU index
// (its line, in the order nvidia-smi lists the GPUs).
func GPUFreeMiB(ctx context.Context, index int) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "nvidia-smi", "--query-gpu=memory.free", "--format=csv,noheader,nounits")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg != "" {
			msg = ": " + msg
		}
		return 0, fmt.Errorf("nvidia-smi: %v%s (the free GPU memory could not be read)", err, msg)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			lines = append(lines, l)
		}
	}
	if index >= len(lines) {
		return 0, fmt.Errorf("nvidia-smi lists %d GPU(s): --gpu-index %d is not among them", len(lines), index)
	}
	free, err := strconv.Atoi(lines[index])
	if err != nil {
		return 0, fmt.Errorf("nvidia-smi: GPU %d: free memory %q: expected a number of MiB", index, lines[index])
	}
	return free, nil
}

// CheckGPUMemory refuses (an error) unless GPU index has at least minMiB
// free.
func CheckGPUMemory(ctx context.Context, index, minMiB int) (int, error) {
	free, err := GPUFreeMiB(ctx, index)
	if err != nil {
		return 0, err
	}
	if free < minMiB {
		return free, fmt.Errorf("GPU %d has %d MiB free, less than --gpu-min-free-mib %d: not starting (is another server or container still holding it?)", index, free, minMiB)
	}
	return free, nil
}

// RemoveLabelledContainers removes (docker rm -f) every container, running
// or not, that carries label KEY=VALUE, as listed by
// docker ps -a -q --filter label=KEY=VALUE, and returns their ids. No
// other container is touched.
func RemoveLabelledContainers(ctx context.Context, label string) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "docker", "ps", "-a", "-q", "--filter", "label="+label)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("docker ps --filter label=%s: %v %s", label, err, strings.TrimSpace(stderr.String()))
	}
	ids := strings.Fields(string(out))
	if len(ids) == 0 {
		return nil, nil
	}
	stderr.Reset()
	rm := exec.CommandContext(ctx, "docker", append([]string{"rm", "-f"}, ids...)...)
	rm.Stderr = &stderr
	if err := rm.Run(); err != nil {
		return nil, fmt.Errorf("docker rm -f %s: %v %s", strings.Join(ids, " "), err, strings.TrimSpace(stderr.String()))
	}
	return ids, nil
}

// Server is a model server started by the GPU procedure.
type Server struct {
	cmd     *exec.Cmd
	log     *os.File
	done    chan struct{}
	waitErr error
}

// StartServer starts cmdline with /bin/sh -c in a process group of its
// own, its output appended to logPath.
func StartServer(cmdline, logPath string) (*Server, error) {
	log, err := os.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return nil, fmt.Errorf("server log %s: %v", logPath, unwrapPathError(err))
	}
	fmt.Fprintf(log, "--- docscore pilot: starting server at %s\n", time.Now().UTC().Format(time.RFC3339))
	cmd := exec.Command("/bin/sh", "-c", cmdline)
	setProcessGroup(cmd)
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		return nil, fmt.Errorf("--server-cmd: %v", err)
	}
	s := &Server{cmd: cmd, log: log, done: make(chan struct{})}
	go func() {
		s.waitErr = cmd.Wait()
		close(s.done)
	}()
	return s, nil
}

// WaitHealthy polls url until it answers 2xx, timeout passes, ctx ends or
// srv (when not nil) exits.
func WaitHealthy(ctx context.Context, url string, timeout, interval time.Duration, srv *Server) error {
	if interval <= 0 {
		interval = time.Second
	}
	deadline := time.Now().Add(timeout)
	client := &http.Client{Timeout: min(interval*5, 10*time.Second)}
	var last string
	var exited <-chan struct{}
	see := ""
	if srv != nil {
		exited = srv.done
		see = "; see " + srv.log.Name()
	}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return fmt.Errorf("--health-url: %v", err)
		}
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
				return nil
			}
			last = "HTTP " + resp.Status
		} else {
			last = transportMessage(err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-exited:
			return fmt.Errorf("the server command exited (%v) before %s answered%s", exitText(srv.waitErr), url, see)
		case <-time.After(min(interval, max(time.Until(deadline), 0))):
		}
		if !time.Now().Before(deadline) {
			return fmt.Errorf("%s did not answer 2xx within %s (last: %s)%s", url, timeout, last, see)
		}
	}
}

// Stop sends SIGTERM to the server's process group, waits up to timeout,
// then kills the group.
func (s *Server) Stop(timeout time.Duration) error {
	defer s.log.Close()
	select {
	case <-s.done:
		return nil
	default:
	}
	_ = terminateProcessGroup(s.cmd)
	select {
	case <-s.done:
		return nil
	case <-time.After(timeout):
	}
	_ = killProcessGroup(s.cmd)
	<-s.done
	return fmt.Errorf("the server did not stop within %s of SIGTERM and was killed", timeout)
}

func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}
