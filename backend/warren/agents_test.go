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
)

// SaveAgent refuses what would leave an agent broken (no provider, no
// workspace, silently no tools), naming the field, and stores nothing.
func TestSaveAgentRefusesInvalidFields(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	missing := filepath.Join(t.TempDir(), "nope")
	cases := []struct {
		name    string
		edit    func(*store.Agent)
		field   string
		quote   string
		wrapped error
	}{
		{"unknown provider", func(a *store.Agent) { a.Provider = "ghost" }, "provider", `no provider "ghost"`, nil},
		{"unknown profile", func(a *store.Agent) { a.Profile = "root" }, "profile", `unknown profile "root"`, policy.ErrUnknownProfile},
		{"missing workspace", func(a *store.Agent) { a.Workspace = missing }, "workspace", "is not an existing directory", nil},
		{"relative workspace", func(a *store.Agent) { a.Workspace = "code" }, "workspace", "is not an absolute path", nil},
		{"malformed allow", func(a *store.Agent) { a.Allow = []string{"read_file", "fs:read"} }, "allow", `allow[1]: malformed entry "fs:read"`, policy.ErrInvalidEntry},
		{"malformed deny", func(a *store.Agent) { a.Deny = []string{"group:"} }, "deny", "empty group name", policy.ErrInvalidEntry},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := storeAgent("broken")
			tc.edit(&a)
			_, err := w.SaveAgent(ctx, a)
			var fe *warren.AgentFieldError
			if !errors.As(err, &fe) || fe.Field != tc.field || !errors.Is(err, store.ErrInvalidAgent) ||
				!strings.Contains(err.Error(), `invalid agent "broken": `+tc.field+": ") || !strings.Contains(err.Error(), tc.quote) {
				t.Fatalf("got %v, want a %s error naming %q", err, tc.field, tc.quote)
			}
			if tc.wrapped != nil && !errors.Is(err, tc.wrapped) {
				t.Fatalf("%v does not wrap %v", err, tc.wrapped)
			}
			if _, err := w.Store().GetAgent(ctx, "broken"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("a refused agent was stored: %v", err)
			}
		})
	}
	if _, err := w.SaveAgent(ctx, store.Agent{Key: "Bad Key"}); !errors.Is(err, store.ErrInvalidAgent) {
		t.Fatalf("bad key: %v", err)
	}
}

func TestSaveAgentWarnsAndJudgesOnlyChanges(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	ws := filepath.Join(t.TempDir(), "ws")
	if err := os.Mkdir(ws, 0o750); err != nil {
		t.Fatal(err)
	}
	a := storeAgent("coder")
	a.Workspace, a.Deny = ws, []string{"exce", "group:nosuch"}
	warnings, err := w.SaveAgent(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 2 || !strings.Contains(warnings[0], `"exce" matches no registered tool`) || !strings.Contains(warnings[1], `unknown group "nosuch"`) {
		t.Fatalf("warnings %q", warnings)
	}
	// The folder goes away; the agent can still be edited, but not pointed
	// at another missing folder.
	if err := os.Remove(ws); err != nil {
		t.Fatal(err)
	}
	a.Model, a.Deny = "m2", nil
	if warnings, err := w.SaveAgent(ctx, a); err != nil || len(warnings) != 0 {
		t.Fatalf("edit with an unchanged, vanished workspace: %q %v", warnings, err)
	}
	a.Workspace = ws + "2"
	if _, err := w.SaveAgent(ctx, a); !errors.Is(err, store.ErrInvalidAgent) {
		t.Fatalf("moved to a missing workspace: %v", err)
	}
	// "~" is the home directory, as the window's form allows.
	home, err := os.UserHomeDir()
	if err != nil {
		t.Skip("no home directory:", err)
	}
	if fi, err := os.Stat(home); err != nil || !fi.IsDir() {
		t.Skip("home directory does not exist")
	}
	a.Workspace = "~"
	if _, err := w.SaveAgent(ctx, a); err != nil {
		t.Fatal(err)
	}
	if got, _ := w.Store().GetAgent(ctx, "coder"); got.Workspace != home {
		t.Fatalf("workspace ~ stored as %q, want %q", got.Workspace, home)
	}
}

func TestDeleteAgent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	if err := w.DeleteAgent(ctx, "default"); !errors.Is(err, warren.ErrDefaultAgent) {
		t.Fatalf("delete default: %v", err)
	}
	if _, err := w.Store().GetAgent(ctx, "default"); err != nil {
		t.Fatalf("default agent gone: %v", err)
	}
	a := storeAgent("reader")
	a.Deny = []string{"write_file"}
	if _, err := w.SaveAgent(ctx, a); err != nil {
		t.Fatal(err)
	}
	if row, _ := inventoryRow(t, w, "reader", "write_file"); row.Allowed {
		t.Fatalf("deny ignored: %+v", row)
	}
	if err := w.DeleteAgent(ctx, "reader"); err != nil {
		t.Fatal(err)
	}
	if err := w.DeleteAgent(ctx, "reader"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("delete twice: %v", err)
	}
	if err := w.CheckAgent(ctx, "reader"); !errors.Is(err, warren.ErrUnknownAgent) {
		t.Fatalf("deleted agent still known: %v", err)
	}
}
