package memory

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/memory/ann"
)

// annOptions shape the graph for text embeddings, whose neighbours crowd
// together (the 10th and the 30th almost equally near) and whose queries (a
// few words) sit apart from the chunks: at 100,000 chunks M 16 and
// EfConstruction 100 reached recall@10 0.86 at ef 400; 32 links (64 on level
// 0), EfConstruction 200 and a second linking pass reach 0.97 at ef 500,
// with a build costing 1.65× the CPU (docs/benchmarks.md, "Vector index").
// A file saved with other options is refused at start and rebuilt.
var annOptions = ann.Options{M: 32, EfConstruction: 200, Refine: true}

// annMin is the size from which a vector table gets an in-process HNSW
// index: below it sqlite-vec's exact scan answers in a few milliseconds.
const annMin = 5000

// annIndex is the approximate index over one vector table, built from the
// vectors SQLite holds (the source of truth) or loaded from its file, and
// kept up to date as chunks are embedded and dropped. Until it is ready,
// search uses the exact scan.
type annIndex struct {
	mu   sync.RWMutex
	idx  *ann.HNSW
	meta map[int64]annMeta // by chunk id
	// parts counts meta's vectors by partition, so a search wanting every
	// vector the index holds (one agent's memory, the usual case) walks
	// without a filter.
	parts    map[string]int
	ready    bool
	building bool
	loaded   bool // from its file (else built from SQLite)
	// done and total are the build's progress (vectors linked).
	done, total int
	// changes counts what was applied since it was built; saved is its
	// value when the file was last written.
	changes, saved int
	savedAt        time.Time
	// log holds the changes made while the build runs, replayed after it.
	log []annChange
}

// annMeta is what the index keeps per vector besides the vector: the vec0
// partition it answers for, and its chunk's content key (for the file).
type annMeta struct {
	part string
	key  uint64
}

type annChange struct {
	id   int64
	part string
	hash string
	vec  []float32 // nil: removed
}

// annFor returns the table's index, starting its build (in the indexer's
// lifetime) when the table is large enough and none runs; nil when the
// exact scan should answer.
func (s *Store) annFor(v vecIndex) *annIndex {
	s.annMu.Lock()
	defer s.annMu.Unlock()
	if ai := s.anns[v.Name]; ai != nil {
		return ai
	}
	if s.runCtx == nil {
		return nil // a short-lived process (the CLI): the exact scan will do
	}
	var n int
	if err := s.db.QueryRowContext(s.runCtx, "SELECT COUNT(*) FROM memory_embedded WHERE idx = ?", v.Name).Scan(&n); err != nil || n < s.opts.ANNMin {
		return nil
	}
	ai := &annIndex{idx: ann.NewHNSW(v.ID.Dims, annOptions), meta: map[int64]annMeta{}, parts: map[string]int{}, building: true}
	s.anns[v.Name] = ai
	s.annWG.Add(1)
	go func() {
		defer s.annWG.Done()
		s.buildANN(s.runCtx, v, ai)
	}()
	return ai
}

// startANN starts the approximate indexes of the ready tables whose
// embedder is known, when the indexer starts (from their files, or built
// with progress), and deletes files of tables that are gone.
func (s *Store) startANN(ctx context.Context) {
	all, err := s.indexes(ctx, s.db)
	if err != nil {
		return
	}
	s.removeStaleANNFiles(ctx, all)
	for _, v := range all {
		if v.Ready && s.embedderFor(v.ID) != nil {
			s.annFor(v)
		}
	}
}

// annRow is one vector of a table as SQLite holds it.
type annRow struct {
	id   int64
	part string
	hash string
	vec  []float32
}

// annRows lists the table's vectors; withVec false leaves the vectors out
// (checking a loaded file needs only ids and content hashes), ids limits it.
func (s *Store) annRows(ctx context.Context, v vecIndex, withVec bool, ids []int64) ([]annRow, error) {
	cols, join := "NULL", ""
	args := []any{v.Name}
	if withVec {
		cols = "e.vec"
		join = "JOIN memory_embed_cache e ON e.hash = c.hash AND e.kind = ? AND e.model = ? AND e.dims = ?"
		args = []any{v.ID.Kind, v.ID.Model, v.ID.Dims, v.Name}
	}
	where := ""
	if ids != nil {
		where = " AND c.id IN (" + marks(len(ids)) + ")"
		for _, id := range ids {
			args = append(args, id)
		}
	}
	var out []annRow
	err := eachRow(ctx, s.db, `SELECT c.id, c.agent, d.source, c.hash, `+cols+` FROM memory_embedded m
		JOIN memory_chunks c ON c.id = m.chunk_id JOIN memory_docs d ON d.id = c.doc_id `+join+`
		WHERE m.idx = ?`+where, args, func(scan func(...any) error) error {
		var r annRow
		var agent, source string
		var blob []byte
		if err := scan(&r.id, &agent, &source, &r.hash, &blob); err != nil {
			return err
		}
		if withVec {
			if len(blob) != 4*v.ID.Dims {
				return nil
			}
			r.vec = blobVec(blob)
		}
		r.part = partition(agent, Source(source))
		out = append(out, r)
		return nil
	})
	return out, err
}

