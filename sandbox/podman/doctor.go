package podman

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"github.com/warren-dev/warren/sandbox"
)

// Check is one thing the sandbox depends on, tested for real.
type Check struct {
	// Name is short and stable: "socket", "tun device", "network run"…
	Name string `json:"name"`
	// OK is false when the check failed; Warn marks a pass with a caveat.
	OK   bool `json:"ok"`
	Warn bool `json:"warn,omitempty"`
	// Detail says what was found, in one line.
	Detail string `json:"detail"`
	// Fix says what to do about a failure or warning, in one line.
	Fix string `json:"fix,omitempty"`
}

// DoctorOptions say what Doctor runs besides the host checks.
type DoctorOptions struct {
	// Workspace is checked for the container user and mounted by the run
	// checks; empty runs them with a scratch /workspace.
	Workspace string
	// Run starts real containers: a command without network and, with
	// Network, one that must see an interface besides lo.
	Run     bool
	Network bool
}

// Failed reports whether any check failed.
func Failed(checks []Check) bool {
	for _, c := range checks {
		if !c.OK {
			return true
		}
	}
	return false
}

// Doctor runs every check the sandbox depends on, in the order a set-up
// builds them, and says how to fix each that fails. Checks that need an
// earlier one (the service for the image) are skipped when it failed.
func (m *Manager) Doctor(ctx context.Context, opts DoctorOptions) []Check {
	var out []Check
	add := func(c Check) { out = append(out, c) }
	s, err := m.session(ctx)
	if err != nil {
		add(Check{Name: "socket", Detail: firstLine(strings.TrimPrefix(err.Error(), sandbox.ErrUnavailable.Error()+": ")),
			Fix: "as root run scripts/podman-setup.sh; as a user `systemctl --user start podman.socket` (or install podman, uidmap and slirp4netns)"})
		return out
	}
	add(Check{Name: "socket", OK: true, Detail: s.endpoint.URI + " (" + s.endpoint.Source + ")"})
	rootless := s.info.Host.Security.Rootless
	svc := Check{Name: "service", OK: true, Detail: fmt.Sprintf("podman %s, runtime %s, cgroup %s, rootless %v",
		s.info.Version.Version, s.info.Host.OCIRuntime.Name, s.info.Host.CgroupVersion, rootless)}
	if !rootless {
		svc.Warn, svc.Fix = true, "rootful Podman shares the host's user namespace: prefer a rootless service (scripts/podman-setup.sh sets one up)"
	}
	add(svc)
	if rootless {
		add(subIDCheck("subuid", s.info.Host.IDMappings.UIDMap, s.owner, "/etc/subuid", "--add-subuids"))
		add(subIDCheck("subgid", s.info.Host.IDMappings.GIDMap, s.owner, "/etc/subgid", "--add-subgids"))
		add(userNSCheck())
	}
	add(limitsCheck(s.enforced, m.limits))
	if rootless {
		add(tunCheck(s.owner))
		add(slirpCheck())
	}
	img := Check{Name: "image", Detail: m.opts.Image}
	if ok, err := s.api.imageExists(ctx, m.opts.Image); err != nil {
		img.Detail, img.Fix = "cannot check "+m.opts.Image+": "+firstLine(err.Error()), "check the service's log"
	} else if !ok {
		img.Detail, img.Fix = m.opts.Image+" is missing", "warren sandbox image build (offline, from busybox-static)"
	} else {
		img.OK, img.Detail = true, m.opts.Image+" present"
	}
	add(img)
	run := Check{Name: "runner", OK: s.runnerErr == nil, Detail: s.runner}
	if s.runnerErr != nil {
		run.Detail, run.Fix = firstLine(s.runnerErr.Error()), "make build (it puts warren-runner next to warren)"
	}
	add(run)
	if opts.Workspace != "" {
		_, cuser := containerUser(s, opts.Workspace)
		ws := Check{Name: "workspace", OK: true, Detail: opts.Workspace + " usable by " + userLabel(cuser)}
		if err := m.preflight(startCheck{Workspace: opts.Workspace, User: cuser, Rootless: rootless}); err != nil {
			ws = setupCheck("workspace", err)
		}
		add(ws)
	}
	// The run checks need the image and the runner; the others they test
	// again for real (and a failure then shows what a command would get).
	if opts.Run && img.OK && run.OK {
		add(m.runCheck(ctx, "run", opts.Workspace, false))
		if opts.Network {
			add(m.runCheck(ctx, "network run", opts.Workspace, true))
		}
	}
	return out
}

// setupCheck turns an error into a failed check, using a SetupError's fix.
func setupCheck(name string, err error) Check {
	var se *SetupError
	if errors.As(err, &se) {
		return Check{Name: name, Detail: se.Cause, Fix: se.Fix}
	}
	return Check{Name: name, Detail: firstLine(err.Error())}
}

// subIDCheck reads the service's own user namespace: a rootless service
// with subordinate ids maps more than its user.
func subIDCheck(name string, ns []idMap, o owner, file, flag string) Check {
	total := 0
	for _, m := range ns {
		if m.ContainerID != 0 || m.Size != 1 {
			total += m.Size
		}
	}
	if total >= 65536 {
		return Check{Name: name, OK: true, Detail: fmt.Sprintf("%d subordinate ids for %s", total, userLabel(o))}
	}
	who := userName(o)
	return Check{Name: name, Detail: fmt.Sprintf("%s has %d subordinate ids in %s (want 65536)", userLabel(o), total, file),
		Fix: fmt.Sprintf("sudo usermod %s 100000-165535 %s (a free range), then `podman system migrate` as %s", flag, who, who)}
}

