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
	h.epoch++
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
	if h.opts.Refine {
		if err := h.refineAll(ctx); err != nil {
			h.reset()
			return err
		}
	}
	h.quantise()
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
