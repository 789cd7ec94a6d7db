-- "Allow always" answers, stored as normalised argv patterns (JSON arrays of
-- argv arrays), never as a bare binary name.
CREATE TABLE approval_patterns (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    tool       TEXT NOT NULL,
    agent      TEXT NOT NULL DEFAULT '',
    pattern    TEXT NOT NULL,
    display    TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    UNIQUE (tool, agent, pattern)
);

-- Every approval decision, whoever or whatever made it.
CREATE TABLE approval_audit (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    request_id TEXT NOT NULL,
    tool       TEXT NOT NULL,
    summary    TEXT NOT NULL,
    cwd        TEXT NOT NULL DEFAULT '',
    agent      TEXT NOT NULL DEFAULT '',
    session    TEXT NOT NULL DEFAULT '',
    decision   TEXT NOT NULL,
    decided_by TEXT NOT NULL,
    reason     TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX approval_audit_created ON approval_audit(created_at);
