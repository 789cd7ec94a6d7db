package app_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/mcp/mcpconfig"
	"github.com/warren-dev/warren/backend/warren"
)

// everythingBin is @modelcontextprotocol/server-everything, installed from
// npm by scripts/bootstrap.sh.
func everythingBin(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "backend", "mcp", "testdata", "servers", "node_modules", ".bin", "mcp-server-everything"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("mcp-server-everything is not installed: run ./scripts/bootstrap.sh")
	}
	return p
}

// mcpStatuses collects the statuses forwarded as "mcp:event".
type mcpStatuses struct{ ch chan mcp.Status }

func (m *mcpStatuses) emit(ctx context.Context, name string, data ...any) {
	if name != app.EventMCP {
		return
	}
	ev := data[0].(events.Event)
	if ev.Topic != mcp.TopicStatus {
		panic("mcp:event carried topic " + ev.Topic)
	}
	select { // Shutdown cancels ctx and waits for forwarding to stop
	case m.ch <- ev.Payload.(mcp.Status):
	case <-ctx.Done():
	}
}

// waitFor returns the first status of server that satisfies ok.
func (m *mcpStatuses) waitFor(t *testing.T, server string, what string, ok func(mcp.Status) bool) mcp.Status {
	t.Helper()
	timeout := time.After(45 * time.Second)
	for {
		select {
		case st := <-m.ch:
			if st.Name == server && ok(st) {
				return st
			}
		case <-timeout:
			t.Fatalf("no mcp:event for %s with %s", server, what)
		}
	}
}

func newMCPApp(t *testing.T, opts app.Options) (*app.App, *mcpStatuses) {
	t.Helper()
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = core.Close() })
	rec := &mcpStatuses{ch: make(chan mcp.Status, 256)}
	opts.Emit = rec.emit
	a := app.New(core, opts)
	ctx, cancel := context.WithCancel(context.Background())
	a.Startup(ctx)
	t.Cleanup(func() {
		a.Shutdown(ctx)
		cancel()
	})
	return a, rec
}

func connected(st mcp.Status) bool { return st.State == mcp.StateConnected && st.Tools > 0 }

