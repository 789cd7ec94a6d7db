package warren_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools/fs"
)

// contextFixture is a core with an open agent (default) and a predefined
// one (helper), and helpers that go through the agents' own file tools.
type contextFixture struct {
	t   *testing.T
	ctx context.Context
	w   *warren.Warren
}

func newContextFixture(t *testing.T) contextFixture {
	t.Helper()
	f := contextFixture{t: t, ctx: context.Background(), w: open(t, t.TempDir())}
	f.must(f.w.Store().PutAgent(f.ctx, store.Agent{Key: "helper", Name: "Helper", Type: store.AgentPredefined}))
	return f
}

func (f contextFixture) must(err error) {
	f.t.Helper()
	if err != nil {
		f.t.Fatal(err)
	}
}

// tool calls a file tool as agent (user "" = the desktop's "local") and
// returns the text for the model, or the error code.
func (f contextFixture) tool(agent, user, name, args string) (text, code string) {
	f.t.Helper()
	res, err := f.w.CallTool(f.ctx, warren.CallRequest{Name: name, Args: []byte(args), Agent: agent, User: user})
	if err != nil {
		f.t.Fatalf("%s %s as %s: %v", name, args, agent, err)
	}
	if res.IsError {
		return res.Error.Message, string(res.Error.Code)
	}
	return res.ForLLM, ""
}

func (f contextFixture) read(agent, user, name string) (text, code string) {
	f.t.Helper()
	return f.tool(agent, user, "read_file", `{"path":"`+name+`"}`)
}

func (f contextFixture) views(agent string) map[string]warren.ContextFileView {
	f.t.Helper()
	list, err := f.w.AgentContextFiles(f.ctx, agent)
	f.must(err)
	if len(list) != len(fs.ContextFileNames()) {
		f.t.Fatalf("%s lists %d files, want every routed one: %+v", agent, len(list), list)
	}
	m := map[string]warren.ContextFileView{}
	for i, v := range list {
		if v.Name != fs.ContextFileNames()[i] || v.Purpose == "" {
			f.t.Fatalf("file %d: %+v", i, v)
		}
		m[v.Name] = v
	}
	return m
}

func (f contextFixture) save(agent, name, content string) {
	f.t.Helper()
	f.must(f.w.SaveAgentContextFile(f.ctx, agent, name, content))
}

