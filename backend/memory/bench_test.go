package memory

import (
	"context"
	"database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/memory/embed"
	"github.com/warren-dev/warren/backend/memory/embed/builtin"
	"github.com/warren-dev/warren/backend/store"
)

// benchWords is the vocabulary of the benchmark's notes and queries.
var benchWords = strings.Fields(`garden tomato water car tyre winter tax payment deadline piano lesson child server
	backup night flight gate airport bread flour yeast cat medicine food river bridge mountain lake forest city train
	station ticket doctor nurse hospital school teacher student market price money bank loan house rent kitchen window
	door roof paint music concert guitar song movie actor camera photo book novel poem letter email phone meeting office
	manager team project budget report invoice contract lawyer court police fire storm rain snow sun beach ocean ship
	island coffee tea sugar salt pepper chicken fish rice pasta cheese apple orange lemon wine beer bottle glass table`)

func benchText(rng *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = benchWords[rng.IntN(len(benchWords))]
	}
	return strings.Join(w, " ")
}

// bulkLoad writes n one-chunk documents in one transaction (the FTS tables
// follow by trigger) and embeds them: Put, one transaction per document,
// would make setting up 100,000 chunks the benchmark.
func bulkLoad(b *testing.B, s *Store, n int) {
	b.Helper()
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 7))
	now := fmtTime(time.Now())
	err := s.tx(ctx, func(tx *sql.Tx) error {
		doc, err := tx.PrepareContext(ctx, `INSERT INTO memory_docs (agent, user, path, content, hash, created_at, updated_at)
			VALUES ('ada', 'local', ?, ?, ?, ?, ?) RETURNING id`)
		if err != nil {
			return err
		}
		defer func() { _ = doc.Close() }()
		chunk, err := tx.PrepareContext(ctx, `INSERT INTO memory_chunks (doc_id, agent, user, path, seq, start_line, end_line, text, hash)
			VALUES (?, 'ada', 'local', ?, 0, 1, 1, ?, ?)`)
		if err != nil {
			return err
		}
		defer func() { _ = chunk.Close() }()
		for i := range n {
			text := benchText(rng, 40)
			path := fmt.Sprintf("memory/b%06d.md", i)
			var id int64
			if err := doc.QueryRowContext(ctx, path, text, hashText(text), now, now).Scan(&id); err != nil {
				return err
			}
			if _, err := chunk.ExecContext(ctx, id, path, text, hashText("\n"+text)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	if err := s.IndexNow(ctx); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkHybridSearch: a hybrid query (keywords + vectors, fused) over
// 10,000 chunks — and 100,000 with WARREN_BENCH_LARGE=1 — with the exact
// sqlite-vec scan and with the HNSW index, at 100 dimensions (the shipped
// embedder) and 384 (an endpoint's size). Reports p50/p95 per query and the
// index's recall@10 against the exact scan (vector channel).
//
// It is slow to set up (bulk embedding, vec0 inserts, the HNSW build) and
// not yet profiled, so make bench runs it only with WARREN_BENCH_MEMORY=1.
func BenchmarkHybridSearch(b *testing.B) {
	if os.Getenv("WARREN_BENCH_MEMORY") != "1" {
		b.Skip("set WARREN_BENCH_MEMORY=1 to run it (it takes over 10 minutes at 10,000 chunks on 2 cores)")
	}
	sizes := []int{10000}
	if os.Getenv("WARREN_BENCH_LARGE") == "1" {
		sizes = append(sizes, 100000)
	}
	for _, n := range sizes {
		for _, e := range []embed.Embedder{builtin.New(), &randomEmbedder{dims: 384}} {
			b.Run(fmt.Sprintf("%dk/%dd", n/1000, e.Identity().Dims), func(b *testing.B) { benchHybrid(b, n, e) })
		}
	}
}

func benchHybrid(b *testing.B, n int, e embed.Embedder) {
	db, err := store.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	s := New(db.SQL(), Options{Embedder: e, Log: nil})
	bulkLoad(b, s, n)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Run(ctx) }()
	defer func() { cancel(); <-done }()
	rng := rand.New(rand.NewPCG(9, 9))
	queries := make([]string, 100)
	for i := range queries {
		queries[i] = benchText(rng, 3)
	}
	run := func(exact bool) (p50, p95 float64, hits [][]string) {
		var ds []time.Duration
		for _, q := range queries {
			t0 := time.Now()
			if _, err := s.Search(context.Background(), Query{Text: q, Agent: "ada", User: "local", MaxResults: 10, Exact: exact}); err != nil {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(t0))
			v, err := s.Search(context.Background(), Query{Text: q, Agent: "ada", User: "local", MaxResults: 10, Exact: exact, Channels: "vector"})
			if err != nil {
				b.Fatal(err)
			}
			hits = append(hits, paths(v))
		}
		slices.Sort(ds)
		return ms(ds[len(ds)/2]), ms(ds[len(ds)*95/100]), hits
	}
	// Wait for the approximate index (the first search starts its build).
	_, _ = s.Search(context.Background(), Query{Text: queries[0], Agent: "ada", User: "local", Channels: "vector"})
	deadline := time.Now().Add(10 * time.Minute)
	for {
		st, _ := s.Status(context.Background())
		if strings.HasPrefix(st.Index, "approximate (") {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("the approximate index was not built in 10 minutes: %+v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
	b.ResetTimer()
	var e50, e95, a50, a95, recall float64
	for range b.N {
		var exactHits, approxHits [][]string
		e50, e95, exactHits = run(true)
		a50, a95, approxHits = run(false)
		agree, total := 0, 0
		for i := range exactHits {
			for _, p := range exactHits[i] {
				total++
				if slices.Contains(approxHits[i], p) {
					agree++
				}
			}
		}
		recall = float64(agree) / float64(max(total, 1))
	}
	b.ReportMetric(e50, "ms-exact-p50")
	b.ReportMetric(e95, "ms-exact-p95")
	b.ReportMetric(a50, "ms-hnsw-p50")
	b.ReportMetric(a95, "ms-hnsw-p95")
	b.ReportMetric(recall, "recall@10")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// randomEmbedder gives each text a unit vector drawn from its hash: the
// 384-dimension case's latency, not its quality.
type randomEmbedder struct{ dims int }

func (r *randomEmbedder) Identity() embed.Identity {
	return embed.Identity{Kind: "bench", Model: "random", Dims: r.dims}
}

func (r *randomEmbedder) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		seed := uint64(len(t))
		for _, c := range t {
			seed = seed*31 + uint64(c)
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		v := make([]float32, r.dims)
		var n float64
		for j := range v {
			v[j] = float32(rng.NormFloat64())
			n += float64(v[j] * v[j])
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(n))
		}
		out[i] = v
	}
	return out, nil
}
