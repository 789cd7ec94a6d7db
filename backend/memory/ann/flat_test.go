package ann

import (
	"errors"
	"math"
	"slices"
	"testing"
)

// bruteForce is the exact answer computed the slow, obvious way.
func bruteForce(d dataset, q []float32, k int) []int64 {
	type scored struct {
		id int64
		s  float64
	}
	var all []scored
	for i, v := range d.vecs {
		var s float64
		for j := range v {
			s += float64(v[j]) * float64(q[j])
		}
		all = append(all, scored{int64(i + 1), s})
	}
	slices.SortFunc(all, func(a, b scored) int {
		if a.s > b.s {
			return -1
		}
		if a.s < b.s {
			return 1
		}
		return 0
	})
	var ids []int64
	for _, s := range all[:min(k, len(all))] {
		ids = append(ids, s.id)
	}
	return ids
}

func TestFlatIsExact(t *testing.T) {
	t.Parallel()
	d := clusteredData(2000, 50, 32, 20, 3)
	f := NewFlat(32)
	for id, v := range d.seq() {
		if err := f.Add(id, v); err != nil {
			t.Fatal(err)
		}
	}
	for _, q := range d.queries {
		hits := f.Search(q, 10, nil)
		want := bruteForce(d, q, 10)
		if r := recall(hits, hitsOf(want)); r < 1 {
			t.Fatalf("flat recall %.2f, want 1: got %v want %v", r, hits, want)
		}
		for i := 1; i < len(hits); i++ {
			if hits[i].Score > hits[i-1].Score {
				t.Fatalf("hits not sorted by score: %v", hits)
			}
		}
	}
}

func hitsOf(ids []int64) []Hit {
	var out []Hit
	for _, id := range ids {
		out = append(out, Hit{ID: id})
	}
	return out
}

// TestEdgeCases runs the same edge cases on both indexes.
func TestEdgeCases(t *testing.T) {
	t.Parallel()
	for name, mk := range map[string]func() Index{
		"flat": func() Index { return NewFlat(4) },
		"hnsw": func() Index { return NewHNSW(4, Options{ExactBelow: -1}) },
	} {
		t.Run(name, func(t *testing.T) {
			idx := mk()
			q := []float32{1, 0, 0, 0}
			if hits := idx.Search(q, 5, nil); len(hits) != 0 {
				t.Fatalf("empty index returned %v", hits)
			}
			idx.Remove(42) // unknown id: no-op
			for _, bad := range [][]float32{{1, 2, 3}, {0, 0, 0, 0}, {float32(math.NaN()), 0, 0, 1}, {float32(math.Inf(1)), 0, 0, 0}} {
				if err := idx.Add(1, bad); err == nil {
					t.Fatalf("Add(%v) accepted", bad)
				}
			}
			if err := idx.Add(1, []float32{1, 2, 3}); !errors.Is(err, ErrDims) {
				t.Fatalf("wrong dims: %v, want ErrDims", err)
			}
			if err := idx.Add(1, []float32{0, 0, 0, 0}); !errors.Is(err, ErrBadVector) {
				t.Fatalf("zero vector: %v, want ErrBadVector", err)
			}
			// Not unit length: stored normalised, so the score is a cosine.
			if err := idx.Add(1, []float32{3, 0, 0, 0}); err != nil {
				t.Fatal(err)
			}
			if err := idx.Add(2, []float32{0, 2, 0, 0}); err != nil {
				t.Fatal(err)
			}
			if err := idx.Add(3, []float32{1, 1, 0, 0}); err != nil {
				t.Fatal(err)
			}
			hits := idx.Search(q, 10, nil) // k > Len
			if len(hits) != 3 || hits[0].ID != 1 || math.Abs(float64(hits[0].Score)-1) > 1e-6 || hits[2].ID != 2 {
				t.Fatalf("k > Len: %v", hits)
			}
			if hits := idx.Search([]float32{0, 0, 0, 0}, 3, nil); hits != nil {
				t.Fatalf("zero query: %v, want nil", hits)
			}
			if hits := idx.Search([]float32{1, 0}, 3, nil); hits != nil {
				t.Fatalf("wrong-dims query: %v, want nil", hits)
			}
			if hits := idx.Search(q, 0, nil); hits != nil {
				t.Fatalf("k 0: %v", hits)
			}
			// Replace: same id, new vector, one entry.
			if err := idx.Add(1, []float32{0, 0, 1, 0}); err != nil {
				t.Fatal(err)
			}
			if idx.Len() != 3 {
				t.Fatalf("Len after replace %d, want 3", idx.Len())
			}
			if hits := idx.Search([]float32{0, 0, 1, 0}, 1, nil); len(hits) != 1 || hits[0].ID != 1 {
				t.Fatalf("replaced vector not found: %v", hits)
			}
			idx.Remove(1)
			idx.Remove(1)
			if idx.Len() != 2 {
				t.Fatalf("Len after remove %d, want 2", idx.Len())
			}
			for _, h := range idx.Search(q, 10, nil) {
				if h.ID == 1 {
					t.Fatalf("removed id returned: %v", h)
				}
			}
			if hits := idx.Search(q, 10, func(int64) bool { return false }); len(hits) != 0 {
				t.Fatalf("reject-all filter: %v", hits)
			}
		})
	}
}
