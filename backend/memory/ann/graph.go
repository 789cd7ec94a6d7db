package ann

import "slices"

// searcher is one goroutine's scratch space: a visited set reset by bumping
// a generation instead of clearing, and the two heaps of a layer search.
type searcher struct {
	visited []uint32
	gen     uint32
	cand    maxHeap // negated distances: the nearest pops first
	res     maxHeap
	buf     []uint32
	fresh   []uint32 // a node's neighbours not visited yet
}

// searcher takes scratch space sized for every slot the graph holds now.
func (h *HNSW) searcher() *searcher {
	s, _ := h.pool.Get().(*searcher)
	if s == nil {
		s = &searcher{}
	}
	if n := len(h.ids); len(s.visited) < n {
		s.visited = make([]uint32, n+n/8+64)
		s.gen = 0
	}
	return s
}

func (s *searcher) next() {
	s.gen++
	if s.gen == 0 { // wrapped: old marks could collide
		clear(s.visited)
		s.gen = 1
	}
	s.cand = s.cand[:0]
	s.res = s.res[:0]
}

// neighbours is n's list on level l. With lock (parallel build) it is a copy
// taken under n's stripe lock, since another worker may be rewriting it.
func (h *HNSW) neighbours(s *searcher, n uint32, l int, lock bool) []uint32 {
	ls := h.links(n, l)
	if !lock {
		return ls[1 : 1+ls[0]]
	}
	mu := h.stripe(n)
	mu.Lock()
	s.buf = append(s.buf[:0], ls[1:1+ls[0]]...)
	mu.Unlock()
	return s.buf
}

// greedy walks level l towards q from cur, one nearest neighbour at a time.
func (h *HNSW) greedy(s *searcher, q []float32, cur item, l int, lock bool) item {
	for changed := true; changed; {
		changed = false
		for _, nb := range h.neighbours(s, cur.n, l, lock) {
			if d := -dot(q, h.vec(nb)); d < cur.d {
				cur, changed = item{d: d, n: nb}, true
			}
		}
	}
	return cur
}

// layerSearch is one beam search on a level.
type layerSearch struct {
	q      []float32
	eps    []item // entry points, distances known (to the vectors)
	ef     int
	level  int
	lock   bool
	filter func(id int64) bool
	budget int // stop after this many distance computations; 0: no limit
	// qs, when set, is the scaled query (quant.go): distances are taken to
	// the codes, approximately, eps' included; s.res holds them.
	qs []float32
}

// searchLayer leaves in s.res the ef nearest live nodes the filter accepts
// (the paper's SEARCH-LAYER). Rejected and dead nodes are still expanded, so
// a selective filter widens the walk rather than cutting it short. It reports
// false when the budget ran out first.
func (h *HNSW) searchLayer(s *searcher, ls layerSearch) bool {
	s.next()
	accept := func(n uint32) bool {
		return !h.dead[n] && (ls.filter == nil || ls.filter(h.ids[n]))
	}
	worst := float32(3) // above any -dot of unit vectors
	for _, e := range ls.eps {
		if s.visited[e.n] == s.gen {
			continue
		}
		s.visited[e.n] = s.gen
		if ls.qs != nil {
			e.d = -dotCode(ls.qs, h.code(e.n))
		}
		s.cand.push(item{d: -e.d, n: e.n})
		if accept(e.n) {
			s.res.offer(e, ls.ef)
		}
	}
	if len(s.res) >= ls.ef {
		worst = s.res[0].d
	}
	visits := 0
	for len(s.cand) > 0 {
		c := s.cand.pop()
		c.d = -c.d
		if c.d > worst && len(s.res) >= ls.ef {
			break
		}
		if len(s.cand) > 0 && !ls.lock {
			prefetchLinks(h.links(s.cand[0].n, ls.level)) // likely the next to expand
		}
		// The unvisited neighbours first, their vectors prefetched, then
		// the distances: the memory waits overlap.
		fresh := s.fresh[:0]
		for _, nb := range h.neighbours(s, c.n, ls.level, ls.lock) {
			if s.visited[nb] != s.gen {
				s.visited[nb] = s.gen
				fresh = append(fresh, nb)
				if ls.qs != nil {
					prefetchCode(h.code(nb))
				} else {
					prefetch(h.vec(nb))
				}
			}
		}
		s.fresh = fresh
		for _, nb := range fresh {
			visits++
			var d float32
			if ls.qs != nil {
				d = -dotCode(ls.qs, h.code(nb))
			} else {
				d = -dot(ls.q, h.vec(nb))
			}
			if len(s.res) < ls.ef || d < worst {
				s.cand.push(item{d: -d, n: nb})
				if accept(nb) {
					s.res.offer(item{d: d, n: nb}, ls.ef)
					if len(s.res) >= ls.ef {
						worst = s.res[0].d
					}
				}
			}
		}
		if ls.budget > 0 && visits > ls.budget {
			return false
		}
	}
	return true
}

// found is what searchLayer left in s.res, nearest first, as a new slice
// (insert passes it to the next level's search as its entry points, while
// that search refills s.res); found on the codes (qs set), it is ranked by
// the vectors.
func (h *HNSW) found(s *searcher, q, qs []float32) []item {
	if qs == nil {
		return s.res.sorted()
	}
	res := slices.Clone(s.res)
	for _, r := range res {
		prefetch(h.vec(r.n))
	}
	for i := range res {
		res[i].d = -dot(q, h.vec(res[i].n))
	}
	slices.SortFunc(res, byDistance)
	return res
}

