package memory

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode"

	"github.com/warren-dev/warren/backend/memory/embed"
	"github.com/warren-dev/warren/backend/store"
)

// hashEmbedder is a small real embedder: each word (lower-cased, with a
// few synonyms folded together) adds to the dimension its hash picks. It
// makes vector search behave like word overlap with synonyms, which is
// enough to check the plumbing; retrieval quality is measured with the
// shipped embedder.
type hashEmbedder struct {
	dims  int
	model string
	calls int
	mu    sync.Mutex
}

var synonyms = map[string]string{"car": "vehicle", "automobile": "vehicle", "auto": "vehicle", "begin": "start", "launch": "start"}

func (h *hashEmbedder) Identity() embed.Identity {
	return embed.Identity{Kind: "test", Model: h.model, Dims: h.dims}
}

func (h *hashEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	h.mu.Lock()
	h.calls += len(texts)
	h.mu.Unlock()
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, h.dims)
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) }) {
			if stopwords[w] {
				continue
			}
			if s, ok := synonyms[w]; ok {
				w = s
			}
			f := fnv.New32a()
			_, _ = f.Write([]byte(w))
			v[int(f.Sum32())%h.dims]++
		}
		var n float64
		for _, x := range v {
			n += float64(x * x)
		}
		if n > 0 {
			for j := range v {
				v[j] /= float32(math.Sqrt(n))
			}
		}
		out[i] = v
	}
	return out, nil
}

func openStore(t *testing.T, e embed.Embedder) *Store {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return New(db.SQL(), Options{Embedder: e})
}

// keywordPaths runs a search test twice: on FTS5 alone (a short-lived
// process, the CLI) and with the in-process keyword index and catalog (the
// window's indexer), which then follows every write through the chunk log.
func keywordPaths(t *testing.T, fn func(t *testing.T, open func(embed.Embedder) *Store)) {
	for _, name := range []string{"fts5", "in-process"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var opened []*Store
			fn(t, func(e embed.Embedder) *Store {
				s := openStore(t, e)
				if name == "in-process" {
					startKWIndex(t, s)
					opened = append(opened, s)
				}
				return s
			})
			for _, s := range opened {
				if x := s.kwIndex(); x == nil || !x.isReady() {
					t.Fatal("the in-process keyword index was not ready: FTS5 answered instead")
				}
			}
		})
	}
}

