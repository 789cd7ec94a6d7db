// Package ann is the approximate nearest-neighbour index memory search keeps
// in process: built from the vectors SQLite holds (SQLite stays the source
// of truth; an exact scan is the fallback and the recall oracle), updated on
// write, persisted or rebuilt at start.
package ann

// Hit is one neighbour: its id and its cosine similarity to the query.
type Hit struct {
	ID    int64
	Score float32
}

// Index finds the vectors most similar to a query by cosine similarity.
// Vectors are unit length. It is safe for concurrent use.
type Index interface {
	// Add inserts or replaces the vector of id.
	Add(id int64, vec []float32) error
	// Remove deletes id; removing an unknown id is a no-op.
	Remove(id int64)
	// Search returns up to k hits, most similar first; filter, when not
	// nil, keeps only the ids it accepts (an agent's partition, say).
	Search(q []float32, k int, filter func(id int64) bool) []Hit
	// Len is the number of vectors held.
	Len() int
}
