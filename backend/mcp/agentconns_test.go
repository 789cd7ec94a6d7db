package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/tools"
)

func TestGrantOverridesStored(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	f.save(t, Server{Name: "ev", Transport: TransportStdio, Command: "mcp-server-everything", Env: map[string]string{"SHARED": "1"}})
	f.save(t, Server{Name: "web", Transport: TransportHTTP, URL: "http://127.0.0.1:1/mcp"})

	g := Grant{Server: "ev", Scope: ScopeAgent, Subject: "writer", Enabled: true, ConfigOverrides: Overrides{
		Env: map[string]string{"TOKEN": "tok-override-42", "MODE": "fast"}, Args: []string{"stdio"}, CallTimeoutSeconds: 30}}
	if err := f.store.SaveGrant(ctx, g); err != nil {
		t.Fatal(err)
	}
	var stored string
	if err := f.db.SQL().QueryRowContext(ctx, "SELECT config_overrides FROM mcp_grants WHERE subject = 'writer'").Scan(&stored); err != nil ||
		!strings.Contains(stored, "TOKEN") || strings.Contains(stored, "tok-override-42") {
		t.Fatalf("stored overrides %q (%v): values must be sealed", stored, err)
	}
	readBack := func() Overrides {
		t.Helper()
		gs, err := f.store.Grants(ctx, "ev")
		if err != nil || len(gs) != 1 {
			t.Fatalf("grants = %+v, %v", gs, err)
		}
		return gs[0].ConfigOverrides
	}
	got := readBack()
	if got.Env != nil || strings.Join(got.EnvKeys, ",") != "MODE,TOKEN" || got.CallTimeoutSeconds != 30 || len(got.Args) != 1 {
		t.Fatalf("read back %+v (values must stay hidden, keys listed)", got)
	}

	// An edit that mentions no values keeps them; env_keys narrows what is kept.
	g.ConfigOverrides = Overrides{EnvKeys: []string{"TOKEN"}, Env: map[string]string{"EXTRA": "x"}, CallTimeoutSeconds: 30}
	if err := f.store.SaveGrant(ctx, g); err != nil {
		t.Fatal(err)
	}
	if got := readBack(); strings.Join(got.EnvKeys, ",") != "EXTRA,TOKEN" || len(got.Args) != 0 {
		t.Fatalf("after edit %+v", got)
	}
	all, err := f.store.AgentOverrides(ctx)
	if err != nil || all["ev"]["writer"].Env["TOKEN"] != "tok-override-42" || all["ev"]["writer"].Env["EXTRA"] != "x" {
		t.Fatalf("AgentOverrides = %+v, %v", all, err)
	}

	// Approving a request for the same agent keeps its overrides.
	id, err := f.store.CreateRequest(ctx, AccessRequest{Server: "ev", Scope: ScopeAgent, Subject: "writer", ToolAllow: []string{"echo"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.store.Review(ctx, id, true, "local", ""); err != nil {
		t.Fatal(err)
	}
	if got := readBack(); len(got.EnvKeys) != 2 {
		t.Fatalf("approval dropped the overrides: %+v", got)
	}

	for _, tc := range []struct {
		name string
		g    Grant
		want string
	}{
		{"user grant", Grant{Server: "ev", Scope: ScopeUser, Subject: "me", ConfigOverrides: Overrides{CallTimeoutSeconds: 5}}, "only agent grants"},
		{"headers on stdio", Grant{Server: "ev", Scope: ScopeAgent, Subject: "a", ConfigOverrides: Overrides{Headers: map[string]string{"X": "1"}}}, "override env, not headers"},
		{"env on http", Grant{Server: "web", Scope: ScopeAgent, Subject: "a", ConfigOverrides: Overrides{Env: map[string]string{"X": "1"}}}, "override headers, not env"},
		{"args on http", Grant{Server: "web", Scope: ScopeAgent, Subject: "a", ConfigOverrides: Overrides{Args: []string{"x"}}}, "no args to override"},
		{"bad env name", Grant{Server: "ev", Scope: ScopeAgent, Subject: "a", ConfigOverrides: Overrides{Env: map[string]string{"A=B": "1"}}}, `env name "A=B"`},
		{"negative timeout", Grant{Server: "ev", Scope: ScopeAgent, Subject: "a", ConfigOverrides: Overrides{CallTimeoutSeconds: -1}}, "call_timeout_seconds -1"},
		{"unknown server", Grant{Server: "nope", Scope: ScopeAgent, Subject: "a", ConfigOverrides: Overrides{CallTimeoutSeconds: 1}}, "not found"},
	} {
		err := f.store.SaveGrant(ctx, tc.g)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// An agent whose grant overrides the env gets a connection of its own
// that sees its env; other agents share the server's connection.
func TestAgentConnectionUsesOverrides(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f := newFixture(t)
	f.save(t, Server{Name: "ev", Transport: TransportStdio, Command: serverBin(t, "mcp-server-everything"), Args: []string{"stdio"},
		Env: map[string]string{"WARREN_TEST_TOKEN": "shared-token"}, Enabled: true})
	if err := f.store.SaveGrant(ctx, Grant{Server: "ev", Scope: ScopeAgent, Subject: "writer", Enabled: true,
		ConfigOverrides: Overrides{Env: map[string]string{"WARREN_TEST_TOKEN": "writer-token"}}}); err != nil {
		t.Fatal(err)
	}
	ch, cancel := f.bus.Subscribe(256)
	defer cancel()
	m := f.manager(t, Options{})
	if err := m.StartEnabled(ctx); err != nil {
		t.Fatal(err)
	}
	waitState(t, ch, "ev", 30*time.Second, StateConnected)

	envAs := func(agent string) string {
		t.Helper()
		actx := tools.WithCallContext(ctx, tools.CallContext{Agent: agent})
		res, err := m.Call(actx, "ev", "get-env", json.RawMessage(`{}`))
		if err != nil {
			t.Fatalf("get-env as %q: %v", agent, err)
		}
		var env map[string]string
		if err := json.Unmarshal([]byte(ResultText(res)), &env); err != nil {
			t.Fatalf("get-env output: %v", err)
		}
		return env["WARREN_TEST_TOKEN"]
	}
	if got := envAs("default"); got != "shared-token" {
		t.Fatalf("agent without overrides saw %q", got)
	}
	if got := envAs("writer"); got != "writer-token" {
		t.Fatalf("agent with overrides saw %q", got)
	}
	sts, err := m.Statuses(ctx)
	if err != nil || len(sts) != 1 || len(sts[0].AgentConnections) != 1 {
		t.Fatalf("statuses = %+v, %v", sts, err)
	}
	if ac := sts[0].AgentConnections[0]; ac.Agent != "writer" || ac.State != StateConnected || ac.PID == 0 || ac.PID == sts[0].PID {
		t.Fatalf("agent connection %+v (shared pid %d)", ac, sts[0].PID)
	}
	agentPID := sts[0].AgentConnections[0].PID

	// Changing the overrides replaces the agent's connection.
	if err := f.store.SaveGrant(ctx, Grant{Server: "ev", Scope: ScopeAgent, Subject: "writer", Enabled: true,
		ConfigOverrides: Overrides{Env: map[string]string{"WARREN_TEST_TOKEN": "rotated"}}}); err != nil {
		t.Fatal(err)
	}
	if err := m.Sync(ctx, false); err != nil {
		t.Fatal(err)
	}
	waitGone(t, agentPID)
	if got := envAs("writer"); got != "rotated" {
		t.Fatalf("after rotation the agent saw %q", got)
	}

	// Stopping the server stops its agent connections.
	m.Stop("ev")
	sts, _ = m.Statuses(ctx)
	if len(sts[0].AgentConnections) != 0 {
		t.Fatalf("agent connections outlived the server: %+v", sts[0].AgentConnections)
	}
	_, err = m.Call(tools.WithCallContext(ctx, tools.CallContext{Agent: "writer"}), "ev", "echo", json.RawMessage(`{"message":"x"}`))
	if !errors.Is(err, ErrNotConnected) {
		t.Fatalf("call to a stopped server as writer = %v", err)
	}
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d still running", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
