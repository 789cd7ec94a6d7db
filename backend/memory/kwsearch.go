package memory

import (
	"math"
	"strings"
)

// scopeFilter is a query's scope and filters, ready to test catalog
// entries: scopeSQL's rules (a test holds them equal).
type scopeFilter struct {
	q            Query
	since, until string // formatted as memory_docs.updated_at
}

func newScopeFilter(q Query) scopeFilter {
	f := scopeFilter{q: q}
	if !q.Since.IsZero() {
		f.since = fmtTime(q.Since)
	}
	if !q.Until.IsZero() {
		f.until = fmtTime(q.Until)
	}
	return f
}

// admits reports whether the query may see the chunk.
func (f *scopeFilter) admits(m *chunkMeta) bool {
	q := &f.q
	switch q.Scope {
	case ScopeUser:
		if m.agent != q.Agent || m.user != q.User || m.user == "" {
			return false
		}
	case ScopeAgent:
		if m.agent != q.Agent || m.user != q.User && m.user != "" {
			return false
		}
	case ScopeGlobal:
		if m.agent != "" || m.user != "" {
			return false
		}
	default:
		own := m.agent == q.Agent && (m.user == q.User || m.user == "")
		if !own && (m.agent != "" || m.user != "") {
			return false
		}
	}
	if q.PathPrefix != "" && !strings.HasPrefix(m.path, q.PathPrefix) {
		return false
	}
	if f.since != "" && m.updated < f.since || f.until != "" && m.updated >= f.until {
		return false
	}
	if len(q.Sources) == 0 {
		return m.source != SourceSystem
	}
	for _, src := range q.Sources {
		if m.source == src {
			return true
		}
	}
	return false
}

// kwTerms are the query's searchable words: tokenized as the index's text,
// stopwords left out, each once.
func kwTerms(text string) []string {
	var out []string
	seen := map[string]bool{}
	tokenize(text, func(w string) {
		if !stopwords[w] && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	})
	return out
}

// kwScratch is one search's score accumulator by slot; touched lists the
// slots to reset.
type kwScratch struct {
	score   []float64
	count   []uint16
	touched []uint32
}

// kwHit is a scored chunk: full when it holds every query word.
type kwHit struct {
	slot  uint32
	full  bool
	score float64
}

// better orders hits: every word first, then by BM25, then the older chunk
// (slots follow the order chunks were written in).
func (a kwHit) better(b kwHit) bool {
	if a.full != b.full {
		return a.full
	}
	if a.score != b.score {
		return a.score > b.score
	}
	return a.slot < b.slot
}

// search ranks the chunks the query may see by BM25 (FTS5's formula and
// IDF), those holding every word before those holding some, and returns up
// to pool of them. ok is false when the index is not ready.
func (x *kwIndex) search(q Query, terms []string) (out []candidate, ok bool) {
	x.mu.RLock()
	defer x.mu.RUnlock()
	if !x.ready {
		return nil, false
	}
	out = []candidate{}
	if len(terms) == 0 || x.live == 0 {
		return out, true
	}
	sc, _ := x.acc.Get().(*kwScratch)
	if sc == nil {
		sc = &kwScratch{}
	}
	defer x.acc.Put(sc)
	if n := len(x.meta); len(sc.score) < n {
		sc.score, sc.count = make([]float64, n+n/8), make([]uint16, n+n/8)
	}
	defer func() {
		for _, s := range sc.touched {
			sc.score[s], sc.count[s] = 0, 0
		}
		sc.touched = sc.touched[:0]
	}()
	n := float64(x.live)
	avg := float64(x.total) / n
	for _, w := range terms {
		t, known := x.terms[w]
		if !known {
			continue
		}
		p := &x.post[t]
		df := len(p.slots)
		if x.dead > 0 {
			df = 0
			for _, s := range p.slots {
				if x.lens[s]&deadBit == 0 {
					df++
				}
			}
		}
		idf := math.Log((n - float64(df) + 0.5) / (float64(df) + 0.5))
		if idf <= 0 {
			idf = 1e-6 // FTS5's floor: a word in most chunks still counts a little
		}
		norm := bm25K1 * bm25B / avg
		for i, s := range p.slots {
			l := x.lens[s]
			if l&deadBit != 0 {
				continue
			}
			tf := float64(p.tf[i])
			if sc.count[s] == 0 {
				sc.touched = append(sc.touched, s)
			}
			sc.count[s]++
			sc.score[s] += idf * tf * (bm25K1 + 1) / (tf + bm25K1*(1-bm25B) + norm*float64(l))
		}
	}
	f := newScopeFilter(q)
	// The best pool, kept in a small heap with the worst on top.
	var top []kwHit
	worse := func(i, j int) bool { return top[j].better(top[i]) }
	down := func(i int) {
		for {
			l, r, m := 2*i+1, 2*i+2, i
			if l < len(top) && worse(l, m) {
				m = l
			}
			if r < len(top) && worse(r, m) {
				m = r
			}
			if m == i {
				return
			}
			top[i], top[m] = top[m], top[i]
			i = m
		}
	}
	for _, s := range sc.touched {
		h := kwHit{slot: s, full: int(sc.count[s]) == len(terms), score: sc.score[s]}
		if len(top) == pool && !h.better(top[0]) {
			continue
		}
		if !f.admits(&x.meta[s]) {
			continue
		}
		if len(top) < pool {
			top = append(top, h)
			for i := len(top) - 1; i > 0; {
				p := (i - 1) / 2
				if !worse(i, p) {
					break
				}
				top[i], top[p] = top[p], top[i]
				i = p
			}
			continue
		}
		top[0] = h
		down(0)
	}
	ranked := make([]kwHit, len(top))
	for i := len(top) - 1; i >= 0; i-- {
		ranked[i] = top[0]
		top[0] = top[len(top)-1]
		top = top[:len(top)-1]
		down(0)
	}
	for i, h := range ranked {
		out = append(out, candidate{id: x.meta[h.slot].id, rank: i + 1, partial: !h.full})
	}
	return out, true
}

// metaOf returns the catalog's entries for ids; missing lists the ids it
// does not hold (written after the last sync: SQL decides for those). ok is
// false when the catalog is not ready.
func (x *kwIndex) metaOf(ids []int64) (found map[int64]chunkMeta, missing []int64, ok bool) {
	if x == nil {
		return nil, ids, false
	}
	x.mu.RLock()
	defer x.mu.RUnlock()
	if !x.ready {
		return nil, ids, false
	}
	found = make(map[int64]chunkMeta, len(ids))
	for _, id := range ids {
		if s, ok := x.slots[id]; ok {
			found[id] = x.meta[s]
		} else {
			missing = append(missing, id)
		}
	}
	return found, missing, true
}
