package memory

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/memory/embed"
	"github.com/warren-dev/warren/backend/memory/embed/builtin"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/docs"
)

// benchWords is the benchmark's word distribution: the words of Warren's
// own documentation (benchmarks.md aside) with their frequencies, so notes
// and queries drawn from it have natural text's long tail (a few words in
// most chunks, most words in few) rather than every word everywhere.
var benchWords = sync.OnceValue(func() []string {
	var out []string
	_ = fs.WalkDir(docs.Files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == "benchmarks.md" {
			return err
		}
		b, err := docs.Files.ReadFile(p)
		if err != nil {
			return err
		}
		for _, w := range strings.FieldsFunc(strings.ToLower(string(b)), func(r rune) bool { return r < 'a' || r > 'z' }) {
			if len(w) >= 3 {
				out = append(out, w)
			}
		}
		return nil
	})
	return out
})

// benchText is n words drawn from benchWords.
func benchText(rng *rand.Rand, n int) string {
	words := benchWords()
	w := make([]string, n)
	for i := range w {
		w[i] = words[rng.IntN(len(words))]
	}
	return strings.Join(w, " ")
}

// benchQuery is n distinct words drawn from benchWords, stopwords left
// out (what someone searching types).
func benchQuery(rng *rand.Rand, n int) string {
	words := benchWords()
	var w []string
	for len(w) < n {
		x := words[rng.IntN(len(words))]
		if !stopwords[x] && !slices.Contains(w, x) {
			w = append(w, x)
		}
	}
	return strings.Join(w, " ")
}

// bulkLoad writes n one-chunk documents in one transaction (the FTS tables
// follow by trigger) and embeds them: Put, one transaction per document,
// would make setting up 100,000 chunks the benchmark.
func bulkLoad(b testing.TB, s *Store, n int) {
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
}

// BenchmarkHybridSearch: 10,000 chunks (and 100,000 with
// WARREN_BENCH_LARGE=1; WARREN_BENCH_CHUNKS=N for one other size) at 100
// dimensions (the shipped embedder) and 384 (a fixed random projection of
// the shipped embedder's vectors, see projEmbedder). It measures the
// set-up the way a user's import goes: indexing throughput (embedding,
// the embedding cache, vec0) with the heap and RSS sampled through it, the
// HNSW build from SQLite; then per query p50/p95 of the vector channel
// exact (sqlite-vec scan) and through the index, with the index's
// recall@10 against the scan, of the keyword channel alone (FTS5), and of
// the hybrid query (both channels, fused), with its recall@10 against the
// hybrid query on the exact scan.
func BenchmarkHybridSearch(b *testing.B) {
	sizes := []int{10000}
	if n, err := strconv.Atoi(os.Getenv("WARREN_BENCH_CHUNKS")); err == nil && n > 0 {
		sizes = []int{n}
	} else if os.Getenv("WARREN_BENCH_LARGE") == "1" {
		sizes = append(sizes, 100000)
	}
	for _, n := range sizes {
		for _, e := range []embed.Embedder{builtin.Shared(), &projEmbedder{base: builtin.Shared(), dims: 384}} {
			b.Run(fmt.Sprintf("%dk/%dd", n/1000, e.Identity().Dims), func(b *testing.B) { benchHybrid(b, n, e) })
		}
	}
}

// memSampler records the peak heap and RSS while it runs.
type memSampler struct {
	stop             chan struct{}
	done             chan struct{}
	startHeap        uint64
	peakHeap, peakRS uint64
}

func sampleMemory() *memSampler {
	m := &memSampler{stop: make(chan struct{}), done: make(chan struct{})}
	runtime.GC()
	m.startHeap = heapInUse()
	go func() {
		defer close(m.done)
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			m.peakHeap, m.peakRS = max(m.peakHeap, heapInUse()), max(m.peakRS, rss())
			select {
			case <-m.stop:
				return
			case <-t.C:
			}
		}
	}()
	return m
}

func (m *memSampler) finish() { close(m.stop); <-m.done }

func heapInUse() uint64 {
	var st runtime.MemStats
	runtime.ReadMemStats(&st)
	return st.HeapInuse
}

// rss is the process's resident set in bytes (0 where /proc is missing).
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }

