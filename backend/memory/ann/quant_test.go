package ann

import (
	"bytes"
	"testing"
)

// TestQuantisedWalk: Build and Load code every vector and later Adds are
// coded too (with a value past the build's range clamped); an index grown
// by Add alone walks on the float32 vectors until Compact codes it. Either
// way search finds what the exact scan finds.
func TestQuantisedWalk(t *testing.T) {
	t.Parallel()
	d := clusteredData(3000, 50, 20, 20, 91)
	h, f := built(t, d)
	if !h.quantised() {
		t.Fatal("a built index has no codes")
	}
	v := make([]float32, d.dims)
	v[3] = 1 // past any build's range in one dimension: clamped
	if err := h.Add(1_000_000, v); err != nil || !h.quantised() {
		t.Fatalf("add: %v, quantised %v", err, h.quantised())
	}
	if hits := h.Search(v, 1, nil); len(hits) != 1 || hits[0].ID != 1_000_000 {
		t.Fatalf("the added vector's own query found %v", hits)
	}
	h.Remove(1_000_000)
	if r := meanRecall(d, f, h, 10, nil); r < 0.97 {
		t.Fatalf("built: recall@10 %.3f", r)
	}
	var buf bytes.Buffer
	if err := h.Save(&buf); err != nil {
		t.Fatal(err)
	}
	g := NewHNSW(d.dims, Options{ExactBelow: -1})
	if err := g.Load(&buf); err != nil || !g.quantised() {
		t.Fatalf("load: %v, quantised %v", err, g.quantised())
	}
	if r := meanRecall(d, f, g, 10, nil); r < 0.97 {
		t.Fatalf("loaded: recall@10 %.3f", r)
	}

	a := NewHNSW(d.dims, Options{ExactBelow: -1})
	for id, v := range d.seq() {
		if err := a.Add(id, v); err != nil {
			t.Fatal(err)
		}
	}
	if a.quantised() {
		t.Fatal("an index grown by Add has codes without scales")
	}
	if r := meanRecall(d, f, a, 10, nil); r < 0.97 {
		t.Fatalf("grown by Add: recall@10 %.3f", r)
	}
	a.Compact()
	if !a.quantised() {
		t.Fatal("Compact left no codes")
	}
	if r := meanRecall(d, f, a, 10, nil); r < 0.97 {
		t.Fatalf("compacted: recall@10 %.3f", r)
	}
}
