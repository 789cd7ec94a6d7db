-- memory_embedded's key is (idx, chunk_id): finding a chunk's rows by
-- chunk_id alone (the ON DELETE CASCADE from memory_chunks, "is this chunk
-- embedded anywhere") scanned the whole table, once per chunk.
CREATE INDEX memory_embedded_chunk ON memory_embedded(chunk_id);
