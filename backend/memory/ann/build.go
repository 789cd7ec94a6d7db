package ann

import (
	"context"
	"fmt"
	"iter"
	"sync"
	"sync/atomic"
)

// Build replaces the index's contents with vectors (the memory store reads
// them from SQLite at start). It takes them all first, then links them on
// Options.Workers goroutines, calling progress(done, total) now and then
// from one goroutine at a time, and (total, total) at the end. A vector that
// Add would refuse stops the build with an error naming its id; so does ctx.
// Either way the index is left empty. A repeated id keeps its last vector.
func (h *HNSW) Build(ctx context.Context, vectors iter.Seq2[int64, []float32], progress func(done, total int)) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.reset()
	for id, vec := range vectors {
		v, err := unit(vec, h.dims)
		if err != nil {
			h.reset()
			return fmt.Errorf("ann: build: id %d: %w", id, err)
		}
		if n, ok := h.byID[id]; ok {
			copy(h.vec(n), v)
			continue
		}
		if len(h.ids) >= maxNodes {
			h.reset()
			return ErrFull
		}
		h.newSlot(id, v)
	}
	if err := h.linkAll(ctx, progress); err != nil {
		h.reset()
		return err
	}
	return nil
}

// linkAll inserts every slot into an empty graph in parallel. Slots are
// taken in order, so early nodes (the graph's backbone) are linked first.
func (h *HNSW) linkAll(ctx context.Context, progress func(done, total int)) error {
	total := len(h.ids)
	var next, done atomic.Int64
	var progMu sync.Mutex
	reported := 0
	report := func(d int) {
		if progress == nil {
			return
		}
		progMu.Lock()
		defer progMu.Unlock()
		if d > reported {
			reported = d
			progress(d, total)
		}
	}
	workers := max(1, min(h.opts.Workers, total/1000))
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			s := h.searcher()
			defer h.pool.Put(s)
			for {
				i := next.Add(1) - 1
				if i >= int64(total) || ctx.Err() != nil {
					return
				}
				h.insert(s, uint32(i)) //nolint:gosec // i < total ≤ maxNodes
				if d := done.Add(1); d%1024 == 0 {
					report(int(d))
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ann: build: %w", err)
	}
	report(total)
	return nil
}

// Search returns up to k hits by the graph, with Options.EfSearch.
func (h *HNSW) Search(q []float32, k int, filter func(id int64) bool) []Hit {
	return h.SearchEf(q, k, 0, filter)
}

// SearchEf is Search with an explicit candidate list size (0: the default),
// to trade speed for recall per call.
//
// With a filter the walk still passes through rejected nodes, gathering ef
// accepted ones; if it cannot (a selective filter) within a quarter of the
// collection's distance computations, or finds fewer than k, it scans the
// accepted ids exactly instead, so results are never silently short.
func (h *HNSW) SearchEf(q []float32, k, ef int, filter func(id int64) bool) []Hit {
	q, err := unit(q, h.dims)
	if err != nil || k <= 0 {
		return nil
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	live := len(h.byID)
	if live == 0 {
		return nil
	}
	if live < h.opts.ExactBelow {
		return h.exact(q, k, filter)
	}
	if ef <= 0 {
		ef = h.opts.EfSearch
	}
	ef = max(ef, k)
	s := h.searcher()
	defer h.pool.Put(s)
	cur := item{d: -dot(q, h.vec(h.entry)), n: h.entry}
	for l := h.top; l > 0; l-- {
		cur = h.greedy(s, q, cur, l, false)
	}
	budget := 0
	if filter != nil {
		budget = max(live/4, 16*ef)
	}
	complete := h.searchLayer(s, layerSearch{q: q, eps: []item{cur}, ef: ef, filter: filter, budget: budget})
	if !complete || len(s.res) < min(k, live) {
		return h.exact(q, k, filter)
	}
	res := s.res.sorted()
	out := make([]Hit, 0, min(k, len(res)))
	for _, it := range res[:min(k, len(res))] {
		out = append(out, Hit{ID: h.ids[it.n], Score: -it.d})
	}
	return out
}

// exact scans every live slot the filter accepts. The caller holds a lock.
func (h *HNSW) exact(q []float32, k int, filter func(id int64) bool) []Hit {
	var top maxHeap
	for n, id := range h.ids {
		if h.dead[n] || (filter != nil && !filter(id)) {
			continue
		}
		top.offer(item{d: -dot(q, h.vec(uint32(n))), n: uint32(n)}, k)
	}
	out := make([]Hit, 0, len(top))
	for _, it := range top.sorted() {
		out = append(out, Hit{ID: h.ids[it.n], Score: -it.d})
	}
	return out
}