// buildANN makes the index: from its file when one fits (then brought up
// to date with SQLite), else from the vectors SQLite holds, reporting
// progress; then replays what changed meanwhile and saves the file.
func (s *Store) buildANN(ctx context.Context, v vecIndex, ai *annIndex) {
	// Until ready, only this goroutine touches idx, meta and changes (a
	// write meanwhile goes to the log); they are set under mu all the same.
	rows, err := s.annRows(ctx, v, false, nil)
	loaded := err == nil && s.loadANN(ctx, v, ai, rows)
	if err == nil && !loaded {
		ai.mu.Lock()
		ai.idx, ai.meta, ai.changes = ann.NewHNSW(v.ID.Dims, annOptions), map[int64]annMeta{}, 1 // 1: not saved yet
		ai.mu.Unlock()
		if rows, err = s.annRows(ctx, v, true, nil); err == nil {
			s.annProgress(ai, 0, len(rows))
			err = ai.idx.Build(ctx, func(yield func(int64, []float32) bool) {
				for _, r := range rows {
					ai.meta[r.id] = annMeta{part: r.part, key: contentKey(r.hash)}
					if !yield(r.id, r.vec) {
						return
					}
				}
			}, func(done, total int) { s.annProgress(ai, done, total) })
		}
	}
	ai.mu.Lock()
	ai.building = false
	if err != nil {
		ai.mu.Unlock()
		s.log.Warn("memory: building the vector index; search stays exact", "table", v.Name, "err", err)
		s.annMu.Lock()
		delete(s.anns, v.Name)
		s.annMu.Unlock()
		return
	}
	ai.recount()
	for _, c := range ai.log {
		ai.apply(c)
	}
	ai.log, ai.ready, ai.loaded = nil, true, loaded
	dirty := ai.changes != ai.saved
	ai.mu.Unlock()
	s.reportProgress(ctx)
	if dirty {
		if err := s.saveANN(ctx, v, ai); err != nil {
			s.log.Warn("memory: saving the vector index (it is rebuilt at the next start)", "err", err)
		}
	}
}

// annProgress records the build's progress and reports it (the
// indexer's progress events), at most every progressEvery.
func (s *Store) annProgress(ai *annIndex, done, total int) {
	ai.mu.Lock()
	ai.done, ai.total = done, total
	ai.mu.Unlock()
	s.annMu.Lock()
	due := done == total || time.Since(s.annReported) >= progressEvery
	if due {
		s.annReported = time.Now()
	}
	s.annMu.Unlock()
	if due {
		s.reportProgress(context.Background())
	}
}

// reportProgress sends the status to Options.OnProgress.
func (s *Store) reportProgress(ctx context.Context) {
	if s.opts.OnProgress == nil {
		return
	}
	if st, err := s.Status(ctx); err == nil {
		s.opts.OnProgress(st)
	}
}

// saveANNs writes the indexes changed since their last save: all of them
// (force, at shutdown), or those whose file is over saveEvery old or
// missed a tenth of the index. A kill between saves costs only the
// catching up at the next start.
func (s *Store) saveANNs(ctx context.Context, force bool) {
	s.annMu.Lock()
	type pending struct {
		v  vecIndex
		ai *annIndex
	}
	var due []pending
	for name, ai := range s.anns {
		ai.mu.RLock()
		ok := false
		if n := ai.changes - ai.saved; ai.ready && n > 0 {
			ok = force || time.Since(ai.savedAt) >= saveEvery || n*10 >= ai.idx.Len()
		}
		ai.mu.RUnlock()
		if ok {
			due = append(due, pending{vecIndex{Name: name}, ai})
		}
	}
	s.annMu.Unlock()
	if len(due) == 0 {
		return
	}
	all, err := s.indexes(ctx, s.db)
	if err != nil {
		return
	}
	for _, p := range due {
		for _, v := range all {
			if v.Name == p.v.Name {
				if err := s.saveANN(ctx, v, p.ai); err != nil {
					s.log.Warn("memory: saving the vector index", "err", err)
				}
			}
		}
	}
}

