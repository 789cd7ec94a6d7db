package memory

import (
	"context"
	"database/sql"
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// kwIndex is the keyword channel a long-running Warren keeps in process: an
// inverted index over the chunks' words with BM25 statistics kept on write,
// and a catalog of every chunk's scope (agent, user, path, source, time) so
// both channels filter without SQL. SQLite stays the source of truth: the
// index is built from memory_chunks when the indexer starts and follows
// memory_chunk_log (written by triggers, whichever process writes) before
// each search. FTS5 answers while it builds, and in short-lived processes.
//
// Why: FTS5's bm25() reads every posting of every query word and a docsize
// row per match on every query (8 ms at 100,000 chunks); here a query walks
// only its words' posting lists, with document frequencies already counted.
type kwIndex struct {
	mu     sync.RWMutex
	ready  bool
	cursor int64 // the last memory_chunk_log seq applied

	slots map[int64]uint32 // chunk id → slot
	meta  []chunkMeta      // by slot
	// lens is each slot's length in tokens, with deadBit set once removed:
	// what scoring reads per posting, kept apart from meta so the walk
	// stays in cache.
	lens  []uint32
	terms map[string]uint32
	post  []postings // by term id
	live  int
	dead  int
	total int64 // the live chunks' lengths, for the average

	strs map[string]string // interned agents, users, paths, times
	acc  sync.Pool         // *kwScratch
	// compactAt is the tombstone count from which removals compact the
	// posting lists (when tombstones are also half the live chunks).
	compactAt int
}

// chunkMeta is what the catalog knows of a chunk; it never changes while
// the chunk lives (a document's new text makes new chunks).
type chunkMeta struct {
	id      int64
	agent   string
	user    string
	path    string
	source  Source
	updated string // memory_docs.updated_at, compared as SQL does
	hash    uint64 // its content hash (contentKey)
	textKey uint64 // its text without case and spacing (collapse)
	length  uint32 // tokens, heading and text (kwIndex.lens marks it removed)
}

// postings are one term's chunks in slot order, with the term's weighted
// frequency in each (heading words count twice, as bm25(memory_fts, 2, 1)).
// Removed chunks stay as tombstones until compact; a search counts the live
// ones for the term's document frequency as it walks the list.
type postings struct {
	slots []uint32
	tf    []uint16
}

// deadBit marks a removed slot in kwIndex.lens.
const deadBit = 1 << 31

// BM25 parameters, FTS5's.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// kwLogKeep is how many memory_chunk_log rows the store keeps; a reader
// further behind rebuilds.
const kwLogKeep = 50000

func newKWIndex() *kwIndex {
	return &kwIndex{slots: map[int64]uint32{}, terms: map[string]uint32{}, strs: map[string]string{}, compactAt: 1024}
}

func (x *kwIndex) isReady() bool {
	x.mu.RLock()
	defer x.mu.RUnlock()
	return x.ready
}

// tokenize calls fn with text's words as FTS5's unicode61 tokenizer with
// remove_diacritics 2 makes them: letters and digits, lower case, accents
// removed; everything else separates.
func tokenize(text string, fn func(string)) {
	var buf []byte
	flush := func() {
		if len(buf) > 0 {
			fn(string(buf))
			buf = buf[:0]
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			switch {
			case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
				buf = append(buf, c)
			case c >= 'A' && c <= 'Z':
				buf = append(buf, c+'a'-'A')
			default:
				flush()
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		i += n
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) && !unicode.Is(unicode.Mn, r) {
			flush()
			continue
		}
		for _, d := range norm.NFD.String(string(unicode.ToLower(r))) {
			if !unicode.Is(unicode.Mn, d) {
				buf = utf8.AppendRune(buf, d)
			}
		}
	}
	flush()
}

// textKey hashes text without case and spacing: chunks with the same key
// are duplicates in a result.
func textKey(text string) uint64 {
	h := fnv.New64a()
	for i, w := range strings.Fields(strings.ToLower(text)) {
		if i > 0 {
			_, _ = h.Write([]byte{' '})
		}
		_, _ = h.Write([]byte(w))
	}
	return h.Sum64()
}

func (x *kwIndex) intern(s string) string {
	if v, ok := x.strs[s]; ok {
		return v
	}
	x.strs[s] = s
	return s
}

// kwRow is a chunk as the index reads it.
type kwRow struct {
	meta          chunkMeta
	heading, text string
}

const kwRowCols = `c.id, c.agent, c.user, c.path, d.source, d.updated_at, c.hash, c.heading, c.text
	FROM memory_chunks c JOIN memory_docs d ON d.id = c.doc_id`

func scanKWRow(scan func(...any) error) (kwRow, error) {
	var r kwRow
	var source, hash string
	err := scan(&r.meta.id, &r.meta.agent, &r.meta.user, &r.meta.path, &source, &r.meta.updated, &hash, &r.heading, &r.text)
	r.meta.source, r.meta.hash = Source(source), contentKey(hash)
	return r, err
}

// add indexes a chunk (replacing an earlier one with its id). The caller
// holds the write lock.
func (x *kwIndex) add(r kwRow) {
	if slot, ok := x.slots[r.meta.id]; ok {
		x.remove(slot)
	}
	slot := uint32(len(x.meta)) //nolint:gosec // chunk counts stay far below 2^32
	m := r.meta
	m.agent, m.user, m.path, m.updated = x.intern(m.agent), x.intern(m.user), x.intern(m.path), x.intern(m.updated)
	m.textKey = textKey(r.text)
	freq := map[string]int{}
	var n uint32
	tokenize(r.heading, func(w string) { freq[w] += 2; n++ })
	tokenize(r.text, func(w string) { freq[w]++; n++ })
	m.length = min(n, deadBit-1)
	for w, f := range freq {
		t, ok := x.terms[w]
		if !ok {
			t = uint32(len(x.post)) //nolint:gosec // vocabulary far below 2^32
			x.terms[w] = t
			x.post = append(x.post, postings{})
		}
		p := &x.post[t]
		p.slots = append(p.slots, slot)
		p.tf = append(p.tf, uint16(min(f, math.MaxUint16))) //nolint:gosec // clamped to the range just before
	}
	x.meta = append(x.meta, m)
	x.lens = append(x.lens, m.length)
	x.slots[m.id] = slot
	x.live++
	x.total += int64(n)
}

// remove forgets a chunk: its slot stays as a tombstone in the posting
// lists until compact. The caller holds the write lock.
func (x *kwIndex) remove(slot uint32) {
	if x.lens[slot]&deadBit != 0 {
		return
	}
	m := &x.meta[slot]
	x.lens[slot] |= deadBit
	delete(x.slots, m.id)
	x.live--
	x.dead++
	x.total -= int64(m.length)
	if x.dead > x.compactAt && x.dead*2 > x.live {
		x.compact()
	}
}

// compact drops tombstones from the posting lists and renumbers the slots.
// The caller holds the write lock.
func (x *kwIndex) compact() {
	remap := make([]uint32, len(x.meta))
	meta := make([]chunkMeta, 0, x.live)
	lens := make([]uint32, 0, x.live)
	x.strs = map[string]string{} // forget deleted documents' paths and times
	for i, m := range x.meta {
		if x.lens[i]&deadBit != 0 {
			remap[i] = math.MaxUint32
			continue
		}
		m.agent, m.user, m.path, m.updated = x.intern(m.agent), x.intern(m.user), x.intern(m.path), x.intern(m.updated)
		remap[i] = uint32(len(meta)) //nolint:gosec // below the old slot count
		x.slots[m.id] = remap[i]
		meta = append(meta, m)
		lens = append(lens, m.length)
	}
	for t := range x.post {
		p := &x.post[t]
		j := 0
		for i, s := range p.slots {
			if r := remap[s]; r != math.MaxUint32 {
				p.slots[j], p.tf[j] = r, p.tf[i]
				j++
			}
		}
		p.slots, p.tf = p.slots[:j], p.tf[:j]
	}
	x.meta, x.lens, x.dead = meta, lens, 0
}

// trim gives the posting lists and the catalog their exact sizes: a build
// appends, and append's spare capacity was about a third of the heap.
func (x *kwIndex) trim() {
	for t := range x.post {
		p := &x.post[t]
		if cap(p.slots) > len(p.slots) {
			p.slots, p.tf = slices.Clone(p.slots), slices.Clone(p.tf)
		}
	}
	x.meta, x.lens = slices.Clone(x.meta), slices.Clone(x.lens)
}

// build reads every chunk and the log's end in one read transaction (one
// snapshot), replacing the index's contents.
func (s *Store) buildKW(ctx context.Context) error {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer func() { _ = tx.Rollback() }()
	fresh := newKWIndex()
	if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(seq), 0) FROM memory_chunk_log").Scan(&fresh.cursor); err != nil {
		return err
	}
	err = eachRow(ctx, tx, "SELECT "+kwRowCols+" ORDER BY c.id", nil, func(scan func(...any) error) error {
		r, err := scanKWRow(scan)
		if err == nil {
			fresh.add(r)
		}
		return err
	})
	if err != nil {
		return err
	}
	fresh.trim()
	x := s.kwIndex()
	if x == nil {
		return nil
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.cursor, x.slots, x.meta, x.lens, x.terms, x.post = fresh.cursor, fresh.slots, fresh.meta, fresh.lens, fresh.terms, fresh.post
	x.live, x.dead, x.total, x.strs, x.ready = fresh.live, fresh.dead, fresh.total, fresh.strs, true
	return nil
}

// syncKW applies what memory_chunk_log recorded since the index's cursor;
// it reports false when the index is not ready or its place in the log was
// trimmed away (a rebuild is started; FTS5 answers meanwhile).
func (s *Store) syncKW(ctx context.Context) bool {
	x := s.kwIndex()
	if x == nil {
		return false
	}
	x.mu.RLock()
	ready, cursor := x.ready, x.cursor
	x.mu.RUnlock()
	if !ready {
		return false
	}
	type change struct {
		seq, id int64
		op      int
	}
	var changes []change
	err := eachRow(ctx, s.db, "SELECT seq, chunk_id, op FROM memory_chunk_log WHERE seq > ? ORDER BY seq LIMIT ?",
		[]any{cursor, kwLogKeep}, func(scan func(...any) error) error {
			var c change
			err := scan(&c.seq, &c.id, &c.op)
			changes = append(changes, c)
			return err
		})
	if err != nil {
		return false
	}
	if len(changes) == 0 {
		return true
	}
	if changes[0].seq != cursor+1 {
		// Rows between were trimmed (or rolled back: AUTOINCREMENT leaves
		// no gap on commit, so a gap means a reader too far behind).
		var lowest int64
		if s.db.QueryRowContext(ctx, "SELECT COALESCE(MIN(seq), 0) FROM memory_chunk_log").Scan(&lowest) != nil || lowest > cursor+1 {
			s.rebuildKW()
			return false
		}
	}
	last := map[int64]int{}
	var added []int64
	for _, c := range changes {
		if c.op == 1 && last[c.id] != 2 {
			added = append(added, c.id)
		}
		last[c.id] = c.op + 1
	}
	var rows []kwRow
	for i := 0; i < len(added); i += 500 {
		ids := added[i:min(i+500, len(added))]
		args := make([]any, len(ids))
		for j, id := range ids {
			args[j] = id
		}
		err := eachRow(ctx, s.db, "SELECT "+kwRowCols+" WHERE c.id IN ("+marks(len(ids))+")", args,
			func(scan func(...any) error) error {
				r, err := scanKWRow(scan)
				rows = append(rows, r)
				return err
			})
		if err != nil {
			return false
		}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.cursor != cursor {
		return x.ready // another search applied them meanwhile
	}
	for _, c := range changes {
		if slot, ok := x.slots[c.id]; ok {
			x.remove(slot) // deleted, or about to be read again
		}
	}
	for _, r := range rows {
		if last[r.meta.id] == 2 { // its last change is an insert: it lives
			x.add(r)
		}
	}
	x.cursor = changes[len(changes)-1].seq
	return true
}

// rebuildKW marks the index not ready and rebuilds it in the indexer's
// lifetime.
func (s *Store) rebuildKW() {
	x := s.kwIndex()
	x.mu.Lock()
	was := x.ready
	x.ready = false
	x.mu.Unlock()
	if !was {
		return // a build is running
	}
	s.annMu.Lock()
	defer s.annMu.Unlock()
	if ctx := s.runCtx; ctx != nil { // else the indexer is stopping
		s.annWG.Go(func() {
			if err := s.buildKW(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("memory: building the keyword index; FTS5 answers", "err", err)
			}
		})
	}
}

// trimKWLog keeps the newest keep rows of memory_chunk_log, deleting when
// there are twice as many.
func trimKWLog(ctx context.Context, tx *sql.Tx, keep int64) error {
	var lo, hi int64
	// Two subqueries: SQLite answers a lone MIN or MAX of the key from the
	// B-tree's edge, but both in one SELECT scan the table (10 ms at 100,000
	// rows, on every write).
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE((SELECT MIN(seq) FROM memory_chunk_log), 0),
		COALESCE((SELECT MAX(seq) FROM memory_chunk_log), 0)`).Scan(&lo, &hi); err != nil {
		return fmt.Errorf("read the chunk log: %w", err)
	}
	if hi-lo < 2*keep {
		return nil
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM memory_chunk_log WHERE seq <= ?", hi-keep); err != nil {
		return fmt.Errorf("trim the chunk log: %w", err)
	}
	return nil
}

// kwIndex is the in-process keyword index, nil when no indexer runs.
func (s *Store) kwIndex() *kwIndex {
	s.annMu.Lock()
	defer s.annMu.Unlock()
	return s.kw
}

// startKW builds the keyword index in the indexer's lifetime.
func (s *Store) startKW(ctx context.Context) {
	x := newKWIndex()
	s.annMu.Lock()
	s.kw = x
	s.annMu.Unlock()
	s.annWG.Go(func() {
		if err := s.buildKW(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("memory: building the keyword index; FTS5 answers", "err", err)
		}
	})
}

// kwStatus describes the keyword channel for the status line.
func (s *Store) kwStatus() string {
	x := s.kwIndex()
	if x == nil {
		return "FTS5"
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if !x.ready {
		return "FTS5 (the in-memory keyword index is building)"
	}
	return fmt.Sprintf("in memory (BM25 over %d chunks)", x.live)
}
