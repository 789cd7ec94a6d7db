package podman

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// DefaultEnvFile is where scripts/podman-setup.sh writes the CONTAINER_HOST
// of the unprivileged sandbox user's service; discovery reads it when Warren
// runs as root (CI, tests), so root uses that rootless service.
const DefaultEnvFile = "/run/warren-sandbox.env"

// Endpoint is a Podman service to talk to.
type Endpoint struct {
	// URI is unix:///path, ssh://… or tcp://….
	URI string
	// Identity is the ssh key for ssh URIs (podman machine connections).
	Identity string
	// Machine marks a podman machine connection.
	Machine bool
	// Source says how it was found: "option", "CONTAINER_HOST", "env file …",
	// "XDG_RUNTIME_DIR", "rootful", "podman machine", "started".
	Source string
}

// SocketPath is the unix socket path, or "" for other schemes.
func (e Endpoint) SocketPath() string {
	u, err := url.Parse(e.URI)
	if err != nil || u.Scheme != "unix" {
		return ""
	}
	return u.Path
}

// discoverEnv is what discovery reads from the process and the system,
// gathered in one place so tests can feed it.
type discoverEnv struct {
	Getenv   func(string) string
	UID      int
	GOOS     string
	EnvFile  string
	ReadFile func(string) ([]byte, error)
	// Machine runs `podman machine inspect` / `podman system connection
	// list` (macOS, Windows); nil skips them.
	Machine func(ctx context.Context) []Endpoint
}

func systemEnv(getenv func(string) string, envFile string) discoverEnv {
	if getenv == nil {
		getenv = os.Getenv
	}
	if envFile == "" {
		envFile = DefaultEnvFile
	}
	return discoverEnv{Getenv: getenv, UID: os.Getuid(), GOOS: runtime.GOOS, EnvFile: envFile, ReadFile: os.ReadFile, Machine: machineEndpoints}
}

// candidates lists the services to try, best first: an explicit
// CONTAINER_HOST, the setup script's env file (root only), the user's
// rootless socket, the rootful socket (root only), then podman machine
// connections on macOS and Windows.
func candidates(ctx context.Context, env discoverEnv) []Endpoint {
	var out []Endpoint
	if h := env.Getenv("CONTAINER_HOST"); h != "" {
		out = append(out, Endpoint{URI: h, Identity: env.Getenv("CONTAINER_SSHKEY"), Source: "CONTAINER_HOST"})
	}
	if env.UID == 0 && env.EnvFile != "" {
		if b, err := env.ReadFile(env.EnvFile); err == nil {
			if h := envFileValue(b, "CONTAINER_HOST"); h != "" {
				out = append(out, Endpoint{URI: h, Source: "env file " + env.EnvFile})
			}
		}
	}
	if env.GOOS == "linux" {
		if dir := runtimeDir(env); dir != "" {
			out = append(out, Endpoint{URI: "unix://" + filepath.Join(dir, "podman", "podman.sock"), Source: "XDG_RUNTIME_DIR"})
		}
		if env.UID == 0 {
			out = append(out, Endpoint{URI: "unix:///run/podman/podman.sock", Source: "rootful"})
		}
	}
	if env.GOOS != "linux" && env.Machine != nil {
		out = append(out, env.Machine(ctx)...)
	}
	return out
}

// runtimeDir is $XDG_RUNTIME_DIR, or /run/user/UID for a non-root user
// whose session did not set it.
func runtimeDir(env discoverEnv) string {
	if d := env.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return d
	}
	if env.UID > 0 {
		return "/run/user/" + strconv.Itoa(env.UID)
	}
	return ""
}

// envFileValue reads KEY=value from a shell-style env file.
func envFileValue(b []byte, key string) string {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		line = strings.TrimPrefix(line, "export ")
		if v, ok := strings.CutPrefix(line, key+"="); ok {
			return strings.Trim(v, `"'`)
		}
	}
	return ""
}

// reachable is a cheap pre-check before the bindings' ping, which retries
// a dead socket for 600 ms.
func reachable(ctx context.Context, ep Endpoint) bool {
	p := ep.SocketPath()
	if p == "" {
		return true // ssh/tcp: let the bindings try
	}
	d := net.Dialer{Timeout: time.Second}
	c, err := d.DialContext(ctx, "unix", p)
	if err != nil {
		return false
	}
	_ = c.Close()
	return true
}

// discover returns the first candidate that answers, with the reasons the
// others did not.
func discover(ctx context.Context, env discoverEnv) (*api, Endpoint, error) {
	var errs []error
	for _, ep := range candidates(ctx, env) {
		if !reachable(ctx, ep) {
			errs = append(errs, fmt.Errorf("%s (%s): not listening", ep.URI, ep.Source))
			continue
		}
		a, err := dial(ctx, ep)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s (%s): %w", ep.URI, ep.Source, err))
			continue
		}
		return a, ep, nil
	}
	if len(errs) == 0 {
		return nil, Endpoint{}, errors.New("no Podman socket to try")
	}
	return nil, Endpoint{}, errors.Join(errs...)
}

// machineEndpoints asks the podman CLI for the podman machine's socket
// (macOS) or the default system connection (ssh, both systems).
func machineEndpoints(ctx context.Context) []Endpoint {
	if _, err := exec.LookPath("podman"); err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	var out []Endpoint
	if b, err := exec.CommandContext(ctx, "podman", "machine", "inspect").Output(); err == nil {
		out = append(out, parseMachineInspect(b)...)
	}
	if b, err := exec.CommandContext(ctx, "podman", "system", "connection", "list", "--format", "json").Output(); err == nil {
		out = append(out, parseConnections(b)...)
	}
	return out
}

// parseMachineInspect reads `podman machine inspect` (a JSON array).
func parseMachineInspect(b []byte) []Endpoint {
	var machines []struct {
		ConnectionInfo struct {
			PodmanSocket *struct{ Path string }
		}
		State string
	}
	if json.Unmarshal(b, &machines) != nil {
		return nil
	}
	var out []Endpoint
	for _, m := range machines {
		if m.ConnectionInfo.PodmanSocket != nil && m.ConnectionInfo.PodmanSocket.Path != "" && m.State == "running" {
			out = append(out, Endpoint{URI: "unix://" + m.ConnectionInfo.PodmanSocket.Path, Machine: true, Source: "podman machine"})
		}
	}
	return out
}

// parseConnections reads `podman system connection list --format json`,
// default connection first.
func parseConnections(b []byte) []Endpoint {
	var conns []struct {
		Name, URI, Identity string
		Default, IsMachine  bool
	}
	if json.Unmarshal(b, &conns) != nil {
		return nil
	}
	var out []Endpoint
	for _, c := range conns {
		ep := Endpoint{URI: c.URI, Identity: c.Identity, Machine: c.IsMachine, Source: "podman connection " + c.Name}
		if c.Default {
			out = append([]Endpoint{ep}, out...)
		} else {
			out = append(out, ep)
		}
	}
	return out
}
