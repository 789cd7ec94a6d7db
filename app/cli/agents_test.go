package cli_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/store"
)

func showAgent(t *testing.T, dir, key string) store.Agent {
	t.Helper()
	r := warren(t, dir, "agents", "show", key, "--json")
	if r.code != 0 {
		t.Fatalf("show %s: %+v", key, r)
	}
	var a store.Agent
	if err := json.Unmarshal([]byte(r.stdout), &a); err != nil {
		t.Fatalf("show --json: %v\n%s", err, r.stdout)
	}
	return a
}

func TestAgentsLifecycle(t *testing.T) {
	t.Parallel()
	dir, ws := t.TempDir(), t.TempDir()
	if r := warren(t, dir, "providers", "add", "local", "--base-url", "http://127.0.0.1:11434/v1"); r.code != 0 {
		t.Fatalf("provider: %+v", r)
	}
	if r := warren(t, dir, "agents", "list"); r.code != 0 || !strings.Contains(r.stdout, "default") || !strings.Contains(r.stdout, "SANDBOX") {
		t.Fatalf("list: %+v", r)
	}
	r := warren(t, dir, "agents", "add", "coder", "--name", "Coder", "--provider", "local", "--model", "qwen2.5:7b",
		"--profile", "minimal", "--allow", "read_file", "--allow", "group:fs", "--deny", "exec", "--workspace", ws,
		"--sandbox", "off", "--network", "on", "--type", "predefined")
	if r.code != 0 || !strings.Contains(r.stdout, "added agent coder") || r.stderr != "" {
		t.Fatalf("add: %+v", r)
	}
	a := showAgent(t, dir, "coder")
	want := store.Agent{Key: "coder", Name: "Coder", Type: store.AgentPredefined, Provider: "local", Model: "qwen2.5:7b",
		Profile: "minimal", Allow: []string{"read_file", "group:fs"}, Deny: []string{"exec"}, Workspace: ws, Sandbox: false, Network: true}
	if got, _ := json.Marshal(a); string(got) != string(must(json.Marshal(want))) {
		t.Fatalf("stored %s", got)
	}
	// edit changes only what it is given; "-" clears a list.
	if r := warren(t, dir, "agents", "edit", "coder", "--model", "llama3.1:8b", "--allow", "-", "--sandbox", "on"); r.code != 0 {
		t.Fatalf("edit: %+v", r)
	}
	a = showAgent(t, dir, "coder")
	if a.Model != "llama3.1:8b" || len(a.Allow) != 0 || !a.Sandbox || a.Provider != "local" || a.Deny[0] != "exec" || a.Name != "Coder" {
		t.Fatalf("after edit %+v", a)
	}
	if r := warren(t, dir, "agents", "show", "coder"); r.code != 0 || !strings.Contains(r.stdout, "model:") || !strings.Contains(r.stdout, "llama3.1:8b") {
		t.Fatalf("show: %+v", r)
	}
	if r := warren(t, dir, "agents", "list", "--json"); r.code != 0 || !strings.Contains(r.stdout, `"key": "coder"`) {
		t.Fatalf("list --json: %+v", r)
	}
	if r := warren(t, dir, "agents", "remove", "coder"); r.code != 2 || !strings.Contains(r.stderr, "--yes") {
		t.Fatalf("remove without --yes: %+v", r)
	}
	if r := warren(t, dir, "agents", "remove", "coder", "--yes"); r.code != 0 || !strings.Contains(r.stdout, "removed agent coder") {
		t.Fatalf("remove: %+v", r)
	}
	if r := warren(t, dir, "agents", "show", "coder"); r.code != 2 || !strings.Contains(r.stderr, `no agent "coder" (known: default)`) {
		t.Fatalf("show removed: %+v", r)
	}
}

func TestAgentsErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if r := warren(t, dir, "agents", "add", "coder"); r.code != 0 || !strings.Contains(r.stderr, "no model provider") {
		t.Fatalf("add without provider: %+v", r)
	}
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no subcommand", nil, "expected a subcommand"},
		{"unknown subcommand", []string{"rename", "x"}, `unknown subcommand "rename"`},
		{"no name", []string{"add"}, "want one agent NAME"},
		{"exists", []string{"add", "coder"}, `agent "coder" already exists`},
		{"bad key", []string{"add", "Bad Key"}, `key "Bad Key"`},
		{"unknown provider", []string{"add", "x", "--provider", "ghost"}, `no provider "ghost"`},
		{"unknown profile", []string{"add", "x", "--profile", "root"}, `unknown profile "root"`},
		{"bad sandbox", []string{"add", "x", "--sandbox", "maybe"}, `--sandbox "maybe": want on or off`},
		{"bad network", []string{"add", "x", "--network", "2"}, `--network "2"`},
		{"bad type", []string{"add", "x", "--type", "closed"}, `--type "closed"`},
		{"missing workspace", []string{"add", "x", "--workspace", dir + "/nope"}, "not an existing directory"},
		{"malformed allow", []string{"add", "x", "--allow", "fs:read"}, `did you mean "group:fs:read"`},
		{"edit unknown", []string{"edit", "ghost", "--model", "m"}, `no agent "ghost"`},
		{"edit nothing", []string{"edit", "coder"}, "nothing to change"},
		{"remove default", []string{"remove", "default", "--yes"}, "default agent cannot be removed"},
		{"remove unknown", []string{"remove", "ghost", "--yes"}, `no agent "ghost"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := warren(t, dir, append([]string{"agents"}, tc.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("got %d %q, want exit 2 naming %q", r.code, r.stderr, tc.want)
			}
		})
	}
	if r := warren(t, dir, "agents", "edit", "coder", "--deny", "exce"); r.code != 0 || !strings.Contains(r.stderr, `"exce" matches no registered tool`) {
		t.Fatalf("typo warning: %+v", r)
	}
	if r := warren(t, dir, "agents", "show", "x"); r.code != 2 {
		t.Fatalf("a refused add stored the agent: %+v", r)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
