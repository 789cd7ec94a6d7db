package podman

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// startService starts `podman system service` for the current user when no
// socket answered, and waits until it listens. The service exits by itself
// after idle without API calls; warm execs do not need it (they go to the
// runner), and the manager reconnects, starting it again, when it does.
func startService(ctx context.Context, env discoverEnv, idle time.Duration) (*api, Endpoint, error) {
	if env.GOOS != "linux" {
		return nil, Endpoint{}, errors.New("no running podman machine: start it with `podman machine start`")
	}
	if env.UID == 0 && env.EnvFile != "" {
		if b, err := env.ReadFile(env.EnvFile); err == nil && envFileValue(b, "CONTAINER_HOST") != "" {
			// Setup chose the unprivileged user's service: starting a rootful
			// one instead would quietly weaken the sandbox.
			return nil, Endpoint{}, fmt.Errorf("the service named in %s is not running: rerun scripts/podman-setup.sh", env.EnvFile)
		}
	}
	podman, err := exec.LookPath("podman")
	if err != nil {
		return nil, Endpoint{}, errors.New("podman is not installed (Debian/Ubuntu: apt-get install podman runc uidmap catatonit)")
	}
	sock := "/run/podman/podman.sock"
	if dir := runtimeDir(env); dir != "" {
		sock = filepath.Join(dir, "podman", "podman.sock")
	}
	if err := os.MkdirAll(filepath.Dir(sock), 0o700); err != nil {
		return nil, Endpoint{}, err
	}
	ep := Endpoint{URI: "unix://" + sock, Source: "started"}
	// Never cancelled: the service must outlive this call and Warren.
	cmd := exec.CommandContext(context.WithoutCancel(ctx), podman, "system", "service", "--time="+strconv.Itoa(int(idle.Seconds())), ep.URI)
	detach(cmd)
	if err := cmd.Start(); err != nil {
		return nil, Endpoint{}, fmt.Errorf("start podman system service: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }() // reaps it whenever it exits
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	for !reachable(ctx, ep) {
		select {
		case err := <-exited:
			return nil, Endpoint{}, fmt.Errorf("podman system service exited: %v", err)
		case <-ctx.Done():
			return nil, Endpoint{}, fmt.Errorf("podman system service did not listen on %s: %w", sock, ctx.Err())
		case <-time.After(20 * time.Millisecond):
		}
	}
	a, err := dial(ctx, ep)
	return a, ep, err
}