// TestMCPEverything drives the real server-everything over stdio through
// every server method the MCP panel calls.
func TestMCPEverything(t *testing.T) {
	t.Parallel()
	bin := everythingBin(t)
	saved := filepath.Join(t.TempDir(), "export.json")
	a, rec := newMCPApp(t, app.Options{SaveFile: func(context.Context, string, string) (string, error) { return saved, nil }})

	srv := mcp.Server{Name: "everything", Transport: mcp.TransportStdio, Command: bin, Args: []string{"stdio"},
		Env: map[string]string{"SECRET": "s1", "GONE": "g"}, Enabled: true}
	if err := a.AddMCPServer(srv, false); err != nil {
		t.Fatal(err)
	}
	st := rec.waitFor(t, "everything", "connected", connected)
	if st.PID == 0 || st.Protocol == "" {
		t.Fatalf("connected status without pid/protocol: %+v", st)
	}
	if err := a.AddMCPServer(srv, false); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("adding a taken name: %v", err)
	}

	views, err := a.MCPServers()
	if err != nil || len(views) != 1 {
		t.Fatalf("MCPServers: %v %+v", err, views)
	}
	if v := views[0]; !slices.Equal(v.Server.EnvKeys, []string{"GONE", "SECRET"}) || len(v.Server.Env) != 0 || v.Status.State != mcp.StateConnected {
		t.Fatalf("view: env %v keys %v state %s", v.Server.Env, v.Server.EnvKeys, v.Status.State)
	}

	tools, err := a.MCPServerTools("everything")
	if err != nil || !slices.ContainsFunc(tools, func(v warren.MCPToolView) bool { return v.Name == "echo" && v.Enabled }) {
		t.Fatalf("tools: %v %+v", err, tools)
	}
	if err := a.SetMCPToolEnabled("everything", "echo", false); err != nil {
		t.Fatal(err)
	}
	tools, _ = a.MCPServerTools("everything")
	if i := slices.IndexFunc(tools, func(v warren.MCPToolView) bool { return v.Name == "echo" }); i < 0 || tools[i].Enabled {
		t.Fatalf("echo still on: %+v", tools)
	}

	// Editing: stored values stay unless given, "" deletes one, and the
	// tool switches survive a form that does not know them.
	edit := views[0].Server
	edit.Env = map[string]string{"GONE": "", "NEW": "n"}
	edit.ToolDeny = nil
	if err := a.UpdateMCPServer(edit); err != nil {
		t.Fatal(err)
	}
	views, _ = a.MCPServers()
	if got := views[0].Server; !slices.Equal(got.EnvKeys, []string{"NEW", "SECRET"}) || !slices.Equal(got.ToolDeny, []string{"echo"}) {
		t.Fatalf("after edit: keys %v deny %v", got.EnvKeys, got.ToolDeny)
	}
	if err := a.UpdateMCPServer(mcp.Server{Name: "nobody", Transport: mcp.TransportStdio, Command: "x"}); err == nil {
		t.Fatal("updating a server that does not exist succeeded")
	}
	// The env changed, so the server restarted with it: a new process.
	first := st.PID
	st = rec.waitFor(t, "everything", "connected again", func(s mcp.Status) bool { return connected(s) && s.PID != first && s.PID > 0 })

	lines, err := a.MCPServerLogs("everything", 50)
	if err != nil || !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "warren: starting everything") }) {
		t.Fatalf("logs: %v %q", err, lines)
	}

	// Killing the process: the status says reconnecting, with the attempt.
	if views, _ = a.MCPServers(); views[0].Status.PID != st.PID {
		t.Fatalf("listed pid %d, connected status said %d", views[0].Status.PID, st.PID)
	}
	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	st = rec.waitFor(t, "everything", "reconnecting", func(s mcp.Status) bool { return s.State == mcp.StateReconnecting })
	if st.Attempt != 1 || st.MaxAttempts != 10 || st.NextRetry.IsZero() || st.LastError == "" {
		t.Fatalf("reconnecting status: %+v", st)
	}
	st = rec.waitFor(t, "everything", "reconnected", connected)
	if st.Restarts != 1 {
		t.Fatalf("restarts after one kill: %+v", st)
	}

	if err := a.StopMCPServer("everything"); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "everything", "stopped", func(s mcp.Status) bool { return s.State == mcp.StateStopped })
	if err := a.StartMCPServer("everything"); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "everything", "started", connected)
	if err := a.RestartMCPServer("everything"); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "everything", "restarted", connected)
	if err := a.SetMCPServerEnabled("everything", false); err != nil {
		t.Fatal(err)
	}
	rec.waitFor(t, "everything", "stopped when disabled", func(s mcp.Status) bool { return s.State == mcp.StateStopped })
	if err := a.StopMCPServer("nobody"); err == nil {
		t.Fatal("stopping an unknown server succeeded")
	}

	// Export holds the secrets; the save dialog's file is private.
	text, err := a.ExportMCPServers()
	if err != nil || !strings.Contains(text, `"SECRET": "s1"`) {
		t.Fatalf("export: %v %s", err, text)
	}
	if !a.CanSaveFiles() {
		t.Fatal("CanSaveFiles with a dialog")
	}
	if path, err := a.SaveMCPExport(); err != nil || path != saved {
		t.Fatalf("SaveMCPExport: %q %v", path, err)
	}
	if fi, err := os.Stat(saved); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("saved export: %v %v", err, fi)
	}

	if err := a.DeleteMCPServer("everything"); err != nil {
		t.Fatal(err)
	}
	if views, _ := a.MCPServers(); len(views) != 0 {
		t.Fatalf("after delete: %+v", views)
	}
}

func TestMCPTestConnection(t *testing.T) {
	t.Parallel()
	bin := everythingBin(t)
	a, _ := newMCPApp(t, app.Options{})

	// An unsaved form.
	res := a.TestMCPServer(mcp.Server{Name: "draft", Transport: mcp.TransportStdio, Command: bin, Args: []string{"stdio"}})
	if !res.OK || res.Error != "" || res.Protocol == "" || !slices.ContainsFunc(res.Tools, func(t app.MCPTestTool) bool { return t.Name == "echo" && t.Description != "" }) {
		t.Fatalf("test of server-everything: %+v", res)
	}

	tests := []struct {
		name string
		srv  mcp.Server
		want string
		// stderr is a line the server wrote before failing.
		stderr string
	}{
		{"invalid", mcp.Server{Name: "bad name", Transport: mcp.TransportStdio, Command: "x"}, "server name", ""},
		{"not found", mcp.Server{Name: "missing", Transport: mcp.TransportStdio, Command: "/nonexistent/mcp-server"}, "nonexistent", ""},
		{"exits", mcp.Server{Name: "crash", Transport: mcp.TransportStdio, Command: "sh", Args: []string{"-c", "echo boom >&2; exit 3"}}, "3", "boom"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res := a.TestMCPServer(tc.srv)
			if res.OK || !strings.Contains(res.Error, tc.want) || res.Stderr == nil || res.Tools == nil {
				t.Fatalf("want a failure naming %q: %+v", tc.want, res)
			}
			if tc.stderr != "" && !slices.ContainsFunc(res.Stderr, func(l string) bool { return strings.Contains(l, tc.stderr) }) {
				t.Fatalf("stderr %q lacks %q", res.Stderr, tc.stderr)
			}
		})
	}
}

