package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/warren-dev/warren/backend/memory/embed"
)

// The indexer: the background embedding of pending chunks, the index
// status, catch-up before a search, and rebuilds when the embedder changes.

// IndexStatus is the state of the vector index, for the UI, CLI and tools.
type IndexStatus struct {
	// Docs and Chunks count the memory and imported documents (not
	// Warren's own docs).
	Docs   int `json:"docs"`
	Chunks int `json:"chunks"`
	// Embedder is the current embedder ("" when keyword search only).
	Embedder *embed.Identity `json:"embedder,omitempty"`
	// Embedded counts the chunks in the current embedder's vector table.
	Embedded int `json:"embedded"`
	// Building is set while a new vector table fills (a first build, or
	// after the embedder changed); search uses the ready one meanwhile.
	Building bool `json:"building"`
	// Ready names what the ready vector table holds.
	Ready *embed.Identity `json:"ready,omitempty"`
	// Index says how the vectors are searched: exact, or approximate.
	Index string `json:"index,omitempty"`
	// Keywords says how words are searched: by FTS5, or by the keyword
	// index a running Warren keeps in memory.
	Keywords  string `json:"keywords"`
	LastError string `json:"last_error,omitempty"`
}

// Status reports documents, chunks and how far the vectors are.
func (s *Store) Status(ctx context.Context) (IndexStatus, error) {
	var st IndexStatus
	// Warren's own docs (search_system_knowledge) are not the user's memory:
	// they are indexed alike but not counted.
	if err := s.db.QueryRowContext(ctx, `SELECT (SELECT COUNT(*) FROM memory_docs WHERE source != 'system'),
		(SELECT COUNT(*) FROM memory_chunks c JOIN memory_docs d ON d.id = c.doc_id WHERE d.source != 'system')`).
		Scan(&st.Docs, &st.Chunks); err != nil {
		return st, fmt.Errorf("memory status: %w", err)
	}
	all, err := s.indexes(ctx, s.db)
	if err != nil {
		return st, err
	}
	st.Keywords = s.kwStatus()
	cur := s.Embedder()
	var curID embed.Identity
	if cur != nil {
		curID = s.knownIdentity(cur)
	}
	for _, v := range all {
		if v.Ready {
			id := v.ID
			st.Ready = &id
			st.Index = s.annStatus(v.Name)
		}
		if cur != nil && v.ID == curID {
			st.Building = !v.Ready
			if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_embedded m JOIN memory_chunks c ON c.id = m.chunk_id
				JOIN memory_docs d ON d.id = c.doc_id WHERE m.idx = ? AND d.source != 'system'`, v.Name).Scan(&st.Embedded); err != nil {
				return st, err
			}
		}
	}
	if cur != nil {
		st.Embedder = &curID
	}
	s.mu.Lock()
	st.LastError = s.lastErr
	s.mu.Unlock()
	return st, nil
}

// Run embeds chunks in the background until ctx ends: after writes
// (debounced), and a backfill of everything not yet embedded at start.
func (s *Store) Run(ctx context.Context) error {
	s.annMu.Lock()
	s.runCtx = ctx
	s.annMu.Unlock()
	defer func() {
		s.annMu.Lock()
		s.runCtx = nil // no build starts from now on (they start under annMu)
		s.annMu.Unlock()
		s.annWG.Wait() // the builds end with ctx
		s.saveANNs(context.WithoutCancel(ctx), true)
		s.annMu.Lock()
		s.anns, s.kw = map[string]*annIndex{}, nil
		s.annMu.Unlock()
	}()
	s.startKW(ctx)
	s.startANN(ctx)
	retry := time.Second
	for {
		err := s.indexPending(ctx)
		s.setErr(err)
		s.saveANNs(ctx, false)
		wait := time.Hour
		if err != nil && ctx.Err() == nil {
			s.log.Warn("memory: indexing", "err", err)
			wait, retry = retry, min(retry*2, time.Minute)
		} else {
			retry = time.Second
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.wake:
			select { // debounce: more writes may follow
			case <-ctx.Done():
				return nil
			case <-time.After(s.opts.Debounce):
			}
		case <-time.After(wait):
		}
	}
}

// batchSize is how many chunks are embedded per call.
const batchSize = 64

// progressEvery is how often a long indexing pass reports progress (each
// report counts rows: per batch, it cost more than the batch at 100,000
// chunks).
const progressEvery = 500 * time.Millisecond

// indexPending embeds every chunk the current embedder's table lacks, in
// batches, then swaps a finished build in. One pass runs at a time.
func (s *Store) indexPending(ctx context.Context) error {
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	e := s.Embedder()
	if e == nil {
		return nil
	}
	// Writes from here on set it again; a failed pass leaves it set.
	s.pending.Store(false)
	err := s.indexAll(ctx, e)
	if err != nil {
		s.pending.Store(true)
	}
	return err
}

func (s *Store) indexAll(ctx context.Context, e embed.Embedder) error {
	id, err := s.identify(ctx, e)
	if err != nil {
		return err
	}
	idx, err := s.ensureIndex(ctx, id)
	if err != nil {
		return err
	}
	var after int64 // chunks are taken in id order: each batch starts where the last ended
	reported := time.Now()
	for {
		n, last, err := s.embedBatch(ctx, e, idx, after)
		if err != nil {
			return err
		}
		after = last
		if n == 0 || time.Since(reported) >= progressEvery {
			reported = time.Now()
			s.reportProgress(ctx)
		}
		if n == 0 {
			break
		}
	}
	if !idx.Ready {
		ok, err := s.promote(ctx, idx)
		if err != nil || !ok {
			return err
		}
	}
	// The table may have grown past the size that gets an approximate
	// index (a no-op when it has one, or the indexer is not running).
	s.annFor(idx)
	return nil
}

type pendingChunk struct {
	id        int64
	partition string
	text      string
	hash      string
}

// partition is the vec0 partition a chunk's vector lives in: its agent's
// (or the global "") for memory documents, and separate ones for imported
// folders and Warren's docs, so a search of one source never wades through
// the others' vectors (and never comes back short after filtering).
func partition(agent string, src Source) string {
	switch src {
	case SourceImport:
		return "import:" + agent
	case SourceSystem:
		return "system:"
	}
	return agent
}

// embedBatch embeds up to batchSize missing chunks with ids above after;
// it returns how many it read and the last id. A chunk written meanwhile
// with a lower id is left to the next pass (Put wakes the indexer).
func (s *Store) embedBatch(ctx context.Context, e embed.Embedder, idx vecIndex, after int64) (int, int64, error) {
	var batch []pendingChunk
	err := eachRow(ctx, s.db, `SELECT c.id, c.agent, d.source, c.heading, c.text, c.hash FROM memory_chunks c
		JOIN memory_docs d ON d.id = c.doc_id
		WHERE c.id > ? AND NOT EXISTS (SELECT 1 FROM memory_embedded m WHERE m.idx = ? AND m.chunk_id = c.id)
		ORDER BY c.id LIMIT ?`,
		[]any{after, idx.Name, batchSize}, func(scan func(...any) error) error {
			var p pendingChunk
			var heading, agent, source string
			if err := scan(&p.id, &agent, &source, &heading, &p.text, &p.hash); err != nil {
				return err
			}
			p.partition = partition(agent, Source(source))
			if heading != "" {
				p.text = heading + "\n" + p.text
			}
			batch = append(batch, p)
			return nil
		})
	if err != nil || len(batch) == 0 {
		return 0, after, err
	}
	last := batch[len(batch)-1].id
	vecs, fresh, err := s.vectors(ctx, e, idx.ID, batch)
	if err != nil {
		return 0, after, err
	}
	var added []annChange
	err = s.tx(ctx, func(tx *sql.Tx) error {
		added = added[:0]
		if err := cacheVectors(ctx, tx, idx.ID, batch, vecs, fresh); err != nil {
			return err
		}
		mark, err := tx.PrepareContext(ctx, `INSERT OR IGNORE INTO memory_embedded (idx, chunk_id)
			SELECT ?, id FROM memory_chunks WHERE id = ?`)
		if err != nil {
			return err
		}
		defer func() { _ = mark.Close() }()
		put, err := tx.PrepareContext(ctx, "INSERT OR REPLACE INTO "+idx.Name+"(rowid, agent, embedding) VALUES (?, ?, ?)") //nolint:gosec // validTable-checked name
		if err != nil {
			return err
		}
		defer func() { _ = put.Close() }()
		for i, p := range batch {
			// The chunk may have been replaced since it was read: only a
			// chunk that still exists gets its vector.
			res, err := mark.ExecContext(ctx, idx.Name, p.id)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue
			}
			if _, err := put.ExecContext(ctx, p.id, p.partition, vecBlob(vecs[i])); err != nil {
				return fmt.Errorf("store vector: %w", err)
			}
			added = append(added, annChange{id: p.id, part: p.partition, hash: p.hash, vec: vecs[i]})
		}
		return nil
	})
	if err == nil && len(added) > 0 {
		s.annChanged(idx.Name, added...)
	}
	return len(batch), last, err
}

// vectors embeds a batch, taking what the cache holds (one query for the
// batch); fresh lists the ones the embedder made, for the cache.
func (s *Store) vectors(ctx context.Context, e embed.Embedder, id embed.Identity, batch []pendingChunk) ([][]float32, []int, error) {
	out := make([][]float32, len(batch))
	args := []any{id.Kind, id.Model, id.Dims}
	for _, p := range batch {
		args = append(args, p.hash)
	}
	cached := map[string][]float32{}
	err := eachRow(ctx, s.db, "SELECT hash, vec FROM memory_embed_cache WHERE kind = ? AND model = ? AND dims = ? AND hash IN ("+
		marks(len(batch))+")", args, func(scan func(...any) error) error {
		var h string
		var b []byte
		if err := scan(&h, &b); err != nil {
			return err
		}
		if len(b) == 4*id.Dims {
			cached[h] = blobVec(b)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var missing []int
	for i, p := range batch {
		if v, ok := cached[p.hash]; ok {
			out[i] = v
		} else {
			missing = append(missing, i)
		}
	}
	if len(missing) == 0 {
		return out, nil, nil
	}
	texts := make([]string, len(missing))
	for j, i := range missing {
		texts[j] = batch[i].text
	}
	vecs, err := e.Embed(ctx, texts)
	if err != nil {
		return nil, nil, fmt.Errorf("embed with %s/%s: %w", id.Kind, id.Model, err)
	}
	if len(vecs) != len(texts) {
		return nil, nil, fmt.Errorf("embedder %s/%s returned %d vectors for %d texts", id.Kind, id.Model, len(vecs), len(texts))
	}
	for j, i := range missing {
		if len(vecs[j]) != id.Dims {
			return nil, nil, fmt.Errorf("embedder %s/%s returned %d dimensions, not %d", id.Kind, id.Model, len(vecs[j]), id.Dims)
		}
		out[i] = vecs[j]
	}
	return out, missing, nil
}

// cacheVectors stores the freshly made vectors in the embedding cache, in
// the batch's transaction.
func cacheVectors(ctx context.Context, tx *sql.Tx, id embed.Identity, batch []pendingChunk, vecs [][]float32, fresh []int) error {
	if len(fresh) == 0 {
		return nil
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT OR REPLACE INTO memory_embed_cache (hash, kind, model, dims, vec) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer func() { _ = stmt.Close() }()
	for _, i := range fresh {
		if _, err := stmt.ExecContext(ctx, batch[i].hash, id.Kind, id.Model, id.Dims, vecBlob(vecs[i])); err != nil {
			return fmt.Errorf("cache vector: %w", err)
		}
	}
	return nil
}

// promote makes a completed build the ready index and drops the others,
// in one transaction: search moves from the old table to the new at once.
func (s *Store) promote(ctx context.Context, idx vecIndex) (bool, error) {
	promoted := false
	err := s.tx(ctx, func(tx *sql.Tx) error {
		var missing int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM memory_chunks c WHERE NOT EXISTS
			(SELECT 1 FROM memory_embedded m WHERE m.idx = ? AND m.chunk_id = c.id)`, idx.Name).Scan(&missing); err != nil {
			return err
		}
		if missing > 0 {
			return nil // written meanwhile: the next pass finishes it
		}
		all, err := s.indexes(ctx, tx)
		if err != nil {
			return err
		}
		for _, v := range all {
			if v.Name != idx.Name {
				if err := s.dropIndex(ctx, tx, v.Name); err != nil {
					return err
				}
			}
		}
		_, err = tx.ExecContext(ctx, "UPDATE memory_indexes SET state = 'ready' WHERE name = ?", idx.Name)
		promoted = err == nil
		return err
	})
	return promoted && err == nil, err
}

