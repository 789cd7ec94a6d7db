-- Agent teams (issue 11): a team, its members, a task board with dependencies,
-- comments, attachments and an audit trail, a mailbox read per recipient, and
-- full-text search over the board. Times are fixed-width UTC text written by
-- backend/teams so they compare as strings; '' means "never".

-- A team: its lead and settings. next_task hands out the per-team task
-- numbers (T-1, T-2…) inside the creating transaction.
CREATE TABLE teams (
    key                   TEXT PRIMARY KEY,
    name                  TEXT NOT NULL DEFAULT '',
    lead                  TEXT NOT NULL,
    lead_role             TEXT NOT NULL DEFAULT '',
    workspace             TEXT NOT NULL DEFAULT '',
    -- on: a blocker comment escalates to the lead; off: straight to the user
    blocker_escalation    INTEGER NOT NULL DEFAULT 1,
    task_timeout_sec      INTEGER NOT NULL DEFAULT 1800 CHECK (task_timeout_sec >= 0),
    stale_pending_sec     INTEGER NOT NULL DEFAULT 86400 CHECK (stale_pending_sec >= 0),
    stale_review_sec      INTEGER NOT NULL DEFAULT 86400 CHECK (stale_review_sec >= 0),
    max_dispatches        INTEGER NOT NULL DEFAULT 3 CHECK (max_dispatches >= 1),
    -- 0: every member may work at once
    max_working           INTEGER NOT NULL DEFAULT 0 CHECK (max_working >= 0),
    paused                INTEGER NOT NULL DEFAULT 0,
    allow_member_requests INTEGER NOT NULL DEFAULT 0,
    next_task             INTEGER NOT NULL DEFAULT 1,
    created_at            TEXT NOT NULL,
    updated_at            TEXT NOT NULL
);
CREATE INDEX teams_lead ON teams(lead);

CREATE TABLE team_members (
    team     TEXT NOT NULL REFERENCES teams(key) ON DELETE CASCADE,
    agent    TEXT NOT NULL,
    role     TEXT NOT NULL DEFAULT '',
    position INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (team, agent)
) WITHOUT ROWID;
CREATE INDEX team_members_agent ON team_members(agent);

-- The board. id is internal (and the FTS rowid); num is the human id T-<num>.
-- hold says why a task is paused regardless of its blockers: a blocker
-- comment or an open question to the user. reason says why the task is in
-- its state (what it waits for, why it failed, was cancelled or went stale).
CREATE TABLE team_tasks (
    id               INTEGER PRIMARY KEY,
    team             TEXT NOT NULL REFERENCES teams(key) ON DELETE CASCADE,
    num              INTEGER NOT NULL,
    subject          TEXT NOT NULL CHECK (length(subject) BETWEEN 1 AND 500),
    description      TEXT NOT NULL DEFAULT '',
    priority         INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN 0 AND 3),
    state            TEXT NOT NULL CHECK (state IN ('pending', 'blocked', 'in_progress', 'in_review',
                         'completed', 'failed', 'cancelled', 'stale')),
    owner            TEXT NOT NULL DEFAULT '',
    require_approval INTEGER NOT NULL DEFAULT 0,
    result           TEXT NOT NULL DEFAULT '',
    progress         INTEGER NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 100),
    step             TEXT NOT NULL DEFAULT '',
    hold             TEXT NOT NULL DEFAULT '' CHECK (hold IN ('', 'blocker', 'ask_user')),
    reason           TEXT NOT NULL DEFAULT '',
    escalate_to      TEXT NOT NULL DEFAULT '' CHECK (escalate_to IN ('', 'lead', 'user')),
    question         TEXT NOT NULL DEFAULT '',
    answer           TEXT NOT NULL DEFAULT '',
    dispatch_count   INTEGER NOT NULL DEFAULT 0,
    dispatched_at    TEXT NOT NULL DEFAULT '',
    heartbeat_at     TEXT NOT NULL DEFAULT '',
    created_by_kind  TEXT NOT NULL CHECK (created_by_kind IN ('agent', 'user', 'system')),
    created_by       TEXT NOT NULL DEFAULT '',
    created_at       TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    state_at         TEXT NOT NULL,
    finished_at      TEXT NOT NULL DEFAULT '',
    UNIQUE (team, num)
);
CREATE INDEX team_tasks_board ON team_tasks(team, state, priority DESC, num);
CREATE INDEX team_tasks_priority ON team_tasks(team, priority DESC, num);
CREATE INDEX team_tasks_owner ON team_tasks(team, owner, state);
CREATE INDEX team_tasks_age ON team_tasks(state, state_at);

