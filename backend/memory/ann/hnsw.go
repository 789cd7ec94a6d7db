package ann

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
)

// Options tune an HNSW index. Zero values take the defaults below, which
// reach recall@10 ≥ 0.95 on clustered data at 100,000 vectors (see
// docs/benchmarks.md, "Vector index").
type Options struct {
	// M is the number of links per node on the upper levels; level 0 keeps
	// 2*M. Default 16.
	M int
	// EfConstruction is the candidate list size while linking a new node.
	// Default 100.
	EfConstruction int
	// EfSearch is the candidate list size of a search (at least k). Default 64.
	EfSearch int
	// ExactBelow: with fewer live vectors than this, Search scans them all
	// (exact and, at that size, as fast). Default 5,000; negative disables.
	ExactBelow int
	// Workers is how many goroutines Build links nodes with. Default GOMAXPROCS.
	Workers int
	// Seed makes the level draws repeatable (tests). Default 1.
	Seed uint64
	// Refine makes Build link every node a second time, by a search of the
	// finished graph (refine.go).
	Refine bool
	// Backfill fills a neighbour list the heuristic left short with the
	// nearest candidates it pruned.
	Backfill bool
}

// maxNodes bounds the slots (live and removed) so a slot fits a uint32 with
// room to spare.
const maxNodes = 1 << 28

func (o Options) withDefaults() Options {
	if o.M <= 0 {
		o.M = 16
	}
	if o.EfConstruction <= 0 {
		o.EfConstruction = 100
	}
	if o.EfSearch <= 0 {
		o.EfSearch = 64
	}
	if o.ExactBelow == 0 {
		o.ExactBelow = 5000
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// HNSW is a hierarchical navigable small world graph (Malkov & Yashunin,
// 2016) over unit vectors, searched by dot product.
//
// Nodes are slots in flat slices. A removed node becomes a tombstone: it is
// never returned, but it keeps its vector and links so searches still pass
// through it, and its neighbours are relinked at once so the graph stays
// well connected. When tombstones outnumber live nodes a new graph is built
// in the background and swapped in; searches go on meanwhile.
//
// Searches share a read lock; Add, Remove and Build take the write lock.
// Build links nodes on several goroutines, which take a stripe lock around
// each neighbour list they read or write.
type HNSW struct {
	mu   sync.RWMutex
	opts Options
	dims int
	m0   int     // links per node on level 0
	mult float64 // level draw: floor(-ln(U) * mult)
	rng  *rand.Rand

	vecs   []float32  // slot i at [i*dims, (i+1)*dims)
	codes  []int8     // slot i's int8 copy at [i*codeDims, (i+1)*codeDims) (quant.go)
	scale  []float32  // per dimension: a code's unit; nil: no codes
	ids    []int64    // slot → id
	levels []uint8    // slot → top level
	dead   []bool     // slot → tombstone
	links0 []uint32   // slot i's level-0 list at [i*(m0+1)]: count, then up to m0 slots
	upper  [][]uint32 // slot i's level l ≥ 1 at [(l-1)*(M+1)]: count, then up to M slots
	byID   map[int64]uint32
	entry  uint32
	top    int // the entry's level; -1 when empty
	nDead  int

	// Background compaction (compact.go): writes made while it builds are
	// replayed onto the new graph; epoch tells it the graph was replaced
	// (Build, Load) meanwhile, so its result is stale.
	compacting bool
	pending    []pendingWrite
	epoch      uint64
	bg         sync.WaitGroup

	epMu    sync.Mutex // Build: guards entry and top between workers
	stripes [512]sync.Mutex
	pool    sync.Pool // *searcher
}

var _ Index = (*HNSW)(nil)

// NewHNSW returns an empty graph index for vectors of dims dimensions.
func NewHNSW(dims int, opts Options) *HNSW {
	opts = opts.withDefaults()
	h := &HNSW{opts: opts, dims: dims}
	h.reset()
	return h
}

// reset empties the index, keeping its options.
func (h *HNSW) reset() {
	h.m0 = 2 * h.opts.M
	h.mult = 1 / math.Log(float64(h.opts.M))
	h.rng = rand.New(rand.NewPCG(h.opts.Seed, 0x5eed)) //nolint:gosec // level draws need spread, not secrecy
	h.vecs, h.ids, h.levels, h.dead, h.links0, h.upper = nil, nil, nil, nil, nil, nil
	h.codes, h.scale = nil, nil
	h.byID = map[int64]uint32{}
	h.entry, h.top, h.nDead = 0, -1, 0
}

// Dims is the vector length the index takes.
func (h *HNSW) Dims() int { return h.dims }

// Len is the number of live vectors.
func (h *HNSW) Len() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.byID)
}

