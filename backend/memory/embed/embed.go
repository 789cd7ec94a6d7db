// Package embed turns text into vectors for memory search. An Embedder is
// either the one shipped inside Warren (offline, no model server) or an
// OpenAI-compatible /v1/embeddings endpoint. Vectors are unit length, so
// cosine similarity is a dot product.
package embed

import "context"

// Identity names what produced a vector. Vectors of different identities
// never mix in one index: a change means a rebuild.
type Identity struct {
	// Kind is the embedder family: "builtin" or "openai".
	Kind string `json:"kind"`
	// Model is the model (or the shipped table's name and version).
	Model string `json:"model"`
	// Dims is the vector length.
	Dims int `json:"dims"`
}

// Embedder embeds texts, one unit-length vector per text, in order.
type Embedder interface {
	Identity() Identity
	// Embed returns len(texts) vectors of Identity().Dims floats each. A
	// text with nothing to embed (no known word, say) gets a zero vector.
	Embed(ctx context.Context, texts []string) ([][]float32, error)
}
