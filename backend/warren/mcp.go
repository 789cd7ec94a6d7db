package warren

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/policy"
	"github.com/warren-dev/warren/tools"
)

// mcpState keeps the registry in step with the MCP manager: bridged tools
// are registered while their server runs, and grants are checked by the
// policy gate and in every tool listing.
type mcpState struct {
	manager *mcp.Manager
	logDir  string

	mu         sync.Mutex
	registered []string
	problems   []string
	access     map[string]mcp.Access // by server name
	version    string
	// autostart: this process (the window) runs every enabled server.
	autostart bool
	// leases hold the servers runs of this process started (mcpruns.go).
	leases mcpLeases
	// elicit holds the servers' questions to the user (mcpelicit.go).
	elicit *elicitations
}

func (w *Warren) initMCP(ctx context.Context) error {
	logDir := filepath.Join(w.dataDir, "logs", "mcp")
	st := &mcpState{logDir: logDir, access: map[string]mcp.Access{},
		elicit: &elicitations{bus: w.bus, pending: map[string]pendingElicitation{}}}
	st.manager = mcp.NewManager(mcp.Options{
		Store:          mcp.NewStore(w.db.SQL(), w.box),
		LogDir:         logDir,
		Bus:            w.bus,
		Logger:         w.log,
		OnToolsChanged: w.syncMCPTools,
		SandboxCommand: w.mcpSandboxCommand,
		Client:         w.mcpClientHandlers(),
	})
	w.mcp = st
	if err := w.initToolSearch(); err != nil {
		return err
	}
	return w.loadMCPAccess(ctx)
}

// MCP returns the MCP manager.
func (w *Warren) MCP() *mcp.Manager { return w.mcp.manager }

// MCPLogDir is where stdio servers' stderr logs are kept.
func (w *Warren) MCPLogDir() string { return w.mcp.logDir }

// RunMCP starts every enabled server and keeps the running set in step
// with the store (changes made from the CLI too) until ctx ends. The window
// runs it; the CLI connects on demand with ConnectMCP.
func (w *Warren) RunMCP(ctx context.Context) error {
	w.mcp.mu.Lock()
	w.mcp.autostart = true
	w.mcp.mu.Unlock()
	if err := w.reloadMCP(ctx, true); err != nil {
		return err
	}
	tick := time.NewTicker(reloadEvery)
	defer tick.Stop()
	var last snapshotMark
	for {
		select {
		case <-ctx.Done():
			w.dropStatusSnapshot(ctx)
			return nil
		case <-tick.C:
			if err := w.reloadMCP(ctx, false); err != nil {
				w.log.Warn("mcp reload", "err", err)
			}
			w.saveStatusSnapshot(ctx, &last)
		}
	}
}

// ConnectMCP starts the enabled servers (only those named, when names are
// given) and waits until each finished its first connection attempt or
// ctx ends; their tools are then in the registry.
func (w *Warren) ConnectMCP(ctx context.Context, names ...string) error {
	servers, err := w.MCP().Store().List(ctx)
	if err != nil {
		return err
	}
	var started []string
	for _, s := range servers {
		if s.Enabled && (len(names) == 0 || slices.Contains(names, s.Name)) {
			if err := w.MCP().Start(ctx, s.Name); err != nil {
				return err
			}
			started = append(started, s.Name)
		}
	}
	if len(started) > 0 {
		w.MCP().WaitReady(ctx, started...)
	}
	return nil
}