func TestMCPAccessAndImport(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	claude := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	if err := os.MkdirAll(filepath.Dir(claude), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(claude, []byte(`{"mcpServers": {"fromclaude": {"command": "true", "disabled": true}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	a, _ := newMCPApp(t, app.Options{ClaudeDesktop: mcpconfig.PathOptions{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }}})
	if a.CanSaveFiles() {
		t.Fatal("CanSaveFiles without a dialog")
	}
	if _, err := a.SaveMCPExport(); err == nil {
		t.Fatal("SaveMCPExport without a dialog succeeded")
	}

	doc := `{"mcpServers": {"files": {"command": "true", "args": ["a"], "env": {"TOKEN": "t"}, "disabled": true},
		"web": {"url": "http://127.0.0.1:9/mcp", "disabled": true}}}`
	rep, err := a.ImportMCPServers(doc, false)
	if err != nil || !slices.Equal(rep.Added, []string{"files", "web"}) {
		t.Fatalf("import: %v %+v", err, rep)
	}
	if rep, _ = a.ImportMCPServers(doc, false); !slices.Equal(rep.Skipped, []string{"files", "web"}) {
		t.Fatalf("import again: %+v", rep)
	}
	if rep, _ = a.ImportMCPServers(doc, true); !slices.Equal(rep.Replaced, []string{"files", "web"}) {
		t.Fatalf("import with replace: %+v", rep)
	}
	if _, err := a.ImportMCPServers("{not json", false); err == nil {
		t.Fatal("importing broken JSON succeeded")
	}
	text, err := a.ExportMCPServers()
	var exported struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err != nil || json.Unmarshal([]byte(text), &exported) != nil || len(exported.MCPServers) != 2 {
		t.Fatalf("export: %v %s", err, text)
	}

	// Grants and access requests.
	if err := a.SaveMCPGrant(mcp.Grant{Server: "files", Scope: mcp.ScopeAgent, Subject: "default", ToolDeny: []string{"write"}, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	if err := a.SaveMCPGrant(mcp.Grant{Server: "nobody", Scope: mcp.ScopeAgent, Subject: "default"}); err == nil {
		t.Fatal("a grant on an unknown server was saved")
	}
	id, err := a.RequestMCPAccess(mcp.AccessRequest{Server: "web", Scope: mcp.ScopeUser, Subject: "local", ToolAllow: []string{"fetch"}, Reason: "docs"})
	if err != nil {
		t.Fatal(err)
	}
	reqs, err := a.MCPAccessRequests(mcp.StatusPending)
	if err != nil || len(reqs) != 1 || reqs[0].ID != id || reqs[0].Reason != "docs" {
		t.Fatalf("pending requests: %v %+v", err, reqs)
	}
	if err := a.ReviewMCPRequest(id, true, "ok"); err != nil {
		t.Fatal(err)
	}
	if err := a.ReviewMCPRequest(id, false, ""); err == nil {
		t.Fatal("reviewing twice succeeded")
	}
	if reqs, _ := a.MCPAccessRequests(mcp.StatusPending); len(reqs) != 0 {
		t.Fatalf("still pending: %+v", reqs)
	}
	grants, err := a.MCPGrants("")
	if err != nil || len(grants) != 2 {
		t.Fatalf("grants: %v %+v", err, grants)
	}
	if g := grants[1]; g.Server != "web" || g.Scope != mcp.ScopeUser || !slices.Equal(g.ToolAllow, []string{"fetch"}) || !g.Enabled {
		t.Fatalf("grant from the approved request: %+v", g)
	}
	if err := a.DeleteMCPGrant("files", "agent", "default"); err != nil {
		t.Fatal(err)
	}
	if grants, _ := a.MCPGrants("files"); len(grants) != 0 {
		t.Fatalf("grant not deleted: %+v", grants)
	}

	// Offering a server's tools to agents under the default profile.
	acc := a.MCPAgentAccess("files")
	if acc.AlsoAllowed || !strings.Contains(acc.Hint, "group:mcp:files") || acc.Profile == "" {
		t.Fatalf("before: %+v", acc)
	}
	if err := a.SetMCPOffered("files", true); err != nil {
		t.Fatal(err)
	}
	if acc := a.MCPAgentAccess("files"); !acc.AlsoAllowed || acc.Hint != "" {
		t.Fatalf("offered: %+v", acc)
	}
	if err := a.SetMCPOffered("files", false); err != nil {
		t.Fatal(err)
	}
	if acc := a.MCPAgentAccess("files"); acc.AlsoAllowed || acc.Hint == "" {
		t.Fatalf("withdrawn: %+v", acc)
	}
	if err := a.SetMCPOffered("not a name", true); err == nil {
		t.Fatal("an invalid server name was also-allowed")
	}

	// The first-run Claude Desktop offer, answered once.
	offer, err := a.ClaudeDesktopOffer()
	if err != nil || offer == nil || !slices.Equal(offer.Servers, []string{"fromclaude"}) || offer.Path != claude {
		t.Fatalf("offer: %v %+v", err, offer)
	}
	rep, err = a.AnswerClaudeDesktopOffer(true)
	if err != nil || !slices.Equal(rep.Added, []string{"fromclaude"}) {
		t.Fatalf("accept: %v %+v", err, rep)
	}
	if offer, err := a.ClaudeDesktopOffer(); err != nil || offer != nil {
		t.Fatalf("offer after the answer: %v %+v", err, offer)
	}

	logs, err := a.MCPServerLogs("files", 10)
	if err != nil || logs == nil || len(logs) != 0 {
		t.Fatalf("logs of a server never started: %v %q", err, logs)
	}
	if _, err := a.MCPServerLogs("nobody", 10); err == nil {
		t.Fatal("logs of an unknown server")
	}
}

// The window's import path: the configs found on this machine are
// previewed (nothing stored, the npx server marked and off), the chosen
// ones imported by path, and a server added in the form is offered to
// agents when asked.
func TestMCPImportPreviewAndOffer(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	claude := filepath.Join(home, ".config", "Claude", "claude_desktop_config.json")
	if err := os.MkdirAll(filepath.Dir(claude), 0o700); err != nil {
		t.Fatal(err)
	}
	doc := `{"mcpServers": {"local": {"command": "true", "env": {"TOKEN": "t0k"}}, "fetched": {"command": "npx", "args": ["-y", "@scope/pkg"]}}}`
	if err := os.WriteFile(claude, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	a, _ := newMCPApp(t, app.Options{ClaudeDesktop: mcpconfig.PathOptions{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }}})
	found, err := a.FindMCPConfigs()
	if err != nil || len(found) != 1 || found[0].Path != claude || len(found[0].Servers) != 2 {
		t.Fatalf("found %+v, %v", found, err)
	}
	fetched := found[0].Servers[0]
	if fetched.Name != "fetched" || fetched.Downloads == "" || fetched.Enable {
		t.Fatalf("npx server %+v", fetched)
	}
	if p, err := a.PreviewMCPImport(doc); err != nil || len(p.Servers) != 2 || !slices.Equal(p.Servers[1].EnvKeys, []string{"TOKEN"}) {
		t.Fatalf("preview %+v, %v", p, err)
	}
	if views, _ := a.MCPServers(); len(views) != 0 {
		t.Fatalf("a preview stored servers: %+v", views)
	}
	rep, err := a.ImportMCPSelection(warren.MCPImportRequest{Path: claude, Offer: true,
		Servers: []warren.MCPImportChoice{{Name: "local", Enabled: false}, {Name: "fetched", Enabled: false}}})
	if err != nil || !slices.Equal(rep.Added, []string{"fetched", "local"}) && !slices.Equal(rep.Added, []string{"local", "fetched"}) {
		t.Fatalf("import %+v, %v", rep, err)
	}
	if !a.MCPAgentAccess("local").AlsoAllowed {
		t.Fatal("imported server not offered to agents")
	}
	if offer, _ := a.ClaudeDesktopOffer(); offer != nil {
		t.Fatalf("offer after importing Claude Desktop's config: %+v", offer)
	}
	if _, err := a.ImportMCPSelection(warren.MCPImportRequest{Path: "/etc/hostname"}); err == nil {
		t.Fatal("imported a file that is no client config")
	}

	srv := mcp.Server{Name: "offered", Transport: mcp.TransportStdio, Command: "true"}
	if err := a.AddMCPServer(srv, true); err != nil {
		t.Fatal(err)
	}
	if acc := a.MCPAgentAccess("offered"); !acc.AlsoAllowed || acc.Hint != "" {
		t.Fatalf("added with offer: %+v", acc)
	}
	srv.Name = "quiet"
	if err := a.AddMCPServer(srv, false); err != nil {
		t.Fatal(err)
	}
	if a.MCPAgentAccess("quiet").AlsoAllowed {
		t.Fatal("added without offer, but offered")
	}
}
