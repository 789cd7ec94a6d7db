package store_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/store/storetest"
)

func openTemp(t *testing.T) store.Store {
	t.Helper()
	db, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func TestSQLiteStoreSuite(t *testing.T) {
	t.Parallel()
	storetest.Run(t, openTemp)
}

func TestOpenMigratesOnceAndReopens(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	v1, err := db.SchemaVersion(ctx)
	if err != nil || v1 < 1 {
		t.Fatalf("schema version %d %v", v1, err)
	}
	if err := db.SetSetting(ctx, "k", "v"); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	db2, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	if v2, _ := db2.SchemaVersion(ctx); v2 != v1 {
		t.Fatalf("version changed on reopen: %d -> %d", v1, v2)
	}
	if v, ok, _ := db2.GetSetting(ctx, "k"); !ok || v != "v" {
		t.Fatal("data lost on reopen")
	}
	var mode string
	if err := db2.SQL().QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q %v", mode, err)
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.SQL().ExecContext(ctx, "INSERT INTO schema_migrations (version, name) VALUES (9999, 'future')"); err != nil {
		t.Fatal(err)
	}
	_ = db.Close()
	_, err = store.Open(ctx, dir)
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("Open with a newer schema: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	if _, err := store.Open(context.Background(), ""); err == nil {
		t.Fatal("empty dir accepted")
	}
	file := filepath.Join(t.TempDir(), "afile")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(context.Background(), file); err == nil {
		t.Fatal("a file as data dir accepted")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, store.FileName), []byte("this is not a database, just text that is long enough"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Open(context.Background(), dir); err == nil {
		t.Fatal("corrupt database accepted")
	}
}

// TestVecAndFTS5 proves the extensions later issues rely on are present.
func TestVecAndFTS5(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db, err := store.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn := db.SQL()
	var ver string
	if err := conn.QueryRowContext(ctx, "SELECT vec_version()").Scan(&ver); err != nil {
		t.Fatalf("vec_version: %v", err)
	}
	stmts := []string{
		"CREATE VIRTUAL TABLE v USING vec0(embedding float[3])",
		"INSERT INTO v(rowid, embedding) VALUES (1, '[1,0,0]'), (2, '[0,1,0]')",
		"CREATE VIRTUAL TABLE f USING fts5(body)",
		"INSERT INTO f(body) VALUES ('the quick brown fox'), ('lazy dogs sleep')",
	}
	for _, s := range stmts {
		if _, err := conn.ExecContext(ctx, s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	var id int
	if err := conn.QueryRowContext(ctx, "SELECT rowid FROM v WHERE embedding MATCH '[0.9,0.1,0]' AND k = 1").Scan(&id); err != nil || id != 1 {
		t.Fatalf("knn = %d %v", id, err)
	}
	var body string
	var score float64
	if err := conn.QueryRowContext(ctx, "SELECT body, bm25(f) FROM f WHERE f MATCH 'fox'").Scan(&body, &score); err != nil || body != "the quick brown fox" {
		t.Fatalf("fts = %q %v", body, err)
	}
}

// TestConcurrentFirstOpen opens one fresh database from many goroutines at
// once, as the window and CLI commands may do on first run.
func TestConcurrentFirstOpen(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			db, err := store.Open(context.Background(), dir)
			if err == nil {
				err = db.Close()
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
