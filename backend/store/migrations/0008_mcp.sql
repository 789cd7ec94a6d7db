-- MCP servers Warren manages (issue 5, seed §10). Env and header values are
-- sealed (AES-256-GCM, JSON object name -> sealed value): any of them may be
-- a token.
CREATE TABLE mcp_servers (
    name             TEXT PRIMARY KEY,
    transport        TEXT NOT NULL CHECK (transport IN ('stdio', 'sse', 'streamable-http')),
    command          TEXT NOT NULL DEFAULT '',
    args             TEXT NOT NULL DEFAULT '[]',
    env_sealed       TEXT NOT NULL DEFAULT '{}',
    cwd              TEXT NOT NULL DEFAULT '',
    url              TEXT NOT NULL DEFAULT '',
    headers_sealed   TEXT NOT NULL DEFAULT '{}',
    enabled          INTEGER NOT NULL DEFAULT 1,
    tool_prefix      TEXT NOT NULL DEFAULT '',
    connect_timeout_ms INTEGER NOT NULL DEFAULT 30000,
    call_timeout_ms  INTEGER NOT NULL DEFAULT 120000,
    -- tools the user switched off for every agent (JSON array of MCP tool names)
    tool_deny        TEXT NOT NULL DEFAULT '[]',
    -- 1: only agents/users with an enabled grant may use the server
    restricted       INTEGER NOT NULL DEFAULT 0,
    -- 1: tools hide behind tool_search until the model asks for them
    deferred         INTEGER NOT NULL DEFAULT 0,
    -- stdio servers only: run inside a Podman container
    sandboxed        INTEGER NOT NULL DEFAULT 0,
    sandbox_network  INTEGER NOT NULL DEFAULT 0,
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Grants (seed §10): per server and agent, or per server and user.
CREATE TABLE mcp_grants (
    server           TEXT NOT NULL REFERENCES mcp_servers(name) ON DELETE CASCADE,
    scope            TEXT NOT NULL CHECK (scope IN ('agent', 'user')),
    subject          TEXT NOT NULL,
    tool_allow       TEXT NOT NULL DEFAULT '[]',
    tool_deny        TEXT NOT NULL DEFAULT '[]',
    config_overrides TEXT NOT NULL DEFAULT '{}',
    enabled          INTEGER NOT NULL DEFAULT 1,
    created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (server, scope, subject)
);

-- Access requests: pending until reviewed; approval creates the grant in
-- the same transaction.
CREATE TABLE mcp_access_requests (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    server       TEXT NOT NULL REFERENCES mcp_servers(name) ON DELETE CASCADE,
    scope        TEXT NOT NULL CHECK (scope IN ('agent', 'user')),
    subject      TEXT NOT NULL,
    tool_allow   TEXT NOT NULL DEFAULT '[]',
    reason       TEXT NOT NULL DEFAULT '',
    status       TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected')),
    reviewer     TEXT NOT NULL DEFAULT '',
    review_note  TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    reviewed_at  TEXT
);

-- Bumped with every change above so every process (window, CLI) reloads.
INSERT INTO settings (key, value) VALUES ('mcp.version', '0');
