-- Binaries credentialed_exec may run, with their credentials sealed
-- (AES-256-GCM) and per-binary argument deny patterns (seed §4).
CREATE TABLE secure_cli_binaries (
    binary_name     TEXT PRIMARY KEY,
    path            TEXT NOT NULL,
    encrypted_env   TEXT NOT NULL DEFAULT '{}',
    deny_args       TEXT NOT NULL DEFAULT '[]',
    deny_verbose    TEXT NOT NULL DEFAULT '[]',
    timeout_seconds INTEGER NOT NULL DEFAULT 30,
    tips            TEXT NOT NULL DEFAULT '',
    created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
