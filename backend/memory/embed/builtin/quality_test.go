package builtin

import (
	"bufio"
	"context"
	"flag"
	"os"
	"sort"
	"strings"
	"testing"
)

// tableFile lets the quality test score another table, e.g. one written by
// internal/gen with other options:
//
//	go test ./backend/memory/embed/builtin -run Quality -v -args -table /tmp/t.bin
var tableFile = flag.String("table", "", "score this word table instead of the embedded one")

// Floors measured with glove.bin (see TestQuality's log); a new table must
// not fall below them.
const (
	minAboveUnrelated = 0.97
	minRecallAt1      = 0.80
	minRecallAt3      = 0.90
)

type pair struct{ query, paraphrase string }

func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			lines = append(lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

func qualityEmbedder(t *testing.T) *Embedder {
	t.Helper()
	e := New()
	if *tableFile != "" {
		data, err := os.ReadFile(*tableFile)
		if err != nil {
			t.Fatal(err)
		}
		e.once.Do(func() { e.table, e.err = parseTable(string(data)) })
	}
	return e
}

func dot(a, b []float32) float32 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// TestQuality searches each query among all paraphrases and the distractors:
// the paraphrase should beat every unrelated sentence and come first.
func TestQuality(t *testing.T) {
	t.Parallel()
	var pairs []pair
	for _, line := range readLines(t, "testdata/paraphrases.tsv") {
		q, p, ok := strings.Cut(line, "\t")
		if !ok {
			t.Fatalf("paraphrases.tsv: no tab in %q", line)
		}
		pairs = append(pairs, pair{q, p})
	}
	if len(pairs) < 50 {
		t.Fatalf("%d pairs, want at least 50", len(pairs))
	}
	docs := make([]string, 0, len(pairs))
	queries := make([]string, 0, len(pairs))
	for _, p := range pairs {
		queries = append(queries, p.query)
		docs = append(docs, p.paraphrase)
	}
	docs = append(docs, readLines(t, "testdata/distractors.txt")...)

	e := qualityEmbedder(t)
	qv, err := e.Embed(context.Background(), queries)
	if err != nil {
		t.Fatal(err)
	}
	dv, err := e.Embed(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	var above, comparisons, at1, at3 int
	for i, q := range qv {
		scores := make([]float32, len(dv))
		for j, d := range dv {
			scores[j] = dot(q, d)
		}
		rank := 0
		for j, s := range scores {
			if j == i {
				continue
			}
			comparisons++
			if scores[i] > s {
				above++
			} else {
				rank++
			}
		}
		if rank == 0 {
			at1++
		}
		if rank < 3 {
			at3++
		} else {
			t.Logf("missed: %q → %q (rank %d; best %q)", pairs[i].query, pairs[i].paraphrase, rank+1, docs[best(scores)])
		}
	}
	n := float64(len(pairs))
	aboveRate := float64(above) / float64(comparisons)
	r1, r3 := float64(at1)/n, float64(at3)/n
	t.Logf("%d queries, %d documents: paraphrase above unrelated %.4f, recall@1 %.3f, recall@3 %.3f", len(pairs), len(docs), aboveRate, r1, r3)
	if aboveRate < minAboveUnrelated || r1 < minRecallAt1 || r3 < minRecallAt3 {
		t.Errorf("quality below the floor: above %.4f (min %.2f), recall@1 %.3f (min %.2f), recall@3 %.3f (min %.2f)",
			aboveRate, minAboveUnrelated, r1, minRecallAt1, r3, minRecallAt3)
	}
}

func best(scores []float32) int {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return scores[idx[a]] > scores[idx[b]] })
	return idx[0]
}
