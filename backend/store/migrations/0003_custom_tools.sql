-- Shell-backed tools defined at run time (seed §11). agent '' = global.
CREATE TABLE custom_tools (
    name            TEXT NOT NULL,
    agent           TEXT NOT NULL DEFAULT '',
    description     TEXT NOT NULL,
    parameters      TEXT NOT NULL,
    command         TEXT NOT NULL,
    timeout_seconds INTEGER NOT NULL DEFAULT 60,
    enabled         INTEGER NOT NULL DEFAULT 1,
    -- JSON object of name -> AES-256-GCM sealed value
    env_sealed      TEXT NOT NULL DEFAULT '{}',
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    PRIMARY KEY (name, agent)
);

-- Bumped in the same transaction as every custom_tools change, so every
-- process (window, CLI) can hot-reload cheaply.
INSERT INTO settings (key, value) VALUES ('custom_tools.version', '0');
