package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// GetSetting returns the value of key.
func (db *DB) GetSetting(ctx context.Context, key string) (string, bool, error) {
	var v string
	err := db.sql.QueryRowContext(ctx, "SELECT value FROM settings WHERE key = ?", key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("get setting %q: %w", key, err)
	}
	return v, true, nil
}

// SetSetting stores value under key.
func (db *DB) SetSetting(ctx context.Context, key, value string) error {
	if key == "" {
		return errors.New("set setting: empty key")
	}
	_, err := db.sql.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
		ON CONFLICT(key) DO UPDATE SET value = excluded.value,
		updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`, key, value)
	if err != nil {
		return fmt.Errorf("set setting %q: %w", key, err)
	}
	return nil
}

// DeleteSetting removes key; removing a missing key is not an error.
func (db *DB) DeleteSetting(ctx context.Context, key string) error {
	if _, err := db.sql.ExecContext(ctx, "DELETE FROM settings WHERE key = ?", key); err != nil {
		return fmt.Errorf("delete setting %q: %w", key, err)
	}
	return nil
}
