package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Folder is a folder the user imported for search_documents.
type Folder struct {
	ID int64 `json:"id"`
	// Agent is "" when every agent searches it.
	Agent   string    `json:"agent"`
	Path    string    `json:"path"`
	Added   time.Time `json:"added"`
	Scanned time.Time `json:"scanned,omitzero"`
	Files   int       `json:"files"`
	Skipped int       `json:"skipped"`
	Error   string    `json:"error,omitempty"`
}

// Import limits: what a scan reads of a folder.
const (
	maxImportFile  = 1 << 20 // bytes per file
	maxImportFiles = 20000   // files per folder
)

// importExts are the file kinds imported as text.
var importExts = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`md markdown txt text rst org adoc csv tsv log
		go py js mjs cjs ts tsx jsx rs java kt swift c h cc cpp hpp cs rb php pl lua r scala sh bash zsh fish ps1
		sql html htm css scss svelte vue xml yaml yml toml ini cfg conf json proto graphql tf mk cmake dockerfile`) {
		importExts[e] = true
	}
}

// importable reports whether a file's name says it is text worth indexing.
func importable(name string) bool {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(name)), ".")
	return importExts[ext] || documentExts[ext] || strings.EqualFold(name, "Dockerfile") || strings.EqualFold(name, "Makefile")
}

// skipDirs are never entered: dependencies, build output, VCS data.
var skipDirs = map[string]bool{"node_modules": true, "vendor": true, ".git": true, ".hg": true, ".svn": true,
	"dist": true, "build": true, "target": true, "__pycache__": true, ".venv": true, "venv": true}

// AddFolder records a folder for search_documents and scans it once.
func (s *Store) AddFolder(ctx context.Context, agent, dir string) (Folder, error) {
	abs, err := filepath.Abs(strings.TrimSpace(dir))
	if err != nil || strings.TrimSpace(dir) == "" {
		return Folder{}, fmt.Errorf("import: %q is not a folder path", dir)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return Folder{}, fmt.Errorf("import %s: %w", abs, err)
	}
	if !fi.IsDir() {
		return Folder{}, fmt.Errorf("import %s: not a folder (import the folder that holds it)", abs)
	}
	var id int64
	err = s.db.QueryRowContext(ctx, `INSERT INTO memory_folders (agent, path, added_at) VALUES (?, ?, ?) RETURNING id`,
		agent, abs, fmtTime(s.now())).Scan(&id)
	if err != nil {
		if strings.Contains(err.Error(), "UNIQUE") {
			return Folder{}, fmt.Errorf("import: %s is already imported%s", abs, forAgent(agent))
		}
		return Folder{}, fmt.Errorf("import %s: %w", abs, err)
	}
	return s.ScanFolder(ctx, id)
}

func forAgent(agent string) string {
	if agent == "" {
		return " for every agent"
	}
	return " for agent " + agent
}

// Folders lists the imported folders.
func (s *Store) Folders(ctx context.Context) ([]Folder, error) {
	out := []Folder{}
	err := eachRow(ctx, s.db, `SELECT id, agent, path, added_at, scanned_at, files, skipped, error FROM memory_folders ORDER BY id`,
		nil, func(scan func(...any) error) error {
			var f Folder
			var added, scanned string
			err := scan(&f.ID, &f.Agent, &f.Path, &added, &scanned, &f.Files, &f.Skipped, &f.Error)
			f.Added, f.Scanned = parseTime(added), parseTime(scanned)
			out = append(out, f)
			return err
		})
	return out, err
}

func (s *Store) folder(ctx context.Context, id int64) (Folder, error) {
	fs, err := s.Folders(ctx)
	if err != nil {
		return Folder{}, err
	}
	for _, f := range fs {
		if f.ID == id {
			return f, nil
		}
	}
	return Folder{}, fmt.Errorf("%w: no imported folder %d", ErrNotFound, id)
}

