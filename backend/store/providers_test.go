package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/secrets"
	"github.com/warren-dev/warren/backend/store"
)

func TestProviders(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	box, err := secrets.Open(secrets.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	ps := store.NewProviders(db, box)
	if err := ps.Save(ctx, store.Provider{Name: "ollama", Kind: "openai", BaseURL: "http://127.0.0.1:11434/v1", DefaultModel: "qwen2.5:7b"}); err != nil {
		t.Fatal(err)
	}
	if err := ps.Save(ctx, store.Provider{Name: "cloud", Kind: "anthropic", BaseURL: "https://api.anthropic.com", APIKey: "sk-ant-secret-key-123"}); err != nil {
		t.Fatal(err)
	}
	var raw string
	_ = db.SQL().QueryRowContext(ctx, "SELECT api_key_sealed FROM providers WHERE name = 'cloud'").Scan(&raw)
	if raw == "" || strings.Contains(raw, "sk-ant") {
		t.Fatalf("API key not sealed: %q", raw)
	}
	// Saving without a key keeps it; "-" removes it.
	if err := ps.Save(ctx, store.Provider{Name: "cloud", Kind: "anthropic", BaseURL: "https://api.anthropic.com", DefaultModel: "claude-x"}); err != nil {
		t.Fatal(err)
	}
	if p, err := ps.Get(ctx, "cloud"); err != nil || p.APIKey != "sk-ant-secret-key-123" || p.DefaultModel != "claude-x" {
		t.Fatalf("get: %+v %v", p, err)
	}
	list, err := ps.List(ctx)
	if err != nil || len(list) != 2 || list[0].APIKey != "" || !list[0].HasKey || list[1].HasKey {
		t.Fatalf("list: %+v %v", list, err)
	}
	_ = ps.Save(ctx, store.Provider{Name: "cloud", Kind: "anthropic", BaseURL: "https://api.anthropic.com", APIKey: "-"})
	if p, _ := ps.Get(ctx, "cloud"); p.HasKey {
		t.Fatal("key not removed")
	}
	for _, bad := range []store.Provider{
		{Name: "Bad Name", Kind: "openai", BaseURL: "http://x"},
		{Name: "x", Kind: "gemini", BaseURL: "http://x"},
		{Name: "x", Kind: "openai", BaseURL: "ftp://x"},
		{Name: "x", Kind: "openai", BaseURL: "localhost:11434"},
	} {
		if err := ps.Save(ctx, bad); err == nil {
			t.Fatalf("%+v accepted", bad)
		}
	}
	if err := ps.Delete(ctx, "ollama"); err != nil {
		t.Fatal(err)
	}
	if _, err := ps.Get(ctx, "ollama"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("get deleted: %v", err)
	}
}
