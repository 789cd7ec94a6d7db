package app_test

import (
	"context"
	"errors"
	"testing"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/backend/warren"
)

// TestContextFileBindings: a file saved through the binding is what the
// agent's read_file returns through the same surface the UI uses.
func TestContextFileBindings(t *testing.T) {
	t.Parallel()
	core, err := warren.Open(context.Background(), warren.Options{DataDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer core.Close()
	a := app.New(core, app.Options{})
	if err := a.SaveAgentContextFile("default", "SOUL.md", "Speak like a pirate."); err != nil {
		t.Fatal(err)
	}
	res, err := a.CallTool("read_file", `{"path":"SOUL.md"}`, "default")
	if err != nil || res.Status != "success" || res.ForLLM != "Speak like a pirate." {
		t.Fatalf("read_file: %+v %v", res, err)
	}
	files, err := a.AgentContextFiles("default")
	if err != nil || len(files) != 6 {
		t.Fatalf("AgentContextFiles: %v %+v", err, files)
	}
	if soul := files[0]; soul.Name != "SOUL.md" || !soul.Exists || !soul.InPrompt || soul.Content != "Speak like a pirate." || soul.Scope != "user" {
		t.Fatalf("SOUL.md view %+v", soul)
	}
	if err := a.SaveAgentContextFile("default", "NOTES.md", "x"); !errors.Is(err, warren.ErrInvalidContextFile) {
		t.Fatalf("bad name: %v", err)
	}
	if _, err := a.AgentContextFiles("ghost"); !errors.Is(err, warren.ErrUnknownAgent) {
		t.Fatalf("unknown agent: %v", err)
	}
}
