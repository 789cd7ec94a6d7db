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

// The file: a header (magic, version, shape) with its own CRC, so a damaged
// header is refused before anything is allocated from it; then the slices
// as little-endian arrays; then a CRC of the body.
const (
	fileMagic   = "WRNHNSW\x00"
	fileVersion = 1
	headerWords = 9 // uint32s after magic and version
	chunk       = 1 << 16
)

// ErrFormat is returned by Load for a file that is not a usable index (wrong
// magic, version, dims, a bad checksum or inconsistent contents). The caller
// rebuilds from SQLite.
var ErrFormat = errors.New("ann: index file refused")

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// Save writes the index (live nodes, tombstones and links) to w.
func (h *HNSW) Save(w io.Writer) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	bw := bufio.NewWriterSize(w, chunk)
	hdr := []byte(fileMagic)
	hdr = binary.LittleEndian.AppendUint32(hdr, fileVersion)
	for _, v := range []int{h.dims, h.opts.M, h.opts.EfConstruction, len(h.ids), int(h.entry), h.top + 1, h.nDead, h.opts.shapeFlags(), 0} {
		hdr = binary.LittleEndian.AppendUint32(hdr, uint32(v)) //nolint:gosec // each is small and non-negative
	}
	hdr = binary.LittleEndian.AppendUint32(hdr, crc32.Checksum(hdr, castagnoli))
	if _, err := bw.Write(hdr); err != nil {
		return fmt.Errorf("ann: save: %w", err)
	}
	e := encoder{w: bw, crc: crc32.New(castagnoli)}
	for _, id := range h.ids {
		e.put64(uint64(id)) //nolint:gosec // bits round-trip through Load
	}
	for n, l := range h.levels {
		e.put8(l)
		e.put8(boolByte(h.dead[n]))
	}
	for _, x := range h.vecs {
		e.put32(math.Float32bits(x))
	}
	for _, x := range h.links0 {
		e.put32(x)
	}
	for _, up := range h.upper {
		for _, x := range up {
			e.put32(x)
		}
	}
	e.flush()
	e.buf = binary.LittleEndian.AppendUint32(e.buf, e.crc.Sum32())
	if _, err := bw.Write(e.buf); err != nil {
		e.err = err
	}
	if e.err == nil {
		e.err = bw.Flush()
	}
	if e.err != nil {
		return fmt.Errorf("ann: save: %w", e.err)
	}
	return nil
}

// shapeFlags are the options besides M and EfConstruction that shape the
// graph, as the header's flags word (0 in files written before they existed).
func (o Options) shapeFlags() int {
	f := 0
	if o.Refine {
		f |= 1
	}
	if o.Backfill {
		f |= 2
	}
	return f
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

type encoder struct {
	w   io.Writer
	crc hash.Hash32
	buf []byte
	err error
}

func (e *encoder) put8(v byte) {
	e.buf = append(e.buf, v)
	e.maybeFlush()
}

func (e *encoder) put32(v uint32) {
	e.buf = binary.LittleEndian.AppendUint32(e.buf, v)
	e.maybeFlush()
}

func (e *encoder) put64(v uint64) {
	e.buf = binary.LittleEndian.AppendUint64(e.buf, v)
	e.maybeFlush()
}

func (e *encoder) maybeFlush() {
	if len(e.buf) >= chunk {
		e.flush()
	}
}

func (e *encoder) flush() {
	if e.err == nil {
		_, _ = e.crc.Write(e.buf)
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}