// startKWIndex builds the in-process keyword index as the indexer does and
// waits until it is ready.
func startKWIndex(t *testing.T, s *Store) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); s.annWG.Wait() })
	s.startKW(ctx)
	for x := s.kwIndex(); !x.isReady(); {
		if ctx.Err() != nil {
			t.Fatal("cancelled")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func put(t *testing.T, s *Store, agent, user, path, content string) Doc {
	t.Helper()
	d, err := s.Put(context.Background(), PutDoc{Agent: agent, User: user, Path: path, Content: content})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func search(t *testing.T, s *Store, q Query) Result {
	t.Helper()
	if q.Agent == "" {
		q.Agent = "ada"
	}
	if q.User == "" {
		q.User = "local"
	}
	r, err := s.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func paths(r Result) []string {
	out := make([]string, len(r.Hits))
	for i, h := range r.Hits {
		out[i] = h.Path
	}
	return out
}

func TestDocuments(t *testing.T) {
	t.Parallel()
	s := openStore(t, nil)
	ctx := context.Background()
	d := put(t, s, "ada", "local", "MEMORY.md", "# Facts\n\nThe user likes tea.")
	if d.Version != 1 || d.Chunks != 1 {
		t.Fatalf("%+v", d)
	}
	same := put(t, s, "ada", "local", "./MEMORY.md", "# Facts\n\nThe user likes tea.")
	if same.Version != 1 {
		t.Fatalf("storing the same content made version %d", same.Version)
	}
	put(t, s, "ada", "local", "MEMORY.md", "# Facts\n\nThe user likes coffee.")
	vs, err := s.Versions(ctx, "ada", "local", "MEMORY.md")
	if err != nil || len(vs) != 1 || !strings.Contains(vs[0].Content, "tea") {
		t.Fatalf("versions %+v %v", vs, err)
	}
	put(t, s, "", "", "memory/team.md", "Global: the office is in Lyon.")
	put(t, s, "ada", "", "memory/team.md", "Ada's copy: the office moved to Paris.")
	got, ok, err := s.Resolve(ctx, "ada", "local", "memory/team.md")
	if err != nil || !ok || !strings.Contains(got.Content, "Paris") {
		t.Fatalf("resolve: %+v %v %v", got, ok, err)
	}
	got, ok, _ = s.Resolve(ctx, "bob", "local", "memory/team.md")
	if !ok || !strings.Contains(got.Content, "Lyon") {
		t.Fatalf("bob should read the global copy: %+v", got)
	}
	if err := s.Delete(ctx, "ada", "", "memory/team.md"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete(ctx, "ada", "", "memory/team.md"); err == nil {
		t.Fatal("deleting twice succeeded")
	}
	for _, bad := range []string{"", "/etc/passwd", "memory/../x.md", "a//b", "a\x00b"} {
		if _, err := s.Put(ctx, PutDoc{Agent: "ada", Path: bad, Content: "x"}); err == nil {
			t.Fatalf("path %q accepted", bad)
		}
	}
	if _, err := s.Put(ctx, PutDoc{Agent: "ada", Path: "big.md", Content: strings.Repeat("x", maxDocBytes+1)}); err == nil {
		t.Fatal("oversized document accepted")
	}
	list, err := s.List(ctx, ListFilter{Agent: "ada"})
	if err != nil || len(list) != 2 || list[0].Content != "" {
		t.Fatalf("list %+v %v", list, err)
	}
}

func TestKeywordSearchWithoutEmbedder(t *testing.T) {
	t.Parallel()
	keywordPaths(t, testKeywordSearchWithoutEmbedder)
}

func testKeywordSearchWithoutEmbedder(t *testing.T, open func(embed.Embedder) *Store) {
	s := open(nil)
	put(t, s, "ada", "local", "memory/cafe.md", "# Drinks\n\nThe user orders a café au lait every morning.")
	put(t, s, "ada", "local", "memory/code.md", "Call parse_config.load() before start.")
	r := search(t, s, Query{Text: "cafe"}) // diacritics removed
	if r.Mode != ModeKeywordOnly || !strings.Contains(r.Note, "no embedder") || len(r.Hits) != 1 || r.Hits[0].Path != "memory/cafe.md" {
		t.Fatalf("%+v", r)
	}
	if h := r.Hits[0]; h.KeywordRank != 1 || h.VectorRank != 0 || h.StartLine != 1 || h.Score <= 0 {
		t.Fatalf("%+v", h)
	}
	r = search(t, s, Query{Text: "parse_config.load("})
	if len(r.Hits) != 1 || r.Hits[0].Path != "memory/code.md" {
		t.Fatalf("trigram: %+v", r)
	}
	r = search(t, s, Query{Text: "quantum chromodynamics"})
	if len(r.Hits) != 0 || !strings.Contains(r.Note, "nothing in memory matches") {
		t.Fatalf("%+v", r)
	}
	if _, err := s.Search(context.Background(), Query{Text: "x", Agent: "ada", MinScore: 2}); err == nil {
		t.Fatal("min_score 2 accepted")
	}
}

func index(t *testing.T, s *Store) {
	t.Helper()
	if err := s.indexPending(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestHybridSearch(t *testing.T) {
	t.Parallel()
	keywordPaths(t, testHybridSearch)
}

func testHybridSearch(t *testing.T, open func(embed.Embedder) *Store) {
	e := &hashEmbedder{dims: 64, model: "a"}
	s := open(e)
	for i := range 30 {
		put(t, s, "ada", "local", fmt.Sprintf("memory/filler-%02d.md", i), fmt.Sprintf("Note %d about gardening, tomatoes and the weather.", i))
	}
	put(t, s, "ada", "local", "memory/car.md", "The automobile needs new tyres before winter.")
	put(t, s, "ada", "other", "memory/secret.md", "Another user's vehicle notes.")
	put(t, s, "", "", "memory/global.md", "Everyone: the vehicle fleet is serviced in May.")
	index(t, s)
	st, err := s.Status(context.Background())
	if err != nil || st.Building || st.Embedded != st.Chunks || st.Ready == nil {
		t.Fatalf("status %+v %v", st, err)
	}
	r := search(t, s, Query{Text: "car tyres"})
	if r.Mode != ModeHybrid || len(r.Hits) == 0 || r.Hits[0].Path != "memory/car.md" {
		t.Fatalf("%+v", r)
	}
	top := r.Hits[0]
	if top.KeywordRank != 1 || top.VectorRank != 1 || top.Score < 0.8 {
		t.Fatalf("top hit %+v", top)
	}
	// Synonyms reach only the vector channel.
	r = search(t, s, Query{Text: "vehicle"})
	got := paths(r)
	if len(got) < 2 || !contains(got, "memory/car.md") || !contains(got, "memory/global.md") || contains(got, "memory/secret.md") {
		t.Fatalf("vehicle: %v", got)
	}
	// The pool is fixed: the first results do not change with max_results.
	few := paths(search(t, s, Query{Text: "gardening weather", MaxResults: 3}))
	many := paths(search(t, s, Query{Text: "gardening weather", MaxResults: 20}))
	if strings.Join(few, ",") != strings.Join(many[:3], ",") {
		t.Fatalf("top 3 changed with max_results: %v vs %v", few, many[:3])
	}
	// min_score drops weak hits but never an exact keyword hit.
	r = search(t, s, Query{Text: "new tyres", MinScore: 0.99})
	if len(r.Hits) != 1 || !r.Hits[0].Exact {
		t.Fatalf("min_score: %+v", r.Hits)
	}
	r = search(t, s, Query{Text: "vehicle", Scope: ScopeGlobal})
	if p := paths(r); len(p) != 1 || p[0] != "memory/global.md" {
		t.Fatalf("global scope: %v", p)
	}
	r = search(t, s, Query{Text: "vehicle", User: "other", Scope: ScopeUser})
	if p := paths(r); len(p) != 1 || p[0] != "memory/secret.md" {
		t.Fatalf("user scope: %v", p)
	}
	r = search(t, s, Query{Text: "gardening", PathPrefix: "memory/filler-2"})
	for _, p := range paths(r) {
		if !strings.HasPrefix(p, "memory/filler-2") {
			t.Fatalf("path_prefix let %s through", p)
		}
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// TestDuplicatesCollapse: the user's copy of a global document is one hit,
// the user's (boosted).
func TestDuplicatesCollapse(t *testing.T) {
	t.Parallel()
	keywordPaths(t, func(t *testing.T, open func(embed.Embedder) *Store) {
		testDuplicatesCollapse(t, open(&hashEmbedder{dims: 32, model: "a"}))
	})
}

func testDuplicatesCollapse(t *testing.T, s *Store) {
	text := "Backups run every night at two."
	put(t, s, "", "", "memory/ops.md", text)
	put(t, s, "ada", "local", "memory/ops.md", text)
	index(t, s)
	r := search(t, s, Query{Text: "backups night"})
	if len(r.Hits) != 1 || r.Hits[0].User != "local" {
		t.Fatalf("%+v", r.Hits)
	}
}

// TestEmbedderChangeRebuildsWhileSearching: a new embedder builds a new
// table; search keeps the ready one until the new one is complete, then
// the swap drops the old table.
func TestEmbedderChangeRebuildsWhileSearching(t *testing.T) {
	t.Parallel()
	a := &hashEmbedder{dims: 32, model: "a"}
	s := openStore(t, a)
	ctx := context.Background()
	for i := range 150 { // more than two batches
		put(t, s, "ada", "local", fmt.Sprintf("memory/n%03d.md", i), fmt.Sprintf("Entry %d: the automobile log.", i))
	}
	index(t, s)
	b := &hashEmbedder{dims: 48, model: "b"}
	if err := s.SetEmbedder(ctx, b); err != nil {
		t.Fatal(err)
	}
	// One batch of the new build, then search: still hybrid, on the old table.
	idx, err := s.ensureIndex(ctx, b.Identity())
	if err != nil {
		t.Fatal(err)
	}
	st, _ := s.Status(ctx)
	if !st.Building || st.Ready == nil || st.Ready.Model != "a" || st.Embedded != 0 || st.Embedder.Model != "b" {
		t.Fatalf("after the switch: %+v", st)
	}
	if _, _, err := s.embedBatch(ctx, b, idx, 0); err != nil {
		t.Fatal(err)
	}
	if r := search(t, s, Query{Text: "vehicle"}); r.Mode != ModeHybrid || len(r.Hits) == 0 {
		t.Fatalf("search during the rebuild: %+v", r)
	}
	index(t, s)
	st, _ = s.Status(ctx)
	if st.Building || st.Ready == nil || st.Ready.Model != "b" || st.Embedded != st.Chunks {
		t.Fatalf("after the rebuild: %+v", st)
	}
	all, _ := s.indexes(ctx, s.db)
	if len(all) != 1 {
		t.Fatalf("old table kept: %+v", all)
	}
	// Unchanged text is not embedded again: the cache answers.
	before := a.calls
	if err := s.SetEmbedder(ctx, a); err != nil {
		t.Fatal(err)
	}
	index(t, s)
	if a.calls != before {
		t.Fatalf("re-embedded %d texts the cache holds", a.calls-before)
	}
}

// TestConcurrentWritersAndSearchers: writes, indexing and searches at once
// (run with -race); every document ends up searchable.
func TestConcurrentWritersAndSearchers(t *testing.T) {
	t.Parallel()
	s := openStore(t, &hashEmbedder{dims: 32, model: "a"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Run(ctx) }()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				if _, err := s.Put(ctx, PutDoc{Agent: "ada", User: "local", Path: fmt.Sprintf("memory/w%d-%d.md", w, i),
					Content: fmt.Sprintf("Writer %d note %d about zeppelins.", w, i)}); err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Search(ctx, Query{Text: "zeppelins", Agent: "ada", User: "local"}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	cancel()
	<-done
	r := search(t, s, Query{Text: "zeppelins", MaxResults: 50})
	if len(r.Hits) != 50 {
		t.Fatalf("%d hits", len(r.Hits))
	}
}