// TestContextFileEditorMatchesTheFileTools: what the editor saves is what
// the agent's read_file sees, in the store row the interceptor uses, and
// what the agent writes is what the editor shows.
func TestContextFileEditorMatchesTheFileTools(t *testing.T) {
	t.Parallel()
	f := newContextFixture(t)
	db := f.w.Store()

	// Scopes follow the agent type: open = all per user, predefined = only USER.md.
	for name, v := range f.views("default") {
		if v.Scope != fs.ScopeUser || v.Exists || v.InPrompt || v.Template {
			t.Fatalf("open agent %s: %+v", name, v)
		}
	}
	for name, v := range f.views("helper") {
		want := fs.ScopeAgent
		if name == "USER.md" {
			want = fs.ScopeUser
		}
		if v.Scope != want || v.Exists {
			t.Fatalf("predefined agent %s: %+v", name, v)
		}
	}

	t.Run("open agent: the user's copy", func(t *testing.T) {
		f.save("default", "SOUL.md", "Be kind.\nBe brief.\n")
		if got, code := f.read("default", "", "SOUL.md"); code != "" || got != "Be kind.\nBe brief.\n" {
			t.Fatalf("read_file: %q %s", got, code)
		}
		if c, ok, _ := db.GetUserFile(f.ctx, "default", "local", "SOUL.md"); !ok || c != "Be kind.\nBe brief.\n" {
			t.Fatalf("user row %q %v", c, ok)
		}
		if _, ok, _ := db.GetAgentFile(f.ctx, "default", "SOUL.md"); ok {
			t.Fatal("an open agent's file reached the agent level")
		}
		if _, code := f.read("default", "bob", "SOUL.md"); code != "NotFound" {
			t.Fatalf("another user sees the local copy: %s", code)
		}
		if v := f.views("default")["SOUL.md"]; !v.Exists || v.Content != "Be kind.\nBe brief.\n" || !v.InPrompt || v.Template {
			t.Fatalf("view %+v", v)
		}
	})

	t.Run("predefined agent: shared files, USER.md per user", func(t *testing.T) {
		f.save("helper", "SOUL.md", "helper soul")
		f.save("helper", "USER.md", "likes tea")
		if c, ok, _ := db.GetAgentFile(f.ctx, "helper", "SOUL.md"); !ok || c != "helper soul" {
			t.Fatalf("agent row %q %v", c, ok)
		}
		if got, _ := f.read("helper", "bob", "SOUL.md"); got != "helper soul" {
			t.Fatalf("bob reads %q", got)
		}
		if c, ok, _ := db.GetUserFile(f.ctx, "helper", "local", "USER.md"); !ok || c != "likes tea" {
			t.Fatalf("USER.md row %q %v", c, ok)
		}
		if _, code := f.read("helper", "bob", "USER.md"); code != "NotFound" {
			t.Fatalf("bob sees local's USER.md: %s", code)
		}
	})

	t.Run("what the agent writes is what the editor shows", func(t *testing.T) {
		if _, code := f.tool("default", "", "write_file", `{"path":"TOOLS.md","content":"prefer search over exec"}`); code != "" {
			t.Fatal(code)
		}
		if _, code := f.tool("helper", "", "write_file", `{"path":"AGENTS.md","content":"researcher: finds facts"}`); code != "" {
			t.Fatal(code)
		}
		if v := f.views("default")["TOOLS.md"]; v.Content != "prefer search over exec" || !v.Exists {
			t.Fatalf("open view %+v", v)
		}
		if v := f.views("helper")["AGENTS.md"]; v.Content != "researcher: finds facts" || v.Scope != fs.ScopeAgent {
			t.Fatalf("predefined view %+v", v)
		}
	})

	t.Run("an open agent's template shows until the user has a copy", func(t *testing.T) {
		f.must(db.PutAgentFile(f.ctx, "default", "IDENTITY.md", "template identity"))
		if v := f.views("default")["IDENTITY.md"]; !v.Exists || !v.Template || v.Content != "template identity" || !v.InPrompt {
			t.Fatalf("template view %+v", v)
		}
		f.save("default", "IDENTITY.md", "my identity")
		if v := f.views("default")["IDENTITY.md"]; v.Template || v.Content != "my identity" {
			t.Fatalf("own copy view %+v", v)
		}
		// Emptying it must not bring the template back: the agent reads nothing.
		f.save("default", "IDENTITY.md", "")
		if got, code := f.read("default", "", "IDENTITY.md"); code != "" || !strings.Contains(got, "is empty") {
			t.Fatalf("emptied file reads %q %s", got, code)
		}
		if v := f.views("default")["IDENTITY.md"]; !v.Exists || v.Template || v.Content != "" || v.InPrompt {
			t.Fatalf("emptied view %+v", v)
		}
		if c, _, _ := db.GetAgentFile(f.ctx, "default", "IDENTITY.md"); c != "template identity" {
			t.Fatalf("template changed: %q", c)
		}
	})

	t.Run("blank content deletes", func(t *testing.T) {
		f.save("helper", "SOUL.md", " \n")
		if _, ok, _ := db.GetAgentFile(f.ctx, "helper", "SOUL.md"); ok {
			t.Fatal("agent-level row kept")
		}
		if _, code := f.read("helper", "", "SOUL.md"); code != "NotFound" {
			t.Fatalf("read after delete: %s", code)
		}
		if v := f.views("helper")["SOUL.md"]; v.Exists || v.Content != "" {
			t.Fatalf("view after delete %+v", v)
		}
		// BOOTSTRAP.md never falls back, so even with a template it is deleted.
		f.must(db.PutAgentFile(f.ctx, "default", "BOOTSTRAP.md", "template first run"))
		f.save("default", "BOOTSTRAP.md", "say hello first")
		f.save("default", "BOOTSTRAP.md", "")
		if _, ok, _ := db.GetUserFile(f.ctx, "default", "local", "BOOTSTRAP.md"); ok {
			t.Fatal("BOOTSTRAP.md row kept")
		}
		if _, code := f.read("default", "", "BOOTSTRAP.md"); code != "NotFound" {
			t.Fatalf("BOOTSTRAP.md after delete: %s", code)
		}
	})
}

