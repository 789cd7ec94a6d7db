package warren_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/backend/memory/embed/embedtest"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/warren"
)

// TestMemoryFilesOnDiskImportedOnce: memory files a workspace held from
// before memory lived in the database become global documents at the first
// start, stay on disk, and are not imported again (a document the user
// deleted stays deleted).
func TestMemoryFilesOnDiskImportedOnce(t *testing.T) {
	t.Parallel()
	dir, ws := t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "memory", "projects"), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"MEMORY.md": "# Me\n\nLikes tea.", "memory/projects/apollo.md": "Apollo ships in May.", "memory/notes.txt": "not markdown"} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	openWS := func() *warren.Warren {
		w, err := warren.Open(ctx, warren.Options{DataDir: dir, Workspace: ws})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	w := openWS()
	docs, err := w.Memory().List(ctx, memory.ListFilter{Global: true})
	if err != nil || len(docs) != 2 {
		t.Fatalf("imported %+v %v", docs, err)
	}
	d, ok, err := w.Memory().Resolve(ctx, "anyone", "local", "memory/projects/apollo.md")
	if err != nil || !ok || d.Content != "Apollo ships in May." {
		t.Fatalf("resolve %+v %v %v", d, ok, err)
	}
	if err := w.Memory().Delete(ctx, "", "", "MEMORY.md"); err != nil {
		t.Fatal(err)
	}
	_ = w.Close()
	w = openWS()
	defer func() { _ = w.Close() }()
	if docs, _ := w.Memory().List(ctx, memory.ListFilter{Global: true}); len(docs) != 1 {
		t.Fatalf("imported again: %+v", docs)
	}
	if _, err := os.Stat(filepath.Join(ws, "MEMORY.md")); err != nil {
		t.Fatalf("the file left the disk: %v", err)
	}
}

