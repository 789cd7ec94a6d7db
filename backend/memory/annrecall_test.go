package memory

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/memory/ann"
	"github.com/warren-dev/warren/backend/memory/embed"
	"github.com/warren-dev/warren/backend/memory/embed/builtin"
)

// BenchmarkANNRecall tunes the HNSW index on the hard case of "Memory
// search": the benchmark's 40-word notes (benchText, rand.NewPCG(7, 7))
// embedded by the shipped embedder (100 d) and by projEmbedder (384 d), the
// 200 queries of benchQuery (rand.NewPCG(9, 9)). Without SQLite: the notes
// are embedded in memory (cached in the temporary directory between runs),
// the exact top 10 found by brute force, the index built with each
// configuration and searched through annIndex.search's path with k = 50.
// It reports recall@10 (the top 10 of the k = 50 search against the exact
// top 10, by id) and the walk's p50/p95 per ef, build seconds and index
// heap.
//
// WARREN_BENCH_ANN=1 runs it. WARREN_ANN_N (default 100000), WARREN_ANN_DIMS
// ("100,384"), WARREN_ANN_EF ("0,200,400"; 0 is annIndex.search's default)
// and WARREN_ANN_CONFIGS (";"-separated, each "m=16,efc=100,refine=1";
// empty fields take ann's defaults) choose what runs.
func BenchmarkANNRecall(b *testing.B) {
	if os.Getenv("WARREN_BENCH_ANN") != "1" {
		b.Skip("WARREN_BENCH_ANN=1 runs it")
	}
	n := envInt("WARREN_ANN_N", 100000)
	dimsList := envInts("WARREN_ANN_DIMS", "100,384")
	efs := envInts("WARREN_ANN_EF", "0,200,400")
	configs := strings.Split(envStr("WARREN_ANN_CONFIGS", ""), ";")
	for _, dims := range dimsList {
		var e embed.Embedder = builtin.Shared()
		if dims != 100 {
			e = &projEmbedder{base: builtin.Shared(), dims: dims}
		}
		vecs := recallVectors(b, e, n)
		queries := recallQueries(b, e)
		truth := exactTop(vecs, queries, 10)
		for _, c := range configs {
			opts, err := parseANNOptions(c)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(fmt.Sprintf("%dk/%dd/%s", n/1000, dims, strings.ReplaceAll(c, ",", "_")), func(b *testing.B) {
				recallRun(b, vecs, queries, truth, opts, efs)
			})
		}
	}
}

func recallRun(b *testing.B, vecs, queries [][]float32, truth [][]int64, opts ann.Options, efs []int) {
	dims := len(vecs[0])
	runtime.GC()
	heap0 := heapInUse()
	idx := ann.NewHNSW(dims, opts)
	t0 := time.Now()
	// WARREN_ANN_REUSE=1 loads the graph a run with the same options saved
	// (for trying search-side changes without building again).
	saved := filepath.Join(os.TempDir(), fmt.Sprintf("warren-annrecall-%d-%d-%s.hnsw", dims, len(vecs), strings.ReplaceAll(optsLabel(opts), " ", "")))
	var built, cpu time.Duration
	if f, err := os.Open(saved); err == nil && os.Getenv("WARREN_ANN_REUSE") == "1" { //nolint:gosec // our cache file
		err = idx.Load(f)
		_ = f.Close()
		if err != nil {
			b.Fatal(err)
		}
	} else {
		cpu0 := cpuTime()
		err := idx.Build(context.Background(), func(yield func(int64, []float32) bool) {
			for i, v := range vecs {
				if !yield(int64(i+1), v) {
					return
				}
			}
		}, nil)
		if err != nil {
			b.Fatal(err)
		}
		built, cpu = time.Since(t0), cpuTime()-cpu0
		if f, err := os.Create(saved); err == nil { //nolint:gosec // our cache file
			_ = idx.Save(f)
			_ = f.Close()
		}
	}
	ai := &annIndex{idx: idx, meta: make(map[int64]annMeta, len(vecs)), ready: true}
	for i := range vecs {
		ai.meta[int64(i+1)] = annMeta{part: "ada"}
	}
	ai.recount()
	runtime.GC()
	heap := mb(heapInUse() - min(heapInUse(), heap0))
	parts := []string{partition("ada", SourceMemory), partition("ada", SourceImport)}
	b.ResetTimer()
	for range b.N {
		for _, ef := range efs {
			var ds []time.Duration
			got := make([][]int64, len(queries))
			for i, q := range queries {
				t := time.Now()
				hits, _ := ai.searchEf(q, 50, ef, parts)
				ds = append(ds, time.Since(t))
				for _, h := range hits[:min(10, len(hits))] {
					got[i] = append(got[i], h.ID)
				}
			}
			slices.Sort(ds)
			fmt.Printf("| %d | %d | %s | %d | %.3f | %.0f | %.0f | %.1f | %.1f | %.0f |\n", len(vecs), dims, optsLabel(opts), ef,
				recallOf(truth, got), us(ds[len(ds)/2]), us(ds[len(ds)*95/100]), built.Seconds(), cpu.Seconds(), heap)
		}
	}
}

