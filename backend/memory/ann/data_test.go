package ann

import (
	"iter"
	"math"
	"math/rand/v2"
)

// dataset is vectors to index and queries drawn from the same distribution.
type dataset struct {
	dims    int
	vecs    [][]float32
	queries [][]float32
}

func normalise(v []float32) []float32 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	inv := float32(1 / math.Sqrt(s))
	for i := range v {
		v[i] *= inv
	}
	return v
}

// uniformData is unit vectors uniform on the sphere: the hardest case for a
// graph, since no point is much nearer than any other.
func uniformData(n, nq, dims int, seed uint64) dataset {
	r := rand.New(rand.NewPCG(seed, 1))
	gen := func() []float32 {
		v := make([]float32, dims)
		for i := range v {
			v[i] = float32(r.NormFloat64())
		}
		return normalise(v)
	}
	return draw(n, nq, dims, gen)
}

// clusteredData is a Gaussian mixture, normalised: centres uniform on the
// sphere, each point its centre plus noise of norm about spread. Text
// embeddings cluster by topic much like this.
func clusteredData(n, nq, dims, centres int, seed uint64) dataset {
	const spread = 0.75
	r := rand.New(rand.NewPCG(seed, 2))
	cs := uniformData(centres, 0, dims, seed+7).vecs
	sigma := spread / math.Sqrt(float64(dims))
	gen := func() []float32 {
		c := cs[r.IntN(len(cs))]
		v := make([]float32, dims)
		for i := range v {
			v[i] = c[i] + float32(r.NormFloat64()*sigma)
		}
		return normalise(v)
	}
	return draw(n, nq, dims, gen)
}

// draw makes a dataset of n vectors and nq queries from gen.
func draw(n, nq, dims int, gen func() []float32) dataset {
	d := dataset{dims: dims}
	for range n {
		d.vecs = append(d.vecs, gen())
	}
	for range nq {
		d.queries = append(d.queries, gen())
	}
	return d
}

// seq yields the vectors with ids 1…n, as the store's SQLite rows would.
func (d dataset) seq() iter.Seq2[int64, []float32] {
	return func(yield func(int64, []float32) bool) {
		for i, v := range d.vecs {
			if !yield(int64(i+1), v) {
				return
			}
		}
	}
}

// recall is the share of the exact top-k ids that got found.
func recall(got, want []Hit) float64 {
	if len(want) == 0 {
		return 1
	}
	ids := make(map[int64]bool, len(want))
	for _, h := range want {
		ids[h.ID] = true
	}
	n := 0
	for _, h := range got {
		if ids[h.ID] {
			n++
		}
	}
	return float64(n) / float64(len(want))
}

// meanRecall measures search against the exact answers of oracle.
func meanRecall(d dataset, oracle, idx Index, k int, filter func(int64) bool) float64 {
	var sum float64
	for _, q := range d.queries {
		sum += recall(idx.Search(q, k, filter), oracle.Search(q, k, filter))
	}
	return sum / float64(len(d.queries))
}
