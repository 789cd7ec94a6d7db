-- Key/value settings (policy config, active profile, UI preferences).
CREATE TABLE settings (
    key        TEXT PRIMARY KEY,
    value      TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Agents. type decides how context files route (seed §3).
CREATE TABLE agents (
    key        TEXT PRIMARY KEY,
    name       TEXT NOT NULL,
    type       TEXT NOT NULL DEFAULT 'open' CHECK (type IN ('open', 'predefined')),
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

INSERT INTO agents (key, name, type) VALUES ('default', 'Default agent', 'open');

-- Agent-level context files (templates for open agents).
CREATE TABLE agent_context_files (
    agent_key  TEXT NOT NULL REFERENCES agents(key) ON DELETE CASCADE,
    name       TEXT NOT NULL,
    content    TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (agent_key, name)
);

-- Per-user context files.
CREATE TABLE user_context_files (
    agent_key  TEXT NOT NULL REFERENCES agents(key) ON DELETE CASCADE,
    user_id    TEXT NOT NULL,
    name       TEXT NOT NULL,
    content    TEXT NOT NULL,
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (agent_key, user_id, name)
);
