package memory

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/warren-dev/warren/backend/memory/ann"
	"github.com/warren-dev/warren/backend/memory/embed"
)

// The approximate index is saved beside the database so a start loads it
// instead of rebuilding (a minute or more at 100,000 chunks). SQLite stays
// the source of truth: the file says which index it is (table and
// identity) and which chunk content each vector was made from, and is
// checked against SQLite when loaded; a file that is damaged, from another
// identity or unreadable is ignored and the index rebuilt.
//
// Layout: magic, a length-prefixed JSON header with its CRC, then per
// vector its chunk id and content hash (with a CRC), then the ann file
// (which carries its own checksums).
const annFileMagic = "WRNMEMIX"

var annCRC = crc32.MakeTable(crc32.Castagnoli)

// annHeader identifies a saved index.
type annHeader struct {
	Table   string         `json:"table"`
	ID      embed.Identity `json:"identity"`
	Chunker int            `json:"chunker"`
	Count   int            `json:"count"`
}

// annDir is where index files go: Options.IndexDir, else the directory of
// the database file; "" (an in-memory database) means none are saved.
func (s *Store) annDir(ctx context.Context) string {
	if s.opts.IndexDir != "" {
		return s.opts.IndexDir
	}
	s.annMu.Lock()
	defer s.annMu.Unlock()
	if !s.annDirKnown {
		var file string
		if err := s.db.QueryRowContext(ctx, "SELECT file FROM pragma_database_list WHERE name = 'main'").Scan(&file); err != nil {
			return "" // asked again next time
		}
		if file != "" {
			s.annDirPath = filepath.Dir(file)
		}
		s.annDirKnown = true
	}
	return s.annDirPath
}

// annPath is the file of a vector table's index ("" when not saved).
func (s *Store) annPath(ctx context.Context, table string) string {
	dir := s.annDir(ctx)
	if dir == "" || !validTable.MatchString(table) {
		return ""
	}
	return filepath.Join(dir, table+".hnsw")
}

// contentKey is the part of a chunk's content hash an index file keeps.
func contentKey(hash string) uint64 {
	if len(hash) < 16 {
		return 0
	}
	k, _ := strconv.ParseUint(hash[:16], 16, 64)
	return k
}

// saveANN writes the index to its file (a temporary file renamed over it,
// so a crash leaves the old file or the new one).
func (s *Store) saveANN(ctx context.Context, v vecIndex, ai *annIndex) error {
	path := s.annPath(ctx, v.Name)
	if path == "" {
		return nil
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), v.Name+".*.tmp")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }() //nolint:gosec // our temporary file, in the index directory
	ai.mu.RLock()
	err = writeANN(tmp, annHeader{Table: v.Name, ID: v.ID, Chunker: v.Chunker, Count: len(ai.meta)}, ai)
	saved := ai.changes
	ai.mu.RUnlock()
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("save the vector index: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil { //nolint:gosec // the path is the index directory and a validTable-checked name
		return fmt.Errorf("save the vector index: %w", err)
	}
	ai.mu.Lock()
	ai.saved, ai.savedAt = saved, time.Now()
	ai.mu.Unlock()
	return nil
}

// writeANN writes the file; the caller holds ai.mu.
func writeANN(w io.Writer, h annHeader, ai *annIndex) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	head, err := json.Marshal(h)
	if err != nil {
		return err
	}
	buf := append([]byte(annFileMagic), binary.LittleEndian.AppendUint32(nil, uint32(len(head)))...) //nolint:gosec // a short header
	buf = append(buf, head...)
	buf = binary.LittleEndian.AppendUint32(buf, crc32.Checksum(head, annCRC))
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	crc := crc32.New(annCRC)
	out := io.MultiWriter(bw, crc)
	rec := make([]byte, 16)
	for id, m := range ai.meta {
		binary.LittleEndian.PutUint64(rec, uint64(id)) //nolint:gosec // bits round-trip
		binary.LittleEndian.PutUint64(rec[8:], m.key)
		if _, err := out.Write(rec); err != nil {
			return err
		}
	}
	if _, err := bw.Write(binary.LittleEndian.AppendUint32(nil, crc.Sum32())); err != nil {
		return err
	}
	if err := ai.idx.Save(bw); err != nil {
		return err
	}
	return bw.Flush()
}

// errStaleFile marks a file that is fine but not this index's.
var errStaleFile = errors.New("the file belongs to another index")

