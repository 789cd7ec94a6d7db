package warren

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/policy"
	"github.com/warren-dev/warren/tools"
)

// A process that does not run every enabled server (the CLI: `warren run`,
// `warren teams run`, `warren mcp serve`) starts the servers an agent may
// use when that agent needs them, by lease: the first lease of a server
// starts it, the last release stops it again — unless the server was
// already running for another reason (then it is left alone). The window
// (RunMCP) runs every enabled server and takes no leases.

// DefaultMCPWait bounds how long a run waits for the servers it starts: a
// server that is slower, or fails, does not hold the run up; the run is
// told why its tools are missing.
const DefaultMCPWait = 20 * time.Second

// mcpLeases counts the leases on each server and remembers which servers
// the leases started (and so must stop).
type mcpLeases struct {
	mu    sync.Mutex
	count map[string]int
	owned map[string]bool
}

// MCPUse says whose servers to lease.
type MCPUse struct {
	Agent string
	// Profile is the policy profile the agent's tools are judged by; empty
	// means the agent's own or the active one.
	Profile string
	// Depth is the subagent depth (0 = top level).
	Depth int
	// Wait bounds the wait for started servers (default DefaultMCPWait).
	Wait time.Duration
}

// MCPServerReport is one leased server after the bounded wait.
type MCPServerReport struct {
	Server string    `json:"server"`
	State  mcp.State `json:"state"`
	Tools  int       `json:"tools"`
	// Problem says why the server's tools are not usable now; empty when they are.
	Problem string `json:"problem,omitempty"`
}

// String reads like "ev: connected, 13 tools" or "broken: not available (…)".
func (r MCPServerReport) String() string {
	if r.Problem != "" {
		return fmt.Sprintf("%s: not available (%s)", r.Server, r.Problem)
	}
	return fmt.Sprintf("%s: %s, %d tools", r.Server, r.State, r.Tools)
}

// MCPLease keeps the servers an agent may use running until Release.
type MCPLease struct {
	w   *Warren
	use MCPUse

	mu   sync.Mutex
	held []string
	done bool
}

// LeaseMCP starts (or attaches to) every configured, enabled server the
// agent may use under its policy and grants, waits for them within
// use.Wait, and reports each one. In the process that runs every enabled
// server (RunMCP) it leases nothing. Release the lease when the work ends.
func (w *Warren) LeaseMCP(ctx context.Context, use MCPUse) (*MCPLease, []MCPServerReport, error) {
	l := &MCPLease{w: w, use: use}
	report, err := l.Refresh(ctx)
	if err != nil {
		l.Release()
		return nil, nil, err
	}
	return l, report, nil
}

// Refresh takes configuration changes in: servers the agent may now use
// are leased (started when not running) and waited for, ones it may no
// longer use are released. It reports the newly leased servers.
func (l *MCPLease) Refresh(ctx context.Context) ([]MCPServerReport, error) {
	w := l.w
	if w.mcpAutostart() {
		return nil, nil
	}
	if err := w.reloadMCP(ctx, false); err != nil {
		return nil, err
	}
	want, err := w.mcpServersFor(ctx, l.use)
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	if l.done {
		l.mu.Unlock()
		return nil, nil
	}
	var added, dropped []string
	for _, name := range want {
		if !slices.Contains(l.held, name) {
			added = append(added, name)
		}
	}
	for _, name := range l.held {
		if !slices.Contains(want, name) {
			dropped = append(dropped, name)
		}
	}
	l.held = slices.DeleteFunc(l.held, func(name string) bool { return slices.Contains(dropped, name) })
	l.mu.Unlock()
	w.releaseMCP(dropped)
	added, err = w.acquireMCP(ctx, added)
	l.mu.Lock()
	released := l.done
	if !released {
		l.held = append(l.held, added...) // only what was acquired: Release gives back exactly that
	}
	l.mu.Unlock()
	if released { // Release ran meanwhile: give these back too
		w.releaseMCP(added)
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	if len(added) == 0 {
		return nil, nil
	}
	wait := l.use.Wait
	if wait <= 0 {
		wait = DefaultMCPWait
	}
	wctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	w.MCP().WaitReady(wctx, added...)
	return w.mcpReports(ctx, added, wait)
}

// Servers lists the servers the lease holds.
func (l *MCPLease) Servers() []string {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.held)
}