// selectNeighbours is the paper's heuristic (SELECT-NEIGHBORS-HEURISTIC):
// from candidates sorted nearest first, keep one only if it is nearer to the
// base than to every one kept so far. Links then point in diverse
// directions, which keeps clustered data navigable.
func (h *HNSW) selectNeighbours(cands []item, max int) []item {
	out := make([]item, 0, max)
	for _, c := range cands {
		if len(out) >= max {
			break
		}
		cv := h.vec(c.n)
		good := true
		for _, o := range out {
			if -dot(cv, h.vec(o.n)) < c.d {
				good = false
				break
			}
		}
		if good {
			out = append(out, c)
		}
	}
	if h.opts.Backfill && len(out) < max && len(out) < len(cands) {
		out = backfill(out, cands, max)
	}
	return out
}

// backfill tops kept (a subsequence of cands, both nearest first) up to max
// with the nearest candidates the heuristic pruned.
func backfill(kept, cands []item, max int) []item {
	chosen := make(map[uint32]bool, len(kept))
	for _, k := range kept {
		chosen[k.n] = true
	}
	for _, c := range cands {
		if len(kept) >= max {
			break
		}
		if !chosen[c.n] {
			kept = append(kept, c)
		}
	}
	return kept
}

func byDistance(a, b item) int {
	switch {
	case a.d < b.d:
		return -1
	case a.d > b.d:
		return 1
	}
	return int(a.n) - int(b.n)
}

// setLinks writes chosen as n's list on level l.
func (h *HNSW) setLinks(n uint32, l int, chosen []item) {
	ls := h.links(n, l)
	ls[0] = uint32(len(chosen)) //nolint:gosec // at most maxLinks
	for i, c := range chosen {
		ls[1+i] = c.n
	}
}

// connect adds a link from target to n (at distance d) on level l, unless
// there is one; a full list is pruned with the heuristic, tombstones first.
func (h *HNSW) connect(target, n uint32, l int, d float32) {
	mu := h.stripe(target)
	mu.Lock()
	defer mu.Unlock()
	ls := h.links(target, l)
	cnt, max := int(ls[0]), h.maxLinks(l)
	if slices.Contains(ls[1:1+cnt], n) {
		return // already linked (a refine pass)
	}
	if cnt < max {
		ls[1+cnt] = n
		ls[0]++
		return
	}
	tv := h.vec(target)
	cands := make([]item, 0, cnt+1)
	for _, x := range ls[1 : 1+cnt] {
		if !h.dead[x] {
			cands = append(cands, item{d: -dot(tv, h.vec(x)), n: x})
		}
	}
	cands = append(cands, item{d: d, n: n})
	slices.SortFunc(cands, byDistance)
	h.setLinks(target, l, h.selectNeighbours(cands, max))
}

// insert links slot n into the graph (the paper's INSERT). Safe to run on
// several goroutines at once over different slots.
func (h *HNSW) insert(s *searcher, n uint32) {
	level := int(h.levels[n])
	h.epMu.Lock()
	if h.top < 0 {
		h.entry, h.top = n, level
		h.epMu.Unlock()
		return
	}
	ep, top := h.entry, h.top
	raise := level > top
	if raise {
		// Rare (about log n times): hold the entry until n is linked, so no
		// worker starts from a node that has no links yet.
		defer func() {
			h.entry, h.top = n, level
			h.epMu.Unlock()
		}()
	} else {
		h.epMu.Unlock()
	}
	q := h.vec(n)
	cur := item{d: -dot(q, h.vec(ep)), n: ep}
	for l := top; l > level; l-- {
		cur = h.greedy(s, q, cur, l, true)
	}
	eps := []item{cur}
	qs := h.buildQuery(q)
	for l := min(level, top); l >= 0; l-- {
		h.searchLayer(s, layerSearch{q: q, eps: eps, ef: h.opts.EfConstruction, level: l, lock: true, qs: qs})
		// In a parallel build another worker may have linked n on this
		// level already (it found n on the level above), so the search can
		// find n itself.
		cands := slices.DeleteFunc(h.found(s, q, qs), func(c item) bool { return c.n == n })
		chosen := h.selectNeighbours(cands, h.opts.M)
		mu := h.stripe(n)
		mu.Lock()
		h.setLinks(n, l, chosen)
		mu.Unlock()
		for _, c := range chosen {
			h.connect(c.n, n, l, c.d)
		}
		if len(cands) > 0 {
			eps = cands
		}
	}
}

// removeSlot turns n into a tombstone and relinks each live neighbour that
// pointed to it, choosing among its other links and n's links, so the
// region n served stays reachable. The caller holds the write lock.
func (h *HNSW) removeSlot(n uint32) {
	h.dead[n] = true
	h.nDead++
	delete(h.byID, h.ids[n])
	for l := 0; l <= int(h.levels[n]); l++ {
		own := h.links(n, l)
		for _, nb := range own[1 : 1+own[0]] {
			if h.dead[nb] {
				continue
			}
			nl := h.links(nb, l)
			if !slices.Contains(nl[1:1+nl[0]], n) {
				continue
			}
			bv := h.vec(nb)
			var cands []item
			for _, x := range slices.Concat(nl[1:1+nl[0]], own[1:1+own[0]]) {
				if x == nb || h.dead[x] || slices.ContainsFunc(cands, func(c item) bool { return c.n == x }) {
					continue
				}
				cands = append(cands, item{d: -dot(bv, h.vec(x)), n: x})
			}
			slices.SortFunc(cands, byDistance)
			h.setLinks(nb, l, h.selectNeighbours(cands, h.maxLinks(l)))
		}
	}
}