// ConnectMCPFor connects the server a tool name belongs to (mcp_{prefix}_…),
// so `warren tool call` needs no other server.
func (w *Warren) ConnectMCPFor(ctx context.Context, tool string) error {
	if !strings.HasPrefix(tool, "mcp_") {
		return nil
	}
	servers, err := w.MCP().Store().List(ctx)
	if err != nil {
		return err
	}
	var names []string
	for _, s := range servers {
		if strings.HasPrefix(tool, "mcp_"+s.Prefix()+"_") {
			names = append(names, s.Name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	return w.ConnectMCP(ctx, names...)
}

// reloadMCP takes store changes (from any process) into the manager, the
// grants cache and the registry.
func (w *Warren) reloadMCP(ctx context.Context, force bool) error {
	st := w.mcp
	v, err := st.manager.Store().Version(ctx)
	if err != nil {
		return err
	}
	st.mu.Lock()
	if v == st.version && !force {
		st.mu.Unlock()
		return nil
	}
	st.version = v
	autostart := st.autostart
	st.mu.Unlock()
	if err := st.manager.Sync(ctx, autostart); err != nil {
		return err
	}
	if err := w.loadMCPAccess(ctx); err != nil {
		return err
	}
	w.syncMCPTools()
	return nil
}

// loadMCPAccess caches every server's grants for the gate.
func (w *Warren) loadMCPAccess(ctx context.Context) error {
	store := w.mcp.manager.Store()
	servers, err := store.List(ctx)
	if err != nil {
		return err
	}
	grants, err := store.Grants(ctx, "")
	if err != nil {
		return err
	}
	byServer := map[string][]mcp.Grant{}
	for _, g := range grants {
		byServer[g.Server] = append(byServer[g.Server], g)
	}
	access := make(map[string]mcp.Access, len(servers))
	for _, s := range servers {
		access[s.Name] = mcp.NewAccess(s, byServer[s.Name])
	}
	w.mcp.mu.Lock()
	w.mcp.access = access
	w.mcp.mu.Unlock()
	w.dropDecisions()
	return nil
}

// syncMCPTools registers the running servers' tools and removes the rest.
func (w *Warren) syncMCPTools() {
	bridged, problems := w.mcp.manager.BridgeTools()
	st := w.mcp
	st.mu.Lock()
	defer st.mu.Unlock()
	want := map[string]bool{}
	for _, b := range bridged {
		want[b.Info().Name] = true
	}
	for _, name := range st.registered {
		if !want[name] {
			w.registry.Unregister(name)
		}
	}
	st.registered = st.registered[:0]
	for _, b := range bridged {
		name := b.Info().Name
		if existing, ok := w.registry.Get(name); ok {
			if _, isMCP := existing.(mcp.Bridged); !isMCP {
				server, _ := b.Origin()
				problems = append(problems, fmt.Sprintf("MCP server %s: tool %s clashes with a built-in or custom tool", server, name))
				continue
			}
		}
		if slices.Contains(st.registered, name) {
			server, tool := b.Origin()
			problems = append(problems, fmt.Sprintf("MCP server %s: tool %s maps to %s, already taken by another server (set a tool prefix)", server, tool, name))
			continue
		}
		w.registry.Replace(b)
		st.registered = append(st.registered, name)
	}
	st.problems = problems
}

// MCPProblems lists tools that could not be bridged.
func (w *Warren) MCPProblems() []string {
	w.mcp.mu.Lock()
	defer w.mcp.mu.Unlock()
	return append([]string(nil), w.mcp.problems...)
}

// mcpPermits applies MCP grants to a bridged tool; other tools pass.
func (w *Warren) mcpPermits(t tools.Tool, agent, user string) (bool, string) {
	b, ok := t.(mcp.Bridged)
	if !ok {
		return true, ""
	}
	server, tool := b.Origin()
	w.mcp.mu.Lock()
	access, known := w.mcp.access[server]
	w.mcp.mu.Unlock()
	if !known {
		return false, fmt.Sprintf("MCP server %s is not configured", server)
	}
	return access.Permits(agent, user, tool)
}

// explainMissingTool tells an agent why an MCP tool it may use is not
// there now (its server is down, stopped or switched off, or the tool is
// switched off). An agent that may not use the tool — no grant, or the
// policy leaves it out — learns nothing more than "unknown tool".
func (w *Warren) explainMissingTool(ctx context.Context, name string) (tools.Result, bool) {
	u, ok := w.MCP().Unavailable(ctx, name)
	if !ok {
		return tools.Result{}, false
	}
	cc := tools.CallContextFrom(ctx)
	w.mcp.mu.Lock()
	access, known := w.mcp.access[u.Server]
	w.mcp.mu.Unlock()
	if !known {
		return tools.Result{}, false
	}
	if ok, _ := access.PermitsSwitchedOn(cc.Agent, localUser, u.Tool); !ok {
		return tools.Result{}, false
	}
	if ok, _ := w.gate(ctx, tools.Info{Name: name, Group: policy.MCPGroup(u.Server), Class: tools.ClassRuntime}); !ok {
		return tools.Result{}, false
	}
	code := tools.CodeNetwork
	if u.ByUser {
		code = tools.CodePermission
	}
	return tools.Errorf(code, "%s", u.Reason), true
}

// withoutUngranted removes the MCP tools an agent has no grant for.
func (w *Warren) withoutUngranted(reg *tools.Registry, d policy.Decision, agent string) policy.Decision {
	return d.Without(func(name string) bool {
		t, ok := reg.Get(name)
		if !ok {
			return false
		}
		allowed, _ := w.mcpPermits(t, agent, localUser)
		return !allowed
	})
}

// localUser is the one desktop user every call acts for.
const localUser = "local"

// SaveMCPServer validates and stores a server, then applies it.
func (w *Warren) SaveMCPServer(ctx context.Context, s mcp.Server, mode mcp.SaveMode) error {
	if err := w.MCP().Store().Save(ctx, s, mode); err != nil {
		return err
	}
	return w.reloadMCP(ctx, true)
}

// ErrMCPServerExists marks adding a server under a name already taken.
var ErrMCPServerExists = errors.New("MCP server already exists")

// AddMCPServer stores a new server (env and header values sealed) and
// applies it; a taken name is an error.
func (w *Warren) AddMCPServer(ctx context.Context, s mcp.Server) error {
	if _, err := w.MCP().Store().Get(ctx, s.Name); err == nil {
		return fmt.Errorf("%w: %q (edit it, or pick another name)", ErrMCPServerExists, s.Name)
	} else if !errors.Is(err, mcp.ErrNotFound) {
		return err
	}
	return w.SaveMCPServer(ctx, s, mcp.ReplaceSecrets)
}

// AddMCPServerOffered adds a server as AddMCPServer does and, with offer,
// offers its tools to agents (the also-allow entry group:mcp:NAME): a
// server added in the window is meant to be used, so the form offers it
// by default.
func (w *Warren) AddMCPServerOffered(ctx context.Context, s mcp.Server, offer bool) error {
	if err := w.AddMCPServer(ctx, s); err != nil || !offer {
		return err
	}
	return w.SetMCPOffered(ctx, s.Name, true)
}

// UpdateMCPServer saves an edited server: stored env and header values stay
// unless s gives a new value (an empty one deletes the key), and the
// per-tool switches stay as stored (SetMCPToolEnabled changes them).
func (w *Warren) UpdateMCPServer(ctx context.Context, s mcp.Server) error {
	cur, err := w.MCP().Store().Get(ctx, s.Name)
	if err != nil {
		return err
	}
	s.ToolDeny = cur.ToolDeny
	return w.SaveMCPServer(ctx, s, mcp.MergeSecrets)
}

// DeleteMCPServer stops and removes a server with its grants.
func (w *Warren) DeleteMCPServer(ctx context.Context, name string) error {
	w.MCP().Stop(name)
	if err := w.MCP().Store().Delete(ctx, name); err != nil {
		return err
	}
	return w.reloadMCP(ctx, true)
}

// SetMCPServerEnabled switches a server on or off. The process that runs
// the servers (RunMCP) starts or stops it on its next reload, and retries
// it at once when it is on but failed or reconnecting; the window starts
// it at once with MCP().Start.
func (w *Warren) SetMCPServerEnabled(ctx context.Context, name string, on bool) error {
	if err := w.MCP().Store().SetEnabled(ctx, name, on); err != nil {
		return err
	}
	if on {
		if err := w.MCP().RequestRestart(ctx, name, true); err != nil {
			return err
		}
	}
	return w.reloadMCP(ctx, true)
}

// RestartMCPServer restarts a server wherever it runs: here at once, and
// in the process that runs the servers (the window) on its next reload. A
// failed server is retried from the first attempt.
func (w *Warren) RestartMCPServer(ctx context.Context, name string) error {
	srv, err := w.MCP().Store().Get(ctx, name)
	if err != nil {
		return err
	}
	if !srv.Enabled {
		return fmt.Errorf("MCP server %s is switched off: switch it on (warren mcp enable %s) to start it", name, name)
	}
	if err := w.MCP().RequestRestart(ctx, name, false); err != nil {
		return err
	}
	return w.reloadMCP(ctx, true)
}

// SetMCPToolEnabled switches one server tool on or off for every agent.
func (w *Warren) SetMCPToolEnabled(ctx context.Context, server, tool string, on bool) error {
	if err := w.MCP().Store().SetToolEnabled(ctx, server, tool, on); err != nil {
		return err
	}
	return w.reloadMCP(ctx, true)
}

// SaveMCPGrant stores a grant and applies it.
func (w *Warren) SaveMCPGrant(ctx context.Context, g mcp.Grant) error {
	if err := w.MCP().Store().SaveGrant(ctx, g); err != nil {
		return err
	}
	return w.reloadMCP(ctx, true)
}

// DeleteMCPGrant removes a grant and applies it.
func (w *Warren) DeleteMCPGrant(ctx context.Context, server string, scope mcp.Scope, subject string) error {
	if err := w.MCP().Store().DeleteGrant(ctx, server, scope, subject); err != nil {
		return err
	}
	return w.reloadMCP(ctx, true)
}

// ReviewMCPRequest approves (creating the grant) or rejects a request.
func (w *Warren) ReviewMCPRequest(ctx context.Context, id int64, approve bool, note string) error {
	if err := w.MCP().Store().Review(ctx, id, approve, localUser, note); err != nil {
		return err
	}
	return w.reloadMCP(ctx, true)
}

// MCPToolView is one server tool with how Warren exposes it.
type MCPToolView struct {
	Name        string `json:"name"`
	Registered  string `json:"registered_as"`
	Description string `json:"description"`
	Enabled     bool   `json:"enabled"`
	Danger      string `json:"danger"`
}

// MCPServerTools lists a running server's tools with their on/off switch.
func (w *Warren) MCPServerTools(ctx context.Context, name string) ([]MCPToolView, error) {
	srv, err := w.MCP().Store().Get(ctx, name)
	if err != nil {
		return nil, err
	}
	ts, ok := w.MCP().Tools(name)
	if !ok {
		return nil, fmt.Errorf("MCP server %s is not running: %w", name, mcp.ErrNotConnected)
	}
	prefix := srv.Prefix()
	out := make([]MCPToolView, 0, len(ts))
	for _, t := range ts {
		out = append(out, MCPToolView{Name: t.Name, Registered: mcp.ToolName(prefix, t.Name), Description: t.Description,
			Enabled: !slices.Contains(srv.ToolDeny, t.Name), Danger: mcp.DangerOf(t.Annotations).String()})
	}
	return out, nil
}

// MCPPolicyHint says how to offer a server's tools to agents when the
// active profile does not include them; "" when it does.
func (w *Warren) MCPPolicyHint(ctx context.Context, server string) string {
	group := policy.MCPGroup(server)
	probe := mcpProbe{info: tools.Info{Name: mcp.ToolName(server, "probe"), Group: group, Class: tools.ClassRuntime}}
	reg, err := w.registry.WithTools(probe)
	if err != nil {
		return ""
	}
	d, err := w.decision(reg, "", "")
	if err != nil || d.Allowed(probe.info.Name) {
		return ""
	}
	return fmt.Sprintf("note: profile %s does not offer MCP tools to agents; allow this server's with: warren policy also-allow %s", w.ActiveProfile(), mcpAlsoAllowEntry(server))
}

// mcpAlsoAllowEntry is the policy entry that offers a server's tools to
// agents under a profile without them.
func mcpAlsoAllowEntry(server string) string { return "group:" + policy.MCPGroup(server) }

// MCPOffered reports whether the policy's also-allow list offers the
// server's tools (group:mcp:NAME).
func (w *Warren) MCPOffered(server string) bool {
	return slices.Contains(w.PolicyConfig().AlsoAllow, mcpAlsoAllowEntry(server))
}

// SetMCPOffered adds (on) or removes the also-allow entry of a server.
func (w *Warren) SetMCPOffered(ctx context.Context, server string, on bool) error {
	if err := mcp.ValidateName("server name", server); err != nil {
		return err
	}
	return w.SetAlsoAllow(ctx, mcpAlsoAllowEntry(server), on)
}

// MCPServerLog returns the last n lines of a stored server's stderr log.
func (w *Warren) MCPServerLog(ctx context.Context, name string, n int) ([]string, error) {
	if _, err := w.MCP().Store().Get(ctx, name); err != nil {
		return nil, err
	}
	return mcp.ReadLog(w.MCPLogDir(), name, max(n, 1))
}

// mcpProbe stands for a server's tools when asking the policy about them.
type mcpProbe struct{ info tools.Info }

func (p mcpProbe) Info() tools.Info { return p.info }

func (p mcpProbe) Execute(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.Result{}, errors.New("policy probe: not executable")
}