// Release gives the servers back; those the leases started stop once no
// lease holds them. Calling it again (or on nil) does nothing.
func (l *MCPLease) Release() {
	if l == nil {
		return
	}
	l.mu.Lock()
	held := l.held
	l.held, l.done = nil, true
	l.mu.Unlock()
	l.w.releaseMCP(held)
}

func (w *Warren) mcpAutostart() bool {
	w.mcp.mu.Lock()
	defer w.mcp.mu.Unlock()
	return w.mcp.autostart
}

// acquireMCP takes a lease on each server, starting those not running,
// and returns the ones it leased (all of them unless it failed).
func (w *Warren) acquireMCP(ctx context.Context, names []string) ([]string, error) {
	ls := &w.mcp.leases
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.count == nil {
		ls.count, ls.owned = map[string]int{}, map[string]bool{}
	}
	for i, name := range names {
		if _, running := w.MCP().Tools(name); !running {
			if err := w.MCP().Start(ctx, name); err != nil {
				return names[:i], fmt.Errorf("start MCP server %s: %w", name, err)
			}
			ls.owned[name] = true
		}
		ls.count[name]++
	}
	return names, nil
}

// releaseMCP drops a lease on each server and stops the ones the leases
// started when the last lease is gone (unless the window took over).
func (w *Warren) releaseMCP(names []string) {
	ls := &w.mcp.leases
	ls.mu.Lock()
	defer ls.mu.Unlock()
	autostart := w.mcpAutostart()
	for _, name := range names {
		if ls.count[name]--; ls.count[name] > 0 {
			continue
		}
		delete(ls.count, name)
		if ls.owned[name] && !autostart {
			w.MCP().Stop(name)
		}
		delete(ls.owned, name)
	}
}