// cpuTime is the CPU time the process has used (user and system): on a
// machine shared with other work it says more about a build's cost than
// the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1000 }

func optsLabel(o ann.Options) string {
	return fmt.Sprintf("M %d, efC %d, refine %v, backfill %v", o.M, o.EfConstruction, o.Refine, o.Backfill)
}

func recallOf(truth, got [][]int64) float64 {
	agree, total := 0, 0
	for i := range truth {
		for _, id := range truth[i] {
			total++
			if slices.Contains(got[i], id) {
				agree++
			}
		}
	}
	return float64(agree) / float64(max(total, 1))
}

func parseANNOptions(s string) (ann.Options, error) {
	var o ann.Options
	for f := range strings.SplitSeq(s, ",") {
		if f == "" {
			continue
		}
		k, v, _ := strings.Cut(f, "=")
		x, err := strconv.Atoi(v)
		if err != nil {
			return o, fmt.Errorf("config %q: %w", s, err)
		}
		switch k {
		case "m":
			o.M = x
		case "efc":
			o.EfConstruction = x
		case "refine":
			o.Refine = x != 0
		case "backfill":
			o.Backfill = x != 0
		default:
			return o, fmt.Errorf("config %q: unknown field %q", s, k)
		}
	}
	return o, nil
}

// exactTop is each query's k nearest vectors by dot product, as ids (slot+1).
func exactTop(vecs, queries [][]float32, k int) [][]int64 {
	out := make([][]int64, len(queries))
	for i, q := range queries {
		q = unitCopy(q)
		type hit struct {
			id int64
			s  float32
		}
		var top []hit
		for j, v := range vecs {
			var s float32
			for d := range q {
				s += q[d] * v[d]
			}
			if len(top) < k || s > top[len(top)-1].s {
				top = append(top, hit{int64(j + 1), s})
				slices.SortFunc(top, func(a, b hit) int {
					if a.s > b.s {
						return -1
					}
					if a.s < b.s {
						return 1
					}
					return 0
				})
				top = top[:min(k, len(top))]
			}
		}
		for _, h := range top {
			out[i] = append(out[i], h.id)
		}
	}
	return out
}

func unitCopy(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	out := make([]float32, len(v))
	for i, x := range v {
		out[i] = float32(float64(x) / math.Sqrt(s))
	}
	return out
}

// recallVectors embeds the n notes of bulkLoad, cached in the temporary
// directory (unit length, as the index keeps them).
func recallVectors(b *testing.B, e embed.Embedder, n int) [][]float32 {
	dims := e.Identity().Dims
	path := filepath.Join(os.TempDir(), fmt.Sprintf("warren-annrecall-%s-%d-%d.f32", e.Identity().Model, dims, n))
	if raw, err := os.ReadFile(path); err == nil && len(raw) == 4*dims*n { //nolint:gosec // our cache file
		out := make([][]float32, n)
		for i := range out {
			out[i] = make([]float32, dims)
			for d := range dims {
				out[i][d] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*(i*dims+d):]))
			}
		}
		return out
	}
	rng := rand.New(rand.NewPCG(7, 7))
	texts := make([]string, n)
	for i := range texts {
		texts[i] = benchText(rng, 40)
	}
	out := make([][]float32, 0, n)
	for i := 0; i < n; i += 1000 {
		vs, err := e.Embed(context.Background(), texts[i:min(n, i+1000)])
		if err != nil {
			b.Fatal(err)
		}
		for _, v := range vs {
			out = append(out, unitCopy(v))
		}
	}
	raw := make([]byte, 0, 4*dims*n)
	for _, v := range out {
		for _, x := range v {
			raw = binary.LittleEndian.AppendUint32(raw, math.Float32bits(x))
		}
	}
	_ = os.WriteFile(path, raw, 0o600)
	return out
}

// recallQueries embeds the benchmark's 200 queries.
func recallQueries(b *testing.B, e embed.Embedder) [][]float32 {
	rng := rand.New(rand.NewPCG(9, 9))
	texts := make([]string, 200)
	for i := range texts {
		texts[i] = benchQuery(rng, 3)
	}
	vs, err := e.Embed(context.Background(), texts)
	if err != nil {
		b.Fatal(err)
	}
	// A query of words the embedder does not know has no vector (search
	// then asks only the keyword channel).
	return slices.DeleteFunc(vs, func(v []float32) bool { return !slices.ContainsFunc(v, func(x float32) bool { return x != 0 }) })
}

func envStr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

func envInts(name, def string) []int {
	var out []int
	for f := range strings.SplitSeq(envStr(name, def), ",") {
		if v, err := strconv.Atoi(strings.TrimSpace(f)); err == nil {
			out = append(out, v)
		}
	}
	return out
}
