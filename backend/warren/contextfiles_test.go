package warren_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
)

// TestContextFilesRouteToSQLite drives the real fs tools against the real
// store: context files never touch the workspace disk.
func TestContextFilesRouteToSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	db := w.Store()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(db.PutAgent(ctx, store.Agent{Key: "helper", Type: store.AgentPredefined}))
	must(db.PutAgentFile(ctx, "default", "SOUL.md", "template soul"))
	callOK := func(agent, user, tool, args string) string {
		t.Helper()
		res, err := w.CallTool(ctx, warren.CallRequest{Name: tool, Args: []byte(args), Agent: agent, User: user})
		if err != nil || res.IsError {
			t.Fatalf("%s %s: %v %+v", tool, args, err, res.Error)
		}
		return res.ForLLM
	}
	// Open agent: reads fall back to the agent template; writes are per user.
	if got := callOK("default", "alice", "read_file", `{"path":"SOUL.md"}`); !strings.Contains(got, "template soul") {
		t.Fatalf("fallback read: %q", got)
	}
	callOK("default", "alice", "write_file", `{"path":"SOUL.md","content":"alice soul"}`)
	if c, ok, _ := db.GetUserFile(ctx, "default", "alice", "SOUL.md"); !ok || c != "alice soul" {
		t.Fatalf("user row: %q %v", c, ok)
	}
	if c, _, _ := db.GetAgentFile(ctx, "default", "SOUL.md"); c != "template soul" {
		t.Fatalf("template changed: %q", c)
	}
	if got := callOK("default", "bob", "read_file", `{"path":"SOUL.md"}`); !strings.Contains(got, "template soul") {
		t.Fatalf("bob sees %q", got)
	}
	// Predefined agent: SOUL.md is agent-level, USER.md per user.
	callOK("helper", "alice", "write_file", `{"path":"SOUL.md","content":"helper soul"}`)
	callOK("helper", "alice", "write_file", `{"path":"USER.md","content":"alice prefs"}`)
	if c, ok, _ := db.GetAgentFile(ctx, "helper", "SOUL.md"); !ok || c != "helper soul" {
		t.Fatalf("predefined SOUL.md: %q %v", c, ok)
	}
	if c, ok, _ := db.GetUserFile(ctx, "helper", "alice", "USER.md"); !ok || c != "alice prefs" {
		t.Fatalf("predefined USER.md: %q %v", c, ok)
	}
	// Writing an empty BOOTSTRAP.md deletes it.
	callOK("default", "alice", "write_file", `{"path":"BOOTSTRAP.md","content":"first run"}`)
	callOK("default", "alice", "write_file", `{"path":"BOOTSTRAP.md","content":"  \n"}`)
	if _, ok, _ := db.GetUserFile(ctx, "default", "alice", "BOOTSTRAP.md"); ok {
		t.Fatal("empty BOOTSTRAP.md did not delete the row")
	}
	for _, name := range []string{"SOUL.md", "USER.md", "BOOTSTRAP.md"} {
		if _, err := os.Stat(filepath.Join(w.Workspace(), name)); !os.IsNotExist(err) {
			t.Fatalf("%s reached the disk: %v", name, err)
		}
	}
}
