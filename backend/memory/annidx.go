package memory

import (
	"context"
	"fmt"
	"sync"

	"github.com/warren-dev/warren/backend/memory/ann"
)

// annMin is the size from which a vector table gets an in-process HNSW
// index: below it sqlite-vec's exact scan answers in a few milliseconds.
const annMin = 5000

// annIndex is the approximate index over one vector table, built from the
// vectors SQLite holds (the source of truth) and kept up to date as chunks
// are embedded and dropped. Until it is built, search uses the exact scan.
type annIndex struct {
	mu       sync.RWMutex
	idx      *ann.HNSW
	part     map[int64]string // chunk id → vec0 partition
	ready    bool
	building bool
	// log holds the changes made while the build runs, replayed after it.
	log []annChange
}

type annChange struct {
	id   int64
	part string
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
	ai := &annIndex{idx: ann.NewHNSW(v.ID.Dims, ann.Options{}), part: map[int64]string{}, building: true}
	s.anns[v.Name] = ai
	go s.buildANN(s.runCtx, v, ai)
	return ai
}

// startANN starts the approximate indexes of the ready tables whose
// embedder is known, when the indexer starts: the first searches need not
// wait for them, nor start them.
func (s *Store) startANN(ctx context.Context) {
	all, err := s.indexes(ctx, s.db)
	if err != nil {
		return
	}
	for _, v := range all {
		if v.Ready && s.embedderFor(v.ID) != nil {
			s.annFor(v)
		}
	}
}

// buildANN loads the table's vectors from SQLite (the embedding cache, by
// the chunks the table holds) into the index, then replays what changed
// meanwhile.
func (s *Store) buildANN(ctx context.Context, v vecIndex, ai *annIndex) {
	parts := map[int64]string{}
	var ids []int64
	var vecs [][]float32
	err := eachRow(ctx, s.db, `SELECT c.id, c.agent, d.source, e.vec FROM memory_embedded m
		JOIN memory_chunks c ON c.id = m.chunk_id JOIN memory_docs d ON d.id = c.doc_id
		JOIN memory_embed_cache e ON e.hash = c.hash AND e.kind = ? AND e.model = ? AND e.dims = ?
		WHERE m.idx = ?`, []any{v.ID.Kind, v.ID.Model, v.ID.Dims, v.Name}, func(scan func(...any) error) error {
		var id int64
		var agent, source string
		var blob []byte
		if err := scan(&id, &agent, &source, &blob); err != nil {
			return err
		}
		if len(blob) != 4*v.ID.Dims {
			return nil
		}
		parts[id] = partition(agent, Source(source))
		ids = append(ids, id)
		vecs = append(vecs, blobVec(blob))
		return nil
	})
	if err == nil {
		err = ai.idx.Build(ctx, func(yield func(int64, []float32) bool) {
			for i, id := range ids {
				if !yield(id, vecs[i]) {
					return
				}
			}
		}, nil)
	}
	ai.mu.Lock()
	defer ai.mu.Unlock()
	ai.building = false
	if err != nil {
		s.log.Warn("memory: building the vector index; search stays exact", "table", v.Name, "err", err)
		s.annMu.Lock()
		delete(s.anns, v.Name)
		s.annMu.Unlock()
		return
	}
	ai.part = parts
	for _, c := range ai.log {
		ai.apply(c)
	}
	ai.log = nil
	ai.ready = true
}

func (ai *annIndex) apply(c annChange) {
	if c.vec == nil {
		ai.idx.Remove(c.id)
		delete(ai.part, c.id)
		return
	}
	if err := ai.idx.Add(c.id, c.vec); err == nil {
		ai.part[c.id] = c.part
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
	ai.mu.RLock()
	defer ai.mu.RUnlock()
	if !ai.ready {
		return nil, false
	}
	want := map[string]bool{}
	for _, p := range parts {
		want[p] = true
	}
	return ai.idx.Search(q, k, func(id int64) bool { return want[ai.part[id]] }), true
}

// dropANN forgets a dropped table's index.
func (s *Store) dropANN(table string) {
	s.annMu.Lock()
	defer s.annMu.Unlock()
	delete(s.anns, table)
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
		return "exact (approximate index building)"
	}
	return fmt.Sprintf("approximate (HNSW, %d vectors)", ai.idx.Len())
}
