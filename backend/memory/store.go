// Package memory keeps agents' memory documents in SQLite and finds them
// again: heading-aware chunks indexed by FTS5 (words, and trigrams for code
// and CJK) and by vectors in sqlite-vec tables, searched together with
// reciprocal rank fusion. SQLite is the only store; vectors are made in the
// background, so keyword search works the moment a document is written,
// with or without an embedder.
package memory

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warren-dev/warren/backend/memory/embed"
)

// Options configure a Store.
type Options struct {
	// Embedder makes vectors; nil means keyword search only.
	Embedder embed.Embedder
	// Now is the clock (tests); default time.Now.
	Now func() time.Time
	// Log receives indexing problems; default slog.Default().
	Log *slog.Logger
	// Debounce is how long the indexer waits after a write for more
	// writes before embedding. Default 300 ms.
	Debounce time.Duration
	// OnProgress, when set, hears about the background indexing.
	OnProgress func(IndexStatus)
	// IndexDir is where the approximate indexes are saved between runs;
	// default the database file's directory (none for an in-memory one).
	IndexDir string
	// ANNMin is the vector count from which a table gets an approximate
	// index (default 5,000; tests lower it).
	ANNMin int
}

// Store is the memory store over Warren's SQLite database.
type Store struct {
	db   *sql.DB
	opts Options
	log  *slog.Logger
	now  func() time.Time
	wake chan struct{}

	indexMu sync.Mutex // one indexing pass at a time
	// pending is set by writes (and at start) until an indexing pass has
	// run after them; seenID is the highest chunk id known embedded. A
	// search looks for unembedded chunks only when either says so.
	pending atomic.Bool
	seenID  atomic.Int64

	// anns are the in-process approximate indexes by vector table; runCtx
	// is the indexer's lifetime (nil when no indexer runs: no index is
	// built); drops holds, per open transaction, the chunks whose vectors
	// it deleted, for the indexes once it commits.
	annMu  sync.Mutex
	anns   map[string]*annIndex
	runCtx context.Context
	drops  map[*sql.Tx][]int64
	// annWG waits for index builds; annReported is when build progress
	// was last reported.
	annWG       sync.WaitGroup
	annReported time.Time
	// annDirPath is where index files go, once annDirKnown.
	annDirPath  string
	annDirKnown bool
	// kw is the in-process keyword index and chunk catalog (kwindex.go),
	// kept while the indexer runs.
	kw *kwIndex

	mu sync.Mutex
	// embedders by identity: the current one, and earlier ones still
	// able to embed queries for the index that stays ready while a new
	// one builds.
	current   embed.Embedder
	embedders map[embed.Identity]embed.Embedder
	lastErr   string
}

// New returns a store over db (migrated by backend/store).
func New(db *sql.DB, opts Options) *Store {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	if opts.Debounce <= 0 {
		opts.Debounce = 300 * time.Millisecond
	}
	if opts.ANNMin <= 0 {
		opts.ANNMin = annMin
	}
	s := &Store{db: db, opts: opts, log: opts.Log, now: opts.Now, wake: make(chan struct{}, 1),
		embedders: map[embed.Identity]embed.Embedder{}, anns: map[string]*annIndex{}, drops: map[*sql.Tx][]int64{}}
	s.current = opts.Embedder
	s.pending.Store(true)
	if opts.Embedder != nil && opts.Embedder.Identity().Dims > 0 {
		s.embedders[opts.Embedder.Identity()] = opts.Embedder
	}
	return s
}

// discoverer is an embedder that learns its dimensions from its server.
type discoverer interface {
	Discover(ctx context.Context) (embed.Identity, error)
}

// identify returns e's identity, asking its server for the dimensions when
// they are not known yet, and registers e under it for query embedding.
func (s *Store) identify(ctx context.Context, e embed.Embedder) (embed.Identity, error) {
	id := e.Identity()
	if id.Dims <= 0 {
		d, ok := e.(discoverer)
		if !ok {
			return id, fmt.Errorf("embedder %s/%s does not say how many dimensions it makes", id.Kind, id.Model)
		}
		var err error
		if id, err = d.Discover(ctx); err != nil {
			return id, err
		}
	}
	s.mu.Lock()
	s.embedders[id] = e
	s.mu.Unlock()
	return id, nil
}

// poke wakes the indexer; it never blocks.
func (s *Store) poke() {
	s.pending.Store(true)
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// tx runs fn in one immediate transaction.
func (s *Store) tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("memory: begin: %w", err)
	}
	err = fn(tx)
	if err == nil {
		err = trimKWLog(ctx, tx, kwLogKeep)
	}
	s.annMu.Lock()
	dropped := s.drops[tx]
	delete(s.drops, tx)
	s.annMu.Unlock()
	if err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("memory: commit: %w", err)
	}
	if len(dropped) > 0 {
		changes := make([]annChange, len(dropped))
		for i, id := range dropped {
			changes[i] = annChange{id: id}
		}
		s.annChanged("", changes...)
	}
	return nil
}

// Embedder returns the current embedder (nil: keyword only).
func (s *Store) Embedder() embed.Embedder {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.current
}

// SetEmbedder switches embedders. A new identity builds a new vector table
// in the background; search keeps using the ready one until the new one is
// complete, then they swap in one transaction.
func (s *Store) SetEmbedder(ctx context.Context, e embed.Embedder) error {
	s.mu.Lock()
	s.current = e
	s.mu.Unlock()
	if e == nil {
		return nil
	}
	s.poke() // the indexer makes (or finds) the table for e's identity
	return nil
}

func (s *Store) embedderFor(id embed.Identity) embed.Embedder {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.embedders[id]
}

func (s *Store) setErr(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err == nil {
		s.lastErr = ""
	} else {
		s.lastErr = err.Error()
	}
}

// eachRow runs a query and calls fn for every row, closing the rows. The
// queries built at run time (table names from memory_indexes, IN lists,
// scope filters) come through here with their values as parameters.
func eachRow(ctx context.Context, q querier, query string, args []any, fn func(scan func(...any) error) error) error {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows.Scan); err != nil {
			return err
		}
	}
	return rows.Err()
}

// execSQL runs a statement built at run time (a vector table's name, which
// validTable checked) with its values as parameters.
func execSQL(ctx context.Context, tx *sql.Tx, query string, args ...any) error {
	_, err := tx.ExecContext(ctx, query, args...) //nolint:gosec // table names are validTable-checked; values are parameters
	return err
}
