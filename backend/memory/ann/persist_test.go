package ann

import (
	"bytes"
	"errors"
	"testing"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	t.Parallel()
	d := clusteredData(2000, 50, 24, 30, 71)
	h, _ := built(t, d)
	for id := int64(1); id <= 300; id++ {
		h.Remove(id)
	}
	var buf bytes.Buffer
	if err := h.Save(&buf); err != nil {
		t.Fatal(err)
	}
	g := NewHNSW(24, Options{ExactBelow: -1})
	if err := g.Load(bytes.NewReader(buf.Bytes())); err != nil {
		t.Fatal(err)
	}
	if g.Len() != h.Len() || g.Tombstones() != h.Tombstones() {
		t.Fatalf("loaded Len %d tombstones %d, want %d and %d", g.Len(), g.Tombstones(), h.Len(), h.Tombstones())
	}
	for _, q := range d.queries {
		a, b := h.Search(q, 10, nil), g.Search(q, 10, nil)
		if len(a) != len(b) {
			t.Fatalf("loaded index answers %v, saved one %v", b, a)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("loaded index answers %v, saved one %v", b, a)
			}
		}
	}
	// The loaded index takes writes like any other.
	if err := g.Add(1, d.vecs[0]); err != nil || g.Len() != h.Len()+1 {
		t.Fatalf("add after load: %v, Len %d", err, g.Len())
	}

	var empty bytes.Buffer
	if err := NewHNSW(24, Options{}).Save(&empty); err != nil {
		t.Fatal(err)
	}
	e := NewHNSW(24, Options{})
	if err := e.Load(&empty); err != nil || e.Len() != 0 || e.Search(d.queries[0], 5, nil) != nil {
		t.Fatalf("empty round trip: %v, Len %d", err, e.Len())
	}
}

func TestLoadRefusesBadFiles(t *testing.T) {
	t.Parallel()
	d := clusteredData(1500, 0, 8, 10, 81)
	h, _ := built(t, d)
	var buf bytes.Buffer
	if err := h.Save(&buf); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	flip := func(at int) []byte {
		b := bytes.Clone(good)
		b[at] ^= 0x10
		return b
	}
	for _, tc := range []struct {
		name string
		file []byte
		dims int
	}{
		{"empty", nil, 8},
		{"garbage", []byte("definitely not an index file, just text"), 8},
		{"magic", flip(0), 8},
		{"version", flip(8), 8},
		{"header", flip(14), 8},
		{"ids", flip(60), 8},
		{"vectors", flip(len(good) / 2), 8},
		{"links", flip(len(good) - 40), 8},
		{"trailer", flip(len(good) - 1), 8},
		{"truncated", good[:len(good)-7], 8},
		{"header only", good[:52], 8},
		{"wrong dims", good, 16},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := NewHNSW(tc.dims, Options{})
			if err := g.Add(99, make([]float32, tc.dims-1)); err == nil {
				t.Fatal("setup")
			}
			v := make([]float32, tc.dims)
			v[0] = 1
			if err := g.Add(99, v); err != nil {
				t.Fatal(err)
			}
			err := g.Load(bytes.NewReader(tc.file))
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("Load: %v, want ErrFormat", err)
			}
			if g.Len() != 1 {
				t.Fatalf("a refused Load changed the index: Len %d", g.Len())
			}
			t.Log(err)
		})
	}
}
