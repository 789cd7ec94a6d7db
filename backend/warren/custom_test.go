package warren_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/policy"
	"github.com/warren-dev/warren/tools/custom"
)

func TestCustomToolsEndToEnd(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	w := open(t, dir)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(w.SetSandboxSettings(ctx, warren.SandboxSettings{Mode: warren.SandboxHost}))
	must(w.SetPolicy(ctx, policy.Config{Profile: "coding", AlsoAllow: []string{"group:custom"}}))
	other := open(t, dir) // a second process (say, the window) on the same data

	def := custom.Definition{
		Name: "greet", Description: "Greets someone", Enabled: true,
		Command:    `echo "token=$GREET_TOKEN" hello {{.who}}`,
		Parameters: json.RawMessage(`{"type":"object","properties":{"who":{"type":"string","description":"name"}},"required":["who"]}`),
		Env:        map[string]string{"GREET_TOKEN": "s3cr3t-value-42"},
	}
	must(w.SaveCustomTool(ctx, def))
	res, err := w.CallTool(ctx, warren.CallRequest{Name: "greet", Args: []byte(`{"who":"Ann; reboot"}`)})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	if !strings.Contains(res.ForLLM, "hello Ann; reboot") || strings.Contains(res.ForLLM, "s3cr3t-value-42") {
		t.Fatalf("argument not quoted or env not scrubbed:\n%s", res.ForLLM)
	}
	if res, _ := w.CallTool(ctx, warren.CallRequest{Name: "greet", Args: []byte(`{}`)}); res.Code() != "ValidationError" {
		t.Fatalf("schema not enforced: %+v", res)
	}
	// The env value is sealed at rest.
	var sealed string
	must(w.Store().SQL().QueryRowContext(ctx, "SELECT env_sealed FROM custom_tools WHERE name = 'greet'").Scan(&sealed))
	if strings.Contains(sealed, "s3cr3t") {
		t.Fatal("env stored in plain text")
	}
	// Hot reload: the other process sees the tool without a restart.
	seen := func(wr *warren.Warren, agent, name string) bool {
		inv, err := wr.Inventory(ctx, warren.InventoryRequest{Agent: agent})
		must(err)
		for _, row := range inv {
			if row.Name == name {
				return row.Group == "custom"
			}
		}
		return false
	}
	deadline := time.Now().Add(5 * time.Second)
	for !seen(other, "", "greet") {
		if time.Now().After(deadline) {
			t.Fatal("second process never saw the new tool")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Deny checks apply to rendered commands too.
	must(w.SaveCustomTool(ctx, custom.Definition{Name: "wipe", Description: "bad", Enabled: true,
		Command: "rm -rf {{.dir}}", Parameters: json.RawMessage(`{"type":"object","properties":{"dir":{"type":"string"}}}`)}))
	if res, _ := w.CallTool(ctx, warren.CallRequest{Name: "wipe", Args: []byte(`{"dir":"scratch"}`)}); res.Code() != "SecurityError" {
		t.Fatalf("denied command ran: %+v", res)
	}
	// Per-agent tools are visible to that agent only.
	must(w.Store().PutAgent(ctx, storeAgent("coder")))
	must(w.SaveCustomTool(ctx, custom.Definition{Name: "only_coder", Description: "x", Enabled: true, Agent: "coder",
		Command: "true", Parameters: json.RawMessage(`{"type":"object"}`)}))
	if !seen(w, "coder", "only_coder") || seen(w, "default", "only_coder") {
		t.Fatal("per-agent tool scoping is wrong")
	}
	// A tool bound to an agent that does not exist is refused with a clear error.
	err = w.SaveCustomTool(ctx, custom.Definition{Name: "orphan", Description: "x", Enabled: true, Agent: "ghost",
		Command: "true", Parameters: json.RawMessage(`{"type":"object"}`)})
	if !errors.Is(err, warren.ErrUnknownAgent) || !strings.Contains(err.Error(), `"ghost"`) {
		t.Fatalf("tool for a missing agent: %v", err)
	}
	must(w.DeleteCustomTool(ctx, "greet", ""))
	if seen(w, "", "greet") {
		t.Fatal("deleted tool still registered")
	}
	if err := w.SaveCustomTool(ctx, custom.Definition{Name: "read_file", Description: "clash", Enabled: true, Command: "true",
		Parameters: json.RawMessage(`{"type":"object"}`)}); err != nil {
		t.Fatal(err)
	}
	if p := w.CustomToolProblems(); len(p) != 1 || !strings.Contains(p[0], "built-in") {
		t.Fatalf("clash with a built-in not reported: %v", p)
	}
}