// saveEvery is how often a changing index is saved at most.
const saveEvery = 2 * time.Minute

func (ai *annIndex) apply(c annChange) {
	ai.changes++
	old, had := ai.meta[c.id]
	if c.vec == nil {
		ai.idx.Remove(c.id)
		if had {
			delete(ai.meta, c.id)
			ai.parts[old.part]--
		}
		return
	}
	if err := ai.idx.Add(c.id, c.vec); err == nil {
		if had {
			ai.parts[old.part]--
		}
		ai.meta[c.id] = annMeta{part: c.part, key: contentKey(c.hash)}
		ai.parts[c.part]++
	}
}

// recount counts meta's vectors by partition; the caller holds ai.mu or
// is the only one using ai.
func (ai *annIndex) recount() {
	ai.parts = map[string]int{}
	for _, m := range ai.meta {
		ai.parts[m.part]++
	}
}

// annChange records a change for every index (replayed later by one that
// is still building).
func (s *Store) annChanged(table string, changes ...annChange) {
	s.annMu.Lock()
	var targets []*annIndex
	for name, ai := range s.anns {
		if table == "" || name == table {
			targets = append(targets, ai)
		}
	}
	s.annMu.Unlock()
	for _, ai := range targets {
		ai.mu.Lock()
		if ai.building {
			ai.log = append(ai.log, changes...)
		} else {
			for _, c := range changes {
				ai.apply(c)
			}
		}
		ai.mu.Unlock()
	}
}

// search asks the index for the k nearest chunks in the given partitions;
// ok false means it is not ready (the exact scan answers).
func (ai *annIndex) search(q []float32, k int, parts []string) ([]ann.Hit, bool) {
	return ai.searchEf(q, k, 0, parts)
}

// annEf is the candidate list size of a search for k: a wide one, since the
// whole pool (k = 50) feeds the fusion, not only the top 10, and text
// embeddings crowd together (the 10th and the 30th neighbour are almost
// equally near). At 100,000 chunks and annOptions, recall@10 was 0.963 at
// ef 400 and 0.972 at 500 (100 d). See docs/benchmarks.md, "Vector index".
func annEf(k int) int { return max(8*k, 500) }

// searchEf is search with the candidate list size ef (0: annEf).
func (ai *annIndex) searchEf(q []float32, k, ef int, parts []string) ([]ann.Hit, bool) {
	ai.mu.RLock()
	defer ai.mu.RUnlock()
	if !ai.ready {
		return nil, false
	}
	if ef <= 0 {
		ef = annEf(k)
	}
	want := make(map[string]bool, len(parts))
	wanted := 0
	for _, p := range parts {
		if !want[p] {
			want[p] = true
			wanted += ai.parts[p]
		}
	}
	var filter func(id int64) bool
	if wanted < len(ai.meta) {
		// A map lookup per visited node: only when some vectors are not wanted.
		filter = func(id int64) bool { return want[ai.meta[id].part] }
	}
	return ai.idx.SearchEf(q, k, ef, filter), true
}

// dropANN forgets a dropped table's index.
func (s *Store) dropANN(table string) {
	s.annMu.Lock()
	delete(s.anns, table)
	s.annMu.Unlock()
	if path := s.annPath(context.Background(), table); path != "" {
		_ = os.Remove(path) //nolint:gosec // the index directory and a validTable-checked name
	}
}

// annStatus describes the index for the status line.
func (s *Store) annStatus(table string) string {
	s.annMu.Lock()
	ai := s.anns[table]
	s.annMu.Unlock()
	if ai == nil {
		return "exact"
	}
	ai.mu.RLock()
	defer ai.mu.RUnlock()
	if !ai.ready {
		if ai.total > 0 {
			return fmt.Sprintf("exact (approximate index building: %d of %d vectors)", ai.done, ai.total)
		}
		return "exact (approximate index building)"
	}
	how := "built"
	if ai.loaded {
		how = "loaded"
	}
	return fmt.Sprintf("approximate (HNSW, %d vectors, %s)", ai.idx.Len(), how)
}
