package podman

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
)

// StdioSpec is one long-lived interactive program (a stdio MCP server) to
// run in a fresh container of its own.
type StdioSpec struct {
	// Key names the container (warren-<key>-<random>) and is what Status
	// shows for it, e.g. "mcp:github".
	Key string
	// Command and Args are the program as configured on the host; what of
	// the host it needs is mounted read-only (see resolveProgram).
	Command string
	Args    []string
	// Env is the program's environment besides PATH and HOME=/tmp. The
	// values reach the service in the create request's body, never on a
	// command line that ps would show.
	Env map[string]string
	// Dir is the working directory: in Workspace or in the program's
	// mounted files; default Workspace.
	Dir string
	// Workspace is mounted read-write at the same path; "" gives an empty
	// /workspace.
	Workspace string
	// Network gives the container the service's default network; without
	// it the container has only loopback.
	Network bool
}

// clientEnv is what the podman client keeps of Warren's environment: what
// it needs to find its configuration and ssh agent, nothing else (the
// program's environment travels in the create request).
var clientEnv = []string{
	"PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TMPDIR", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME",
	"XDG_DATA_HOME", "CONTAINERS_CONF", "CONTAINERS_CONF_OVERRIDE", "CONTAINERS_REGISTRIES_CONF", "SSH_AUTH_SOCK",
}

