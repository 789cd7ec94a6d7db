-- Every chunk written or deleted, in order, for the in-process keyword index
-- and chunk catalog a long-running Warren keeps (backend/memory/kwindex.go):
-- it applies the rows after the last one it saw before each search, so a
-- chunk another process wrote or deleted is found, or no longer found, at
-- once. The store trims old rows; a reader that finds its place trimmed
-- away rebuilds from memory_chunks. op is 1 for an insert, 0 for a delete.
CREATE TABLE memory_chunk_log (
    seq      INTEGER PRIMARY KEY AUTOINCREMENT,
    chunk_id INTEGER NOT NULL,
    op       INTEGER NOT NULL CHECK (op IN (0, 1))
);

CREATE TRIGGER memory_chunks_log_ai AFTER INSERT ON memory_chunks BEGIN
    INSERT INTO memory_chunk_log (chunk_id, op) VALUES (new.id, 1);
END;
CREATE TRIGGER memory_chunks_log_ad AFTER DELETE ON memory_chunks BEGIN
    INSERT INTO memory_chunk_log (chunk_id, op) VALUES (old.id, 0);
END;
