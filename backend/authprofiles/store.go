package authprofiles

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/secrets"
)

// Store keeps auth profiles in SQLite (migration 0016), secrets sealed.
type Store struct {
	db  *sql.DB
	box secrets.Sealer
}

// NewStore returns a store over an open, migrated Warren database.
func NewStore(db *sql.DB, box secrets.Sealer) *Store { return &Store{db: db, box: box} }

// Save validates and stores p. An empty secret keeps the stored one (an
// edit of the hosts need not retype the key); a new profile needs one.
func (s *Store) Save(ctx context.Context, p Profile, secret string) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if strings.ContainsAny(secret, "\r\n\x00") {
		return fmt.Errorf("auth profile %s: the secret may not hold line breaks", p.Name)
	}
	hosts, _ := json.Marshal(p.Hosts)
	if secret == "" {
		res, err := s.db.ExecContext(ctx, `UPDATE auth_profiles SET hosts = ?, kind = ?, header = ?, username = ?,
			updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE name = ?`, string(hosts), p.Kind, p.Header, p.Username, p.Name)
		if err != nil {
			return fmt.Errorf("save auth profile %s: %w", p.Name, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("auth profile %s: a new profile needs its secret", p.Name)
		}
		return nil
	}
	sealed, err := s.box.Seal(secret)
	if err != nil {
		return fmt.Errorf("auth profile %s: seal: %w", p.Name, err)
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO auth_profiles (name, hosts, kind, header, username, secret) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(name) DO UPDATE SET hosts = excluded.hosts, kind = excluded.kind, header = excluded.header,
		username = excluded.username, secret = excluded.secret, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`,
		p.Name, string(hosts), p.Kind, p.Header, p.Username, sealed)
	if err != nil {
		return fmt.Errorf("save auth profile %s: %w", p.Name, err)
	}
	return nil
}

// List returns every profile by name, without secrets.
func (s *Store) List(ctx context.Context) ([]Profile, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, hosts, kind, header, username, secret != '' FROM auth_profiles ORDER BY name`)
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }()
	out := []Profile{}
	for rows.Next() {
		p, err := scan(rows.Scan)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// Get returns one profile and its opened secret.
func (s *Store) Get(ctx context.Context, name string) (Profile, string, error) {
	var sealed string
	row := s.db.QueryRowContext(ctx, `SELECT name, hosts, kind, header, username, secret != '', secret FROM auth_profiles WHERE name = ?`, name)
	p, err := scan(func(dest ...any) error { return row.Scan(append(dest, &sealed)...) })
	if errors.Is(err, sql.ErrNoRows) {
		return Profile{}, "", fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	if err != nil {
		return Profile{}, "", err
	}
	secret, err := s.box.Open(sealed)
	if err != nil {
		return Profile{}, "", fmt.Errorf("auth profile %s: the stored secret cannot be opened (was the key changed?): %w", name, err)
	}
	return p, secret, nil
}

// Delete removes a profile.
func (s *Store) Delete(ctx context.Context, name string) error {
	res, err := s.db.ExecContext(ctx, `DELETE FROM auth_profiles WHERE name = ?`, name)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %q", ErrNotFound, name)
	}
	return nil
}

func scan(scanFn func(dest ...any) error) (Profile, error) {
	var p Profile
	var hosts string
	if err := scanFn(&p.Name, &hosts, &p.Kind, &p.Header, &p.Username, &p.HasSecret); err != nil {
		return Profile{}, err
	}
	if err := json.Unmarshal([]byte(hosts), &p.Hosts); err != nil {
		return Profile{}, fmt.Errorf("auth profile %s: stored hosts are corrupt: %w", p.Name, err)
	}
	return p, nil
}
