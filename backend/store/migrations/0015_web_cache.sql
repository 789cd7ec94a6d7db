-- Pages web_fetch fetched, served again for a short TTL (tools/web). Keyed
-- by the URL as requested; the body is the raw response, capped.
CREATE TABLE web_cache (
    url          TEXT PRIMARY KEY,
    final_url    TEXT NOT NULL,
    content_type TEXT NOT NULL DEFAULT '',
    body         BLOB NOT NULL,
    truncated    INTEGER NOT NULL DEFAULT 0,
    fetched_at   INTEGER NOT NULL
);
CREATE INDEX web_cache_fetched ON web_cache(fetched_at);