func TestContextFileEditorRefusals(t *testing.T) {
	t.Parallel()
	f := newContextFixture(t)
	cases := []struct {
		name, agent, file, content string
		want                       error
	}{
		{"unknown agent", "ghost", "SOUL.md", "x", warren.ErrUnknownAgent},
		{"no agent", "", "SOUL.md", "x", warren.ErrUnknownAgent},
		{"not a context file", "default", "notes.md", "x", warren.ErrInvalidContextFile},
		{"not at the root", "default", "sub/SOUL.md", "x", warren.ErrInvalidContextFile},
		{"case matters", "default", "soul.md", "x", warren.ErrInvalidContextFile},
		{"too large", "default", "SOUL.md", strings.Repeat("x", fs.DefaultMaxWriteBytes+1), warren.ErrInvalidContextFile},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := f.w.SaveAgentContextFile(f.ctx, tc.agent, tc.file, tc.content); !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := f.w.Store().GetAgent(f.ctx, "ghost"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("saving for an unknown agent created it: %v", err)
	}
	if _, err := f.w.AgentContextFiles(f.ctx, "ghost"); !errors.Is(err, warren.ErrUnknownAgent) || !strings.Contains(err.Error(), "known: default, helper") {
		t.Fatalf("list for unknown agent: %v", err)
	}
	if v := f.views("default")["SOUL.md"]; v.Exists {
		t.Fatalf("a refused save stored something: %+v", v)
	}
}

// TestContextFilesReachTheSystemPrompt runs a turn of each agent against a
// scripted model: the system prompt holds exactly the files the editor
// marks in_prompt, with the content it shows.
func TestContextFilesReachTheSystemPrompt(t *testing.T) {
	t.Parallel()
	f := newContextFixture(t)
	db := f.w.Store()
	f.save("default", "SOUL.md", "You are cheerful.")
	f.save("default", "USER.md", "The user is called Ada.")
	f.must(db.PutAgentFile(f.ctx, "default", "TOOLS.md", "template tools"))       // read through the fallback
	f.must(db.PutAgentFile(f.ctx, "default", "IDENTITY.md", "template identity")) // masked below
	f.save("default", "IDENTITY.md", "")                                          // empty copy: not in the prompt
	f.save("helper", "SOUL.md", "You are terse.")
	f.save("helper", "USER.md", "Prefers metric units.")
	f.must(db.PutUserFile(f.ctx, "helper", "bob", "USER.md", "bob's prefs"))         // another user's: not ours
	f.must(db.PutUserFile(f.ctx, "helper", "local", "SOUL.md", "ignored user soul")) // predefined: not routed

	for _, key := range []string{"default", "helper"} {
		t.Run(key, func(t *testing.T) {
			srv := llmtest.NewServer(t, llmtest.Cassette{Turns: []llmtest.Turn{{Expect: "hello", Chunks: []string{"hi"}}}})
			if _, err := f.w.RunAgent(f.ctx, warren.RunRequest{Agent: key, Prompt: "hello", BaseURL: srv.URL + "/v1", Model: "m"}, func(agent.Event) {}); err != nil {
				t.Fatal(err)
			}
			prompt := systemMessage(t, srv.Requests()[0].Body)
			in := 0
			for name, v := range f.views(key) {
				header := "## " + name + "\n"
				switch {
				case v.InPrompt && !strings.Contains(prompt, header+"\n"+strings.TrimSpace(v.Content)+"\n"):
					t.Errorf("%s is marked in_prompt but the prompt lacks %q:\n%s", name, v.Content, prompt)
				case !v.InPrompt && strings.Contains(prompt, header):
					t.Errorf("%s is not marked in_prompt but the prompt has it:\n%s", name, prompt)
				case v.InPrompt:
					in++
				}
			}
			if in < 2 || strings.Contains(prompt, "bob's prefs") || strings.Contains(prompt, "ignored user soul") || strings.Contains(prompt, "template identity") {
				t.Fatalf("%d files in the prompt:\n%s", in, prompt)
			}
		})
	}
}

// systemMessage is the system message of an OpenAI chat request body.
func systemMessage(t *testing.T, body []byte) string {
	t.Helper()
	var req struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 || req.Messages[0].Role != "system" {
		t.Fatalf("request without a system message (%v): %s", err, body)
	}
	return req.Messages[0].Content
}
