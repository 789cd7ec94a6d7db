-- Auth profiles for url_fetch (seed 003 auth_profile): a credential the
-- model names but never sees, sent only to the profile's hosts. The secret
-- is sealed (AES-256-GCM) like credentialed_exec's environment.
CREATE TABLE auth_profiles (
    name        TEXT PRIMARY KEY,
    hosts       TEXT NOT NULL DEFAULT '[]',
    kind        TEXT NOT NULL CHECK (kind IN ('bearer', 'basic', 'header')),
    header      TEXT NOT NULL DEFAULT '',
    username    TEXT NOT NULL DEFAULT '',
    secret      TEXT NOT NULL,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
