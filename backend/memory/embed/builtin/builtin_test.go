package builtin

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func embedOne(t *testing.T, e *Embedder, text string) []float32 {
	t.Helper()
	v, err := e.Embed(context.Background(), []string{text})
	if err != nil {
		t.Fatal(err)
	}
	if len(v) != 1 || len(v[0]) != Dims {
		t.Fatalf("Embed(%q): %d vectors, want 1 of %d dims", text, len(v), Dims)
	}
	return v[0]
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestIdentity(t *testing.T) {
	t.Parallel()
	got := New().Identity()
	if got.Kind != "builtin" || got.Model != Model || got.Dims != Dims {
		t.Errorf("Identity() = %+v", got)
	}
}

// glove.bin's hash, recorded with Model: regenerating the table with other
// settings must also rename Model, or indexes built with the old table would
// silently mix with the new one.
const tableSHA256 = "65d2c94f90405aa655c60bcbf915488890871e95ec9851357ce54272aa7bf7f3"

func TestTableMatchesModel(t *testing.T) {
	t.Parallel()
	if got := fmt.Sprintf("%x", sha256.Sum256([]byte(gloveTable))); got != tableSHA256 || Model != "glove-sg-100d-q8-v1" {
		t.Errorf("glove.bin is %s under Model %q: a new table needs a new Model name; then update tableSHA256", got, Model)
	}
}

func TestEmbedUnitOrZero(t *testing.T) {
	t.Parallel()
	e := New()
	tests := []struct {
		text string
		zero bool
	}{
		{"The user prefers a dark theme.", false},
		{"the", false},
		{"getUserName", false},
		{"", true},
		{"!!! --- ...", true},
		{"qzxqzxqzx vvbvbvbvq", true},
		{strings.Repeat("memory search ", 5000), false},
	}
	for _, tt := range tests {
		v := embedOne(t, e, tt.text)
		n := norm(v)
		switch {
		case tt.zero && n != 0:
			t.Errorf("Embed(%.30q): norm %v, want a zero vector", tt.text, n)
		case !tt.zero && math.Abs(n-1) > 1e-5:
			t.Errorf("Embed(%.30q): norm %v, want 1", tt.text, n)
		}
	}
}

// Code identifiers are found through their parts when the whole word is not
// in the table.
func TestEmbedCodeIdentifiers(t *testing.T) {
	t.Parallel()
	e := New()
	tests := []struct{ a, b, unrelated string }{
		{"getUserName", "get the user name", "river flooded the village"},
		{"max_retry_count", "maximum number of retries", "she plays the violin"},
		{"HTTPServerTimeout", "http server timeout", "organic coffee beans"},
	}
	for _, tt := range tests {
		a, b, u := embedOne(t, e, tt.a), embedOne(t, e, tt.b), embedOne(t, e, tt.unrelated)
		if dot(a, b) <= dot(a, u) {
			t.Errorf("%q: similarity to %q %.3f, to %q %.3f", tt.a, tt.b, dot(a, b), tt.unrelated, dot(a, u))
		}
	}
}

func TestEmbedDeterministicAndOrdered(t *testing.T) {
	t.Parallel()
	e := New()
	texts := []string{"first text about cats", "", "second text about databases"}
	all, err := e.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		one := embedOne(t, e, text)
		for k := range one {
			if one[k] != all[i][k] {
				t.Fatalf("text %d: batch and single vectors differ at %d", i, k)
			}
		}
	}
	if got, err := e.Embed(context.Background(), nil); err != nil || len(got) != 0 {
		t.Errorf("Embed(nil) = %d vectors, %v", len(got), err)
	}
}

func TestEmbedCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := New().Embed(ctx, []string{"hello"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Embed with a cancelled context: %v, want context.Canceled", err)
	}
}

func TestEmbedConcurrent(t *testing.T) {
	t.Parallel()
	e := New()
	want := embedOne(t, New(), "concurrent memory search")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			v, err := e.Embed(context.Background(), []string{"concurrent memory search"})
			if err != nil {
				t.Error(err)
				return
			}
			for k := range want {
				if v[0][k] != want[k] {
					t.Error("concurrent Embed differs")
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestParseTableRejectsDamage(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"empty":      "",
		"magic":      "XXXX" + gloveTable[4:],
		"truncated":  gloveTable[:len(gloveTable)/2],
		"extra word": gloveTable + "extra\n",
		"no newline": gloveTable[:len(gloveTable)-1],
	}
	for name, data := range tests {
		if _, err := parseTable(data); err == nil {
			t.Errorf("%s: parseTable accepted it", name)
		}
	}
}

// chunk400 is about 400 tokens of prose and code, like a memory chunk.
func chunk400() string {
	const para = "The memory store splits Markdown documents into chunks of about four hundred tokens, " +
		"keeps code fences whole, and indexes every chunk for keyword and vector search. " +
		"func (s *Store) IndexDocument(ctx context.Context, doc Document) error { return s.index(ctx, doc.Path) } " +
		"When the user asks what was decided about the deployment schedule, the agent searches its notes. "
	var b strings.Builder
	for b.Len() < 2000 {
		b.WriteString(para)
	}
	return b.String()
}

// BenchmarkBuiltinEmbed embeds ~400-token chunks, 32 per call; chunks/s is
// the indexing throughput of one core.
func BenchmarkBuiltinEmbed(b *testing.B) {
	e := New()
	chunk := chunk400()
	texts := make([]string, 32)
	for i := range texts {
		texts[i] = chunk
	}
	if _, err := e.Embed(context.Background(), texts[:1]); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := e.Embed(context.Background(), texts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*len(texts))/b.Elapsed().Seconds(), "chunks/s")
}

// BenchmarkBuiltinLoad indexes the embedded table (what the first Embed
// pays); heap-MB is the heap the index keeps.
func BenchmarkBuiltinLoad(b *testing.B) {
	b.ReportAllocs()
	var before, after runtime.MemStats
	for b.Loop() {
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&before)
		b.StartTimer()
		t, err := parseTable(gloveTable)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		runtime.GC()
		runtime.ReadMemStats(&after)
		runtime.KeepAlive(t)
		b.StartTimer()
	}
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/(1<<20), "heap-MB")
}
