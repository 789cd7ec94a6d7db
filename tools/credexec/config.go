// Package credexec is credentialed_exec (seed §4): configured CLIs (gh,
// aws, kubectl…) run directly — no shell — with credentials injected as
// environment variables that the agent never sees.
package credexec

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/warren-dev/warren/backend/secrets"
)

// Binary is one configured CLI.
type Binary struct {
	Name string `json:"binary_name"`
	// Path is the absolute path the name must resolve to at run time.
	Path string `json:"path"`
	// Env holds plain values to store (write-only).
	Env map[string]string `json:"env,omitempty"`
	// EnvKeys names the stored variables.
	EnvKeys        []string `json:"env_keys,omitempty"`
	DenyArgs       []string `json:"deny_args"`
	DenyVerbose    []string `json:"deny_verbose"`
	TimeoutSeconds int      `json:"timeout_seconds"`
	Tips           string   `json:"tips"`
}

// Presets are the seed's ready-made configurations (credentials not included).
var Presets = map[string]Binary{
	"gh": {Name: "gh", DenyArgs: []string{`auth\s+`, `ssh-key`, `secret\s+`, `gpg-key`}, DenyVerbose: []string{"--verbose", "-v"},
		TimeoutSeconds: 30, Tips: "GitHub CLI. Available: gh api, gh repo, gh issue, gh pr, gh run."},
	"gcloud": {Name: "gcloud", DenyArgs: []string{`auth\s+`, `iam\s+service-accounts\s+keys`, `config\s+set`},
		DenyVerbose: []string{"--verbosity=debug", "--log-http"}, TimeoutSeconds: 60, Tips: "Google Cloud CLI."},
	"aws": {Name: "aws", DenyArgs: []string{`configure`, `iam\s+create-access-key`, `sts\s+get-session-token`},
		DenyVerbose: []string{"--debug"}, TimeoutSeconds: 60, Tips: "AWS CLI."},
	"kubectl": {Name: "kubectl", DenyArgs: []string{`config\s+view`, `get\s+secrets?`, `describe\s+secrets?`, `create\s+token`},
		DenyVerbose: []string{"-v=", "--v="}, TimeoutSeconds: 60, Tips: "Kubernetes CLI."},
	"terraform": {Name: "terraform", DenyArgs: []string{`destroy`, `apply\s+.*-auto-approve`, `state\s+(rm|push)`},
		DenyVerbose: []string{}, TimeoutSeconds: 300, Tips: "Terraform CLI; plan is fine, destroy is not."},
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Validate checks a configuration.
func (b Binary) Validate() error {
	if !nameRE.MatchString(b.Name) {
		return fmt.Errorf("binary name %q: a bare program name such as gh (no path)", b.Name)
	}
	if !filepath.IsAbs(b.Path) {
		return fmt.Errorf("binary %s: path %q must be absolute", b.Name, b.Path)
	}
	if filepath.Base(b.Path) != b.Name && filepath.Base(b.Path) != b.Name+".exe" {
		return fmt.Errorf("binary %s: path %s does not end in %s", b.Name, b.Path, b.Name)
	}
	for _, p := range b.DenyArgs {
		if _, err := regexp.Compile(p); err != nil {
			return fmt.Errorf("binary %s: deny pattern %q: %v", b.Name, p, err)
		}
	}
	if b.TimeoutSeconds < 0 || b.TimeoutSeconds > 3600 {
		return fmt.Errorf("binary %s: timeout_seconds must be between 0 and 3600", b.Name)
	}
	return nil
}

// ErrNotFound is returned for an unconfigured binary.
var ErrNotFound = errors.New("binary not configured")

// Store keeps configurations in SQLite.
type Store struct {
	db  *sql.DB
	box secrets.Sealer
}

// NewStore returns a store over an open, migrated Warren database.
func NewStore(db *sql.DB, box secrets.Sealer) *Store { return &Store{db: db, box: box} }

// Save validates and stores b, merging env like custom tools do (an empty
// value deletes that variable).
func (s *Store) Save(ctx context.Context, b Binary) error {
	if b.TimeoutSeconds == 0 {
		b.TimeoutSeconds = 30
	}
	if err := b.Validate(); err != nil {
		return err
	}
	env := map[string]string{}
	if old, err := s.sealedEnv(ctx, b.Name); err == nil {
		env = old
	} else if !errors.Is(err, ErrNotFound) {
		return err
	}
	env, err := secrets.MergeEnv(s.box, env, b.Env)
	if err != nil {
		return err
	}
	envJSON, _ := json.Marshal(env)
	deny, _ := json.Marshal(nonNil(b.DenyArgs))
	verbose, _ := json.Marshal(nonNil(b.DenyVerbose))
	_, err = s.db.ExecContext(ctx, `INSERT INTO secure_cli_binaries
		(binary_name, path, encrypted_env, deny_args, deny_verbose, timeout_seconds, tips) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT(binary_name) DO UPDATE SET path = excluded.path, encrypted_env = excluded.encrypted_env,
		deny_args = excluded.deny_args, deny_verbose = excluded.deny_verbose, timeout_seconds = excluded.timeout_seconds,
		tips = excluded.tips, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
		b.Name, b.Path, string(envJSON), string(deny), string(verbose), b.TimeoutSeconds, b.Tips)
	if err != nil {
		return fmt.Errorf("save binary %s: %w", b.Name, err)
	}
	return nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (s *Store) sealedEnv(ctx context.Context, name string) (map[string]string, error) {
	var raw string
	err := s.db.QueryRowContext(ctx, "SELECT encrypted_env FROM secure_cli_binaries WHERE binary_name = ?", name).Scan(&raw)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, name)
	}
	if err != nil {
		return nil, err
	}
	env := map[string]string{}
	if err := json.Unmarshal([]byte(raw), &env); err != nil {
		return nil, fmt.Errorf("binary %s: stored env is corrupt: %w", name, err)
	}
	return env, nil
}

// Get returns one configuration with its credentials decrypted in Env.
func (s *Store) Get(ctx context.Context, name string) (Binary, error) {
	b := Binary{Name: name}
	var deny, verbose string
	err := s.db.QueryRowContext(ctx, `SELECT path, deny_args, deny_verbose, timeout_seconds, tips
		FROM secure_cli_binaries WHERE binary_name = ?`, name).Scan(&b.Path, &deny, &verbose, &b.TimeoutSeconds, &b.Tips)
	if errors.Is(err, sql.ErrNoRows) {
		return Binary{}, fmt.Errorf("%w: %s", ErrNotFound, name)
	}
	if err != nil {
		return Binary{}, err
	}
	if err := json.Unmarshal([]byte(deny), &b.DenyArgs); err != nil {
		return Binary{}, err
	}
	if err := json.Unmarshal([]byte(verbose), &b.DenyVerbose); err != nil {
		return Binary{}, err
	}
	sealed, err := s.sealedEnv(ctx, name)
	if err != nil {
		return Binary{}, err
	}
	if b.Env, err = secrets.OpenEnv(s.box, sealed); err != nil {
		return Binary{}, fmt.Errorf("binary %s env %w", name, err)
	}
	for k := range b.Env {
		b.EnvKeys = append(b.EnvKeys, k)
	}
	sort.Strings(b.EnvKeys)
	return b, nil
}

// List returns every configuration without credential values.
func (s *Store) List(ctx context.Context) ([]Binary, error) {
	names, err := s.names(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]Binary, 0, len(names))
	for _, n := range names {
		b, err := s.Get(ctx, n)
		if err != nil {
			return nil, err
		}
		b.Env = nil
		out = append(out, b)
	}
	return out, nil
}

// Delete removes a configuration.
func (s *Store) Delete(ctx context.Context, name string) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM secure_cli_binaries WHERE binary_name = ?", name)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %s", ErrNotFound, name)
	}
	return nil
}

func (s *Store) names(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT binary_name FROM secure_cli_binaries ORDER BY binary_name")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		names = append(names, n)
	}
	return names, rows.Err()
}