func waitStatus(t *testing.T, w *warren.Warren, ok func(memory.IndexStatus) bool) memory.IndexStatus {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var st memory.IndexStatus
	for time.Now().Before(deadline) {
		var err error
		if st, err = w.Memory().Status(context.Background()); err == nil && ok(st) {
			return st
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("memory index never got there: %+v", st)
	return st
}

// TestMemoryEmbedders: the shipped embedder indexes what the file tools
// write, and memory_search answers in hybrid mode; switching to an
// OpenAI-compatible provider rebuilds the vectors with it; a provider that
// does not exist is refused and the working embedder stays.
func TestMemoryEmbedders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	call := func(name, args string) string {
		t.Helper()
		res, err := w.CallTool(ctx, warren.CallRequest{Name: name, Args: []byte(args), Agent: "default", User: "local"})
		if err != nil || res.Error != nil {
			t.Fatalf("%s: %+v %v", name, res, err)
		}
		return res.ForLLM
	}
	call("write_file", `{"path":"memory/garden.md","content":"# Garden\n\nThe tomatoes need watering twice a week in summer."}`)
	st := waitStatus(t, w, func(st memory.IndexStatus) bool { return st.Embedded == st.Chunks && st.Chunks > 0 && !st.Building })
	if st.Embedder == nil || st.Embedder.Kind != "builtin" {
		t.Fatalf("default embedder: %+v", st)
	}
	if out := call("memory_search", `{"query":"how often should I water the plants"}`); !strings.Contains(out, "mode: hybrid") ||
		!strings.Contains(out, "memory/garden.md") {
		t.Fatalf("memory_search: %s", out)
	}
	if err := w.SetSetting(ctx, warren.SettingMemoryEmbedder, "provider:nowhere"); err == nil || !strings.Contains(err.Error(), "kept") {
		t.Fatalf("a missing provider: %v", err)
	}
	srv := embedtest.NewServer(t, embedtest.Options{Dims: 16, Model: "emb"})
	if err := w.Providers().Save(ctx, store.Provider{Name: "local-emb", Kind: "openai", BaseURL: srv.BaseURL(), DefaultModel: "chat"}); err != nil {
		t.Fatal(err)
	}
	if err := w.SetSetting(ctx, warren.SettingMemoryEmbedModel, "emb"); err != nil {
		t.Fatal(err)
	}
	if err := w.SetSetting(ctx, warren.SettingMemoryEmbedder, "provider:local-emb"); err != nil {
		t.Fatal(err)
	}
	st = waitStatus(t, w, func(st memory.IndexStatus) bool {
		return st.Ready != nil && st.Ready.Kind == "openai" && st.Embedded == st.Chunks && !st.Building
	})
	if st.Ready.Dims != 16 || len(srv.Requests()) == 0 {
		t.Fatalf("rebuilt with the provider: %+v (%d requests)", st, len(srv.Requests()))
	}
	if out := call("memory_search", `{"query":"tomatoes watering"}`); !strings.Contains(out, "mode: hybrid") {
		t.Fatalf("memory_search after the switch: %s", out)
	}
}

// TestKnowledgeTools: search_system_knowledge answers from Warren's own
// docs, search_history finds an earlier conversation by most of its
// words, and search_documents searches an imported folder.
func TestKnowledgeTools(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	call := func(name, args string) string {
		t.Helper()
		res, err := w.CallTool(ctx, warren.CallRequest{Name: name, Args: []byte(args), Agent: "default", User: "local"})
		if err != nil || res.Error != nil {
			t.Fatalf("%s: %+v %v", name, res, err)
		}
		return res.ForLLM
	}
	if out := call("search_system_knowledge", `{"query":"rootless podman sandbox network"}`); !strings.Contains(out, "warren-docs/") {
		t.Fatalf("search_system_knowledge: %s", out)
	}
	s, err := w.Sessions().Create(ctx, sessions.Session{Agent: "default", Title: "Holiday planning"})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Sessions().Append(ctx, s.ID, sessions.Message{Role: "user", Content: "Book the ferry to Mallorca for the second week of June."}); err != nil {
		t.Fatal(err)
	}
	if out := call("search_history", `{"query":"when is the Mallorca ferry"}`); !strings.Contains(out, "Holiday planning") {
		t.Fatalf("search_history: %s", out)
	}
	if out := call("search_documents", `{"query":"anything"}`); !strings.Contains(out, "No folders are imported yet") {
		t.Fatalf("search_documents without folders: %s", out)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "recipes.md"), []byte("# Bread\n\nKnead the dough for ten minutes."), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Memory().AddFolder(ctx, "", dir); err != nil {
		t.Fatal(err)
	}
	if out := call("search_documents", `{"query":"knead dough","top_k":2}`); !strings.Contains(out, "/recipes.md") {
		t.Fatalf("search_documents: %s", out)
	}
	res, err := w.CallTool(ctx, warren.CallRequest{Name: "search_documents", Args: []byte(`{"query":"x","top_k":99}`), Agent: "default"})
	if err != nil || res.Error == nil || !strings.Contains(res.Error.Message, "top_k") {
		t.Fatalf("top_k 99: %+v %v", res, err)
	}
}

// TestMemoryWriteFeedsTheGraph: with memory.kg_extract on, a memory file
// an agent writes is read by its own model into the knowledge graph.
func TestMemoryWriteFeedsTheGraph(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	answer := `{"entities":[{"name":"Ana Ruiz","type":"person","confidence":0.9},{"name":"Apollo","type":"project","confidence":0.9}],` +
		`"relations":[{"source":"Ana Ruiz","target":"Apollo","type":"works_on","confidence":0.9}]}`
	agentServer(t, w, "ada", llmtest.Cassette{Turns: []llmtest.Turn{text("Ana Ruiz leads Apollo", answer)}})
	if err := w.SetSetting(ctx, warren.SettingMemoryGraph, "true"); err != nil {
		t.Fatal(err)
	}
	res, err := w.CallTool(ctx, warren.CallRequest{Name: "write_file", Agent: "ada", User: "local",
		Args: []byte(`{"path":"memory/people.md","content":"Ana Ruiz leads Apollo."}`)})
	if err != nil || res.Error != nil {
		t.Fatalf("%+v %v", res, err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		g, err := w.Memory().SearchGraph(ctx, memory.GraphQuery{Text: "Ana", Agent: "ada"})
		if err == nil && len(g.Relations) == 1 && g.Relations[0].DstName == "Apollo" {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the graph never got the write: %+v %v", g, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
