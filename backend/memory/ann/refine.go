package ann

import "slices"

// relink (Options.Refine, a second pass once every node is linked)
// replaces n's level-0 list with the heuristic's choice among its current
// links and the EfConstruction nearest nodes a search of the finished graph
// finds, and links the chosen back to n. A node inserted early chose its
// links among the few nodes there were then, and later ones reach it only
// if it happened to be near their own search's path; on crowded data (text
// embeddings, whose 10th and 30th neighbours are almost equally near) that
// leaves regions a search cannot find its way into, and a few nodes no one
// links to. The second search sees the whole collection.
func (h *HNSW) relink(s *searcher, n uint32) {
	q := h.vec(n)
	h.epMu.Lock()
	ep, top := h.entry, h.top
	h.epMu.Unlock()
	cur := item{d: -dot(q, h.vec(ep)), n: ep}
	for l := top; l > 0; l-- {
		cur = h.greedy(s, q, cur, l, true)
	}
	qs := h.buildQuery(q)
	h.searchLayer(s, layerSearch{q: q, eps: []item{cur}, ef: h.opts.EfConstruction, level: 0, lock: true, qs: qs})
	found := h.found(s, q, qs)
	cands := make([]item, 0, len(found)+h.m0)
	for _, c := range found {
		if c.n != n {
			cands = append(cands, c)
		}
	}
	for _, x := range h.neighbours(s, n, 0, true) {
		if !slices.ContainsFunc(cands, func(c item) bool { return c.n == x }) {
			cands = append(cands, item{d: -dot(q, h.vec(x)), n: x})
		}
	}
	slices.SortFunc(cands, byDistance)
	chosen := h.selectNeighbours(cands, h.m0)
	mu := h.stripe(n)
	mu.Lock()
	h.setLinks(n, 0, chosen)
	mu.Unlock()
	for _, c := range chosen {
		h.connect(c.n, n, 0, c.d)
	}
}
