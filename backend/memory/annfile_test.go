package memory

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/memory/ann"
	"github.com/warren-dev/warren/backend/memory/embed"
	"github.com/warren-dev/warren/backend/memory/embed/builtin"
	"github.com/warren-dev/warren/backend/store"
)

// runStore opens the database in dir with the approximate index from 200
// vectors and runs its indexer until the test ends; progress collects
// what the index-progress events said.
func runStore(t *testing.T, dir string, progress *[]string) *Store {
	t.Helper()
	db, err := store.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan string, 1000)
	s := New(db.SQL(), Options{Embedder: builtin.Shared(), ANNMin: 200, OnProgress: func(st IndexStatus) {
		select {
		case events <- st.Index:
		default:
		}
	}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
		_ = db.Close()
		close(events)
		for e := range events {
			if progress != nil {
				*progress = append(*progress, e)
			}
		}
	})
	return s
}

// waitANN waits for the store's approximate index and returns its status.
func waitANN(t *testing.T, s *Store) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		st, _ := s.Status(context.Background())
		if strings.HasPrefix(st.Index, "approximate") && st.Embedded == st.Chunks {
			return st.Index
		}
		if time.Now().After(deadline) {
			t.Fatalf("no approximate index: %+v", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// agreesWithExact checks vector search through the index against the
// exact scan.
func agreesWithExact(t *testing.T, s *Store) {
	t.Helper()
	agree, total := 0, 0
	for _, q := range []string{"watering the plants", "winter wheels", "paying taxes", "music class", "nightly copies",
		"boarding gate", "baking", "pet pills", "zeppelin hangar"} {
		approx := paths(search(t, s, Query{Text: q, Channels: "vector", MaxResults: 10}))
		exact := paths(search(t, s, Query{Text: q, Channels: "vector", MaxResults: 10, Exact: true}))
		for _, p := range exact {
			total++
			if contains(approx, p) {
				agree++
			}
		}
	}
	if recall := float64(agree) / float64(total); recall < 0.9 {
		t.Fatalf("recall@10 of the index against the exact scan: %.2f", recall)
	}
}

// TestANNFile: the index is saved beside the database; a process that
// stops without saving again (the file is older than the last writes)
// leaves a file the next start loads and brings up to date from SQLite; a
// damaged file, or one written for another index identity, is ignored and
// the index rebuilt from SQLite with progress events.
func TestANNFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s1 := runStore(t, dir, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 250 {
		put(t, s1, "ada", "local", fmt.Sprintf("memory/n%03d.md", i), benchText(rng, 6)+".")
	}
	index(t, s1)
	if got := waitANN(t, s1); !strings.HasSuffix(got, "built)") {
		t.Fatalf("first index: %q", got)
	}
	st1, _ := s1.Status(context.Background())
	file := filepath.Join(dir, "memory_vec_"+strings.TrimPrefix(readyTable(t, s1), "memory_vec_")+".hnsw")
	waitFile(t, file)
	// Written after the save: the file does not have it.
	put(t, s1, "ada", "local", "memory/new.md", "A zeppelin hangar inspection is due.")
	index(t, s1)

	// A second process opening the same database (the first one might as
	// well have been killed): loads the file, catches up with SQLite.
	s2 := runStore(t, dir, nil)
	if got := waitANN(t, s2); got != fmt.Sprintf("approximate (HNSW, %d vectors, loaded)", st1.Embedded+1) {
		t.Fatalf("reopened: %q", got)
	}
	if p := paths(search(t, s2, Query{Text: "zeppelin hangar", Channels: "vector", MaxResults: 1})); len(p) != 1 || p[0] != "memory/new.md" {
		t.Fatalf("a write after the save is not in the loaded index: %v", p)
	}
	agreesWithExact(t, s2)

	// Damaged: bytes in the middle of the graph flipped.
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i := len(b) / 2; i < len(b)/2+64; i++ {
		b[i] ^= 0x5a
	}
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var progress []string
	// The rebuild's progress went out as index-progress events (checked
	// after s3 stops: its events are collected by its cleanup, which runs first).
	t.Cleanup(func() {
		saw := false
		for _, e := range progress {
			saw = saw || strings.HasPrefix(e, "exact (approximate index building: ")
		}
		if !saw {
			t.Errorf("no build progress among the events: %q", progress)
		}
	})
	s3 := runStore(t, dir, &progress)
	if got := waitANN(t, s3); !strings.HasSuffix(got, "built)") {
		t.Fatalf("after damage: %q", got)
	}
	agreesWithExact(t, s3)

	// Another identity's file under this table's name.
	v := vecIndex{Name: readyTable(t, s3), ID: embed.Identity{Kind: "openai", Model: "other", Dims: builtin.Dims}, Chunker: ChunkerVersion}
	s3.annMu.Lock()
	ai := s3.anns[v.Name]
	s3.annMu.Unlock()
	ai.mu.RLock()
	writeANNFile(t, file, v, ai)
	ai.mu.RUnlock()
	s4 := runStore(t, dir, nil)
	if got := waitANN(t, s4); !strings.HasSuffix(got, "built)") {
		t.Fatalf("with another identity's file: %q", got)
	}
	agreesWithExact(t, s4)
}

// writeANNFile writes ai as table v's index file; the caller holds ai.mu
// if others use ai.
func writeANNFile(t *testing.T, file string, v vecIndex, ai *annIndex) {
	t.Helper()
	f, err := os.Create(file) //nolint:gosec // the test's own file
	if err != nil {
		t.Fatal(err)
	}
	err = writeANN(f, annHeader{Table: v.Name, ID: v.ID, Chunker: v.Chunker, Count: len(ai.meta)}, ai)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
}

func readyTable(t *testing.T, s *Store) string {
	t.Helper()
	all, err := s.indexes(context.Background(), s.db)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range all {
		if v.Ready {
			return v.Name
		}
	}
	t.Fatal("no ready vector table")
	return ""
}

func waitFile(t *testing.T, path string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(path); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s was not written", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestANNStartRemovesLeftoverTemps: a save killed midway leaves its
// temporary file; the next start deletes it once it is old enough to be
// nobody's save in progress, and leaves fresh ones and other files alone.
func TestANNStartRemovesLeftoverTemps(t *testing.T) {
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	dir := t.TempDir()
	s := New(db.SQL(), Options{Embedder: builtin.Shared(), IndexDir: dir})
	old := time.Now().Add(-time.Hour)
	files := map[string]bool{ // name → kept
		"memory_vec_1_builtin.123.tmp": false, // old leftover
		"memory_vec_1_builtin.456.tmp": true,  // fresh: maybe another process's save
		"memory_vec_gone.hnsw":         false, // a table that no longer exists
		"notes.tmp":                    true,  // not ours
	}
	for name, kept := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if !kept || name == "notes.tmp" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	sub := filepath.Join(dir, "memory_vec_dir.1.tmp") // a directory: not a file a save leaves
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(sub, old, old); err != nil {
		t.Fatal(err)
	}
	files["memory_vec_dir.1.tmp"] = true
	s.startANN(context.Background())
	for name, kept := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if exists := err == nil; exists != kept {
			t.Errorf("%s: exists %v, want %v", name, exists, kept)
		}
	}
}

// TestANNFileOtherGraphSettings: a file whose graph was built with other
// settings (an older release's M, say) is refused at start and the index
// rebuilt with the current ones, not kept forever.
func TestANNFileOtherGraphSettings(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s1 := runStore(t, dir, nil)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := range 250 {
		put(t, s1, "ada", "local", fmt.Sprintf("memory/n%03d.md", i), benchText(rng, 6)+".")
	}
	index(t, s1)
	waitANN(t, s1)
	var v vecIndex
	all, err := s1.indexes(context.Background(), s1.db)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range all {
		if x.Ready {
			v = x
		}
	}
	file := filepath.Join(dir, v.Name+".hnsw")
	waitFile(t, file)
	rows, err := s1.annRows(context.Background(), v, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	old := &annIndex{idx: ann.NewHNSW(v.ID.Dims, ann.Options{M: 8, EfConstruction: 50}), meta: map[int64]annMeta{}}
	err = old.idx.Build(context.Background(), func(yield func(int64, []float32) bool) {
		for _, r := range rows {
			old.meta[r.id] = annMeta{part: r.part, key: contentKey(r.hash)}
			if !yield(r.id, r.vec) {
				return
			}
		}
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	writeANNFile(t, file, v, old)
	s2 := runStore(t, dir, nil)
	if got := waitANN(t, s2); !strings.HasSuffix(got, "built)") {
		t.Fatalf("with a file of other graph settings: %q", got)
	}
	agreesWithExact(t, s2)
}
