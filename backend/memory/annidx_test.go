package memory

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/memory/embed/builtin"
	"github.com/warren-dev/warren/backend/store"
)

// TestApproximateIndex: past the size threshold the indexer builds an
// HNSW index from SQLite's vectors; vector search then agrees with the
// exact scan (the oracle), and writes and deletes reach the index.
func TestApproximateIndex(t *testing.T) {
	t.Parallel()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	s := New(db.SQL(), Options{Embedder: builtin.New(), ANNMin: 200})
	// Distinct notes: words drawn at random (seeded) from a vocabulary, so
	// no two vectors tie and the oracle's order is well defined.
	vocab := strings.Fields(`garden tomato water car tyre winter tax payment deadline piano lesson child server backup night
		flight gate airport bread flour yeast cat medicine food river bridge mountain lake forest city train station ticket
		doctor nurse hospital school teacher student market price money bank loan house rent kitchen window door roof paint
		music concert guitar song movie actor camera photo book novel poem letter email phone meeting office manager team
		project budget report invoice contract lawyer court police fire storm rain snow sun beach ocean ship island coffee
		tea sugar salt pepper chicken fish rice pasta cheese apple orange lemon wine beer bottle glass table chair sofa bed`)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 250 {
		words := make([]string, 6)
		for j := range words {
			words[j] = vocab[rng.IntN(len(vocab))]
		}
		put(t, s, "ada", "local", fmt.Sprintf("memory/n%03d.md", i), strings.Join(words, " ")+".")
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Run(ctx) }()
	defer func() { cancel(); <-done }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, _ := s.Status(context.Background())
		if st.Embedded == st.Chunks && st.Ready != nil {
			// The first vector search starts the build.
			search(t, s, Query{Text: "x tomatoes", Channels: "vector"})
			if strings.HasPrefix(st.Index, "approximate") {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no approximate index: %+v", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
	agreesWithExact(t, s)
	put(t, s, "ada", "local", "memory/new.md", "A zeppelin hangar inspection is due.")
	if err := s.IndexNow(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p := paths(search(t, s, Query{Text: "zeppelin hangar", Channels: "vector", MaxResults: 1})); len(p) != 1 || p[0] != "memory/new.md" {
		t.Fatalf("a new write is not in the index: %v", p)
	}
	if err := s.Delete(context.Background(), "ada", "local", "memory/new.md"); err != nil {
		t.Fatal(err)
	}
	if p := paths(search(t, s, Query{Text: "zeppelin hangar", Channels: "vector", MaxResults: 1})); len(p) == 1 && p[0] == "memory/new.md" {
		t.Fatal("a deleted document is still found")
	}
}