-- task_id waits for blocker_id (blocked_by); both in the same team.
CREATE TABLE team_task_deps (
    task_id    INTEGER NOT NULL REFERENCES team_tasks(id) ON DELETE CASCADE,
    blocker_id INTEGER NOT NULL REFERENCES team_tasks(id) ON DELETE CASCADE,
    PRIMARY KEY (task_id, blocker_id)
) WITHOUT ROWID;
CREATE INDEX team_task_deps_blocker ON team_task_deps(blocker_id, task_id);

CREATE TABLE team_task_comments (
    id          INTEGER PRIMARY KEY,
    task_id     INTEGER NOT NULL REFERENCES team_tasks(id) ON DELETE CASCADE,
    type        TEXT NOT NULL CHECK (type IN ('note', 'blocker')),
    author_kind TEXT NOT NULL CHECK (author_kind IN ('agent', 'user', 'system')),
    author      TEXT NOT NULL DEFAULT '',
    text        TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX team_task_comments_task ON team_task_comments(task_id, id);

-- path is relative to the team workspace, checked by policy/paths.
CREATE TABLE team_task_attachments (
    id            INTEGER PRIMARY KEY,
    task_id       INTEGER NOT NULL REFERENCES team_tasks(id) ON DELETE CASCADE,
    path          TEXT NOT NULL,
    added_by_kind TEXT NOT NULL CHECK (added_by_kind IN ('agent', 'user', 'system')),
    added_by      TEXT NOT NULL DEFAULT '',
    created_at    TEXT NOT NULL,
    UNIQUE (task_id, path)
);

-- The audit trail: every action and transition. task is the human id ('' for
-- team-level events such as messages); data is a JSON object.
CREATE TABLE team_events (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    team       TEXT NOT NULL REFERENCES teams(key) ON DELETE CASCADE,
    task       TEXT NOT NULL DEFAULT '',
    type       TEXT NOT NULL,
    actor_kind TEXT NOT NULL CHECK (actor_kind IN ('agent', 'user', 'system')),
    actor      TEXT NOT NULL DEFAULT '',
    data       TEXT NOT NULL DEFAULT '{}',
    created_at TEXT NOT NULL
);
CREATE INDEX team_events_team ON team_events(team, id);
CREATE INDEX team_events_task ON team_events(team, task, id);

-- The mailbox. A message has one recipient row per addressee, so a broadcast
-- stays unread for each member until that member reads it.
CREATE TABLE team_messages (
    id          INTEGER PRIMARY KEY,
    team        TEXT NOT NULL REFERENCES teams(key) ON DELETE CASCADE,
    sender_kind TEXT NOT NULL CHECK (sender_kind IN ('agent', 'user', 'system')),
    sender      TEXT NOT NULL DEFAULT '',
    broadcast   INTEGER NOT NULL DEFAULT 0,
    text        TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE TABLE team_message_recipients (
    message_id INTEGER NOT NULL REFERENCES team_messages(id) ON DELETE CASCADE,
    team       TEXT NOT NULL,
    recipient  TEXT NOT NULL,
    read_at    TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (message_id, recipient)
) WITHOUT ROWID;
CREATE INDEX team_message_inbox ON team_message_recipients(team, recipient, read_at, message_id);

-- Full-text search over subject, description, result and every comment of a
-- task (rowid = team_tasks.id), kept current by the triggers below.
CREATE VIRTUAL TABLE team_tasks_fts USING fts5(
    subject, description, result, comments,
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER team_tasks_fts_insert AFTER INSERT ON team_tasks BEGIN
    INSERT INTO team_tasks_fts(rowid, subject, description, result, comments)
    VALUES (new.id, new.subject, new.description, new.result, '');
END;
-- Only a change of the indexed text re-indexes: progress and heartbeats
-- update the row often and must not rewrite the index.
CREATE TRIGGER team_tasks_fts_update AFTER UPDATE OF subject, description, result ON team_tasks
WHEN old.subject IS NOT new.subject OR old.description IS NOT new.description OR old.result IS NOT new.result
BEGIN
    DELETE FROM team_tasks_fts WHERE rowid = old.id;
    INSERT INTO team_tasks_fts(rowid, subject, description, result, comments)
    VALUES (new.id, new.subject, new.description, new.result,
        COALESCE((SELECT group_concat(text, char(10)) FROM team_task_comments WHERE task_id = new.id), ''));
END;
CREATE TRIGGER team_tasks_fts_delete AFTER DELETE ON team_tasks BEGIN
    DELETE FROM team_tasks_fts WHERE rowid = old.id;
END;
CREATE TRIGGER team_task_comments_fts AFTER INSERT ON team_task_comments BEGIN
    DELETE FROM team_tasks_fts WHERE rowid = new.task_id;
    INSERT INTO team_tasks_fts(rowid, subject, description, result, comments)
    SELECT t.id, t.subject, t.description, t.result,
        COALESCE((SELECT group_concat(c.text, char(10)) FROM team_task_comments c WHERE c.task_id = t.id), '')
    FROM team_tasks t WHERE t.id = new.task_id;
END;
