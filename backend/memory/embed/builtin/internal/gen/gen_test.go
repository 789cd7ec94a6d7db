package main

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakePackage writes a small package shaped like the real one: words in
// rank order, punctuation among them, vectors keyed by word with norm and
// rank appended.
func fakePackage(t *testing.T, version string, words []string, dims int) string {
	t.Helper()
	dir := t.TempDir()
	pkg := fmt.Sprintf(`{"name": %q, "version": %q}`, wantPackage, version)
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o600); err != nil {
		t.Fatal(err)
	}
	vectors := map[string][]float64{}
	for rank, w := range words {
		v := make([]float64, dims+2)
		for k := range dims {
			v[k] = math.Sin(float64(rank*dims+k)) + 0.5 // a shared offset: the common component
		}
		v[dims], v[dims+1] = 1, float64(rank)
		vectors[w] = v
	}
	// The real file's key order: words before vectors.
	wordsJSON, err := json.Marshal(words)
	if err != nil {
		t.Fatal(err)
	}
	vectorsJSON, err := json.Marshal(vectors)
	if err != nil {
		t.Fatal(err)
	}
	data := fmt.Appendf(nil, `{"precision":8,"size":%d,"dimensions":%d,"words":%s,"vectors":%s,"unkVector":[0]}`, len(words), dims, wordsJSON, vectorsJSON)
	if err := os.WriteFile(filepath.Join(dir, dataFile), data, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestGenerate(t *testing.T) {
	t.Parallel()
	words := []string{"the", ",", "of", "-", "user", "don't", "memory", "search", "e.g.", "café"}
	src := fakePackage(t, wantVersion, words, 4)
	out := filepath.Join(t.TempDir(), "t.bin")
	if err := run(options{src: src, out: out, words: 5, a: 1e-3, quant: "row", sentences: 200, seed: 1}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	if string(data[:4]) != "WGV1" || le.Uint32(data[4:]) != 4 || le.Uint32(data[8:]) != 5 {
		t.Fatalf("header %q", data[:12])
	}
	pc := make([]float64, 4)
	var n float64
	for k := range pc {
		pc[k] = float64(math.Float32frombits(le.Uint32(data[12+4*k:])))
		n += pc[k] * pc[k]
	}
	if math.Abs(n-1) > 1e-5 || pc[0] == 0 {
		t.Errorf("common component %v is not a unit vector", pc)
	}
	scales := data[12+16 : 12+16+20]
	if the, memory := math.Float32frombits(le.Uint32(scales[0:])), math.Float32frombits(le.Uint32(scales[12:])); the >= memory {
		t.Errorf("scale of %q %v ≥ scale of %q %v: SIF should weigh the frequent word down", "the", the, "memory", memory)
	}
	// Punctuation, clitics and dotted words cannot come out of the tokenizer:
	// they are skipped, and the most frequent words that can are kept.
	if got := string(data[12+16+20+20:]); got != "the\nof\nuser\nmemory\nsearch\n" {
		t.Errorf("words %q", got)
	}
}

func TestGenerateRefusesOtherVersions(t *testing.T) {
	t.Parallel()
	src := fakePackage(t, "1.0.0", []string{"the"}, 2)
	err := run(options{src: src, out: filepath.Join(t.TempDir(), "t.bin"), words: 1, quant: "row"})
	if err == nil || !strings.Contains(err.Error(), "want "+wantPackage+"@"+wantVersion) {
		t.Errorf("run with version 1.0.0: %v", err)
	}
}

func TestTopEigenvector(t *testing.T) {
	t.Parallel()
	// diag(1, 5, 2): the dominant eigenvector is ±e2.
	v := topEigenvector([]float64{1, 0, 0, 0, 5, 0, 0, 0, 2}, 3)
	if math.Abs(math.Abs(v[1])-1) > 1e-9 || math.Abs(v[0]) > 1e-9 || math.Abs(v[2]) > 1e-9 {
		t.Errorf("topEigenvector = %v, want ±(0, 1, 0)", v)
	}
}

func TestQuantiseRow(t *testing.T) {
	t.Parallel()
	tab := &table{dims: 3, vectors: [][]float64{{0.5, -1, 0.25}, {0, 0, 0}}}
	scales, q, fid, err := quantise(tab, []float64{2, 1}, "row")
	if err != nil {
		t.Fatal(err)
	}
	if q[1] != -127 || q[0] != 64 || q[3] != 0 || scales[1] != 0 {
		t.Errorf("q %v, scales %v", q, scales)
	}
	if got := float64(scales[0]) * float64(q[1]); math.Abs(got-(-2)) > 1e-6 {
		t.Errorf("dequantised weighted value %v, want -2", got)
	}
	if fid.min < 0.9999 {
		t.Errorf("fidelity %+v", fid)
	}
}
