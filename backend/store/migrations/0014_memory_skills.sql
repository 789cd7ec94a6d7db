-- Memory documents (MEMORY.md, memory.md, memory/**.md written through the
-- file tools, and files imported for search_documents) and their search
-- index: chunks with two FTS5 tables (words; trigrams for code and CJK) and
-- vec0 tables made at run time, one per index identity (embedder, model,
-- dimensions, chunker), listed in memory_indexes.

-- agent '' is global (every agent reads it); user '' is the agent's copy
-- shared by all users. source is 'memory', 'import' (a file of a folder the
-- user added; folder is its memory_folders id) or 'system' (Warren's own
-- documentation, shipped in the binary).
CREATE TABLE memory_docs (
    id         INTEGER PRIMARY KEY,
    agent      TEXT NOT NULL DEFAULT '',
    user       TEXT NOT NULL DEFAULT '',
    path       TEXT NOT NULL CHECK (length(path) BETWEEN 1 AND 1024),
    source     TEXT NOT NULL DEFAULT 'memory' CHECK (source IN ('memory', 'import', 'system')),
    folder     TEXT NOT NULL DEFAULT '',
    content    TEXT NOT NULL,
    hash       TEXT NOT NULL,
    version    INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (agent, user, path)
);
CREATE INDEX memory_docs_updated ON memory_docs(updated_at);
CREATE INDEX memory_docs_source ON memory_docs(source, folder);

-- Folders the user imported for search_documents (warren memory import
-- DIR), scanned again for changes. agent '' shares it with every agent.
CREATE TABLE memory_folders (
    id         INTEGER PRIMARY KEY,
    agent      TEXT NOT NULL DEFAULT '',
    path       TEXT NOT NULL,
    added_at   TEXT NOT NULL,
    scanned_at TEXT NOT NULL DEFAULT '',
    files      INTEGER NOT NULL DEFAULT 0,
    skipped    INTEGER NOT NULL DEFAULT 0,
    error      TEXT NOT NULL DEFAULT '',
    UNIQUE (agent, path)
);

-- Earlier versions of a document, newest kept (the store trims old ones).
CREATE TABLE memory_doc_versions (
    doc_id   INTEGER NOT NULL REFERENCES memory_docs(id) ON DELETE CASCADE,
    version  INTEGER NOT NULL,
    content  TEXT NOT NULL,
    hash     TEXT NOT NULL,
    saved_at TEXT NOT NULL,
    PRIMARY KEY (doc_id, version)
) WITHOUT ROWID;

-- Chunks carry their document's agent, user and path so search filters
-- without a join; the vec0 tables are partitioned by agent.
CREATE TABLE memory_chunks (
    id         INTEGER PRIMARY KEY,
    doc_id     INTEGER NOT NULL REFERENCES memory_docs(id) ON DELETE CASCADE,
    agent      TEXT NOT NULL,
    user       TEXT NOT NULL,
    path       TEXT NOT NULL,
    seq        INTEGER NOT NULL,
    start_line INTEGER NOT NULL,
    end_line   INTEGER NOT NULL,
    heading    TEXT NOT NULL DEFAULT '',
    text       TEXT NOT NULL,
    hash       TEXT NOT NULL
);
CREATE INDEX memory_chunks_doc ON memory_chunks(doc_id, seq);

CREATE VIRTUAL TABLE memory_fts USING fts5(heading, text, content='memory_chunks', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE memory_fts_tri USING fts5(text, content='memory_chunks', content_rowid='id',
    tokenize='trigram');

CREATE TRIGGER memory_chunks_ai AFTER INSERT ON memory_chunks BEGIN
    INSERT INTO memory_fts(rowid, heading, text) VALUES (new.id, new.heading, new.text);
    INSERT INTO memory_fts_tri(rowid, text) VALUES (new.id, new.text);
END;
CREATE TRIGGER memory_chunks_ad AFTER DELETE ON memory_chunks BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, heading, text) VALUES ('delete', old.id, old.heading, old.text);
    INSERT INTO memory_fts_tri(memory_fts_tri, rowid, text) VALUES ('delete', old.id, old.text);
END;

-- Vectors by content, so an unchanged chunk (or the same text elsewhere)
-- is never embedded twice by the same embedder.
CREATE TABLE memory_embed_cache (
    hash  TEXT NOT NULL,
    kind  TEXT NOT NULL,
    model TEXT NOT NULL,
    dims  INTEGER NOT NULL,
    vec   BLOB NOT NULL,
    PRIMARY KEY (hash, kind, model, dims)
) WITHOUT ROWID;

-- One row per vector table. 'building' fills in the background while
-- search uses the 'ready' one; the swap is one transaction.
CREATE TABLE memory_indexes (
    name       TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    model      TEXT NOT NULL,
    dims       INTEGER NOT NULL CHECK (dims > 0),
    chunker    INTEGER NOT NULL,
    state      TEXT NOT NULL CHECK (state IN ('building', 'ready')),
    created_at TEXT NOT NULL
);

-- Which chunks a vector table holds (vec0 has no cheap anti-join).
CREATE TABLE memory_embedded (
    idx      TEXT NOT NULL REFERENCES memory_indexes(name) ON DELETE CASCADE,
    chunk_id INTEGER NOT NULL REFERENCES memory_chunks(id) ON DELETE CASCADE,
    PRIMARY KEY (idx, chunk_id)
) WITHOUT ROWID;

-- Skills published into Warren (publish_skill, warren skills add): each
-- version is a copy under the data directory's skills folder; the newest
-- version is the one agents get. skill_grants says which agents see a
-- published skill ('*': every agent).
CREATE TABLE skills_managed (
    name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 64),
    version      INTEGER NOT NULL CHECK (version > 0),
    hash         TEXT NOT NULL,
    description  TEXT NOT NULL,
    published_at TEXT NOT NULL,
    published_by TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (name, version)
) WITHOUT ROWID;

CREATE TABLE skill_grants (
    name  TEXT NOT NULL,
    agent TEXT NOT NULL,
    PRIMARY KEY (name, agent)
) WITHOUT ROWID;

-- The knowledge graph: entities and relations an agent's model extracted
-- from memory writes (or the user entered), each valid over an interval
-- ('' = open), with the chunk it came from. agent '' is global.
CREATE TABLE kg_entities (
    id           INTEGER PRIMARY KEY,
    agent        TEXT NOT NULL DEFAULT '',
    name         TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 200),
    type         TEXT NOT NULL,
    description  TEXT NOT NULL DEFAULT '',
    valid_from   TEXT NOT NULL DEFAULT '',
    valid_to     TEXT NOT NULL DEFAULT '',
    confidence   REAL NOT NULL DEFAULT 1 CHECK (confidence BETWEEN 0 AND 1),
    source_chunk INTEGER REFERENCES memory_chunks(id) ON DELETE SET NULL,
    -- review is set when a likely duplicate was kept apart for the user to judge.
    review       TEXT NOT NULL DEFAULT '',
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
);
CREATE INDEX kg_entities_name ON kg_entities(agent, name COLLATE NOCASE);
CREATE VIRTUAL TABLE kg_entities_fts USING fts5(name, description, content='kg_entities', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2');
CREATE TRIGGER kg_entities_ai AFTER INSERT ON kg_entities BEGIN
    INSERT INTO kg_entities_fts(rowid, name, description) VALUES (new.id, new.name, new.description);
END;
CREATE TRIGGER kg_entities_ad AFTER DELETE ON kg_entities BEGIN
    INSERT INTO kg_entities_fts(kg_entities_fts, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
END;
CREATE TRIGGER kg_entities_au AFTER UPDATE OF name, description ON kg_entities BEGIN
    INSERT INTO kg_entities_fts(kg_entities_fts, rowid, name, description) VALUES ('delete', old.id, old.name, old.description);
    INSERT INTO kg_entities_fts(rowid, name, description) VALUES (new.id, new.name, new.description);
END;

CREATE TABLE kg_relations (
    id           INTEGER PRIMARY KEY,
    src          INTEGER NOT NULL REFERENCES kg_entities(id) ON DELETE CASCADE,
    dst          INTEGER NOT NULL REFERENCES kg_entities(id) ON DELETE CASCADE,
    type         TEXT NOT NULL,
    valid_from   TEXT NOT NULL DEFAULT '',
    valid_to     TEXT NOT NULL DEFAULT '',
    confidence   REAL NOT NULL DEFAULT 1 CHECK (confidence BETWEEN 0 AND 1),
    source_chunk INTEGER REFERENCES memory_chunks(id) ON DELETE SET NULL,
    created_at   TEXT NOT NULL,
    UNIQUE (src, dst, type, valid_from)
);
CREATE INDEX kg_relations_src ON kg_relations(src);
CREATE INDEX kg_relations_dst ON kg_relations(dst);
