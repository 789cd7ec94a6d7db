// Package storetest is the shared behaviour suite every store.Store
// implementation must pass; it runs against real database files.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/warren-dev/warren/backend/store"
)

// Opener returns a fresh, empty store for one sub-test.
type Opener func(t *testing.T) store.Store

// Run runs the whole suite.
func Run(t *testing.T, open Opener) {
	t.Run("Settings", func(t *testing.T) { t.Parallel(); testSettings(t, open(t)) })
	t.Run("Agents", func(t *testing.T) { t.Parallel(); testAgents(t, open(t)) })
	t.Run("ContextFiles", func(t *testing.T) { t.Parallel(); testContextFiles(t, open(t)) })
	t.Run("ConcurrentWrites", func(t *testing.T) { t.Parallel(); testConcurrentWrites(t, open(t)) })
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func testSettings(t *testing.T, s store.Store) {
	ctx := context.Background()
	if _, ok, err := s.GetSetting(ctx, "missing"); err != nil || ok {
		t.Fatalf("missing setting: ok=%v err=%v", ok, err)
	}
	must(t, s.SetSetting(ctx, "policy", `{"profile":"coding"}`))
	must(t, s.SetSetting(ctx, "policy", `{"profile":"minimal"}`))
	v, ok, err := s.GetSetting(ctx, "policy")
	if err != nil || !ok || v != `{"profile":"minimal"}` {
		t.Fatalf("get after overwrite = %q %v %v", v, ok, err)
	}
	if err := s.SetSetting(ctx, "", "x"); err == nil {
		t.Fatal("empty key accepted")
	}
	must(t, s.DeleteSetting(ctx, "policy"))
	must(t, s.DeleteSetting(ctx, "policy"))
	if _, ok, _ := s.GetSetting(ctx, "policy"); ok {
		t.Fatal("setting survived delete")
	}
}

func testAgents(t *testing.T, s store.Store) {
	ctx := context.Background()
	def, err := s.GetAgent(ctx, "default")
	if err != nil || def.Type != store.AgentOpen {
		t.Fatalf("default agent on first run: %+v %v", def, err)
	}
	must(t, s.PutAgent(ctx, store.Agent{Key: "reviewer", Name: "Reviewer", Type: store.AgentPredefined,
		Provider: "ollama", Model: "qwen2.5:7b", Profile: "coding", Allow: []string{"group:fs"}, Deny: []string{"exec"},
		Workspace: "/tmp/ws", Sandbox: true, Network: true}))
	got, err := s.GetAgent(ctx, "reviewer")
	if err != nil || got.Model != "qwen2.5:7b" || got.Deny[0] != "exec" || !got.Network || !got.Sandbox || got.Workspace != "/tmp/ws" {
		t.Fatalf("agent round trip: %+v %v", got, err)
	}
	typ, err := s.AgentType(ctx, "reviewer")
	if err != nil || typ != "predefined" {
		t.Fatalf("AgentType = %q %v", typ, err)
	}
	if typ, _ := s.AgentType(ctx, "nobody"); typ != "open" {
		t.Fatalf("unknown agent type = %q, want open", typ)
	}
	for _, bad := range []store.Agent{{Key: ""}, {Key: "Bad Key"}, {Key: "x", Type: "weird"}} {
		if err := s.PutAgent(ctx, bad); err == nil {
			t.Fatalf("PutAgent(%+v) accepted", bad)
		}
	}
	list, err := s.ListAgents(ctx)
	must(t, err)
	if len(list) != 2 || list[0].Key != "default" || list[1].Key != "reviewer" {
		t.Fatalf("ListAgents = %+v", list)
	}
	if _, err := s.GetAgent(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetAgent(nobody) err = %v, want ErrNotFound", err)
	}
	must(t, s.PutAgentFile(ctx, "reviewer", "SOUL.md", "calm"))
	must(t, s.DeleteAgent(ctx, "reviewer"))
	if _, ok, _ := s.GetAgentFile(ctx, "reviewer", "SOUL.md"); ok {
		t.Fatal("context file survived agent delete")
	}
	if err := s.DeleteAgent(ctx, "reviewer"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete err = %v", err)
	}
}

func testContextFiles(t *testing.T, s store.Store) {
	ctx := context.Background()
	must(t, s.PutAgentFile(ctx, "default", "SOUL.md", "agent soul"))
	must(t, s.PutUserFile(ctx, "default", "alice", "SOUL.md", "alice soul"))
	must(t, s.PutUserFile(ctx, "default", "alice", "SOUL.md", "alice soul v2"))
	if c, ok, err := s.GetAgentFile(ctx, "default", "SOUL.md"); err != nil || !ok || c != "agent soul" {
		t.Fatalf("agent file = %q %v %v", c, ok, err)
	}
	if c, ok, err := s.GetUserFile(ctx, "default", "alice", "SOUL.md"); err != nil || !ok || c != "alice soul v2" {
		t.Fatalf("user file = %q %v %v", c, ok, err)
	}
	if _, ok, _ := s.GetUserFile(ctx, "default", "bob", "SOUL.md"); ok {
		t.Fatal("bob sees alice's file")
	}
	// Writing for an agent that was never configured creates it as open.
	must(t, s.PutUserFile(ctx, "scratch", "alice", "USER.md", "prefs"))
	if typ, _ := s.AgentType(ctx, "scratch"); typ != "open" {
		t.Fatalf("auto-created agent type %q", typ)
	}
	must(t, s.DeleteUserFile(ctx, "default", "alice", "SOUL.md"))
	must(t, s.DeleteAgentFile(ctx, "default", "SOUL.md"))
	if _, ok, _ := s.GetUserFile(ctx, "default", "alice", "SOUL.md"); ok {
		t.Fatal("user file survived delete")
	}
	if err := s.PutAgentFile(ctx, "Bad Agent", "SOUL.md", "x"); err == nil {
		t.Fatal("bad agent key accepted")
	}
	big := make([]byte, 1<<20)
	for i := range big {
		big[i] = 'a' + byte(i%26)
	}
	must(t, s.PutAgentFile(ctx, "default", "TOOLS.md", string(big)))
	if c, _, _ := s.GetAgentFile(ctx, "default", "TOOLS.md"); c != string(big) {
		t.Fatal("1 MiB context file did not round-trip")
	}
}

func testConcurrentWrites(t *testing.T, s store.Store) {
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				if err := s.PutUserFile(ctx, "default", fmt.Sprintf("u%d", w), fmt.Sprintf("f%d.md", i), "x"); err != nil {
					errs <- err
					return
				}
				if _, _, err := s.GetUserFile(ctx, "default", fmt.Sprintf("u%d", w), "f0.md"); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatalf("concurrent write: %v", err)
	}
}