// mcpReports describes the named servers after the wait.
func (w *Warren) mcpReports(ctx context.Context, names []string, wait time.Duration) ([]MCPServerReport, error) {
	sts, err := w.MCP().Statuses(ctx)
	if err != nil {
		return nil, err
	}
	var out []MCPServerReport
	for _, st := range sts {
		if !slices.Contains(names, st.Name) {
			continue
		}
		r := MCPServerReport{Server: st.Name, State: st.State, Tools: st.Tools}
		switch st.State {
		case mcp.StateConnected:
		case mcp.StateConnecting:
			r.Problem = fmt.Sprintf("still connecting after %s", wait)
		default:
			r.Problem = string(st.State)
			if st.LastError != "" {
				r.Problem += ": " + w.Scrub(st.LastError) // stderr lines can carry anything
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// mcpServersFor lists the enabled servers whose tools the agent may use
// (see mcpVerdicts).
func (w *Warren) mcpServersFor(ctx context.Context, use MCPUse) ([]string, error) {
	verdicts, err := w.mcpVerdicts(ctx, use)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, v := range verdicts {
		if v.why == "" {
			out = append(out, v.server.Name)
		}
	}
	return out, nil
}

// mcpVerdict is whether an agent may use a server, and why not.
type mcpVerdict struct {
	server mcp.Server
	why    string
}

// mcpVerdicts judges every configured server for the agent: it may use
// one that is enabled, that its grants allow, and whose group its policy
// allows or one of whose tools its policy names. The policy gate and the
// grants still judge every call; this decides which servers to run.
func (w *Warren) mcpVerdicts(ctx context.Context, use MCPUse) ([]mcpVerdict, error) {
	servers, err := w.MCP().Store().List(ctx)
	if err != nil || len(servers) == 0 {
		return nil, err
	}
	profile := use.Profile
	if profile == "" {
		if a, err := w.db.GetAgent(ctx, use.Agent); err == nil {
			profile = a.Profile
		}
	}
	base, err := w.registryFor(ctx, use.Agent)
	if err != nil {
		return nil, err
	}
	cfg, err := json.Marshal(w.PolicyConfig())
	if err != nil {
		return nil, err
	}
	w.mcp.mu.Lock()
	access := w.mcp.access
	w.mcp.mu.Unlock()
	out := make([]mcpVerdict, len(servers))
	var probes []tools.Tool
	names := make([]string, len(servers))
	for i, s := range servers {
		out[i].server = s
		a, known := access[s.Name]
		usable, why := false, fmt.Sprintf("MCP server %s is not configured", s.Name)
		if known {
			usable, why = a.Usable(use.Agent, localUser)
		}
		switch {
		case !s.Enabled:
			out[i].why = fmt.Sprintf("MCP server %s is switched off (warren mcp enable %s)", s.Name, s.Name)
		case !usable:
			out[i].why = why
		}
		probe := mcpProbe{info: tools.Info{Name: mcp.ToolName(s.Prefix(), "warren_policy_probe"),
			Group: policy.MCPGroup(s.Name), Class: tools.ClassRuntime}}
		if _, taken := base.Get(probe.info.Name); !taken && !slices.Contains(names, probe.info.Name) {
			probes = append(probes, probe) // else the server's own tool of that name stands in
		}
		names[i] = probe.info.Name
	}
	reg, err := base.WithTools(probes...)
	if err != nil {
		return nil, err
	}
	d, err := w.decisionAt(reg, profile, use.Agent, use.Depth)
	if err != nil {
		return nil, err
	}
	for i := range out {
		s := out[i].server
		named := strings.Contains(string(cfg), `"`+mcp.ToolName(s.Prefix(), ""))
		if out[i].why == "" && !d.Allowed(names[i]) && !named {
			out[i].why = fmt.Sprintf("the policy (profile %s) does not offer MCP server %s's tools to agent %s (warren policy also-allow %s)",
				firstNonEmpty(profile, w.ActiveProfile()), s.Name, use.Agent, mcpAlsoAllowEntry(s.Name))
			if use.Depth > 0 {
				out[i].why = fmt.Sprintf("subagents (depth %d) may not use MCP server %s", use.Depth, s.Name)
			}
		}
	}
	return out, nil
}

// mcpForRun leases the servers a run's agent may use (see LeaseMCP),
// reports them to on as a notice, and returns the system prompt's note on
// servers that are not available, so the model knows why their tools are
// missing instead of guessing.
func (w *Warren) mcpForRun(ctx context.Context, a store.Agent, depth int, on func(agent.Event)) (*MCPLease, string, error) {
	lease, report, err := w.LeaseMCP(ctx, MCPUse{Agent: a.Key, Profile: a.Profile, Depth: depth})
	if err != nil {
		return nil, "", fmt.Errorf("MCP servers for agent %s: %w", a.Key, err)
	}
	if len(report) == 0 {
		return lease, "", nil
	}
	parts := make([]string, len(report))
	var note strings.Builder
	for i, r := range report {
		parts[i] = r.String()
		if r.Problem != "" {
			if note.Len() == 0 {
				note.WriteString("\n## MCP servers not available\n\nThese servers' tools are missing from this turn; tell the user if the task needs them:\n")
			}
			fmt.Fprintf(&note, "- MCP server %s: %s\n", r.Server, r.Problem)
		}
	}
	if on != nil {
		on(agent.Event{Kind: agent.EventNotice, Text: "MCP servers: " + strings.Join(parts, "; ")})
	}
	return lease, note.String(), nil
}
