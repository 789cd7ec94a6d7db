package podman

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Status is what `warren sandbox status` shows.
type Status struct {
	Connected      bool              `json:"connected"`
	Error          string            `json:"error,omitempty"`
	Endpoint       string            `json:"endpoint,omitempty"`
	Source         string            `json:"source,omitempty"`
	Rootless       bool              `json:"rootless"`
	ServiceVersion string            `json:"service_version,omitempty"`
	Runtime        string            `json:"runtime,omitempty"`
	CgroupVersion  string            `json:"cgroup_version,omitempty"`
	Image          string            `json:"image"`
	ImagePresent   bool              `json:"image_present"`
	Runner         string            `json:"runner,omitempty"`
	RunnerError    string            `json:"runner_error,omitempty"`
	Limits         Limits            `json:"limits"`
	Containers     []ContainerStatus `json:"containers"`
	Warnings       []string          `json:"warnings,omitempty"`
}

// ContainerStatus is one Warren sandbox container.
type ContainerStatus struct {
	Key       string        `json:"key"`
	Workspace string        `json:"workspace,omitempty"`
	Network   bool          `json:"network"`
	ID        string        `json:"id"`
	Name      string        `json:"name"`
	State     string        `json:"state"`
	Age       time.Duration `json:"age,omitempty"`
	Idle      time.Duration `json:"idle,omitempty"`
	InFlight  int           `json:"in_flight"`
	// Mine is true for this manager's containers; others belong to another
	// Warren process (or a crashed one, which Prune removes).
	Mine     bool `json:"mine"`
	OwnerPID int  `json:"owner_pid,omitempty"`
}

// Status reports the connection, the image, the runner, every Warren
// container on the service and the warnings the user should see.
func (m *Manager) Status(ctx context.Context) Status {
	st := Status{Image: m.opts.Image, Limits: m.limits, Containers: []ContainerStatus{}}
	s, err := m.session(ctx)
	if err != nil {
		st.Error = err.Error()
		return st
	}
	st.Connected, st.Endpoint, st.Source = true, s.endpoint.URI, s.endpoint.Source
	st.Rootless, st.ServiceVersion = s.info.Host.Security.Rootless, s.info.Version.Version
	st.Runtime, st.CgroupVersion = s.info.Host.OCIRuntime.Name, s.info.Host.CgroupVersion
	st.Runner = s.runner
	if s.runnerErr != nil {
		st.RunnerError = s.runnerErr.Error()
	}
	if st.ImagePresent, err = s.api.imageExists(ctx, m.opts.Image); err != nil {
		st.Error = err.Error()
	}
	_, warnings := buildSpec(specInput{Rootless: st.Rootless, Limits: m.limits, Enforced: s.enforced})
	if !st.Rootless {
		warnings = append(warnings, "rootful Podman: containers share the host's user namespace")
	}
	m.mu.Lock()
	mine := map[string]*box{}
	for _, b := range m.boxes {
		select {
		case <-b.ready: // id is set once ready is closed
			if b.err == nil {
				mine[b.id] = b
			}
		default:
		}
	}
	for w := range m.warnings {
		warnings = append(warnings, w)
	}
	m.mu.Unlock()
	st.Warnings = dedupe(warnings)

	list, err := s.api.list(ctx, labelSandbox+"=1")
	if err != nil {
		st.Error = err.Error()
		return st
	}
	now := time.Now()
	for _, c := range list {
		cs := ContainerStatus{
			Key: c.Labels[labelKey], Workspace: c.Labels[labelWork], Network: c.Labels[labelNetwork] == "true",
			ID: shortID(c.ID), Name: firstName(c.Names), State: c.State, Mine: c.Labels[labelInstance] == m.instance,
		}
		cs.OwnerPID, _ = strconv.Atoi(c.Labels[labelOwnerPID])
		m.mu.Lock()
		if b := mine[c.ID]; b != nil {
			cs.Age, cs.InFlight = now.Sub(b.created).Round(time.Second), b.inflight
			if b.inflight == 0 {
				cs.Idle = now.Sub(b.lastUsed).Round(time.Second)
			}
		}
		m.mu.Unlock()
		st.Containers = append(st.Containers, cs)
	}
	sort.Slice(st.Containers, func(i, j int) bool { return st.Containers[i].Name < st.Containers[j].Name })
	return st
}

// Pruned is one container Prune removed.
type Pruned struct {
	Name, ID, Key string
	OwnerPID      int
}

// pruneGrace keeps a socket directory younger than this: its container may
// still be being created by another Warren process.
const pruneGrace = 2 * time.Minute

// Prune removes Warren sandbox containers whose Warren process is gone (a
// crash), and their socket directories. With all it also removes those of
// other running Warren processes; this manager's own are never touched.
func (m *Manager) Prune(ctx context.Context, all bool) ([]Pruned, error) {
	s, err := m.session(ctx)
	if err != nil {
		return nil, err
	}
	return m.prune(ctx, s, all)
}

func (m *Manager) prune(ctx context.Context, s *session, all bool) ([]Pruned, error) {
	list, err := s.api.list(ctx, labelSandbox+"=1")
	if err != nil {
		return nil, err
	}
	var out []Pruned
	var errs []error
	live := map[string]bool{}
	for _, c := range list {
		pid, _ := strconv.Atoi(c.Labels[labelOwnerPID])
		name := firstName(c.Names)
		if c.Labels[labelInstance] == m.instance || (!all && pidAlive(pid)) {
			live[name] = true
			continue
		}
		if err := s.api.remove(ctx, c.ID); err != nil {
			errs = append(errs, err)
			live[name] = true
			continue
		}
		out = append(out, Pruned{Name: name, ID: shortID(c.ID), Key: c.Labels[labelKey], OwnerPID: pid})
	}
	// Socket directories of containers that no longer exist. A fresh one
	// may belong to a container another Warren process is creating right
	// now (not listed yet): it is left for a later prune.
	entries, _ := os.ReadDir(m.opts.StateDir)
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), "warren-") || live[e.Name()] || m.creating(e.Name()) {
			continue
		}
		if fi, err := e.Info(); err != nil || time.Since(fi.ModTime()) < pruneGrace {
			continue
		}
		errs = append(errs, os.RemoveAll(filepath.Join(m.opts.StateDir, e.Name())))
	}
	return out, errors.Join(errs...)
}

// creating reports whether name is one of this manager's containers,
// possibly not created (hence not listed) yet.
func (m *Manager) creating(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, b := range m.boxes {
		if b.name == name {
			return true
		}
	}
	return false
}

func firstName(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return strings.TrimPrefix(names[0], "/")
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}
