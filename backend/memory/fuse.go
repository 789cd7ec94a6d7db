package memory

import (
	"context"
	"sort"
	"strings"
	"unicode/utf8"
)

// fuse merges the channels by reciprocal rank fusion, scores in 0..1 (1:
// first in every channel that ran), collapses duplicates, applies
// min_score (an exact keyword hit always stays) and cuts to max_results.
func (s *Store) fuse(ctx context.Context, q Query, kw, vec []candidate) ([]Hit, error) {
	wk, wv := q.KeywordWeight, q.VectorWeight
	if wk <= 0 {
		wk = 1
	}
	if wv <= 0 {
		wv = 1
	}
	best := 0.0 // the fused score of a chunk first in every channel that ran
	if kw != nil {
		best += wk / (rrfK + 1)
	}
	if vec != nil {
		best += wv / (rrfK + 1)
	}
	hits := map[int64]*Hit{}
	var order []int64
	get := func(id int64) *Hit {
		h := hits[id]
		if h == nil {
			h = &Hit{chunk: id}
			hits[id] = h
			order = append(order, id)
		}
		return h
	}
	partial := map[int64]bool{}
	for _, c := range kw {
		get(c.id).KeywordRank = c.rank
		partial[c.id] = c.partial
	}
	for _, c := range vec {
		get(c.id).VectorRank = c.rank
	}
	if len(order) == 0 {
		return []Hit{}, nil
	}
	// The catalog knows each chunk's user and content keys, so ranking and
	// collapsing need no SQL; rows are read for the hits kept (and for chunks
	// the catalog does not hold yet, or when it is not running).
	found, missing, _ := s.kwIndex().metaOf(order)
	if err := s.loadHits(ctx, hits, missing); err != nil {
		return nil, err
	}
	needle := strings.ToLower(strings.Join(strings.Fields(q.Text), " "))
	out := make([]Hit, 0, len(order))
	for _, id := range order {
		h := hits[id]
		if m, ok := found[id]; ok {
			h.User, h.hashKey, h.textKey = m.user, m.hash, m.textKey
		} else if h.Path == "" {
			continue // deleted since the channels ran
		}
		score := 0.0
		if h.KeywordRank > 0 {
			w := wk
			if partial[id] {
				w /= 2
			}
			score += w / float64(rrfK+h.KeywordRank)
		}
		if h.VectorRank > 0 {
			score += wv / float64(rrfK+h.VectorRank)
		}
		score /= best
		if h.User != "" {
			score *= userBoost
		}
		// Ranked by the boosted score; shown capped at 1.
		h.rankScore, h.Score = score, min(score, 1)
		out = append(out, *h)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].rankScore != out[j].rankScore {
			return out[i].rankScore > out[j].rankScore
		}
		return out[i].chunk < out[j].chunk
	})
	out = collapse(out)
	kept := make([]Hit, 0, q.MaxResults)
	for i := 0; i < len(out) && len(kept) < q.MaxResults; {
		// Read the next few rows not read yet: as many as are still wanted,
		// and a few for those min_score may drop.
		batch := out[i:min(i+q.MaxResults-len(kept)+4, len(out))]
		i += len(batch)
		var ids []int64
		for _, h := range batch {
			if h.text == "" {
				ids = append(ids, h.chunk)
			}
		}
		if err := s.loadHits(ctx, hits, ids); err != nil {
			return nil, err
		}
		for _, h := range batch {
			if h.text == "" {
				h = *hits[h.chunk]
				if h.Path == "" {
					continue // deleted since the channels ran
				}
			}
			h.Exact = h.KeywordRank > 0 && strings.Contains(strings.ToLower(strings.Join(strings.Fields(h.text), " ")), needle)
			h.Snippet = snippet(h.text, q.Text)
			if (h.Score >= q.MinScore || h.Exact) && len(kept) < q.MaxResults {
				kept = append(kept, h)
			}
		}
	}
	return kept, nil
}

// loadHits fills the hits' chunk and document fields, keeping their ranks
// and scores.
func (s *Store) loadHits(ctx context.Context, hits map[int64]*Hit, ids []int64) error {
	if len(ids) == 0 {
		return nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return eachRow(ctx, s.db, `SELECT id, agent, user, path, start_line, end_line, heading, text, hash
		FROM memory_chunks WHERE id IN (`+marks(len(ids))+`)`, args, func(scan func(...any) error) error {
		var id int64
		var h Hit
		if err := scan(&id, &h.Agent, &h.User, &h.Path, &h.StartLine, &h.EndLine, &h.Heading, &h.text, &h.hash); err != nil {
			return err
		}
		cur := hits[id]
		h.chunk, h.KeywordRank, h.VectorRank = id, cur.KeywordRank, cur.VectorRank
		h.Score, h.rankScore = cur.Score, cur.rankScore
		h.hashKey, h.textKey = contentKey(h.hash), textKey(h.text)
		*cur = h
		return nil
	})
}

// marks is n SQL parameter marks: "?,?,?".
func marks(n int) string { return strings.TrimSuffix(strings.Repeat("?,", n), ",") }

// collapse keeps the best of near-duplicate chunks: the same content, or
// the same text (say, a user's copy of a global document) compared without
// case and spacing.
func collapse(hits []Hit) []Hit {
	seenHash, seenText := map[uint64]bool{}, map[uint64]bool{}
	out := hits[:0]
	for _, h := range hits {
		if h.hashKey != 0 && seenHash[h.hashKey] || seenText[h.textKey] {
			continue
		}
		seenHash[h.hashKey], seenText[h.textKey] = h.hashKey != 0, true
		out = append(out, h)
	}
	return out
}

// snippet is about 240 characters of text around the first query word it
// contains, or its start.
func snippet(text, query string) string {
	const width = 240
	flat := strings.Join(strings.Fields(text), " ")
	lower := strings.ToLower(flat)
	at := -1
	for _, w := range strings.Fields(strings.ToLower(query)) {
		w = strings.Trim(w, `"'.,;:!?()[]`)
		if len(w) < 3 || stopwords[w] {
			continue
		}
		if i := strings.Index(lower, w); i >= 0 && (at < 0 || i < at) {
			at = i
		}
	}
	if len(flat) <= width {
		return flat
	}
	start := max(at-width/3, 0)
	for start > 0 && !utf8.RuneStart(flat[start]) {
		start--
	}
	end := min(start+width, len(flat))
	for end < len(flat) && !utf8.RuneStart(flat[end]) {
		end++
	}
	out := flat[start:end]
	if start > 0 {
		out = "…" + out
	}
	if end < len(flat) {
		out += "…"
	}
	return out
}
