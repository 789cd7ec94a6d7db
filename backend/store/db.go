// Package store is Warren's only database: one SQLite file per OS user, opened
// through the pure-Go modernc driver with sqlite-vec registered.
package store

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	_ "modernc.org/sqlite"     // registers the "sqlite" driver
	_ "modernc.org/sqlite/vec" // registers vec0 and the vec_* functions
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// FileName is the database file inside the data directory.
const FileName = "warren.db"

// DB is an open, migrated Warren database.
type DB struct {
	sql  *sql.DB
	path string
}

// Open opens (creating if needed) the database in dataDir, applies pending
// migrations and pings it. It closes the handle on any failure.
func Open(ctx context.Context, dataDir string) (*DB, error) {
	if dataDir == "" {
		return nil, errors.New("open store: empty data directory")
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("open store: create data directory: %w", err)
	}
	path := filepath.Join(dataDir, FileName)
	q := url.Values{}
	for _, p := range []string{"journal_mode(WAL)", "busy_timeout(10000)", "foreign_keys(1)", "synchronous(NORMAL)", "mmap_size(268435456)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	sqldb, err := sql.Open("sqlite", "file:"+filepath.ToSlash(path)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	db := &DB{sql: sqldb, path: path}
	if err := db.init(ctx); err != nil {
		_ = sqldb.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return db, nil
}

func (db *DB) init(ctx context.Context) error {
	if err := db.sql.PingContext(ctx); err != nil {
		return fmt.Errorf("ping: %w", err)
	}
	var fk int
	if err := db.sql.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil || fk != 1 {
		return fmt.Errorf("foreign keys are not enabled (%d): %v", fk, err)
	}
	return db.migrate(ctx)
}

// Close closes the database.
func (db *DB) Close() error { return db.sql.Close() }

// Path returns the database file path.
func (db *DB) Path() string { return db.path }

// SQL exposes the handle for stores in other packages.
func (db *DB) SQL() *sql.DB { return db.sql }

type migration struct {
	version int
	name    string
	sql     string
}

func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return nil, fmt.Errorf("migration %s: name must start with a number and _", e.Name())
		}
		body, err := migrationFiles.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(body)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	for i := 1; i < len(out); i++ {
		if out[i].version == out[i-1].version {
			return nil, fmt.Errorf("two migrations numbered %d", out[i].version)
		}
	}
	return out, nil
}

// migrate applies every migration newer than the recorded version, each in
// its own transaction, so a failed migration leaves the last good version.
func (db *DB) migrate(ctx context.Context) error {
	ms, err := loadMigrations()
	if err != nil {
		return fmt.Errorf("load migrations: %w", err)
	}
	if _, err := db.sql.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL,
		applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')))`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	var current int
	if err := db.sql.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if n := len(ms); n > 0 && current > ms[n-1].version {
		return fmt.Errorf("database schema version %d is newer than this Warren (%d): upgrade Warren", current, ms[n-1].version)
	}
	for _, m := range ms {
		if m.version <= current {
			continue
		}
		// Re-read the version inside the immediate transaction: another
		// process (the window and a CLI call) may have migrated meanwhile.
		err := db.Tx(ctx, func(tx *sql.Tx) error {
			var v int
			if err := tx.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&v); err != nil {
				return err
			}
			if v >= m.version {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (version, name) VALUES (?, ?)", m.version, m.name)
			return err
		})
		if err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}

// SchemaVersion returns the newest applied migration.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := db.sql.QueryRowContext(ctx, "SELECT COALESCE(MAX(version), 0) FROM schema_migrations").Scan(&v)
	return v, err
}

// Tx runs fn in an immediate transaction, committing when it returns nil.
func (db *DB) Tx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
