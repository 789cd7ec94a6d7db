package ann

import (
	"errors"
	"fmt"
	"math"
)

// ErrDims is returned by Add when a vector's length is not the index's dims.
var ErrDims = errors.New("ann: vector has the wrong number of dimensions")

// ErrFull is returned by Add and Build past maxNodes slots (live and removed).
var ErrFull = errors.New("ann: index is full")

// ErrBadVector is returned by Add for a zero vector or one holding NaN or
// ±Inf: it has no direction, so no cosine similarity.
var ErrBadVector = errors.New("ann: vector is zero or not finite")

// dot is the inner product; on unit vectors it is the cosine similarity.
// It is most of a search's time: on amd64 with AVX2 and FMA it runs in
// assembly (dot_amd64.s, 4× faster at 100 dimensions), else in Go.
func dot(a, b []float32) float32 {
	b = b[:len(a)]
	if haveDotAsm {
		return dotAsm(a, b)
	}
	return dotGo(a, b)
}

// dotGo is dot in Go. The Go compiler does not vectorise, so the loop is
// unrolled by sixteen into eight independent sums that keep the FPU
// pipelines busy (about 20% faster here than four sums over eight).
func dotGo(a, b []float32) float32 {
	b = b[:len(a)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	i := 0
	for ; i+16 <= len(a); i += 16 {
		x := a[i : i+16 : i+16]
		y := b[i : i+16 : i+16]
		s0 += x[0]*y[0] + x[8]*y[8]
		s1 += x[1]*y[1] + x[9]*y[9]
		s2 += x[2]*y[2] + x[10]*y[10]
		s3 += x[3]*y[3] + x[11]*y[11]
		s4 += x[4]*y[4] + x[12]*y[12]
		s5 += x[5]*y[5] + x[13]*y[13]
		s6 += x[6]*y[6] + x[14]*y[14]
		s7 += x[7]*y[7] + x[15]*y[15]
	}
	for ; i < len(a); i++ {
		s0 += a[i] * b[i]
	}
	return (s0 + s1) + (s2 + s3) + (s4 + s5) + (s6 + s7)
}

// unit returns vec scaled to length 1, as a copy (the caller's slice is never
// kept, so it may reuse it). It refuses wrong dims, zero and non-finite vectors.
func unit(vec []float32, dims int) ([]float32, error) {
	if len(vec) != dims {
		return nil, fmt.Errorf("%w: got %d, want %d", ErrDims, len(vec), dims)
	}
	var sum float64
	for _, x := range vec {
		sum += float64(x) * float64(x)
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return nil, ErrBadVector
	}
	out := make([]float32, dims)
	inv := 1 / math.Sqrt(sum)
	for i, x := range vec {
		out[i] = float32(float64(x) * inv)
	}
	return out, nil
}

// item is a node and its distance to the query: the negated dot product, so
// that smaller is nearer and a Hit's score is -d exactly.
type item struct {
	d float32
	n uint32
}

// maxHeap keeps the farthest item on top (the worst of the results so far).
// The candidates to expand, nearest first, are a maxHeap of negated
// distances: one heap to keep fast.
type maxHeap []item

func (h *maxHeap) push(it item) {
	*h = append(*h, it)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if s[p].d >= s[i].d {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *maxHeap) pop() item {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	*h = s[:last]
	h.down()
	return top
}

// down restores the heap after its top was replaced.
func (h *maxHeap) down() {
	s := *h
	i := 0
	for {
		l, r, m := 2*i+1, 2*i+2, i
		if l < len(s) && s[l].d > s[m].d {
			m = l
		}
		if r < len(s) && s[r].d > s[m].d {
			m = r
		}
		if m == i {
			return
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
}

// offer keeps the k nearest items seen so far.
func (h *maxHeap) offer(it item, k int) {
	if len(*h) < k {
		h.push(it)
		return
	}
	if it.d < (*h)[0].d {
		(*h)[0] = it
		h.down()
	}
}

// sorted empties the heap into a slice nearest first.
func (h *maxHeap) sorted() []item {
	out := make([]item, len(*h))
	for i := len(out) - 1; i >= 0; i-- {
		out[i] = h.pop()
	}
	return out
}

// toHits turns items sorted nearest first into hits, ids looked up by slot.
func toHits(items []item, ids []int64) []Hit {
	out := make([]Hit, 0, len(items))
	for _, it := range items {
		out = append(out, Hit{ID: ids[it.n], Score: -it.d})
	}
	return out
}