// StdioCommand creates a container for spec's program, hardened as every
// sandbox container (buildSpec), and returns the command that starts it
// attached: the podman client, `podman --remote --url SOCKET start
// --attach --interactive ID`, whose stdin, stdout and stderr are the
// program's and whose exit code is the program's. Signals sent to the
// client reach the program (podman's --sig-proxy). The service removes
// the container when the program exits; should the program outlive its
// client (it ignores SIGTERM and EOF and the client was killed), the
// container is removed as soon as the client is gone. A crashed Warren's
// containers are pruned when the next one connects.
//
// The command has not been started; the caller owns it (pipes, process
// group, Start, Wait). Errors meaning Podman cannot be reached wrap
// sandbox.ErrUnavailable.
func (m *Manager) StdioCommand(ctx context.Context, spec StdioSpec) (*exec.Cmd, error) {
	if spec.Key == "" || strings.TrimSpace(spec.Command) == "" {
		return nil, errors.New("sandbox: a stdio program needs a key and a command")
	}
	for k := range spec.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return nil, fmt.Errorf("sandbox: environment name %q is invalid", k)
		}
	}
	if spec.Workspace != "" {
		if !filepath.IsAbs(spec.Workspace) {
			return nil, fmt.Errorf("sandbox: workspace %q is not absolute", spec.Workspace)
		}
		spec.Workspace = filepath.Clean(spec.Workspace)
	}
	if spec.Dir != "" && !filepath.IsAbs(spec.Dir) {
		if spec.Workspace == "" {
			return nil, fmt.Errorf("sandbox: working directory %q is relative and there is no workspace", spec.Dir)
		}
		spec.Dir = filepath.Join(spec.Workspace, spec.Dir) // relative to the workspace
	}
	if runtime.GOOS != "linux" {
		return nil, errors.New("sandbox: stdio programs mount host files into the container, which needs Podman on this Linux host")
	}
	cli, err := exec.LookPath("podman")
	if err != nil {
		return nil, errors.New("sandbox: the podman command attaches to sandboxed programs and is not installed (Debian/Ubuntu: apt-get install podman)")
	}
	prog, err := m.stdioProgram(ctx, spec)
	if err != nil {
		return nil, err
	}
	dir, err := stdioDir(spec, prog.ReadOnly)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		return nil, errors.New("sandbox: manager closed")
	}

	cctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	var (
		id, name string
		ep       Endpoint
	)
	err = m.withAPI(cctx, func(s *session) error {
		if s.endpoint.Machine {
			return errors.New("stdio programs mount host files into the container, which needs Podman on this Linux host (podman machine is not supported yet)")
		}
		user, cuser := containerUser(s, spec.Workspace)
		check := startCheck{Workspace: spec.Workspace, Network: spec.Network, User: cuser, Rootless: s.info.Host.Security.Rootless}
		if err := m.preflight(check); err != nil {
			return err
		}
		if err := m.ensureImage(cctx, s); err != nil {
			return err
		}
		env := map[string]string{"HOME": "/tmp"}
		if len(prog.LibDirs) > 0 {
			env["LD_LIBRARY_PATH"] = strings.Join(prog.LibDirs, ":")
		}
		maps.Copy(env, spec.Env)
		labels := m.labels(boxKey{key: spec.Key, workspace: spec.Workspace, network: spec.Network})
		labels[labelStdio] = "1"
		name = containerName(spec.Key, randomHex(4))
		cs, warnings := buildSpec(specInput{
			Name: name, Image: m.opts.Image, Labels: labels,
			Workspace: spec.Workspace, WorkspaceAt: spec.Workspace, WorkDir: dir, Network: spec.Network,
			Rootless: s.info.Host.Security.Rootless, User: user, KeepID: s.keepID, Limits: m.limits, Enforced: s.enforced,
			Program: prog.Argv, ReadOnly: prog.ReadOnly, Env: env, Stdin: true, Remove: true,
		})
		cid, created, err := m.createContainer(cctx, s, cs)
		if err != nil {
			return explainStartError(fmt.Errorf("create container for %s: %w", spec.Command, err), check)
		}
		m.noteWarnings(withServiceWarnings(warnings, created))
		id, ep = cid, s.endpoint
		return nil
	})
	if err != nil {
		return nil, err
	}
	// Not the arguments: some servers take tokens there.
	m.log.Info("sandbox: created stdio container", "name", name, "id", shortID(id), "key", spec.Key, "command", spec.Command, "mounts", prog.ReadOnly)

	args := []string{"--remote", "--url", ep.URI}
	if ep.Identity != "" {
		args = append(args, "--identity", ep.Identity)
	}
	// fatal: the 4.x client logs a spurious `level=error msg="Should
	// restart: false"` when an attached container exits; real failures
	// still print "Error: …" and exit 125.
	args = append(args, "--log-level=fatal", "start", "--attach", "--interactive", id)
	// Not CommandContext: the caller owns the process's life, which
	// outlasts this call. podman itself, on the container just created.
	cmd := exec.Command(cli, args...) //nolint:gosec,noctx // see above
	cmd.Env = []string{}              // not nil, which would pass on all of Warren's
	for _, k := range clientEnv {
		if v := m.opts.Getenv(k); v != "" {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	go m.reap(context.WithoutCancel(ctx), id)
	return cmd, nil
}

// stdioProgram resolves spec's program on the host and drops mounts the
// workspace already holds (it is mounted read-write at the same path).
func (m *Manager) stdioProgram(ctx context.Context, spec StdioSpec) (hostProgram, error) {
	path := spec.Env["PATH"]
	if path == "" {
		path = m.opts.Getenv("PATH")
	}
	prog, err := resolveProgram(ctx, programInput{Command: spec.Command, Args: spec.Args, Dir: cmp.Or(spec.Dir, spec.Workspace),
		Path: path, Home: m.opts.Getenv("HOME")})
	if err != nil {
		return prog, err
	}
	if spec.Workspace != "" {
		ro := prog.ReadOnly[:0]
		for _, p := range prog.ReadOnly {
			if !within(spec.Workspace, p) {
				ro = append(ro, p)
			}
		}
		prog.ReadOnly = ro
	}
	return prog, nil
}

// stdioDir is the program's working directory, which must exist inside:
// in the workspace or in the program's mounted files.
func stdioDir(spec StdioSpec, readOnly []string) (string, error) {
	if spec.Dir == "" {
		return cmp.Or(spec.Workspace, workspaceDir), nil
	}
	d := filepath.Clean(spec.Dir)
	for _, root := range append([]string{spec.Workspace}, readOnly...) {
		if root != "" && within(root, d) {
			return d, nil
		}
	}
	return "", fmt.Errorf("working directory %s is not in the sandbox, which holds only the workspace (%s) and the program's files", d, spec.Workspace)
}