// RemoveFolder forgets a folder and its documents (the files stay).
func (s *Store) RemoveFolder(ctx context.Context, id int64) error {
	if _, err := s.folder(ctx, id); err != nil {
		return err
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		folder := strconv.FormatInt(id, 10)
		if err := s.dropVectors(ctx, tx, "doc_id IN (SELECT id FROM memory_docs WHERE source = 'import' AND folder = ?)", folder); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM memory_chunks WHERE doc_id IN
			(SELECT id FROM memory_docs WHERE source = 'import' AND folder = ?)`, folder); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM memory_docs WHERE source = 'import' AND folder = ?", folder); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "DELETE FROM memory_folders WHERE id = ?", id)
		return err
	})
}

// docPrefix is where a folder's files live among the documents: its base
// name with its id, so two folders named docs never collide.
func docPrefix(f Folder) string {
	return fmt.Sprintf("%s-%d", filepath.Base(f.Path), f.ID)
}

// ScanFolder imports what changed in a folder: new and edited files are
// stored (unchanged ones cost a hash), vanished ones removed. A folder that
// cannot be read keeps its documents, with the error shown on the folder.
func (s *Store) ScanFolder(ctx context.Context, id int64) (Folder, error) {
	f, err := s.folder(ctx, id)
	if err != nil {
		return Folder{}, err
	}
	prefix := docPrefix(f)
	seen := map[string]bool{}
	files, skipped := 0, 0
	// Read through a root: a link or rename inside the folder cannot lead
	// the scan outside it.
	root, err := os.OpenRoot(f.Path)
	var walkErr error
	if err != nil {
		walkErr = err
	} else {
		defer func() { _ = root.Close() }()
		walkErr = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				if p == "." {
					return err
				}
				skipped++
				return nil
			}
			if ctx.Err() != nil {
				return ctx.Err()
			}
			name := d.Name()
			if d.IsDir() {
				if p != "." && (strings.HasPrefix(name, ".") || skipDirs[name]) {
					return fs.SkipDir
				}
				return nil
			}
			if !d.Type().IsRegular() || strings.HasPrefix(name, ".") || !importable(name) {
				return nil
			}
			if files >= maxImportFiles {
				skipped++
				return nil
			}
			info, err := d.Info()
			if err != nil || info.Size() > importLimit(name) {
				skipped++
				return nil
			}
			b, err := root.ReadFile(p)
			if err != nil {
				skipped++
				return nil
			}
			text, ok := importText(ctx, name, b)
			if !ok {
				skipped++
				return nil
			}
			docPath := prefix + "/" + p
			if _, err := s.Put(ctx, PutDoc{Agent: f.Agent, Path: docPath, Content: text, Source: SourceImport,
				Folder: strconv.FormatInt(f.ID, 10)}); err != nil {
				skipped++
				return nil
			}
			seen[docPath] = true
			files++
			return nil
		})
	}
	f.Error = ""
	if walkErr != nil {
		f.Error = walkErr.Error()
	} else if err := s.dropVanished(ctx, f, seen); err != nil {
		return Folder{}, err
	}
	f.Files, f.Skipped, f.Scanned = files, skipped, s.now()
	if walkErr != nil {
		f.Files = -1 // unknown: the documents from the last good scan stay
	}
	_, err = s.db.ExecContext(ctx, `UPDATE memory_folders SET scanned_at = ?, files = CASE WHEN ? >= 0 THEN ? ELSE files END,
		skipped = ?, error = ? WHERE id = ?`, fmtTime(f.Scanned), f.Files, f.Files, f.Skipped, f.Error, f.ID)
	if err != nil {
		return Folder{}, err
	}
	if walkErr != nil && errors.Is(walkErr, context.Canceled) {
		return Folder{}, walkErr
	}
	return s.folder(ctx, id)
}

// dropVanished deletes the folder's documents whose files are gone.
func (s *Store) dropVanished(ctx context.Context, f Folder, seen map[string]bool) error {
	var gone []string
	err := eachRow(ctx, s.db, "SELECT path FROM memory_docs WHERE source = 'import' AND folder = ?",
		[]any{strconv.FormatInt(f.ID, 10)}, func(scan func(...any) error) error {
			var p string
			if err := scan(&p); err != nil {
				return err
			}
			if !seen[p] {
				gone = append(gone, p)
			}
			return nil
		})
	if err != nil {
		return err
	}
	for _, p := range gone {
		if err := s.Delete(ctx, f.Agent, "", p); err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
	}
	return nil
}

// RunFolders scans every imported folder again every interval until ctx
// ends, so search_documents follows the files as they change.
func (s *Store) RunFolders(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		fs, err := s.Folders(ctx)
		if err != nil {
			continue
		}
		for _, f := range fs {
			if _, err := s.ScanFolder(ctx, f.ID); err != nil && ctx.Err() == nil {
				s.log.Warn("memory: scanning an imported folder", "folder", f.Path, "err", err)
			}
		}
	}
}

// SyncSystem makes the system documents (Warren's own documentation,
// global, source system) exactly docs: path → content. Unchanged ones cost
// a hash; ones no longer shipped are removed.
func (s *Store) SyncSystem(ctx context.Context, docs map[string]string) error {
	for p, content := range docs {
		if _, err := s.Put(ctx, PutDoc{Path: p, Content: content, Source: SourceSystem}); err != nil {
			return fmt.Errorf("system document %s: %w", p, err)
		}
	}
	old, err := s.List(ctx, ListFilter{Global: true, Source: SourceSystem, Limit: 100000})
	if err != nil {
		return err
	}
	for _, d := range old {
		if _, ok := docs[d.Path]; !ok {
			if err := s.Delete(ctx, "", "", d.Path); err != nil && !errors.Is(err, ErrNotFound) {
				return err
			}
		}
	}
	return nil
}