// catchUpMax is how many pending chunks a search embeds itself before it
// runs, so a short-lived process (the CLI) finds what was just written;
// more than that is the background indexer's work.
const catchUpMax = 128

// catchUp embeds a few pending chunks before a search, within a second or
// two; anything it cannot do is left to the indexer. It looks only when
// something may be pending: a write since the last full pass, or chunks
// another process added (a higher id than that pass saw).
func (s *Store) catchUp(ctx context.Context) {
	if s.Embedder() == nil {
		return
	}
	var maxID int64
	if err := s.db.QueryRowContext(ctx, "SELECT COALESCE(MAX(id), 0) FROM memory_chunks").Scan(&maxID); err != nil {
		return
	}
	if !s.pending.Load() && maxID <= s.seenID.Load() {
		return
	}
	var pending int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM memory_chunks c WHERE NOT EXISTS
		(SELECT 1 FROM memory_embedded m WHERE m.chunk_id = c.id) LIMIT ?)`,
		catchUpMax+1).Scan(&pending)
	if err != nil || pending > catchUpMax {
		return
	}
	if pending == 0 {
		s.seenID.Store(maxID)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if s.indexPending(ctx) == nil {
		s.seenID.Store(maxID)
	}
}

// IndexNow embeds everything pending in the calling goroutine (the CLI's
// reindex), reporting progress through Options.OnProgress.
func (s *Store) IndexNow(ctx context.Context) error {
	err := s.indexPending(ctx)
	s.setErr(err)
	return err
}

// Reindex chunks every document again and drops the vector tables: the
// keyword index is rebuilt at once, vectors by the indexer (from the
// embedding cache where the text is unchanged).
func (s *Store) Reindex(ctx context.Context) error {
	var ids []int64
	err := eachRow(ctx, s.db, "SELECT id FROM memory_docs ORDER BY id", nil, func(scan func(...any) error) error {
		var id int64
		err := scan(&id)
		ids = append(ids, id)
		return err
	})
	if err != nil {
		return err
	}
	err = s.tx(ctx, func(tx *sql.Tx) error {
		all, err := s.indexes(ctx, tx)
		if err != nil {
			return err
		}
		for _, v := range all {
			if err := s.dropIndex(ctx, tx, v.Name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		err := s.tx(ctx, func(tx *sql.Tx) error {
			var agent, user, path, content string
			if err := tx.QueryRowContext(ctx, "SELECT agent, user, path, content FROM memory_docs WHERE id = ?", id).
				Scan(&agent, &user, &path, &content); err != nil {
				if errors.Is(err, sql.ErrNoRows) {
					return nil // deleted meanwhile
				}
				return err
			}
			return s.rechunk(ctx, tx, id, agent, user, path, content)
		})
		if err != nil {
			return err
		}
	}
	s.poke()
	return nil
}

// knownIdentity is e's identity as registered (dimensions discovered), or
// as it reports itself.
func (s *Store) knownIdentity(e embed.Embedder) embed.Identity {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, x := range s.embedders {
		if x == e {
			return id
		}
	}
	return e.Identity()
}