// readANN loads a file written for v into idx, returning each vector's
// content key by chunk id.
func readANN(r io.Reader, v vecIndex, idx *ann.HNSW) (map[int64]uint64, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	var pre [12]byte
	if _, err := io.ReadFull(br, pre[:]); err != nil || !bytes.Equal(pre[:8], []byte(annFileMagic)) {
		return nil, fmt.Errorf("%w: not an index file", ann.ErrFormat)
	}
	n := binary.LittleEndian.Uint32(pre[8:])
	if n > 1<<16 {
		return nil, fmt.Errorf("%w: header of %d bytes", ann.ErrFormat, n)
	}
	head := make([]byte, n+4)
	if _, err := io.ReadFull(br, head); err != nil {
		return nil, fmt.Errorf("%w: short header", ann.ErrFormat)
	}
	if crc32.Checksum(head[:n], annCRC) != binary.LittleEndian.Uint32(head[n:]) {
		return nil, fmt.Errorf("%w: header checksum", ann.ErrFormat)
	}
	var h annHeader
	if err := json.Unmarshal(head[:n], &h); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ann.ErrFormat, err)
	}
	if h.Table != v.Name || h.ID != v.ID || h.Chunker != v.Chunker {
		return nil, fmt.Errorf("%w: %s %s/%s/%d chunker %d", errStaleFile, h.Table, h.ID.Kind, h.ID.Model, h.ID.Dims, h.Chunker)
	}
	if h.Count < 0 || h.Count > 1<<26 {
		return nil, fmt.Errorf("%w: %d vectors", ann.ErrFormat, h.Count)
	}
	keys := make(map[int64]uint64, h.Count)
	crc := crc32.New(annCRC)
	rec := make([]byte, 16)
	for range h.Count {
		if _, err := io.ReadFull(br, rec); err != nil {
			return nil, fmt.Errorf("%w: short id list", ann.ErrFormat)
		}
		_, _ = crc.Write(rec)
		keys[int64(binary.LittleEndian.Uint64(rec))] = binary.LittleEndian.Uint64(rec[8:]) //nolint:gosec // bits round-trip
	}
	var sum [4]byte
	if _, err := io.ReadFull(br, sum[:]); err != nil || binary.LittleEndian.Uint32(sum[:]) != crc.Sum32() {
		return nil, fmt.Errorf("%w: id list checksum", ann.ErrFormat)
	}
	if err := idx.Load(br); err != nil {
		return nil, err
	}
	if idx.Len() != len(keys) {
		return nil, fmt.Errorf("%w: %d vectors for %d ids", ann.ErrFormat, idx.Len(), len(keys))
	}
	return keys, nil
}

// loadANN fills ai from v's file and brings it up to date with SQLite:
// vectors of chunks gone or changed since the save are removed, the
// missing ones added. false means there was no usable file (the caller
// builds from scratch); a refused file is deleted.
func (s *Store) loadANN(ctx context.Context, v vecIndex, ai *annIndex, rows []annRow) bool {
	path := s.annPath(ctx, v.Name)
	if path == "" {
		return false
	}
	f, err := os.Open(path) //nolint:gosec // a name made from a validTable-checked table name
	if err != nil {
		return false
	}
	keys, err := readANN(f, v, ai.idx)
	_ = f.Close()
	if err != nil {
		s.log.Warn("memory: the saved vector index is not usable; rebuilding it from SQLite", "file", path, "err", err)
		_ = os.Remove(path) //nolint:gosec // the path is the index directory and a validTable-checked name
		return false
	}
	var add []int64
	live := make(map[int64]bool, len(rows))
	for _, r := range rows {
		live[r.id] = true
		if k, ok := keys[r.id]; ok && k == contentKey(r.hash) {
			ai.meta[r.id] = annMeta{part: r.part, key: k}
			continue
		}
		add = append(add, r.id)
	}
	if len(add) > len(rows)/2 {
		return false // mostly new: a build is faster than adding one by one
	}
	removed := 0
	for id := range keys {
		if _, ok := ai.meta[id]; !ok || !live[id] {
			ai.idx.Remove(id)
			removed++
		}
	}
	for len(add) > 0 {
		n := min(len(add), 500)
		fresh, err := s.annRows(ctx, v, true, add[:n])
		if err != nil {
			return false
		}
		for _, r := range fresh {
			if err := ai.idx.Add(r.id, r.vec); err == nil {
				ai.meta[r.id] = annMeta{part: r.part, key: contentKey(r.hash)}
			}
		}
		add = add[n:]
	}
	ai.mu.Lock()
	ai.changes += removed + len(ai.meta) - (len(keys) - removed)
	ai.savedAt = time.Now()
	ai.mu.Unlock()
	return true
}

// staleTmpAge is the age from which a temporary file of saveANN is taken
// for a leftover of a process killed mid-save: a save takes seconds, and
// another process may be saving into the same directory right now.
const staleTmpAge = 10 * time.Minute

// removeStaleANNFiles deletes index files of tables that no longer exist,
// and temporary files saves killed midway left behind.
func (s *Store) removeStaleANNFiles(ctx context.Context, tables []vecIndex) {
	dir := s.annDir(ctx)
	if dir == "" {
		return
	}
	tmps, _ := filepath.Glob(filepath.Join(dir, "memory_vec_*.tmp"))
	for _, f := range tmps {
		if st, err := os.Lstat(f); err == nil && st.Mode().IsRegular() && time.Since(st.ModTime()) > staleTmpAge {
			_ = os.Remove(f)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "memory_vec_*.hnsw"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".hnsw")
		keep := false
		for _, v := range tables {
			keep = keep || v.Name == name
		}
		if !keep {
			_ = os.Remove(f)
		}
	}
}
