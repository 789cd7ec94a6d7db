package memory

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"strconv"

	"github.com/warren-dev/warren/backend/memory/embed"
)

// vecIndex is one vector table and what made its vectors.
type vecIndex struct {
	Name    string
	ID      embed.Identity
	Chunker int
	Ready   bool
}

// validTable guards the table names interpolated into SQL: they come from
// memory_indexes, which only this package writes, but a name is SQL.
var validTable = regexp.MustCompile(`^memory_vec_[a-z0-9]+$`)

func (s *Store) indexes(ctx context.Context, q querier) ([]vecIndex, error) {
	rows, err := q.QueryContext(ctx, "SELECT name, kind, model, dims, chunker, state FROM memory_indexes ORDER BY created_at")
	if err != nil {
		return nil, fmt.Errorf("memory indexes: %w", err)
	}
	defer rows.Close()
	var out []vecIndex
	for rows.Next() {
		var v vecIndex
		var state string
		if err := rows.Scan(&v.Name, &v.ID.Kind, &v.ID.Model, &v.ID.Dims, &v.Chunker, &state); err != nil {
			return nil, err
		}
		if !validTable.MatchString(v.Name) {
			return nil, fmt.Errorf("memory index %q has an invalid table name", v.Name)
		}
		v.Ready = state == "ready"
		out = append(out, v)
	}
	return out, rows.Err()
}

type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// ensureIndex returns the vector table for id, creating it (state
// building) when none exists; a build for another identity is abandoned.
func (s *Store) ensureIndex(ctx context.Context, id embed.Identity) (vecIndex, error) {
	if id.Dims <= 0 || id.Dims > 8192 {
		return vecIndex{}, fmt.Errorf("embedder %s/%s reports %d dimensions", id.Kind, id.Model, id.Dims)
	}
	var out vecIndex
	err := s.tx(ctx, func(tx *sql.Tx) error {
		all, err := s.indexes(ctx, tx)
		if err != nil {
			return err
		}
		for _, v := range all {
			if v.ID == id && v.Chunker == ChunkerVersion {
				out = v
				return nil
			}
		}
		for _, v := range all {
			if !v.Ready {
				if err := s.dropIndex(ctx, tx, v.Name); err != nil {
					return err
				}
			}
		}
		name := "memory_vec_" + strconv.FormatInt(s.now().UnixNano(), 36)
		if _, err := tx.ExecContext(ctx, fmt.Sprintf( //nolint:gosec // a name made here from a timestamp, and an int
			"CREATE VIRTUAL TABLE %s USING vec0(agent TEXT partition key, embedding float[%d] distance_metric=cosine)",
			name, id.Dims)); err != nil {
			return fmt.Errorf("create vector table: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO memory_indexes (name, kind, model, dims, chunker, state, created_at)
			VALUES (?, ?, ?, ?, ?, 'building', ?)`, name, id.Kind, id.Model, id.Dims, ChunkerVersion, fmtTime(s.now())); err != nil {
			return err
		}
		out = vecIndex{Name: name, ID: id, Chunker: ChunkerVersion}
		return nil
	})
	return out, err
}

func (s *Store) dropIndex(ctx context.Context, tx *sql.Tx, name string) error {
	s.dropANN(name)
	if !validTable.MatchString(name) {
		return fmt.Errorf("memory index %q has an invalid table name", name)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM memory_indexes WHERE name = ?", name); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, "DROP TABLE IF EXISTS "+name)
	return err
}

// dropVectors deletes the vectors of the chunks matching cond from every
// vector table (before the chunks go).
func (s *Store) dropVectors(ctx context.Context, tx *sql.Tx, cond string, args ...any) error {
	all, err := s.indexes(ctx, tx)
	if err != nil {
		return err
	}
	s.annMu.Lock()
	tracked := len(s.anns) > 0
	s.annMu.Unlock()
	if tracked {
		var ids []int64
		err := eachRow(ctx, tx, "SELECT id FROM memory_chunks WHERE "+cond, args, func(scan func(...any) error) error {
			var id int64
			err := scan(&id)
			ids = append(ids, id)
			return err
		})
		if err != nil {
			return err
		}
		s.annMu.Lock()
		s.drops[tx] = append(s.drops[tx], ids...)
		s.annMu.Unlock()
	}
	for _, v := range all {
		if err := execSQL(ctx, tx, "DELETE FROM "+v.Name+" WHERE rowid IN (SELECT id FROM memory_chunks WHERE "+cond+")", args...); err != nil {
			return fmt.Errorf("drop vectors: %w", err)
		}
	}
	return nil
}

func vecBlob(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(f))
	}
	return b
}

func blobVec(b []byte) []float32 {
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}
