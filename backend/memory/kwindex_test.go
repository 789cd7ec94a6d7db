package memory

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/store"
)

// TestScopeFilterMatchesSQL: the catalog's filter lets through exactly what
// scopeSQL does, for every scope, user, path prefix, time window and source
// over documents of every kind.
func TestScopeFilterMatchesSQL(t *testing.T) {
	t.Parallel()
	s := openStore(t, nil)
	ctx := context.Background()
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	s.now = func() time.Time { clock = clock.Add(time.Hour); return clock }
	agents, users := []string{"", "ada", "bob"}, []string{"", "local", "other"}
	sources := []Source{SourceMemory, SourceImport, SourceSystem}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 120 {
		path := fmt.Sprintf("memory/%s/n%03d.md", []string{"a", "ab", "b"}[i%3], i)
		_, err := s.Put(ctx, PutDoc{Agent: agents[rng.IntN(3)], User: users[rng.IntN(3)], Path: path,
			Content: fmt.Sprintf("Note %d.", i), Source: sources[rng.IntN(3)]})
		if err != nil {
			t.Fatal(err)
		}
	}
	var ids []int64
	if err := eachRow(ctx, s.db, "SELECT id FROM memory_chunks", nil, func(scan func(...any) error) error {
		var id int64
		err := scan(&id)
		ids = append(ids, id)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	sqlOnly := make(map[int64]bool)
	startKWIndex(t, s)
	x := s.kwIndex()
	for range 400 {
		q := Query{Agent: agents[rng.IntN(3)], User: users[rng.IntN(3)],
			Scope: []Scope{ScopeAll, ScopeUser, ScopeAgent, ScopeGlobal}[rng.IntN(4)]}
		q.PathPrefix = []string{"", "memory/a", "memory/ab/", "memory/b/n00", "nothing"}[rng.IntN(5)]
		if rng.IntN(3) == 0 {
			q.Since = time.Date(2026, 1, 1, rng.IntN(24), 0, 0, 0, time.UTC).Add(time.Duration(rng.IntN(120)) * time.Hour)
		}
		if rng.IntN(3) == 0 {
			q.Until = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(rng.IntN(130)) * time.Hour)
		}
		for j := range rng.IntN(3) {
			q.Sources = append(q.Sources, sources[(rng.IntN(3)+j)%3])
		}
		// SQL alone: as a process without the catalog decides.
		s.annMu.Lock()
		s.kw = nil
		s.annMu.Unlock()
		want, err := s.visible(ctx, q, ids)
		s.annMu.Lock()
		s.kw = x
		s.annMu.Unlock()
		if err != nil {
			t.Fatal(err)
		}
		found, missing, ok := x.metaOf(ids)
		if !ok || len(missing) > 0 {
			t.Fatalf("catalog: ready %v, missing %v", ok, missing)
		}
		f := newScopeFilter(q)
		for _, id := range ids {
			m := found[id]
			if got := f.admits(&m); got != want[id] {
				t.Fatalf("query %+v, chunk %+v: catalog says %v, SQL %v", q, m, got, want[id])
			}
			sqlOnly[id] = sqlOnly[id] || want[id]
		}
	}
	if len(sqlOnly) < len(ids)*9/10 {
		t.Fatalf("the random queries let only %d of %d chunks through: the test checks too little", len(sqlOnly), len(ids))
	}
}

// TestKeywordIndexFollowsOtherProcesses: writes, rewrites and deletes made
// through another connection pool (as the CLI's process makes them) are
// found, or no longer found, by the window's next search, including a
// chunk id SQLite reuses after the newest chunk was deleted.
func TestKeywordIndexFollowsOtherProcesses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	open := func() *Store {
		db, err := store.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		return New(db.SQL(), Options{})
	}
	window, cli := open(), open()
	put(t, cli, "ada", "local", "memory/old.md", "The lighthouse keeper logs the storms.")
	startKWIndex(t, window)
	found := func(word string) []string { return paths(search(t, window, Query{Text: word})) }
	if got := found("lighthouse"); !slices.Equal(got, []string{"memory/old.md"}) {
		t.Fatalf("built: %v", got)
	}
	put(t, cli, "ada", "local", "memory/new.md", "Zebras graze near the lighthouse.")
	if got := found("zebras"); !slices.Equal(got, []string{"memory/new.md"}) {
		t.Fatalf("written elsewhere: %v", got)
	}
	put(t, cli, "ada", "local", "memory/new.md", "Giraffes graze near the lighthouse.")
	if got := found("zebras"); len(got) != 0 {
		t.Fatalf("rewritten elsewhere, the old words still found: %v", got)
	}
	if got := found("giraffes"); !slices.Equal(got, []string{"memory/new.md"}) {
		t.Fatalf("rewritten elsewhere: %v", got)
	}
	// The newest chunk deleted, then a new one takes its id.
	var last int64
	if err := cli.db.QueryRow("SELECT MAX(id) FROM memory_chunks").Scan(&last); err != nil {
		t.Fatal(err)
	}
	if err := cli.Delete(context.Background(), "ada", "local", "memory/new.md"); err != nil {
		t.Fatal(err)
	}
	put(t, cli, "ada", "local", "memory/reused.md", "Penguins never visit the keeper.")
	var reused int64
	if err := cli.db.QueryRow("SELECT MAX(id) FROM memory_chunks").Scan(&reused); err != nil {
		t.Fatal(err)
	}
	if reused != last {
		t.Logf("SQLite did not reuse chunk id %d (got %d); the test still checks the delete", last, reused)
	}
	if got := found("giraffes"); len(got) != 0 {
		t.Fatalf("deleted elsewhere, still found: %v", got)
	}
	if got := found("penguins"); !slices.Equal(got, []string{"memory/reused.md"}) {
		t.Fatalf("reused id: %v", got)
	}
	if got := found("keeper"); len(got) != 2 {
		t.Fatalf("keeper: %v", got)
	}
	if st, err := window.Status(context.Background()); err != nil || st.Keywords != "in memory (BM25 over 2 chunks)" {
		t.Fatalf("window status %q (%v)", st.Keywords, err)
	}
	if st, err := cli.Status(context.Background()); err != nil || st.Keywords != "FTS5" {
		t.Fatalf("CLI status %q (%v)", st.Keywords, err)
	}
}

