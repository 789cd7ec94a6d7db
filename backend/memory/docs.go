package memory

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Source says where a document came from.
type Source string

// Sources.
const (
	SourceMemory Source = "memory" // written through the file tools (or the UI)
	SourceImport Source = "import" // a file of a folder the user imported
	SourceSystem Source = "system" // Warren's own documentation
)

// keepVersions is how many earlier versions of a document are kept.
const keepVersions = 20

// maxDocBytes bounds one document (a memory file is notes, not a dataset).
const maxDocBytes = 4 << 20

// Doc is one stored document.
type Doc struct {
	ID int64 `json:"id"`
	// Agent is "" for a global document (every agent reads it).
	Agent string `json:"agent"`
	// User is "" for the agent's copy shared by all its users.
	User    string    `json:"user"`
	Path    string    `json:"path"`
	Source  Source    `json:"source"`
	Folder  string    `json:"folder,omitempty"`
	Content string    `json:"content,omitempty"`
	Hash    string    `json:"hash"`
	Version int       `json:"version"`
	Size    int       `json:"size"`
	Chunks  int       `json:"chunks"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
}

// Version is an earlier version of a document.
type Version struct {
	Version int       `json:"version"`
	Content string    `json:"content"`
	Hash    string    `json:"hash"`
	Saved   time.Time `json:"saved"`
}

// PutDoc is what Put stores.
type PutDoc struct {
	Agent, User, Path string
	Content           string
	Source            Source
	Folder            string
}

// ErrNotFound is returned for a document that does not exist.
var ErrNotFound = errors.New("memory document not found")

func hashText(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}

const timeFormat = "2006-01-02T15:04:05.000000000Z"

func fmtTime(t time.Time) string { return t.UTC().Format(timeFormat) }

func parseTime(s string) time.Time {
	t, _ := time.Parse(timeFormat, s)
	return t
}

func sourceWords(s Source) string {
	switch s {
	case SourceImport:
		return "a file of an imported folder"
	case SourceSystem:
		return "part of Warren's documentation"
	}
	return "a memory document"
}

// CleanPath checks a document path: relative, slash-separated, no "..",
// no empty or dot segments, no control characters.
func CleanPath(p string) (string, error) {
	p = strings.TrimSpace(strings.ReplaceAll(p, "\\", "/"))
	p = strings.TrimPrefix(p, "./")
	switch {
	case p == "":
		return "", errors.New("a memory document needs a path, e.g. memory/notes.md")
	case len(p) > 1024:
		return "", fmt.Errorf("the path %.40q… is longer than 1024 bytes", p)
	case strings.HasPrefix(p, "/"):
		return "", fmt.Errorf("the path %q must be relative (like memory/notes.md)", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return "", fmt.Errorf("the path %q has an empty, '.' or '..' segment", p)
		}
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return "", fmt.Errorf("the path %q has a control character", p)
		}
	}
	return p, nil
}

// Put stores a document (keeping the previous version), chunks it and
// updates the keyword index in the same transaction; vectors follow in the
// background. Storing the same content again changes nothing.
func (s *Store) Put(ctx context.Context, in PutDoc) (Doc, error) {
	path, err := CleanPath(in.Path)
	if err != nil {
		return Doc{}, err
	}
	if len(in.Content) > maxDocBytes {
		return Doc{}, fmt.Errorf("%s is %d bytes; a memory document holds at most %d", path, len(in.Content), maxDocBytes)
	}
	if in.Source == "" {
		in.Source = SourceMemory
	}
	now := fmtTime(s.now())
	hash := hashText(in.Content)
	var doc Doc
	err = s.tx(ctx, func(tx *sql.Tx) error {
		var id int64
		var oldHash, oldContent, oldUpdated, oldSource string
		var version int
		err := tx.QueryRowContext(ctx, `SELECT id, hash, content, version, updated_at, source FROM memory_docs
			WHERE agent = ? AND user = ? AND path = ?`, in.Agent, in.User, path).Scan(&id, &oldHash, &oldContent, &version, &oldUpdated, &oldSource)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			err = tx.QueryRowContext(ctx, `INSERT INTO memory_docs (agent, user, path, source, folder, content, hash, created_at, updated_at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`, in.Agent, in.User, path, string(in.Source), in.Folder,
				in.Content, hash, now, now).Scan(&id)
			if err != nil {
				return fmt.Errorf("store %s: %w", path, err)
			}
			version = 1
		case err != nil:
			return fmt.Errorf("read %s: %w", path, err)
		case oldSource != string(in.Source):
			return fmt.Errorf("%s is %s, not a memory document: it cannot be written here", path, sourceWords(Source(oldSource)))
		case oldHash == hash:
			return nil // unchanged
		default:
			if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO memory_doc_versions (doc_id, version, content, hash, saved_at)
				VALUES (?, ?, ?, ?, ?)`, id, version, oldContent, oldHash, oldUpdated); err != nil {
				return fmt.Errorf("keep the previous version of %s: %w", path, err)
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM memory_doc_versions WHERE doc_id = ? AND version <= ?`,
				id, version-keepVersions); err != nil {
				return fmt.Errorf("trim versions of %s: %w", path, err)
			}
			version++
			if _, err := tx.ExecContext(ctx, `UPDATE memory_docs SET content = ?, hash = ?, version = ?, source = ?, folder = ?,
				updated_at = ? WHERE id = ?`, in.Content, hash, version, string(in.Source), in.Folder, now, id); err != nil {
				return fmt.Errorf("update %s: %w", path, err)
			}
		}
		return s.rechunk(ctx, tx, id, in.Agent, in.User, path, in.Content)
	})
	if err != nil {
		return Doc{}, err
	}
	s.poke()
	doc, _, err = s.Get(ctx, in.Agent, in.User, path)
	return doc, err
}

// rechunk replaces a document's chunks (the FTS tables follow by trigger;
// vector rows are dropped here and made again by the indexer).
func (s *Store) rechunk(ctx context.Context, tx *sql.Tx, docID int64, agent, user, path, content string) error {
	if err := s.dropVectors(ctx, tx, "doc_id = ?", docID); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM memory_chunks WHERE doc_id = ?", docID); err != nil {
		return fmt.Errorf("drop old chunks of %s: %w", path, err)
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO memory_chunks (doc_id, agent, user, path, seq, start_line, end_line, heading, text, hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer func() { _ = stmt.Close() }()
	for _, c := range ChunkMarkdown(content) {
		if _, err := stmt.ExecContext(ctx, docID, agent, user, path, c.Seq, c.StartLine, c.EndLine, c.Heading, c.Text,
			hashText(c.Heading+"\n"+c.Text)); err != nil {
			return fmt.Errorf("index %s: %w", path, err)
		}
	}
	return nil
}

const docCols = `id, agent, user, path, source, folder, content, hash, version, length(content), created_at, updated_at,
	(SELECT COUNT(*) FROM memory_chunks c WHERE c.doc_id = memory_docs.id)`

func scanDoc(row interface{ Scan(...any) error }) (Doc, error) {
	var d Doc
	var created, updated string
	err := row.Scan(&d.ID, &d.Agent, &d.User, &d.Path, &d.Source, &d.Folder, &d.Content, &d.Hash, &d.Version, &d.Size,
		&created, &updated, &d.Chunks)
	d.Created, d.Updated = parseTime(created), parseTime(updated)
	return d, err
}

// Get returns the document stored exactly at (agent, user, path).
func (s *Store) Get(ctx context.Context, agent, user, path string) (Doc, bool, error) {
	path, err := CleanPath(path)
	if err != nil {
		return Doc{}, false, err
	}
	d, err := scanDoc(s.db.QueryRowContext(ctx, "SELECT "+docCols+" FROM memory_docs WHERE agent = ? AND user = ? AND path = ?",
		agent, user, path))
	if errors.Is(err, sql.ErrNoRows) {
		return Doc{}, false, nil
	}
	if err != nil {
		return Doc{}, false, fmt.Errorf("read %s: %w", path, err)
	}
	return d, true, nil
}

// Resolve returns what an agent reads at path: the user's copy first, then
// the agent's shared copy, then the global one.
func (s *Store) Resolve(ctx context.Context, agent, user, path string) (Doc, bool, error) {
	for _, sc := range [][2]string{{agent, user}, {agent, ""}, {"", ""}} {
		if sc[0] == "" && sc[1] != "" {
			continue
		}
		d, ok, err := s.Get(ctx, sc[0], sc[1], path)
		if err != nil || ok {
			return d, ok, err
		}
	}
	return Doc{}, false, nil
}

// ListFilter narrows List; empty fields match everything.
type ListFilter struct {
	// Agent "" lists every agent's documents and the global ones; set
	// Global to list only global ones.
	Agent  string
	Global bool
	User   string
	Prefix string
	Source Source
	Limit  int
}

// List returns documents without their content, newest first.
func (s *Store) List(ctx context.Context, f ListFilter) ([]Doc, error) {
	var where []string
	var args []any
	switch {
	case f.Global:
		where = append(where, "agent = ''")
	case f.Agent != "":
		where, args = append(where, "agent IN (?, '')"), append(args, f.Agent)
	}
	if f.User != "" {
		where, args = append(where, "user IN (?, '')"), append(args, f.User)
	}
	if f.Prefix != "" {
		where, args = append(where, "substr(path, 1, ?) = ?"), append(args, len(f.Prefix), f.Prefix)
	}
	if f.Source != "" {
		where, args = append(where, "source = ?"), append(args, string(f.Source))
	} else {
		where = append(where, "source != 'system'") // Warren's own docs only when asked for
	}
	q := "SELECT " + strings.Replace(docCols, "content,", "'',", 1) + " FROM memory_docs"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	if f.Limit <= 0 {
		f.Limit = 1000
	}
	out := []Doc{}
	err := eachRow(ctx, s.db, q+" ORDER BY updated_at DESC, id DESC LIMIT ?", append(args, f.Limit), func(scan func(...any) error) error {
		d, err := scanDoc(scanner(scan))
		out = append(out, d)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("list memory documents: %w", err)
	}
	return out, nil
}

// scanner adapts a scan function to scanDoc's row.
type scanner func(...any) error

func (f scanner) Scan(dest ...any) error { return f(dest...) }

// Delete removes a document, its versions, chunks and vectors.
func (s *Store) Delete(ctx context.Context, agent, user, path string) error {
	path, err := CleanPath(path)
	if err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, "SELECT id FROM memory_docs WHERE agent = ? AND user = ? AND path = ?", agent, user, path).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: %s", ErrNotFound, path)
		}
		if err != nil {
			return err
		}
		if err := s.dropVectors(ctx, tx, "doc_id = ?", id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM memory_chunks WHERE doc_id = ?", id); err != nil {
			return fmt.Errorf("delete %s: %w", path, err)
		}
		_, err = tx.ExecContext(ctx, "DELETE FROM memory_docs WHERE id = ?", id)
		return err
	})
}

// Versions lists a document's earlier versions, newest first.
func (s *Store) Versions(ctx context.Context, agent, user, path string) ([]Version, error) {
	d, ok, err := s.Get(ctx, agent, user, path)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, path)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT version, content, hash, saved_at FROM memory_doc_versions
		WHERE doc_id = ? ORDER BY version DESC`, d.ID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Version
	for rows.Next() {
		var v Version
		var at string
		if err := rows.Scan(&v.Version, &v.Content, &v.Hash, &at); err != nil {
			return nil, err
		}
		v.Saved = parseTime(at)
		out = append(out, v)
	}
	return out, rows.Err()
}
