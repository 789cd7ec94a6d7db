package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// sifWeights is a/(a+p(w)) with p(w) from Zipf's law over the source's
// vocabulary: p(rank r) = 1/((r+1)·H(size)).
func sifWeights(t *table, a float64) []float64 {
	h := 0.0
	for k := 1; k <= t.size; k++ {
		h += 1 / float64(k)
	}
	w := make([]float64, len(t.words))
	for i, r := range t.ranks {
		p := 1 / (float64(r+1) * h)
		w[i] = a / (a + p)
	}
	return w
}

// commonComponent is the first principal component (uncentred, as SIF does)
// of pseudo-sentences: 12–30 words drawn by Zipf frequency, SIF-weighted and
// averaged. Real sentences share this direction (frequent words' drift), so
// removing it sharpens similarity.
func commonComponent(t *table, weights []float64, n int, seed uint64) []float64 {
	cum := make([]float64, len(t.ranks))
	total := 0.0
	for i, r := range t.ranks {
		total += 1 / float64(r+1)
		cum[i] = total
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) //nolint:gosec // a reproducible sample, not a secret
	d := t.dims
	m := make([]float64, d*d)
	s := make([]float64, d)
	for range n {
		clear(s)
		words := 12 + rng.IntN(19)
		for range words {
			i := sort.SearchFloat64s(cum, rng.Float64()*total)
			for k, x := range t.vectors[i] {
				s[k] += weights[i] * x
			}
		}
		for k := range s {
			s[k] /= float64(words)
		}
		for a := range d {
			for b := range d {
				m[a*d+b] += s[a] * s[b]
			}
		}
	}
	return topEigenvector(m, d)
}

// topEigenvector finds the dominant eigenvector of the symmetric d×d matrix m
// by power iteration.
func topEigenvector(m []float64, d int) []float64 {
	v := make([]float64, d)
	for i := range v {
		v[i] = 1 / math.Sqrt(float64(d))
	}
	next := make([]float64, d)
	for range 500 {
		for a := range d {
			sum := 0.0
			for b := range d {
				sum += m[a*d+b] * v[b]
			}
			next[a] = sum
		}
		normalise(next)
		v, next = next, v
	}
	return v
}

func normalise(v []float64) {
	n := 0.0
	for _, x := range v {
		n += x * x
	}
	n = math.Sqrt(n)
	if n == 0 {
		return
	}
	for i := range v {
		v[i] /= n
	}
}

type fidelity struct{ mean, min float64 }

// quantise folds each word's weight into its vector and stores it as int8
// values times a per-word scale. With "global", one step (the largest
// absolute value over the table / 127) quantises the unweighted vectors and
// the per-word scale is that step times the weight.
func quantise(t *table, weights []float64, mode string) ([]float32, []int8, fidelity, error) {
	d := t.dims
	scales := make([]float32, len(t.vectors))
	q := make([]int8, len(t.vectors)*d)
	globalStep := 0.0
	for _, v := range t.vectors {
		for _, x := range v {
			globalStep = max(globalStep, math.Abs(x)/127)
		}
	}
	fid := fidelity{min: 1}
	for i, v := range t.vectors {
		var step float64
		switch mode {
		case "row":
			for _, x := range v {
				step = max(step, math.Abs(x)/127)
			}
		case "global":
			step = globalStep
		default:
			return nil, nil, fid, fmt.Errorf("-quant %q: want row or global", mode)
		}
		if step == 0 {
			continue
		}
		var dot, nv, nq float64
		for k, x := range v {
			r := max(-127, min(127, math.Round(x/step)))
			q[i*d+k] = int8(r)
			dot += x * r
			nv += x * x
			nq += r * r
		}
		scales[i] = float32(step * weights[i])
		c := dot / math.Sqrt(nv*nq)
		fid.mean += c / float64(len(t.vectors))
		fid.min = min(fid.min, c)
	}
	return scales, q, fid, nil
}
