package ann

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"hash/crc32"
	"io"
	"math"
)

// Limits on a header's shape (with maxNodes): a file claiming more is
// refused rather than trusted with an allocation.
const (
	maxDims = 1 << 16
	maxM    = 512
)

// Load replaces the index's contents with a file written by Save. The file
// must hold vectors of the index's dims and a graph built with the index's
// M, EfConstruction, Refine and Backfill: a graph made with other settings
// (older defaults, say) is refused, so the caller builds one with these. On
// any error the index is unchanged and the error wraps ErrFormat or the read
// error.
func (h *HNSW) Load(r io.Reader) error {
	g, err := h.decode(bufio.NewReaderSize(r, chunk))
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.vecs, h.ids, h.levels, h.dead = g.vecs, g.ids, g.levels, g.dead
	h.links0, h.upper, h.byID = g.links0, g.upper, g.byID
	h.entry, h.top, h.nDead = g.entry, g.top, g.nDead
	h.quantise()
	h.epoch++
	return nil
}

// loaded is a decoded file before it replaces the index.
type loaded struct {
	opts   Options
	vecs   []float32
	ids    []int64
	levels []uint8
	dead   []bool
	links0 []uint32
	upper  [][]uint32
	byID   map[int64]uint32
	entry  uint32
	top    int
	nDead  int
}

func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrFormat}, args...)...)
}

func (h *HNSW) decode(r io.Reader) (*loaded, error) {
	hdr := make([]byte, len(fileMagic)+4+4*headerWords+4)
	if _, err := io.ReadFull(r, hdr); err != nil {
		return nil, refuse("header: %v", err)
	}
	if string(hdr[:len(fileMagic)]) != fileMagic {
		return nil, refuse("not an HNSW index file")
	}
	le := binary.LittleEndian
	if v := le.Uint32(hdr[len(fileMagic):]); v != fileVersion {
		return nil, refuse("format version %d, this build reads %d", v, fileVersion)
	}
	body := len(hdr) - 4
	if crc32.Checksum(hdr[:body], castagnoli) != le.Uint32(hdr[body:]) {
		return nil, refuse("header checksum mismatch")
	}
	word := func(i int) int { return int(le.Uint32(hdr[len(fileMagic)+4+4*i:])) }
	dims, m, efc, n, entry, top, nDead, flags := word(0), word(1), word(2), word(3), word(4), word(5)-1, word(6), word(7)
	switch {
	case dims != h.dims:
		return nil, refuse("file holds %d-dimensional vectors, the index takes %d", dims, h.dims)
	case m != h.opts.M || efc != h.opts.EfConstruction || flags != h.opts.shapeFlags():
		return nil, refuse("graph built with M %d, EfConstruction %d, flags %d; the index is set for %d, %d, %d",
			m, efc, flags, h.opts.M, h.opts.EfConstruction, h.opts.shapeFlags())
	case dims <= 0 || dims > maxDims || m < 2 || m > maxM || n > maxNodes || top > 32:
		return nil, refuse("implausible shape (dims %d, M %d, nodes %d, top %d)", dims, m, n, top)
	case n > 0 && (entry >= n || top < 0), nDead > n:
		return nil, refuse("entry %d or tombstones %d out of range", entry, nDead)
	}
	g := &loaded{opts: Options{M: m, EfConstruction: efc}, entry: uint32(entry), //nolint:gosec // entry < n ≤ maxNodes, checked above
		top: top, nDead: nDead}
	d := decoder{r: r, crc: crc32.New(castagnoli), buf: make([]byte, chunk)}
	g.ids = make([]int64, n)
	for i := range g.ids {
		g.ids[i] = int64(le.Uint64(d.next(8))) //nolint:gosec // the bits Save wrote
	}
	g.levels, g.dead = make([]uint8, n), make([]bool, n)
	for i := range n {
		b := d.next(2)
		g.levels[i], g.dead[i] = b[0], b[1] != 0
	}
	g.vecs = make([]float32, n*dims)
	for i := range g.vecs {
		g.vecs[i] = math.Float32frombits(le.Uint32(d.next(4)))
	}
	g.links0 = make([]uint32, n*(2*m+1))
	for i := range g.links0 {
		g.links0[i] = le.Uint32(d.next(4))
	}
	g.upper = make([][]uint32, n)
	for i, l := range g.levels {
		if d.err != nil {
			return nil, refuse("body: %v", d.err)
		}
		if int(l) > max(top, 0) {
			return nil, refuse("node %d: level %d above the top %d", i, l, top)
		}
		if l > 0 {
			g.upper[i] = make([]uint32, int(l)*(m+1))
			for j := range g.upper[i] {
				g.upper[i][j] = le.Uint32(d.next(4))
			}
		}
	}
	sum := d.sum()
	if d.err != nil {
		return nil, refuse("body: %v", d.err)
	}
	if want := le.Uint32(d.next(4)); d.err != nil || want != sum {
		return nil, refuse("body checksum mismatch")
	}
	return g, g.check(n, m)
}

// check makes sure a decoded graph cannot send a search out of bounds.
func (g *loaded) check(n, m int) error {
	g.byID = make(map[int64]uint32, n-g.nDead)
	dead := 0
	for i, id := range g.ids {
		if g.dead[i] {
			dead++
			continue
		}
		if _, dup := g.byID[id]; dup {
			return refuse("id %d held twice", id)
		}
		g.byID[id] = uint32(i)
	}
	if dead != g.nDead {
		return refuse("%d tombstones, header says %d", dead, g.nDead)
	}
	valid := func(list []uint32, cap int) bool {
		if int(list[0]) > cap {
			return false
		}
		for _, x := range list[1 : 1+list[0]] {
			if int(x) >= n {
				return false
			}
		}
		return true
	}
	for i := range n {
		if !valid(g.links0[i*(2*m+1):(i+1)*(2*m+1)], 2*m) {
			return refuse("node %d: bad level-0 links", i)
		}
		for l := 0; l < len(g.upper[i]); l += m + 1 {
			if !valid(g.upper[i][l:l+m+1], m) {
				return refuse("node %d: bad upper links", i)
			}
		}
	}
	return nil
}

// decoder reads fixed-size values through a buffer, hashing what has been
// consumed (so a trailing checksum read ahead is not hashed). After an error
// it returns zeros and keeps the first error.
type decoder struct {
	r        io.Reader
	crc      hash.Hash32
	buf      []byte
	hashed   int // buf[hashed:pos] is consumed but not yet hashed
	pos, end int
	err      error
}

// sum is the checksum of everything consumed so far.
func (d *decoder) sum() uint32 {
	_, _ = d.crc.Write(d.buf[d.hashed:d.pos])
	d.hashed = d.pos
	return d.crc.Sum32()
}

func (d *decoder) next(size int) []byte {
	if d.end-d.pos < size {
		_, _ = d.crc.Write(d.buf[d.hashed:d.pos])
		copy(d.buf, d.buf[d.pos:d.end])
		d.end -= d.pos
		d.pos, d.hashed = 0, 0
		if d.err == nil {
			k, err := io.ReadAtLeast(d.r, d.buf[d.end:], size-d.end)
			d.end += k
			if err != nil {
				d.err = err
				if errors.Is(err, io.EOF) {
					d.err = io.ErrUnexpectedEOF
				}
			}
		}
		if d.end < size {
			clear(d.buf[:size])
			return d.buf[:size]
		}
	}
	b := d.buf[d.pos : d.pos+size]
	d.pos += size
	return b
}
