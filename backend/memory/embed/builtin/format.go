package builtin

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"
)

// The table's layout (little-endian), written by internal/gen:
//
//	"WGV1"                magic and version
//	uint32 dims, count
//	float32 × dims        the common component (unit length) to remove
//	float32 × count       per-word scale: the 8-bit step × the word's SIF weight
//	int8 × count × dims   the quantised vectors, most frequent word first
//	words                 count words, each followed by '\n', in the same order
//
// Folding the SIF weight into the scale makes a sentence vector a plain sum of
// scale × int8 row; the component is removed from the sum at embed time.
const tableMagic = "WGV1"

// table is a parsed view of the embedded data: words and vectors stay in the
// read-only embedded string; only the word index and the small float arrays
// are built.
type table struct {
	dims    int
	pc      []float32
	scales  []float32
	vectors string // count × dims bytes, each an int8
	index   map[string]int32
}

// parseTable checks data's layout and indexes its words.
func parseTable(data string) (*table, error) {
	const hdr = len(tableMagic) + 8
	if len(data) < hdr || data[:len(tableMagic)] != tableMagic {
		return nil, fmt.Errorf("builtin embedder: word table: not a %s table", tableMagic)
	}
	le := binary.LittleEndian
	dims := int(le.Uint32([]byte(data[4:8])))
	count := int(le.Uint32([]byte(data[8:12])))
	if dims <= 0 || dims > 4096 || count <= 0 || count > 10_000_000 {
		return nil, fmt.Errorf("builtin embedder: word table: %d dims, %d words", dims, count)
	}
	off := hdr
	floats := func(n int) []float32 {
		out := make([]float32, n)
		for i := range out {
			out[i] = math.Float32frombits(le.Uint32([]byte(data[off+4*i : off+4*i+4])))
		}
		off += 4 * n
		return out
	}
	if len(data) < off+4*(dims+count)+dims*count {
		return nil, fmt.Errorf("builtin embedder: word table: truncated (%d bytes)", len(data))
	}
	t := &table{dims: dims, pc: floats(dims), scales: floats(count)}
	t.vectors = data[off : off+dims*count]
	off += dims * count
	t.index = make(map[string]int32, count)
	words := data[off:]
	for i := range count {
		word, rest, ok := strings.Cut(words, "\n")
		if !ok {
			return nil, fmt.Errorf("builtin embedder: word table: %d words, want %d", i, count)
		}
		t.index[word] = int32(i)
		words = rest
	}
	if words != "" {
		return nil, fmt.Errorf("builtin embedder: word table: %d bytes after the last word", len(words))
	}
	return t, nil
}

// add adds word i's weighted vector to acc.
func (t *table) add(acc []float32, i int32) {
	scale := t.scales[i]
	row := t.vectors[int(i)*t.dims : int(i+1)*t.dims]
	for k := range acc {
		acc[k] += scale * float32(int8(row[k])) //nolint:gosec // each byte is an int8 by the layout
	}
}
