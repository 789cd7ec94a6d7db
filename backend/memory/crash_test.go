package memory

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/memory/embed"
	"github.com/warren-dev/warren/backend/memory/embed/builtin"
	"github.com/warren-dev/warren/backend/store"
)

// slowEmbedder is the shipped embedder taking its time, so a kill lands
// in the middle of indexing.
type slowEmbedder struct{ embed.Embedder }

func (s slowEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	time.Sleep(150 * time.Millisecond)
	return s.Embedder.Embed(ctx, texts)
}

// TestIndexerChild is the process TestKilledWhileIndexing kills: it indexes
// the database it is given until it dies.
func TestIndexerChild(t *testing.T) {
	dir := os.Getenv("WARREN_MEMORY_CHILD_DIR")
	if dir == "" {
		t.Skip("run by TestKilledWhileIndexing")
	}
	db, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	s := New(db.SQL(), Options{Embedder: slowEmbedder{builtin.New()}})
	_ = s.IndexNow(context.Background())
	t.Fatal("indexing finished before the kill")
}

// TestKilledWhileIndexing: a process killed (SIGKILL) while it embeds
// leaves a sound database — no vector without its bookkeeping row or the
// other way round — and the next indexer carries on to the end.
func TestKilledWhileIndexing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ctx := context.Background()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	s := New(db.SQL(), Options{Embedder: builtin.New()})
	for i := range 600 {
		put(t, s, "ada", "local", fmt.Sprintf("memory/d%04d.md", i), fmt.Sprintf("Note %d: the heat pump in room %d needs a filter.", i, i))
	}
	child := exec.Command(os.Args[0], "-test.run=^TestIndexerChild$", "-test.count=1")
	child.Env = append(os.Environ(), "WARREN_MEMORY_CHILD_DIR="+dir)
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for embedded := 0; embedded < 100; {
		if time.Now().After(deadline) {
			_ = child.Process.Kill()
			t.Fatalf("the child embedded only %d chunks in 30 s", embedded)
		}
		time.Sleep(20 * time.Millisecond)
		_ = db.SQL().QueryRowContext(ctx, "SELECT COUNT(*) FROM memory_embedded").Scan(&embedded)
	}
	if err := child.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = child.Wait()
	var check string
	if err := db.SQL().QueryRowContext(ctx, "PRAGMA integrity_check").Scan(&check); err != nil || check != "ok" {
		t.Fatalf("integrity_check: %q %v", check, err)
	}
	st, err := s.Status(ctx)
	if err != nil || st.Embedded == 0 || st.Embedded >= st.Chunks {
		t.Fatalf("after the kill: %+v %v (want a partial index)", st, err)
	}
	consistent := func() {
		t.Helper()
		all, err := s.indexes(ctx, s.db)
		if err != nil || len(all) != 1 {
			t.Fatalf("indexes %+v %v", all, err)
		}
		var vecs, rows int
		if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+all[0].Name).Scan(&vecs); err != nil {
			t.Fatal(err)
		}
		if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM memory_embedded").Scan(&rows); err != nil {
			t.Fatal(err)
		}
		if vecs != rows {
			t.Fatalf("%d vectors but %d bookkeeping rows", vecs, rows)
		}
	}
	consistent()
	index(t, s)
	consistent()
	st, _ = s.Status(ctx)
	if st.Embedded != st.Chunks || st.Building || st.Ready == nil {
		t.Fatalf("after resuming: %+v", st)
	}
	if r := search(t, s, Query{Text: "heat pump filter room 77"}); r.Mode != ModeHybrid || len(r.Hits) == 0 {
		t.Fatalf("search after the crash: %+v", r)
	}
}
