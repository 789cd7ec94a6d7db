package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warren-dev/warren/tools"
)

// A registered tool of a server that went down tells the model the server
// is down and why, and the manager explains tools that are not registered.
func TestDownServerToolSaysWhy(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.save(t, Server{Name: "downed", Transport: TransportStdio, Command: serverBin(t, "mcp-server-everything"), Args: []string{"stdio"}, Enabled: true})
	ch, cancel := f.bus.Subscribe(64)
	defer cancel()
	// A long first back-off keeps the server down while the test looks.
	m := f.manager(t, Options{Backoff: Backoff{Initial: 10 * time.Minute, Max: 10 * time.Minute, Attempts: 3}})
	ctx := context.Background()
	if err := m.Start(ctx, "downed"); err != nil {
		t.Fatal(err)
	}
	st := waitState(t, ch, "downed", 30*time.Second, StateConnected)
	bridged, _ := m.BridgeTools()
	var echo Bridged
	for _, b := range bridged {
		if b.Info().Name == "mcp_downed_echo" {
			echo = b
		}
	}
	if echo == nil {
		t.Fatal("echo is not bridged")
	}
	if err := syscall.Kill(st.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitState(t, ch, "downed", 30*time.Second, StateReconnecting)
	res, err := echo.Execute(ctx, json.RawMessage(`{"message":"hi"}`))
	if err != nil || res.Code() != tools.CodeNetwork || !strings.Contains(res.ForLLM, "MCP server downed is down: ") ||
		!strings.Contains(res.ForLLM, "server process was killed") ||
		!strings.Contains(res.ForLLM, "reconnect attempt 1/3") {
		t.Fatalf("call to a down server = %s %q, %v", res.Code(), res.ForLLM, err)
	}
	if u, ok := m.Unavailable(ctx, "mcp_downed_echo"); !ok || u.Server != "downed" || u.Tool != "echo" || !strings.Contains(u.Reason, "is down") {
		t.Fatalf("Unavailable = %+v, %v", u, ok)
	}
	m.Hold("downed")
	if u, ok := m.Unavailable(ctx, "mcp_downed_echo"); !ok || u.Reason != "MCP server downed was stopped by the user" {
		t.Fatalf("held: Unavailable = %+v, %v", u, ok)
	}
	for _, name := range []string{"mcp_other_echo", "echo", "mcp_"} {
		if u, ok := m.Unavailable(ctx, name); ok {
			t.Fatalf("Unavailable(%q) = %+v, want nothing", name, u)
		}
	}
}