func benchHybrid(b *testing.B, n int, e embed.Embedder) {
	db, err := store.Open(context.Background(), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer func() { _ = db.Close() }()
	s := New(db.SQL(), Options{Embedder: e, Log: nil, ANNMin: min(annMin, n/2)})
	bulkLoad(b, s, n)
	ms0 := sampleMemory()
	t0 := time.Now()
	if err := s.IndexNow(context.Background()); err != nil {
		b.Fatal(err)
	}
	indexed := time.Since(t0)
	ms0.finish()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = s.Run(ctx) }()
	defer func() { cancel(); <-done }()
	rng := rand.New(rand.NewPCG(9, 9))
	queries := make([]string, 200)
	for i := range queries {
		queries[i] = benchQuery(rng, 3)
	}
	// Wait for the approximate index (Run starts its build).
	runtime.GC()
	heap0 := heapInUse()
	t1 := time.Now()
	for {
		st, _ := s.Status(context.Background())
		if strings.HasPrefix(st.Index, "approximate (") {
			break
		}
		if time.Since(t1) > 30*time.Minute {
			b.Fatalf("the approximate index was not built in 30 minutes: %+v", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
	built := time.Since(t1)
	runtime.GC()
	annHeap := heapInUse() - min(heapInUse(), heap0)
	for x := s.kwIndex(); !x.isReady(); {
		time.Sleep(20 * time.Millisecond)
	}
	kwBuild, kwHeap := measureKWBuild(b, s)
	run := func(exact bool, channels string) (p50, p95 float64, hits [][]string) {
		var ds []time.Duration
		for _, q := range queries {
			t0 := time.Now()
			r, err := s.Search(context.Background(), Query{Text: q, Agent: "ada", User: "local", MaxResults: 10, Exact: exact, Channels: channels})
			if err != nil {
				b.Fatal(err)
			}
			ds = append(ds, time.Since(t0))
			hits = append(hits, paths(r))
		}
		slices.Sort(ds)
		return ms(ds[len(ds)/2]), ms(ds[len(ds)*95/100]), hits
	}
	b.ResetTimer()
	var m [10]float64
	var recall, hybridRecall float64
	for range b.N {
		var exactHits, approxHits, hybridExact, hybridHits [][]string
		m[0], m[1], exactHits = run(true, "vector")
		m[2], m[3], approxHits = run(false, "vector")
		m[4], m[5], hybridExact = run(true, "")
		m[6], m[7], hybridHits = run(false, "")
		m[8], m[9], _ = run(false, "keyword")
		recall, hybridRecall = agreement(exactHits, approxHits), agreement(hybridExact, hybridHits)
	}
	b.StopTimer()
	for i, name := range []string{"ms-exact-p50", "ms-exact-p95", "ms-hnsw-p50", "ms-hnsw-p95",
		"ms-hybrid-exact-p50", "ms-hybrid-exact-p95", "ms-hybrid-p50", "ms-hybrid-p95", "ms-keyword-p50", "ms-keyword-p95"} {
		b.ReportMetric(m[i], name)
	}
	b.ReportMetric(recall, "recall@10")
	b.ReportMetric(hybridRecall, "hybrid-recall@10")
	b.ReportMetric(float64(n)/indexed.Seconds(), "index-chunks/s")
	b.ReportMetric(mb(ms0.startHeap), "index-heap-start-MB")
	b.ReportMetric(mb(ms0.peakHeap), "index-heap-peak-MB")
	b.ReportMetric(mb(ms0.peakRS), "index-rss-peak-MB")
	b.ReportMetric(built.Seconds(), "ann-build-s")
	b.ReportMetric(mb(annHeap), "ann-heap-MB")
	b.ReportMetric(kwBuild.Seconds(), "kw-build-s")
	b.ReportMetric(mb(kwHeap), "kw-heap-MB")
}

// measureKWBuild builds a second keyword index the way the indexer does at
// start, for its time and the heap it holds (the store's own was built
// alongside the vector index, so its share of the heap is not separable).
func measureKWBuild(b *testing.B, s *Store) (time.Duration, uint64) {
	runtime.GC()
	heap0 := heapInUse()
	t0 := time.Now()
	x := newKWIndex()
	err := eachRow(context.Background(), s.db, "SELECT "+kwRowCols+" ORDER BY c.id", nil, func(scan func(...any) error) error {
		r, err := scanKWRow(scan)
		x.add(r)
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	x.trim()
	took := time.Since(t0)
	runtime.GC()
	held := heapInUse() - min(heapInUse(), heap0)
	runtime.KeepAlive(x)
	return took, held
}

// agreement is the share of want's results that got finds (recall@10 when
// want is the exact answer).
func agreement(want, got [][]string) float64 {
	agree, total := 0, 0
	for i := range want {
		for _, p := range want[i] {
			total++
			if slices.Contains(got[i], p) {
				agree++
			}
		}
	}
	return float64(agree) / float64(max(total, 1))
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// projEmbedder makes 384-dimension vectors with the neighbourhoods of real
// text embeddings: the shipped embedder's 100-dimension vector through a
// fixed random 384×100 Gaussian projection, plus 5% Gaussian noise seeded
// by the text, normalised. (Unrelated random vectors, uniform on the
// sphere, have no neighbourhoods: every index's worst case, and unlike any
// embedder's output.)
type projEmbedder struct {
	base embed.Embedder
	dims int
	once sync.Once
	proj []float32
}

func (p *projEmbedder) Identity() embed.Identity {
	return embed.Identity{Kind: "bench", Model: "projected", Dims: p.dims}
}

func (p *projEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	in, err := p.base.Embed(ctx, texts)
	if err != nil {
		return nil, err
	}
	d0 := p.base.Identity().Dims
	p.once.Do(func() {
		rng := rand.New(rand.NewPCG(384, 100))
		p.proj = make([]float32, p.dims*d0)
		for i := range p.proj {
			p.proj[i] = float32(rng.NormFloat64())
		}
	})
	out := make([][]float32, len(texts))
	for i, t := range texts {
		seed := uint64(len(t))
		for _, c := range t {
			seed = seed*31 + uint64(c)
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		v := make([]float32, p.dims)
		var norm float64
		for j := range v {
			var x float32
			for k, f := range in[i] {
				x += p.proj[j*d0+k] * f
			}
			v[j] = x + float32(0.05*rng.NormFloat64())
			norm += float64(v[j] * v[j])
		}
		if norm > 0 {
			for j := range v {
				v[j] /= float32(math.Sqrt(norm))
			}
		}
		out[i] = v
	}
	return out, nil
}