// userNSCheck reads the kernel's switches for unprivileged user namespaces.
func userNSCheck() Check {
	c := Check{Name: "user namespaces", OK: true, Detail: "unprivileged user namespaces allowed"}
	if b, err := os.ReadFile("/proc/sys/user/max_user_namespaces"); err == nil {
		if n, _ := strconv.Atoi(strings.TrimSpace(string(b))); n == 0 {
			return Check{Name: c.Name, Detail: "user.max_user_namespaces is 0", Fix: "sudo sysctl -w user.max_user_namespaces=15000"}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/unprivileged_userns_clone"); err == nil && strings.TrimSpace(string(b)) == "0" {
		return Check{Name: c.Name, Detail: "kernel.unprivileged_userns_clone is 0", Fix: "sudo sysctl -w kernel.unprivileged_userns_clone=1"}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"); err == nil && strings.TrimSpace(string(b)) == "1" {
		c.Warn, c.Detail = true, "AppArmor restricts unprivileged user namespaces (podman's own profile allows them)"
		c.Fix = "if containers fail to start, see your distribution's notes on apparmor_restrict_unprivileged_userns"
	}
	return c
}

// limitsCheck says which limits hold: cgroup ones where the service
// enforces them, RLIMIT_NPROC always.
func limitsCheck(e enforcement, l Limits) Check {
	c := Check{Name: "cgroup limits", OK: true}
	var on, off []string
	for _, x := range []struct {
		name string
		set  bool
		held bool
	}{{"memory", l.Memory > 0, e.memory}, {"pids", l.Pids > 0, e.pids}, {"cpu", l.CPUs > 0, e.cpu}} {
		switch {
		case !x.set:
		case x.held:
			on = append(on, x.name)
		default:
			off = append(off, x.name)
		}
	}
	c.Detail = "enforced: " + orNone(on)
	if len(off) > 0 {
		c.Warn = true
		c.Detail += "; not enforced by this host: " + strings.Join(off, ", ")
		var instead []string
		if l.Memory > 0 && !e.memory {
			instead = append(instead, fmt.Sprintf("each process's data by RLIMIT_DATA (%d MiB)", l.Memory>>20))
		}
		if l.Pids > 0 && !e.pids {
			instead = append(instead, fmt.Sprintf("processes by RLIMIT_NPROC (%d)", l.Pids))
		}
		if len(instead) > 0 {
			c.Detail += "; capped instead: " + strings.Join(instead, ", ")
		}
		c.Fix = "a cgroup v2 host with delegated controllers enforces them (systemd: Delegate=yes for user@.service)"
	}
	return c
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func tunCheck(o owner) Check {
	if err := checkTun(o); err != nil {
		return setupCheck("tun device", err)
	}
	return Check{Name: "tun device", OK: true, Detail: tunDevice + " usable by " + userLabel(o) + " (network opt-in)"}
}

func slirpCheck() Check {
	p, err := exec.LookPath("slirp4netns")
	if err != nil {
		return Check{Name: "slirp4netns", Detail: "slirp4netns is not installed (rootless network opt-in)", Fix: "sudo apt-get install slirp4netns"}
	}
	return Check{Name: "slirp4netns", OK: true, Detail: p}
}

// runCheck runs a real command in a container of its own, then removes it.
func (m *Manager) runCheck(ctx context.Context, name, workspace string, network bool) Check {
	key := "warren-doctor-" + randomHex(3)
	defer m.dropKey(ctx, key)
	script := `test -w /workspace && echo ok; ls /sys/class/net`
	res, err := m.Run(ctx, sandbox.Request{Argv: []string{"/bin/sh", "-c", script}, Key: key, Workspace: workspace, Network: network})
	if err != nil {
		return setupCheck(name, err)
	}
	lines := strings.Fields(res.Stdout)
	if res.ExitCode != 0 || len(lines) == 0 || lines[0] != "ok" {
		return Check{Name: name, Detail: fmt.Sprintf("exit %d, stdout %q, stderr %q", res.ExitCode, firstLine(res.Stdout), firstLine(res.Stderr)),
			Fix: "the workspace is not writable inside the container: check its owner against the sandbox user"}
	}
	ifaces := lines[1:]
	c := Check{Name: name, OK: true, Detail: fmt.Sprintf("ran in %s; interfaces: %s", res.Where, strings.Join(ifaces, " "))}
	hasNet := len(ifaces) > 1 || (len(ifaces) == 1 && ifaces[0] != "lo")
	switch {
	case network && !hasNet:
		c.OK, c.Fix = false, "the container got no interface besides lo: check slirp4netns and "+tunDevice
	case !network && hasNet:
		c.OK, c.Fix = false, "a container without network opt-in has an interface besides lo: report this as a bug"
	}
	return c
}

// dropKey removes this manager's containers of key.
func (m *Manager) dropKey(ctx context.Context, key string) {
	m.mu.Lock()
	var drop []*box
	for k, b := range m.boxes {
		if k.key == key {
			drop = append(drop, b)
		}
	}
	m.mu.Unlock()
	for _, b := range drop {
		<-b.ready
		m.discard(ctx, b, "check done")
	}
}

// PrintChecks writes checks one a line, PASS/WARN/FAIL first, the fix on
// the next line; the CLI and warren-sandbox share it.
func PrintChecks(w io.Writer, checks []Check) {
	for _, c := range checks {
		mark := "PASS"
		switch {
		case !c.OK:
			mark = "FAIL"
		case c.Warn:
			mark = "WARN"
		}
		fmt.Fprintf(w, "%s  %-16s %s\n", mark, c.Name, c.Detail)
		if c.Fix != "" && (!c.OK || c.Warn) {
			fmt.Fprintf(w, "      %-16s fix: %s\n", "", c.Fix)
		}
	}
}
