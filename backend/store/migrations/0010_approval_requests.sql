-- Approval requests waiting for a human, mirrored here so that every Warren
-- process sharing this database sees them: a request asked by `warren mcp
-- serve` or `warren tool call` can be answered in the window. The asking
-- process keeps waiting in memory and polls its row; the row is the arbiter
-- of "the first answer wins" (every answer is an UPDATE … WHERE status =
-- 'pending'). Timestamps are UTC RFC 3339 with milliseconds, so they compare
-- as strings.
CREATE TABLE approval_requests (
    id          TEXT PRIMARY KEY,
    -- the asking approvals.Service (random per process start): two cores
    -- in one process are still told apart
    instance    TEXT NOT NULL,
    pid         INTEGER NOT NULL,
    -- what the asking process is, for people: "warren mcp serve", "Warren window"
    process     TEXT NOT NULL DEFAULT '',
    tool        TEXT NOT NULL,
    summary     TEXT NOT NULL,
    reason      TEXT NOT NULL DEFAULT '',
    cwd         TEXT NOT NULL DEFAULT '',
    agent       TEXT NOT NULL DEFAULT '',
    session     TEXT NOT NULL DEFAULT '',
    -- normalised argv lists (JSON array of arrays); NULL when the request has none
    commands    TEXT,
    created_at  TEXT NOT NULL,
    expires_at  TEXT NOT NULL,
    status      TEXT NOT NULL DEFAULT 'pending'
                CHECK (status IN ('pending', 'answered', 'expired', 'cancelled')),
    -- allow-once | allow-always | deny once answered
    decision    TEXT NOT NULL DEFAULT '',
    answered_by TEXT NOT NULL DEFAULT '',
    settled_at  TEXT
);
CREATE INDEX approval_requests_status ON approval_requests(status, expires_at);
CREATE INDEX approval_requests_expires ON approval_requests(expires_at);

-- Processes that show other processes' requests (a window running the
-- approval watcher), so a CLI without a terminal knows whether anyone can
-- answer. Rows of dead pids are ignored and swept.
CREATE TABLE approval_watchers (
    instance   TEXT PRIMARY KEY,
    pid        INTEGER NOT NULL,
    process    TEXT NOT NULL DEFAULT '',
    started_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
