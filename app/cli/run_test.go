package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm/llmtest"
)

// TestRunAgainstScriptedModel drives `warren run` end to end against a
// scripted OpenAI-compatible server: streamed text, parallel tool calls
// with arguments in pieces, a denied command fed back to the model, and a
// second turn continuing the stored session.
func TestRunAgainstScriptedModel(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.LoadCassette(t, "testdata/cassettes/agent_tools.json"))
	dir, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.md"), []byte("# Notes\nbuy milk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(ws, "scratch"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := warren(t, dir, "run", "--base-url", srv.URL+"/v1", "--model", "qwen2.5:7b", "--workspace", ws, "summarise my notes")
	if r.code != 0 {
		t.Fatalf("run: %+v", r)
	}
	if !strings.Contains(r.stdout, "Let me read them.") || !strings.Contains(r.stdout, "Your notes say: buy milk.") {
		t.Fatalf("stdout: %q", r.stdout)
	}
	for _, want := range []string{"→ read_file", "← read_file ok", "→ exec", "← exec SecurityError"} {
		if !strings.Contains(r.stderr, want) {
			t.Fatalf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(ws, "scratch")); err != nil {
		t.Fatal("the denied rm -rf ran")
	}
	// The model saw the file content and the refusal as tool results.
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model calls", len(reqs))
	}
	var body struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    string `json:"content"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[1].Body, &body); err != nil {
		t.Fatal(err)
	}
	var toolMsgs []string
	for _, m := range body.Messages {
		if m.Role == "tool" {
			toolMsgs = append(toolMsgs, m.ToolCallID+": "+m.Content)
		}
	}
	if len(toolMsgs) != 2 || !strings.Contains(toolMsgs[0], "buy milk") || !strings.Contains(toolMsgs[1], "blocked by safety policy") {
		t.Fatalf("tool results sent back: %q", toolMsgs)
	}
	if len(body.Tools) == 0 || !strings.Contains(body.Messages[0].Content, "Warren") {
		t.Fatalf("tools or system prompt missing: %d tools, system %q", len(body.Tools), body.Messages[0].Content)
	}
	// Continue the same session: the history goes back to the model.
	m := regexp.MustCompile(`session (s-[0-9a-f]+)`).FindStringSubmatch(r.stderr)
	if m == nil {
		t.Fatalf("no session id in %q", r.stderr)
	}
	r2 := warren(t, dir, "run", "--session", m[1], "--base-url", srv.URL+"/v1", "--model", "qwen2.5:7b", "--workspace", ws, "and again")
	if r2.code != 0 || !strings.Contains(r2.stdout, "Still: buy milk.") {
		t.Fatalf("second turn: %+v", r2)
	}
	if err := json.Unmarshal(srv.Requests()[2].Body, &body); err != nil {
		t.Fatal(err)
	}
	if len(body.Messages) < 7 {
		t.Fatalf("history not sent: %d messages", len(body.Messages))
	}
	if srv.Remaining() != 0 {
		t.Fatalf("%d turns not served", srv.Remaining())
	}
}

func TestRunErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if r := warren(t, dir, "run"); r.code != 2 {
		t.Fatalf("no prompt: %+v", r)
	}
	if r := warren(t, dir, "run", "hello"); r.code != 1 || !strings.Contains(r.stderr, "no model provider") {
		t.Fatalf("no provider: %+v", r)
	}
	if r := warren(t, dir, "run", "--base-url", "http://127.0.0.1:9/v1", "hello"); r.code != 1 || !strings.Contains(r.stderr, "--model") {
		t.Fatalf("no model: %+v", r)
	}
	if r := warren(t, dir, "run", "--agent", "ghost", "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "hi"); r.code != 2 {
		t.Fatalf("unknown agent: %+v", r)
	}
}

func TestProvidersAndAgentProvider(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{
		Models: []string{"qwen2.5:7b", "llama3.1:8b"},
		Turns:  []llmtest.Turn{{Chunks: []string{"hi from ollama"}}},
	})
	dir := t.TempDir()
	if r := warren(t, dir, "providers", "add", "local", "--base-url", srv.URL+"/v1", "--model", "qwen2.5:7b"); r.code != 0 {
		t.Fatalf("add: %+v", r)
	}
	if r := warren(t, dir, "providers", "test", "local"); r.code != 0 || !strings.Contains(r.stdout, "llama3.1:8b") {
		t.Fatalf("test: %+v", r)
	}
	if r := warren(t, dir, "providers", "add", "bad", "--base-url", "localhost"); r.code != 2 {
		t.Fatalf("bad url: %+v", r)
	}
	if r := warren(t, dir, "providers", "list"); r.code != 0 || !strings.Contains(r.stdout, "qwen2.5:7b") {
		t.Fatalf("list: %+v", r)
	}
	if r := warren(t, dir, "providers", "test", "nope"); r.code == 0 {
		t.Fatalf("unknown provider: %+v", r)
	}
}

// TestRunWithRuntimeTool: plan_create is injected for the run, passes the
// policy gate, and calls the run's own model for the plan.
func TestRunWithRuntimeTool(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Turns: []llmtest.Turn{
		{Expect: "plan my day", ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "plan_create", Arguments: []string{`{"task":"plan my day","max_steps":2}`}}}},
		{Chunks: []string{`{"steps":[{"title":"Wake up","detail":"early"},{"title":"Work","detail":"focus"}]}`}},
		{Expect: "Wake up", Chunks: []string{"Plan made."}},
	}})
	dir := t.TempDir()
	r := warren(t, dir, "run", "--base-url", srv.URL+"/v1", "--model", "m", "plan my day")
	if r.code != 0 || !strings.Contains(r.stdout, "Plan made.") || !strings.Contains(r.stderr, "← plan_create ok") {
		t.Fatalf("run: %+v", r)
	}
	if r := warren(t, dir, "tools", "--json"); strings.Contains(r.stdout, `"plan_create"`) {
		t.Fatal("a runtime tool leaked into the base inventory")
	}
}

// TestRunSpawnsSubagent: the model runs a subagent synchronously; the child
// gets its own session and fewer tools (no spawn at max depth, no
// session_status), and its answer comes back as the tool result.
func TestRunSpawnsSubagent(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Turns: []llmtest.Turn{
		{Expect: "delegate", ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "spawn", Arguments: []string{`{"action":"run","task":"count the files","label":"counter"}`}}}},
		{Expect: "count the files", Chunks: []string{"There are 2 files."}},
		{Expect: "There are 2 files.", Chunks: []string{"The subagent counted 2 files."}},
	}})
	dir := t.TempDir()
	r := warren(t, dir, "run", "--base-url", srv.URL+"/v1", "--model", "m", "delegate the counting")
	if r.code != 0 || !strings.Contains(r.stdout, "The subagent counted 2 files.") || !strings.Contains(r.stderr, "← spawn ok") {
		t.Fatalf("run: %+v", r)
	}
	reqs := srv.Requests()
	var parent, child struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(reqs[0].Body, &parent); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(reqs[1].Body, &child); err != nil {
		t.Fatal(err)
	}
	names := func(v any) string {
		var out []string
		for _, tl := range v.([]struct {
			Function struct{ Name string } `json:"function"`
		}) {
			out = append(out, tl.Function.Name)
		}
		return "," + strings.Join(out, ",") + ","
	}
	if p := names(parent.Tools); !strings.Contains(p, ",spawn,") || !strings.Contains(p, ",session_status,") {
		t.Fatalf("parent tools %s", p)
	}
	if c := names(child.Tools); strings.Contains(c, ",spawn,") || strings.Contains(c, ",session_status,") || !strings.Contains(c, ",read_file,") {
		t.Fatalf("child tools %s", c)
	}
}

// TestRunEmulatedTools: a model without native tool calling writes the call
// as fenced JSON; Warren runs it and sends the result back as a user message.
func TestRunEmulatedTools(t *testing.T) {
	t.Parallel()
	srv := llmtest.NewServer(t, llmtest.Cassette{Turns: []llmtest.Turn{
		{Expect: "what is in notes", Chunks: []string{"I will read it.\n```json\n{\"tool\": \"read_file\", ", "\"arguments\": {\"path\": \"notes.md\"}}\n```"}},
		{Expect: "buy milk", Chunks: []string{"It says buy milk."}},
	}})
	dir, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.md"), []byte("buy milk\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := warren(t, dir, "run", "--emulate-tools", "--base-url", srv.URL+"/v1", "--model", "tiny", "--workspace", ws, "what is in notes.md?")
	if r.code != 0 || !strings.Contains(r.stdout, "It says buy milk.") || !strings.Contains(r.stderr, "← read_file ok") {
		t.Fatalf("run: %+v", r)
	}
	for i, req := range srv.Requests() {
		var body map[string]any
		if err := json.Unmarshal(req.Body, &body); err != nil {
			t.Fatal(err)
		}
		if _, has := body["tools"]; has {
			t.Fatalf("request %d sent native tools", i)
		}
		if strings.Contains(string(req.Body), `"role":"tool"`) {
			t.Fatalf("request %d has a tool-role message", i)
		}
		if i == 0 && !strings.Contains(string(req.Body), "read_file") {
			t.Fatal("tools not described in the prompt")
		}
	}
}
