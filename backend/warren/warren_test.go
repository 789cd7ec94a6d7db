package warren_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/policy"
	"github.com/warren-dev/warren/tools"
)

func open(t *testing.T, dir string) *warren.Warren {
	t.Helper()
	w, err := warren.Open(context.Background(), warren.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = w.Close() })
	return w
}

func TestProfilePersistsAcrossRestart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	w := open(t, dir)
	if got := w.ActiveProfile(); got != warren.DefaultProfile {
		t.Fatalf("fresh profile %q", got)
	}
	if err := w.SetActiveProfile(ctx, "nonsense"); !errors.Is(err, policy.ErrUnknownProfile) {
		t.Fatalf("bad profile: %v", err)
	}
	if err := w.SetActiveProfile(ctx, "minimal"); err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	w2 := open(t, dir)
	if got := w2.ActiveProfile(); got != "minimal" {
		t.Fatalf("after restart profile %q", got)
	}
	if w2.Workspace() != dir+"-workspace" {
		t.Fatalf("default workspace %s", w2.Workspace())
	}
}

// TestDefaultWorkspaceOutsideTheDataDir: the workspace Warren makes lives
// beside the data directory, so `..` from it never reaches the keys or the
// database; an older Warren's workspace inside the data directory is moved
// out with its files.
func TestDefaultWorkspaceOutsideTheDataDir(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	dir := filepath.Join(base, "data")
	old := filepath.Join(dir, "workspace")
	if err := os.MkdirAll(old, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(old, "notes.md"), []byte("kept"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := open(t, dir)
	ws := w.Workspace()
	if ws != filepath.Join(base, "data-workspace") || warren.DefaultWorkspace(dir) != ws {
		t.Fatalf("workspace %s", ws)
	}
	if rel, err := filepath.Rel(dir, ws); err != nil || !strings.HasPrefix(rel, "..") {
		t.Fatalf("workspace %s is inside the data directory %s", ws, dir)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "notes.md")); err != nil || string(b) != "kept" {
		t.Fatalf("the old workspace's file did not move: %q %v", b, err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Fatalf("old workspace still there: %v", err)
	}
	// A data directory at a file system root gets its own temp folder.
	if d := warren.DefaultWorkspace(string(filepath.Separator)); !strings.HasPrefix(d, os.TempDir()) {
		t.Fatalf("root data dir: workspace %s", d)
	}
}

func TestCorruptStoredPolicyIsAClearError(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	_ = db.SetSetting(ctx, "policy", `{"profile":"coding",`)
	_ = db.Close()
	if _, err := warren.Open(ctx, warren.Options{DataDir: dir}); err == nil || !strings.Contains(err.Error(), `setting "policy"`) {
		t.Fatalf("corrupt policy: %v", err)
	}
	db, _ = store.Open(ctx, dir)
	_ = db.SetSetting(ctx, "policy", `{"profile":"turbo"}`)
	_ = db.Close()
	if _, err := warren.Open(ctx, warren.Options{DataDir: dir}); err == nil || !strings.Contains(err.Error(), "turbo") {
		t.Fatalf("invalid policy: %v", err)
	}
}

func TestInventoryAndGate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	cfg := w.PolicyConfig()
	cfg.Agents = map[string]policy.AgentPolicy{"default": {Deny: []string{"delete_file"}}}
	if err := w.SetPolicy(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	inv, err := w.Inventory(ctx, warren.InventoryRequest{Agent: "default"})
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range inv {
		if row.Name == "delete_file" && (row.Allowed || !strings.Contains(row.Reason, "delete_file")) {
			t.Fatalf("agent deny not shown: %+v", row)
		}
		if row.Name == "read_file" && !row.Allowed {
			t.Fatalf("read_file blocked under coding: %+v", row)
		}
	}
	res, err := w.CallTool(ctx, warren.CallRequest{Name: "delete_file", Args: []byte(`{"path":"x"}`)})
	if err != nil || res.Code() != tools.CodePolicyDenied {
		t.Fatalf("gate: %v %+v", err, res)
	}
	if _, err := w.Inventory(ctx, warren.InventoryRequest{Agent: "ghost"}); !errors.Is(err, warren.ErrUnknownAgent) {
		t.Fatalf("unknown agent: %v", err)
	}
	if err := w.SetPolicy(ctx, policy.Config{Deny: []string{"group:"}}); err == nil {
		t.Fatal("malformed policy accepted")
	}
}

func storeAgent(key string) store.Agent { return store.Agent{Key: key, Type: store.AgentOpen} }
