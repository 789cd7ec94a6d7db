package skills

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Publishing limits: a skill is instructions and a few resources.
const (
	maxFiles     = 200
	maxTotalSize = 16 << 20
)

// ErrNotFound is returned for a skill that does not exist.
var ErrNotFound = errors.New("skill not found")

// Store finds skills in an agent's folders and keeps published ones.
type Store struct {
	db *sql.DB
	// dir holds published skills: DIR/NAME/vN.
	dir string
	// home is the user's home, for ~/.agents/skills ("" skips it).
	home string
	now  func() time.Time
}

// New returns a store publishing into dir (created on first publish).
func New(db *sql.DB, dir, home string) *Store {
	return &Store{db: db, dir: dir, home: home, now: time.Now}
}

// folder is a place skills are looked for.
type folder struct {
	dir string
	src Source
}

// folders are where an agent's skills are looked for, in order.
func (s *Store) folders(workspace string) []folder {
	var out []folder
	if workspace != "" {
		out = append(out, folder{filepath.Join(workspace, "skills"), SourceWorkspace},
			folder{filepath.Join(workspace, ".agents", "skills"), SourceAgents})
	}
	if s.home != "" {
		out = append(out, folder{filepath.Join(s.home, ".agents", "skills"), SourceHome})
	}
	return out
}

// Available lists the skills an agent working in workspace has: its
// folders' first (in order; the first of a name wins), then the published
// skills granted to it. Folders that hold no valid skill are problems.
func (s *Store) Available(ctx context.Context, agent, workspace string) ([]Skill, []Problem, error) {
	var out []Skill
	var problems []Problem
	seen := map[string]bool{}
	for _, f := range s.folders(workspace) {
		entries, err := os.ReadDir(f.dir)
		if err != nil {
			continue // no such folder: nothing there
		}
		for _, e := range entries {
			if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			sk, err := Load(filepath.Join(f.dir, e.Name()), f.src)
			if err != nil {
				problems = append(problems, Problem{Dir: filepath.Join(f.dir, e.Name()), Err: err.Error()})
				continue
			}
			if !seen[sk.Name] {
				seen[sk.Name] = true
				out = append(out, sk)
			}
		}
	}
	managed, err := s.Published(ctx, agent)
	if err != nil {
		return nil, nil, err
	}
	for _, sk := range managed {
		if !seen[sk.Name] {
			seen[sk.Name] = true
			out = append(out, sk)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, problems, nil
}

// Published lists the newest version of every published skill granted to
// agent ("" lists all of them).
func (s *Store) Published(ctx context.Context, agent string) ([]Skill, error) {
	type nv struct {
		name    string
		version int
	}
	var list []nv
	err := func() error {
		rows, err := s.db.QueryContext(ctx, `SELECT m.name, MAX(m.version) FROM skills_managed m
			WHERE ? = '' OR EXISTS (SELECT 1 FROM skill_grants g WHERE g.name = m.name AND g.agent IN (?, '*'))
			GROUP BY m.name ORDER BY m.name`, agent, agent)
		if err != nil {
			return fmt.Errorf("published skills: %w", err)
		}
		defer rows.Close()
		for rows.Next() {
			var x nv
			if err := rows.Scan(&x.name, &x.version); err != nil {
				return err
			}
			list = append(list, x)
		}
		return rows.Err()
	}()
	if err != nil {
		return nil, err
	}
	var out []Skill
	for _, x := range list {
		sk, err := Load(s.versionDir(x.name, x.version), SourceManaged)
		if err != nil {
			continue // a copy removed by hand: skip it rather than fail every run
		}
		sk.Version = x.version
		out = append(out, sk)
	}
	return out, nil
}

func (s *Store) versionDir(name string, v int) string {
	return filepath.Join(s.dir, name, "v"+strconv.Itoa(v))
}

// Publish validates the skill in src, copies it as a new version (unless
// the newest version has the same content) and grants it to agent ("*"
// for every agent). It returns the published skill.
func (s *Store) Publish(ctx context.Context, src, agent, by string) (Skill, error) {
	sk, err := Load(src, sourceCandidate)
	if err != nil {
		return Skill{}, err
	}
	files, hash, err := snapshot(src)
	if err != nil {
		return Skill{}, fmt.Errorf("skill %s: %w", sk.Name, err)
	}
	var last int
	var lastHash string
	err = s.db.QueryRowContext(ctx, `SELECT version, hash FROM skills_managed WHERE name = ? ORDER BY version DESC LIMIT 1`, sk.Name).
		Scan(&last, &lastHash)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return Skill{}, err
	}
	version := last
	if lastHash != hash {
		version = last + 1
		dst := s.versionDir(sk.Name, version)
		if err := copyFiles(src, dst, files); err != nil {
			_ = os.RemoveAll(dst)
			return Skill{}, fmt.Errorf("publish skill %s: %w", sk.Name, err)
		}
		if _, err := s.db.ExecContext(ctx, `INSERT INTO skills_managed (name, version, hash, description, published_at, published_by)
			VALUES (?, ?, ?, ?, ?, ?)`, sk.Name, version, hash, sk.Description, s.now().UTC().Format(time.RFC3339), by); err != nil {
			_ = os.RemoveAll(dst)
			return Skill{}, fmt.Errorf("publish skill %s: %w", sk.Name, err)
		}
	}
	if agent == "" {
		agent = "*"
	}
	if _, err := s.db.ExecContext(ctx, "INSERT OR IGNORE INTO skill_grants (name, agent) VALUES (?, ?)", sk.Name, agent); err != nil {
		return Skill{}, err
	}
	out, err := Load(s.versionDir(sk.Name, version), SourceManaged)
	out.Version = version
	return out, err
}

// Remove deletes a published skill: every version and grant.
func (s *Store) Remove(ctx context.Context, name string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM skills_managed WHERE name = ?", name)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: no published skill %q (warren skills list shows them)", ErrNotFound, name)
	}
	if _, err := s.db.ExecContext(ctx, "DELETE FROM skill_grants WHERE name = ?", name); err != nil {
		return err
	}
	if !validName.MatchString(name) {
		return nil
	}
	return os.RemoveAll(filepath.Join(s.dir, name))
}

