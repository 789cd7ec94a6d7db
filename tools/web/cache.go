package web

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// page is one fetched response as the cache keeps it.
type page struct {
	URL         string // the final URL after redirects
	ContentType string
	Body        []byte
	Truncated   bool
	FetchedAt   time.Time
}

// cache keeps fetched pages in SQLite for a TTL (table web_cache).
type cache struct {
	db  *sql.DB
	ttl time.Duration
	now func() time.Time
}

func (c *cache) get(ctx context.Context, key string) (page, bool, error) {
	if c == nil || c.db == nil {
		return page{}, false, nil
	}
	var p page
	var fetched int64
	err := c.db.QueryRowContext(ctx, `SELECT final_url, content_type, body, truncated, fetched_at FROM web_cache WHERE url = ? AND fetched_at > ?`,
		key, c.now().Add(-c.ttl).UnixMilli()).Scan(&p.URL, &p.ContentType, &p.Body, &p.Truncated, &fetched)
	if errors.Is(err, sql.ErrNoRows) {
		return page{}, false, nil
	}
	if err != nil {
		return page{}, false, fmt.Errorf("web cache: %w", err)
	}
	p.FetchedAt = time.UnixMilli(fetched)
	return p, true, nil
}

func (c *cache) put(ctx context.Context, key string, p page) error {
	if c == nil || c.db == nil {
		return nil
	}
	now := c.now()
	_, err := c.db.ExecContext(ctx, `INSERT INTO web_cache (url, final_url, content_type, body, truncated, fetched_at) VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT(url) DO UPDATE SET final_url = excluded.final_url, content_type = excluded.content_type, body = excluded.body,
		truncated = excluded.truncated, fetched_at = excluded.fetched_at`,
		key, p.URL, p.ContentType, p.Body, p.Truncated, now.UnixMilli())
	if err != nil {
		return fmt.Errorf("web cache: %w", err)
	}
	// Expired pages go as new ones come, so the table stays small.
	if _, err := c.db.ExecContext(ctx, `DELETE FROM web_cache WHERE fetched_at <= ?`, now.Add(-c.ttl).UnixMilli()); err != nil {
		return fmt.Errorf("web cache: %w", err)
	}
	return nil
}
