package ann

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"
)

// BenchmarkVectorIndex measures, per collection size, dims and data kind:
// Flat (exact) and HNSW query latency (ns/op, p50-µs, p95-µs), HNSW
// recall@10 against Flat, build time, heap bytes per vector and Load time.
// Filtered searches keep one id in ten (an agent's partition).
// The 100,000-vector sets take several minutes; -short leaves them out.
func BenchmarkVectorIndex(b *testing.B) {
	sizes := []int{10_000}
	if os.Getenv("WARREN_BENCH_LARGE") == "1" && !testing.Short() {
		sizes = append(sizes, 100_000)
	}
	const nq = 200
	for _, n := range sizes {
		for _, dims := range []int{100, 384} {
			for _, kind := range []string{"clustered", "uniform"} {
				b.Run(fmt.Sprintf("n=%d/d=%d/%s", n, dims, kind), func(b *testing.B) {
					d := uniformData(n, nq, dims, 101)
					if kind == "clustered" {
						d = clusteredData(n, nq, dims, 300, 101)
					}
					benchIndexes(b, d)
				})
			}
		}
	}
}

func benchIndexes(b *testing.B, d dataset) {
	f := NewFlat(d.dims)
	for id, v := range d.seq() {
		if err := f.Add(id, v); err != nil {
			b.Fatal(err)
		}
	}
	before := heapBytes()
	h := NewHNSW(d.dims, Options{})
	start := time.Now()
	if err := h.Build(context.Background(), d.seq(), nil); err != nil {
		b.Fatal(err)
	}
	buildSec := time.Since(start).Seconds()
	perVec := float64(heapBytes()-before) / float64(len(d.vecs))

	var file bytes.Buffer
	if err := h.Save(&file); err != nil {
		b.Fatal(err)
	}
	start = time.Now()
	if err := NewHNSW(d.dims, Options{}).Load(bytes.NewReader(file.Bytes())); err != nil {
		b.Fatal(err)
	}
	loadMs := float64(time.Since(start).Microseconds()) / 1000

	tenth := func(id int64) bool { return id%10 == 0 }
	cases := []struct {
		name   string
		search func(q []float32) []Hit
		filter func(int64) bool
		extra  map[string]float64
	}{
		{"flat", func(q []float32) []Hit { return f.Search(q, 10, nil) }, nil, nil},
		{"hnsw", func(q []float32) []Hit { return h.Search(q, 10, nil) }, nil, map[string]float64{
			"build-s": buildSec, "B/vec": perVec, "load-ms": loadMs, "file-B/vec": float64(file.Len()) / float64(len(d.vecs)),
		}},
		{"hnsw-ef256", func(q []float32) []Hit { return h.SearchEf(q, 10, 256, nil) }, nil, nil},
		{"flat-filter10%", func(q []float32) []Hit { return f.Search(q, 10, tenth) }, tenth, nil},
		{"hnsw-filter10%", func(q []float32) []Hit { return h.Search(q, 10, tenth) }, tenth, nil},
	}
	truth := map[bool][][]Hit{} // by "filtered": the exact answers, once
	for _, q := range d.queries {
		truth[false] = append(truth[false], f.Search(q, 10, nil))
		truth[true] = append(truth[true], f.Search(q, 10, tenth))
	}
	for _, c := range cases {
		var sum float64
		for i, q := range d.queries {
			sum += recall(c.search(q), truth[c.filter != nil][i])
		}
		b.Run(c.name, func(b *testing.B) {
			lat := make([]time.Duration, 0, 1024)
			i := 0
			for b.Loop() {
				t := time.Now()
				c.search(d.queries[i%len(d.queries)])
				lat = append(lat, time.Since(t))
				i++
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds())/1000, "p50-µs")
			b.ReportMetric(float64(lat[len(lat)*95/100].Nanoseconds())/1000, "p95-µs")
			b.ReportMetric(sum/float64(len(d.queries)), "recall@10")
			for k, v := range c.extra {
				b.ReportMetric(v, k)
			}
		})
	}
	runtime.KeepAlive(h)
}

func heapBytes() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
