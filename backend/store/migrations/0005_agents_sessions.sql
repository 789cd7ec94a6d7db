-- Agent settings for the agent runtime (issue: agent runtime).
ALTER TABLE agents ADD COLUMN provider TEXT NOT NULL DEFAULT '';
ALTER TABLE agents ADD COLUMN model TEXT NOT NULL DEFAULT '';
ALTER TABLE agents ADD COLUMN profile TEXT NOT NULL DEFAULT '';
ALTER TABLE agents ADD COLUMN allow_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE agents ADD COLUMN deny_json TEXT NOT NULL DEFAULT '[]';
ALTER TABLE agents ADD COLUMN workspace TEXT NOT NULL DEFAULT '';
ALTER TABLE agents ADD COLUMN sandbox INTEGER NOT NULL DEFAULT 1;
ALTER TABLE agents ADD COLUMN network INTEGER NOT NULL DEFAULT 0;

-- LLM providers; api_key_sealed is AES-256-GCM with the keychain-held key.
CREATE TABLE providers (
    name           TEXT PRIMARY KEY,
    kind           TEXT NOT NULL CHECK (kind IN ('openai', 'anthropic')),
    base_url       TEXT NOT NULL,
    api_key_sealed TEXT NOT NULL DEFAULT '',
    default_model  TEXT NOT NULL DEFAULT '',
    created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- Conversations and their messages, tool calls and usage.
CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    agent_key  TEXT NOT NULL,
    parent_id  TEXT NOT NULL DEFAULT '',
    title      TEXT NOT NULL DEFAULT '',
    status     TEXT NOT NULL DEFAULT 'active',
    prompt_tokens     INTEGER NOT NULL DEFAULT 0,
    completion_tokens INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX sessions_agent ON sessions(agent_key, updated_at);

CREATE TABLE messages (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id   TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    content      TEXT NOT NULL DEFAULT '',
    tool_calls   TEXT NOT NULL DEFAULT '[]',
    tool_call_id TEXT NOT NULL DEFAULT '',
    name         TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX messages_session ON messages(session_id, id);
