package ann

import "context"

// pendingWrite is an Add (vec set) or Remove made while a compaction builds.
type pendingWrite struct {
	id  int64
	vec []float32
}

// compactIfWorn starts a background rebuild from the live vectors once
// tombstones outnumber them (and number at least 1,000): past that point
// they cost more memory and search time than one rebuild. The caller holds
// the write lock.
func (h *HNSW) compactIfWorn() {
	if h.compacting || h.nDead < 1000 || h.nDead <= len(h.byID) {
		return
	}
	h.compacting, h.pending = true, nil
	h.bg.Go(h.compactInBackground)
}

// compactInBackground builds a new graph without holding the lock (only
// while listing the live slots), then, under the write lock, replays the
// writes made meanwhile onto it and takes it over. Writes made between the
// trigger and the listing are in both; replaying them again is harmless.
func (h *HNSW) compactInBackground() {
	h.mu.RLock()
	epoch := h.epoch
	g := NewHNSW(h.dims, h.opts)
	live := h.liveVectors()
	h.mu.RUnlock()
	// Slots' vectors are never written once linked, so reading them here
	// without the lock is safe; a replacement gets a new slot.
	err := g.Build(context.Background(), live, nil)

	h.mu.Lock()
	defer h.mu.Unlock()
	pending := h.pending
	h.compacting, h.pending = false, nil
	if err != nil || epoch != h.epoch {
		return // Build or Load replaced the graph meanwhile: this one is stale
	}
	g.compacting = true // its replays must not start a compaction of their own
	for _, w := range pending {
		if w.vec == nil {
			g.Remove(w.id)
		} else if err := g.Add(w.id, w.vec); err != nil {
			return // cannot happen: h accepted the same vector
		}
	}
	h.adopt(g)
}

// liveVectors lists (id, vector) of every live slot; the caller holds a lock.
func (h *HNSW) liveVectors() func(yield func(int64, []float32) bool) {
	ids := make([]int64, 0, len(h.byID))
	vecs := make([][]float32, 0, len(h.byID))
	for n, id := range h.ids {
		if !h.dead[n] {
			ids = append(ids, id)
			vecs = append(vecs, h.vec(uint32(n))) //nolint:gosec // n < len(h.ids) ≤ maxNodes
		}
	}
	return func(yield func(int64, []float32) bool) {
		for i, id := range ids {
			if !yield(id, vecs[i]) {
				return
			}
		}
	}
}

// adopt takes over g's graph; the caller holds the write lock, g is dropped.
func (h *HNSW) adopt(g *HNSW) {
	h.vecs, h.ids, h.levels, h.dead = g.vecs, g.ids, g.levels, g.dead
	h.codes, h.scale = g.codes, g.scale
	h.links0, h.upper, h.byID = g.links0, g.upper, g.byID
	h.entry, h.top, h.nDead = g.entry, g.top, g.nDead
	h.epoch++
}

// Compact rebuilds the graph from the live vectors now, dropping the
// tombstones, and returns when done. It holds the write lock throughout
// (searches wait): use it at start, before the index serves searches.
func (h *HNSW) Compact() {
	h.mu.Lock()
	defer h.mu.Unlock()
	live := h.liveVectors()
	g := NewHNSW(h.dims, h.opts)
	_ = g.Build(context.Background(), live, nil) // cannot fail: live vectors were accepted once, no cancel
	h.adopt(g)
}

// waitCompaction waits for a background compaction to finish (tests).
func (h *HNSW) waitCompaction() { h.bg.Wait() }
