package ann

import "math"

// A search walks the graph on int8 copies of the vectors and ranks what it
// found by the float32 vectors: on the walk, a distance costs mostly the
// wait for the vector's memory, and a code is a quarter of the bytes (100
// dimensions: two cache lines, not seven). Each dimension has its own scale
// (the largest magnitude the build saw there, over 127), taken at Build or
// Load from all the vectors; later Adds are clamped to it. An index grown by
// Add alone has no scales and walks on the float32 vectors.
//
// The codes are not saved: Load makes them again from the vectors.

// codeDims is the length of a code: dims rounded up to a multiple of 8 (the
// assembly's step), zero-padded.
func (h *HNSW) codeDims() int { return (h.dims + 7) &^ 7 }

// quantised reports whether every slot has a code.
func (h *HNSW) quantised() bool {
	return h.scale != nil && len(h.codes) == len(h.ids)*h.codeDims()
}

func (h *HNSW) code(n uint32) []int8 {
	c := h.codeDims()
	i := int(n) * c
	return h.codes[i : i+c : i+c]
}

// quantise takes the scales from the vectors held and codes them all.
func (h *HNSW) quantise() {
	h.scale, h.codes = nil, nil
	if len(h.ids) == 0 {
		return
	}
	peak := make([]float32, h.dims)
	for i, x := range h.vecs {
		d := i % h.dims
		peak[d] = max(peak[d], float32(math.Abs(float64(x))))
	}
	scale := make([]float32, h.dims)
	for d, p := range peak {
		scale[d] = max(p, 1e-9) / 127
	}
	h.scale = scale
	h.codes = make([]int8, 0, len(h.ids)*h.codeDims())
	for n := range h.ids {
		h.codes = h.appendCode(h.codes, h.vec(uint32(n))) //nolint:gosec // n < len(h.ids) ≤ maxNodes
	}
}

// appendCode appends v's code to codes.
func (h *HNSW) appendCode(codes []int8, v []float32) []int8 {
	for d, x := range v {
		q := math.Round(float64(x / h.scale[d]))
		codes = append(codes, int8(max(-127, min(127, q))))
	}
	for range h.codeDims() - h.dims {
		codes = append(codes, 0)
	}
	return codes
}

// buildQuery is the scaled query linking a node searches with: on the codes
// when there are codes (Build makes them first).
func (h *HNSW) buildQuery(q []float32) []float32 {
	if h.scale == nil {
		return nil
	}
	return h.scaledQuery(q)
}

// scaledQuery is q times each dimension's scale, zero-padded to codeDims: its
// dot product with a code approximates q's with the vector.
func (h *HNSW) scaledQuery(q []float32) []float32 {
	out := make([]float32, h.codeDims())
	for d, x := range q {
		out[d] = x * h.scale[d]
	}
	return out
}

// dotCodeGo is dotCode in Go.
func dotCodeGo(q []float32, c []int8) float32 {
	c = c[:len(q)]
	var s0, s1, s2, s3 float32
	for i := 0; i+8 <= len(q); i += 8 {
		x := q[i : i+8 : i+8]
		y := c[i : i+8 : i+8]
		s0 += x[0]*float32(y[0]) + x[4]*float32(y[4])
		s1 += x[1]*float32(y[1]) + x[5]*float32(y[5])
		s2 += x[2]*float32(y[2]) + x[6]*float32(y[6])
		s3 += x[3]*float32(y[3]) + x[7]*float32(y[7])
	}
	return (s0 + s1) + (s2 + s3)
}

// dotCode is the dot product of a scaled query and a code, both of a length
// that is a multiple of 8.
func dotCode(q []float32, c []int8) float32 {
	c = c[:len(q)]
	if haveDotAsm {
		return dotCodeAsm(q, c)
	}
	return dotCodeGo(q, c)
}