// Tombstones is the number of removed nodes still kept for navigation.
func (h *HNSW) Tombstones() int {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return h.nDead
}

func (h *HNSW) vec(n uint32) []float32 {
	i := int(n) * h.dims
	return h.vecs[i : i+h.dims : i+h.dims]
}

// links is node n's list on level l: element 0 is the count, the rest its
// capacity.
func (h *HNSW) links(n uint32, l int) []uint32 {
	if l == 0 {
		i := int(n) * (h.m0 + 1)
		return h.links0[i : i+h.m0+1 : i+h.m0+1]
	}
	i := (l - 1) * (h.opts.M + 1)
	return h.upper[n][i : i+h.opts.M+1 : i+h.opts.M+1]
}

func (h *HNSW) maxLinks(l int) int {
	if l == 0 {
		return h.m0
	}
	return h.opts.M
}

func (h *HNSW) stripe(n uint32) *sync.Mutex { return &h.stripes[n%uint32(len(h.stripes))] }

// randomLevel draws a node's top level from the exponential distribution
// the paper prescribes, capped so a level fits a byte.
func (h *HNSW) randomLevel() int {
	l := int(-math.Log(1-h.rng.Float64()) * h.mult)
	return min(l, 32)
}

// newSlot appends a node with id, its unit vector and a fresh level; the
// caller links it.
func (h *HNSW) newSlot(id int64, v []float32) uint32 {
	n := uint32(len(h.ids)) //nolint:gosec // callers keep slots under maxNodes
	level := h.randomLevel()
	h.ids = append(h.ids, id)
	h.vecs = append(h.vecs, v...)
	if h.scale != nil {
		h.codes = h.appendCode(h.codes, v)
	}
	h.levels = append(h.levels, uint8(level)) //nolint:gosec // randomLevel caps it at 32
	h.dead = append(h.dead, false)
	h.links0 = append(h.links0, make([]uint32, h.m0+1)...)
	var up []uint32
	if level > 0 {
		up = make([]uint32, level*(h.opts.M+1))
	}
	h.upper = append(h.upper, up)
	h.byID[id] = n
	return n
}

// Add inserts or replaces the vector of id (normalised to unit length). A
// replacement is a removal and a fresh insert.
func (h *HNSW) Add(id int64, vec []float32) error {
	v, err := unit(vec, h.dims)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.ids) >= maxNodes {
		return ErrFull
	}
	if old, ok := h.byID[id]; ok {
		h.removeSlot(old)
	}
	if h.compacting {
		h.pending = append(h.pending, pendingWrite{id: id, vec: v})
	}
	n := h.newSlot(id, v)
	s := h.searcher()
	h.insert(s, n)
	h.pool.Put(s)
	h.compactIfWorn()
	return nil
}

// Remove deletes id; removing an unknown id is a no-op.
func (h *HNSW) Remove(id int64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if n, ok := h.byID[id]; ok {
		h.removeSlot(n)
		if h.compacting {
			h.pending = append(h.pending, pendingWrite{id: id})
		}
		h.compactIfWorn()
	}
}
