package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/warren-dev/warren/backend/memory/embed/builtin/tokens"
)

// table is what the generator keeps of the source: words in frequency order
// with their original rank and vector.
type table struct {
	dims    int
	size    int // the source vocabulary size (for Zipf's normaliser)
	words   []string
	ranks   []int
	vectors [][]float64
}

// readTable streams the package's JSON ({"dimensions", "size", "words",
// "vectors": {word: [d0..dn-1, l2norm, rank]}}) and keeps the first keep
// words of "words" that the tokenizer produces as a whole word. "words" is
// GloVe's vocabulary in its own order, which is by descending count in the
// training corpus (Wikipedia 2014 + Gigaword 5): it starts "the , . of to and
// in", newswire words come early ("said" 14, "percent" 65, "tuesday" 163),
// and each vector's last value is its position in that list (checked below).
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
			if len(index) == 0 {
				// The package lists words first; holding every vector until
				// they come would take gigabytes.
				return nil, fmt.Errorf("%s: \"vectors\" before \"words\"", path)
			}
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
