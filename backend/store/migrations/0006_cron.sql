-- Scheduled agent jobs (cron). schedule is a 5-field cron expression, a macro
-- such as @daily, or "at <RFC3339>" for a one-shot job. Times are UTC text in
-- a fixed-width format so they compare as strings.
CREATE TABLE cron_jobs (
    id           TEXT PRIMARY KEY,
    agent        TEXT NOT NULL,
    name         TEXT NOT NULL DEFAULT '',
    schedule     TEXT NOT NULL,
    prompt       TEXT NOT NULL,
    enabled      INTEGER NOT NULL DEFAULT 1,
    next_run     TEXT NOT NULL DEFAULT '',
    last_run     TEXT NOT NULL DEFAULT '',
    last_status  TEXT NOT NULL DEFAULT '' CHECK (last_status IN ('', 'ok', 'error', 'running')),
    last_result  TEXT NOT NULL DEFAULT '',
    last_session TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX cron_jobs_due ON cron_jobs(enabled, next_run);
CREATE INDEX cron_jobs_agent ON cron_jobs(agent);