// TestKeywordIndexRebuildsWhenTheLogWasTrimmed: a reader whose place in
// the chunk log was trimmed away rebuilds from memory_chunks; FTS5 answers
// meanwhile, so no search misses a chunk.
func TestKeywordIndexRebuildsWhenTheLogWasTrimmed(t *testing.T) {
	t.Parallel()
	s := openStore(t, nil)
	ctx := context.Background()
	put(t, s, "ada", "local", "memory/a.md", "Alpha notes.")
	startKWIndex(t, s)
	x := s.kwIndex()
	s.annMu.Lock()
	s.kw = nil // writes the index does not see, as if it were far behind
	s.annMu.Unlock()
	for i := range 30 {
		put(t, s, "ada", "local", fmt.Sprintf("memory/b%02d.md", i), fmt.Sprintf("Bravo note %d.", i))
	}
	err := s.tx(ctx, func(tx *sql.Tx) error { return trimKWLog(ctx, tx, 10) })
	if err != nil {
		t.Fatal(err)
	}
	var rows int
	if err := s.db.QueryRow("SELECT COUNT(*) FROM memory_chunk_log").Scan(&rows); err != nil || rows != 10 {
		t.Fatalf("trim kept %d rows (%v), want 10", rows, err)
	}
	s.annMu.Lock()
	s.kw = x
	s.runCtx = t.Context()
	s.annMu.Unlock()
	if got := search(t, s, Query{Text: "bravo", MaxResults: 50}); len(got.Hits) != 30 {
		t.Fatalf("while rebuilding: %d hits", len(got.Hits))
	}
	for !x.isReady() {
		time.Sleep(5 * time.Millisecond)
	}
	if got := search(t, s, Query{Text: "bravo", MaxResults: 50}); len(got.Hits) != 30 {
		t.Fatalf("rebuilt: %d hits", len(got.Hits))
	}
	if got := search(t, s, Query{Text: "alpha"}); len(got.Hits) != 1 {
		t.Fatalf("rebuilt: %+v", got.Hits)
	}
	var last int64
	if err := s.db.QueryRow("SELECT MAX(seq) FROM memory_chunk_log").Scan(&last); err != nil {
		t.Fatal(err)
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if x.live != 31 || x.cursor != last {
		t.Fatalf("rebuilt index holds %d chunks at log %d; want 31 at %d", x.live, x.cursor, last)
	}
}

// TestKeywordIndexCompacts: after many rewrites the posting lists drop
// their tombstones, and the ranking equals a fresh build's.
func TestKeywordIndexCompacts(t *testing.T) {
	t.Parallel()
	s := openStore(t, nil)
	for i := range 20 {
		put(t, s, "ada", "local", fmt.Sprintf("memory/n%02d.md", i), fmt.Sprintf("Ravens %d and crows.", i))
	}
	startKWIndex(t, s)
	x := s.kwIndex()
	x.mu.Lock()
	x.compactAt = 8
	x.mu.Unlock()
	for round := range 3 {
		for i := range 20 {
			put(t, s, "ada", "local", fmt.Sprintf("memory/n%02d.md", i),
				fmt.Sprintf("Ravens %d and crows, round %d.%s", i, round, strings.Repeat(" crows", i%4)))
		}
		search(t, s, Query{Text: "ravens"}) // applies the log
	}
	x.mu.RLock()
	dead, slots := x.dead, len(x.meta)
	x.mu.RUnlock()
	if dead > 20 || slots > 60 {
		t.Fatalf("not compacted: %d tombstones in %d slots", dead, slots)
	}
	got, _ := x.search(Query{Agent: "ada", User: "local"}, []string{"crows", "round"})
	fresh := newKWIndex()
	err := eachRow(context.Background(), s.db, "SELECT "+kwRowCols+" ORDER BY c.id", nil, func(scan func(...any) error) error {
		r, err := scanKWRow(scan)
		fresh.add(r)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fresh.ready = true
	want, _ := fresh.search(Query{Agent: "ada", User: "local"}, []string{"crows", "round"})
	if fmt.Sprint(got) != fmt.Sprint(want) || len(got) != 20 {
		t.Fatalf("compacted %v\nfresh     %v", got, want)
	}
}

// TestKeywordIndexRanksLikeFTS5: on chunks holding every query word the
// in-process BM25 orders as FTS5's bm25(memory_fts, 2, 1) does.
func TestKeywordIndexRanksLikeFTS5(t *testing.T) {
	t.Parallel()
	s := openStore(t, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	words := strings.Fields("river stone maple harbor copper lantern meadow falcon orchard canyon velvet ember")
	for i := range 200 {
		var b strings.Builder
		fmt.Fprintf(&b, "# %s %s\n\n", words[rng.IntN(len(words))], words[rng.IntN(len(words))])
		for range 5 + rng.IntN(60) {
			b.WriteString(words[rng.IntN(len(words))] + " ")
		}
		put(t, s, "ada", "local", fmt.Sprintf("memory/n%03d.md", i), b.String())
	}
	startKWIndex(t, s)
	x := s.kwIndex()
	ctx := context.Background()
	for i := range 30 {
		a, b := words[i%len(words)], words[(i*7+3)%len(words)]
		var want []int64
		err := eachRow(ctx, s.db, `SELECT rowid FROM memory_fts WHERE memory_fts MATCH ? ORDER BY bm25(memory_fts, 2.0, 1.0), rowid LIMIT 50`,
			[]any{a + " " + b}, func(scan func(...any) error) error {
				var id int64
				err := scan(&id)
				want = append(want, id)
				return err
			})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := x.search(Query{Agent: "ada", User: "local"}, kwTerms(a+" "+b))
		var ids []int64
		for _, c := range got {
			if !c.partial {
				ids = append(ids, c.id)
			}
		}
		if len(want) == 0 || !slices.Equal(ids, want) {
			t.Fatalf("%q: in-process %v\nFTS5 %v", a+" "+b, ids, want)
		}
	}
}
