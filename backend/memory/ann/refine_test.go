package ann

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"testing"
)

// TestRefineKeepsGraphValid: the second linking pass (and the backfill)
// leaves lists within their capacity, free of self links, repeats and
// out-of-range slots, nearly every node reachable from the entry on level
// 0, and recall at least the one-pass graph's floor.
func TestRefineKeepsGraphValid(t *testing.T) {
	t.Parallel()
	d := uniformData(testN, 100, testDims, 21)
	f := NewFlat(d.dims)
	for id, v := range d.seq() {
		if err := f.Add(id, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, o := range []Options{{}, {Refine: true}, {Refine: true, Backfill: true}, {Backfill: true}} {
		o.ExactBelow = -1
		h := NewHNSW(d.dims, o)
		if err := h.Build(context.Background(), d.seq(), nil); err != nil {
			t.Fatal(err)
		}
		checkGraph(t, h)
		r := meanRecall(d, f, h, 10, nil)
		t.Logf("refine %v backfill %v: recall@10 %.3f", o.Refine, o.Backfill, r)
		if r < 0.80 { // the one-pass graph's floor in TestRecallFloors
			t.Fatalf("refine %v backfill %v: recall@10 %.3f", o.Refine, o.Backfill, r)
		}
	}
}

// checkGraph fails the test on a malformed graph.
func checkGraph(t *testing.T, h *HNSW) {
	t.Helper()
	n := len(h.ids)
	for i := range n {
		for l := 0; l <= int(h.levels[i]); l++ {
			ls := h.links(uint32(i), l) //nolint:gosec // i < n
			if int(ls[0]) > h.maxLinks(l) {
				t.Fatalf("node %d level %d: %d links, capacity %d", i, l, ls[0], h.maxLinks(l))
			}
			list := ls[1 : 1+ls[0]]
			for j, x := range list {
				if int(x) >= n || x == uint32(i) || slices.Contains(list[j+1:], x) { //nolint:gosec // i < n
					t.Fatalf("node %d level %d: bad list %v", i, l, list)
				}
			}
		}
	}
	seen := make([]bool, n)
	queue := []uint32{h.entry}
	seen[h.entry] = true
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		ls := h.links(x, 0)
		for _, y := range ls[1 : 1+ls[0]] {
			if !seen[y] {
				seen[y] = true
				queue = append(queue, y)
			}
		}
	}
	// The heuristic can leave a few nodes no one links to (every HNSW
	// can): a few, not a region.
	lost := n - len(slices.DeleteFunc(seen, func(b bool) bool { return !b }))
	t.Logf("%d of %d nodes unreachable from the entry on level 0", lost, n)
	if lost > n/100 {
		t.Fatalf("%d of %d nodes are not reachable from the entry on level 0", lost, n)
	}
}

// TestLoadRefusesOtherShape: a file whose graph was built with other
// settings (M, EfConstruction, Refine: older defaults) is refused, so the
// memory store builds a graph with the current ones; the same settings load.
func TestLoadRefusesOtherShape(t *testing.T) {
	t.Parallel()
	d := clusteredData(1500, 0, 8, 10, 82)
	h := NewHNSW(d.dims, Options{M: 8, EfConstruction: 40})
	if err := h.Build(context.Background(), d.seq(), nil); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := h.Save(&buf); err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{M: 12, EfConstruction: 40}, {M: 8, EfConstruction: 80}, {M: 8, EfConstruction: 40, Refine: true},
		{M: 8, EfConstruction: 40, Backfill: true}, {}} {
		g := NewHNSW(d.dims, o)
		if err := g.Load(bytes.NewReader(buf.Bytes())); !errors.Is(err, ErrFormat) || g.Len() != 0 {
			t.Fatalf("options %+v: Load %v, Len %d; want ErrFormat and the index unchanged", o, err, g.Len())
		} else {
			t.Log(err)
		}
	}
	g := NewHNSW(d.dims, Options{M: 8, EfConstruction: 40, EfSearch: 99})
	if err := g.Load(bytes.NewReader(buf.Bytes())); err != nil || g.Len() != h.Len() {
		t.Fatalf("same shape: Load %v, Len %d", err, g.Len())
	}
}
