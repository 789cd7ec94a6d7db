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
	// Progress counts in vectors: with Refine, each pass is half of it.
	total := len(h.ids)
	passes := 1
	if h.opts.Refine {
		passes = 2
	}
	p := &buildProgress{fn: progress, total: total, passes: passes}
	h.quantise() // the links' searches walk on the codes too
	if err := h.parallel(ctx, h.insert, p); err != nil {
		h.reset()
		return err
	}
	if h.opts.Refine {
		p.pass++
		if err := h.parallel(ctx, h.relink, p); err != nil {
			h.reset()
			return err
		}
	}
	p.report(total)
	return nil
}

// buildProgress reports a build's progress from one goroutine at a time.
type buildProgress struct {
	mu             sync.Mutex
	fn             func(done, total int)
	total, passes  int
	pass, reported int
}

// report says that done of the current pass's slots are through.
func (p *buildProgress) report(done int) {
	if p.fn == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	d := (p.pass*p.total + done) / p.passes
	if done == p.total && p.pass == p.passes-1 {
		d = p.total // exactly (total, total) at the end
	}
	if d > p.reported {
		p.reported = d
		p.fn(d, p.total)
	}
}

// parallel runs step on every slot, in order, on Options.Workers
// goroutines (early nodes, the graph's backbone, are linked first).
func (h *HNSW) parallel(ctx context.Context, step func(*searcher, uint32), p *buildProgress) error {
	total := len(h.ids)
	var next, done atomic.Int64
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
				step(s, uint32(i)) //nolint:gosec // i < total ≤ maxNodes
				if d := done.Add(1); d%1024 == 0 {
					p.report(int(d))
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("ann: build: %w", err)
	}
	return nil
}
