package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/app/cli"
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
	if r := warren(t, dir, "agents", "show", "coder"); r.code != 2 || !strings.Contains(r.stderr, `unknown agent "coder" (known: default)`) {
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
		{"edit unknown", []string{"edit", "ghost", "--model", "m"}, `unknown agent "ghost" (known: coder, default); create it with warren agents add ghost`},
		{"edit nothing", []string{"edit", "coder"}, "nothing to change"},
		{"remove default", []string{"remove", "default", "--yes"}, "default agent cannot be removed"},
		{"remove unknown", []string{"remove", "ghost", "--yes"}, `unknown agent "ghost" (known: coder, default)`},
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

// warrenStdin runs the CLI with stdin as its standard input.
func warrenStdin(t *testing.T, dataDir, stdin string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), cli.Env{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb, DataDir: dataDir}, args)
	return run{code, out.String(), errb.String()}
}

// TestAgentsContext edits context files from the CLI and checks them
// through the agent's own read_file.
func TestAgentsContext(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if r := warren(t, dir, "agents", "add", "helper", "--type", "predefined"); r.code != 0 {
		t.Fatalf("add: %+v", r)
	}
	r := warren(t, dir, "agents", "context", "default")
	if r.code != 0 || !strings.Contains(r.stdout, "IN PROMPT") || !strings.Contains(r.stdout, "Persona") {
		t.Fatalf("list: %+v", r)
	}
	for _, name := range []string{"SOUL.md", "IDENTITY.md", "AGENTS.md", "TOOLS.md", "USER.md", "BOOTSTRAP.md"} {
		if !strings.Contains(r.stdout, name) {
			t.Fatalf("list lacks %s:\n%s", name, r.stdout)
		}
	}
	readTool := func(agent, name string) string {
		t.Helper()
		r := warren(t, dir, "tool", "call", "read_file", `{"path":"`+name+`"}`, "--agent", agent, "--json")
		var o struct {
			Status string `json:"status"`
			ForLLM string `json:"for_llm"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &o); err != nil {
			t.Fatalf("read_file --json: %v %+v", err, r)
		}
		return o.Status + ": " + o.ForLLM
	}

	// --set PATH on an open agent: the local user's copy.
	soul := filepath.Join(t.TempDir(), "soul.md")
	if err := os.WriteFile(soul, []byte("You are a careful reviewer.\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if r := warren(t, dir, "agents", "context", "default", "SOUL.md", "--set", soul); r.code != 0 || r.stdout != "saved SOUL.md of agent default: 28 bytes (per user)\n" {
		t.Fatalf("--set PATH: %+v", r)
	}
	if r := warren(t, dir, "agents", "context", "default", "SOUL.md"); r.code != 0 || r.stdout != "You are a careful reviewer.\n" {
		t.Fatalf("print: %+v", r)
	}
	if got := readTool("default", "SOUL.md"); got != "success: You are a careful reviewer.\n" {
		t.Fatalf("read_file sees %q", got)
	}

	// --set - on a predefined agent: agent-level, from standard input.
	if r := warrenStdin(t, dir, "Answer in one line.", "agents", "context", "helper", "SOUL.md", "--set", "-"); r.code != 0 || !strings.Contains(r.stdout, "(agent-level)") {
		t.Fatalf("--set -: %+v", r)
	}
	if got := readTool("helper", "SOUL.md"); got != "success: Answer in one line." {
		t.Fatalf("read_file sees %q", got)
	}
	r = warren(t, dir, "agents", "context", "helper", "--json")
	var files []struct {
		Name     string `json:"name"`
		Scope    string `json:"scope"`
		Content  string `json:"content"`
		Exists   bool   `json:"exists"`
		InPrompt bool   `json:"in_prompt"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &files); err != nil || len(files) != 6 {
		t.Fatalf("--json: %v %+v", err, r)
	}
	if f := files[0]; f.Name != "SOUL.md" || f.Scope != "agent" || !f.Exists || !f.InPrompt || f.Content != "Answer in one line." {
		t.Fatalf("SOUL.md %+v", f)
	}
	if f := files[4]; f.Name != "USER.md" || f.Scope != "user" || f.Exists {
		t.Fatalf("USER.md %+v", f)
	}
	if r := warren(t, dir, "agents", "context", "helper"); !strings.Contains(r.stdout, "19 B") || !strings.Contains(r.stdout, "agent-level") {
		t.Fatalf("list after set: %+v", r)
	}

	// --clear removes it; printing a missing file fails.
	if r := warren(t, dir, "agents", "context", "helper", "SOUL.md", "--clear"); r.code != 0 || !strings.Contains(r.stdout, "cleared SOUL.md of agent helper") {
		t.Fatalf("--clear: %+v", r)
	}
	if got := readTool("helper", "SOUL.md"); !strings.HasPrefix(got, "error") {
		t.Fatalf("read_file after clear: %q", got)
	}
	if r := warren(t, dir, "agents", "context", "helper", "SOUL.md"); r.code != 1 || !strings.Contains(r.stderr, "agent helper has no SOUL.md") {
		t.Fatalf("print missing: %+v", r)
	}
}

func TestAgentsContextErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"no agent", []string{"context"}, "want an agent NAME"},
		{"too many", []string{"context", "default", "SOUL.md", "x"}, "want an agent NAME"},
		{"unknown agent", []string{"context", "ghost"}, `unknown agent "ghost" (known: default)`},
		{"unknown file", []string{"context", "default", "NOTES.md"}, `"NOTES.md" is not a context file: want one of SOUL.md`},
		{"set without file", []string{"context", "default", "--set", "-"}, "need a FILE"},
		{"set and clear", []string{"context", "default", "SOUL.md", "--set", "-", "--clear"}, "do not go together"},
		{"empty set", []string{"context", "default", "SOUL.md", "--set", ""}, "--set needs a PATH"},
		{"missing source", []string{"context", "default", "SOUL.md", "--set", filepath.Join(dir, "nope.md")}, "no such file"},
		{"json with file", []string{"context", "default", "SOUL.md", "--json"}, "--json is for the listing"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := warren(t, dir, append([]string{"agents"}, tc.args...)...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) {
				t.Fatalf("got %d %q, want exit 2 naming %q", r.code, r.stderr, tc.want)
			}
		})
	}
	if r := warren(t, dir, "agents", "context", "default", "SOUL.md", "--set", "-"); r.code != 2 || !strings.Contains(r.stderr, "no standard input") {
		t.Fatalf("--set - without stdin: %+v", r)
	}
	big := strings.Repeat("x", 10<<20+1)
	if r := warrenStdin(t, dir, big, "agents", "context", "default", "SOUL.md", "--set", "-"); r.code != 2 || !strings.Contains(r.stderr, "over the") {
		t.Fatalf("too large: code %d %q", r.code, r.stderr)
	}
}