// snapshot lists a skill folder's regular files (relative, sorted) and
// hashes their paths and contents; links, hidden files and oversized
// folders are refused with the reason.
func snapshot(dir string) ([]string, string, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, "", err
	}
	defer func() { _ = root.Close() }()
	var files []string
	var total int64
	err = fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s is a link; a published skill holds only its own files", p)
		}
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		total += info.Size()
		files = append(files, p)
		if len(files) > maxFiles || total > maxTotalSize {
			return fmt.Errorf("the folder holds more than %d files or %d MiB; a skill is instructions and a few resources", maxFiles, maxTotalSize>>20)
		}
		return nil
	})
	if err != nil {
		return nil, "", err
	}
	sort.Strings(files)
	h := sha256.New()
	for _, f := range files {
		b, err := root.ReadFile(f)
		if err != nil {
			return nil, "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", f, len(b))
		h.Write(b)
	}
	return files, hex.EncodeToString(h.Sum(nil)), nil
}

func copyFiles(src, dst string, files []string) error {
	from, err := os.OpenRoot(src)
	if err != nil {
		return err
	}
	defer func() { _ = from.Close() }()
	if err := os.MkdirAll(dst, 0o700); err != nil {
		return err
	}
	to, err := os.OpenRoot(dst)
	if err != nil {
		return err
	}
	defer func() { _ = to.Close() }()
	for _, f := range files {
		if d := filepath.Dir(f); d != "." {
			if err := to.MkdirAll(d, 0o700); err != nil {
				return err
			}
		}
		in, err := from.Open(f)
		if err != nil {
			return err
		}
		out, err := to.OpenFile(f, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err != nil {
			_ = in.Close()
			return err
		}
		_, err = io.Copy(out, in)
		_ = in.Close()
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
