package ann

import "sync"

// Flat is the exact index: every search scans every vector. It is the recall
// oracle for HNSW and the right choice for small collections, where a scan of
// a few thousand vectors costs less than a graph's upkeep.
type Flat struct {
	mu   sync.RWMutex
	dims int
	vecs []float32 // slot i at [i*dims, (i+1)*dims)
	ids  []int64
	slot map[int64]int
}

var _ Index = (*Flat)(nil)

// NewFlat returns an empty exact index for vectors of dims dimensions.
func NewFlat(dims int) *Flat {
	return &Flat{dims: dims, slot: map[int64]int{}}
}

// Dims is the vector length the index takes.
func (f *Flat) Dims() int { return f.dims }

// Add inserts or replaces the vector of id (normalised to unit length).
func (f *Flat) Add(id int64, vec []float32) error {
	v, err := unit(vec, f.dims)
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if i, ok := f.slot[id]; ok {
		copy(f.vecs[i*f.dims:], v)
		return nil
	}
	f.slot[id] = len(f.ids)
	f.ids = append(f.ids, id)
	f.vecs = append(f.vecs, v...)
	return nil
}

// Remove deletes id by moving the last vector into its slot.
func (f *Flat) Remove(id int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	i, ok := f.slot[id]
	if !ok {
		return
	}
	last := len(f.ids) - 1
	if i != last {
		f.ids[i] = f.ids[last]
		copy(f.vecs[i*f.dims:(i+1)*f.dims], f.vecs[last*f.dims:])
		f.slot[f.ids[i]] = i
	}
	f.ids = f.ids[:last]
	f.vecs = f.vecs[:last*f.dims]
	delete(f.slot, id)
}

// Len is the number of vectors held.
func (f *Flat) Len() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return len(f.ids)
}

// Search scans every vector the filter accepts. A zero or wrong-length
// query has no direction and finds nothing.
func (f *Flat) Search(q []float32, k int, filter func(id int64) bool) []Hit {
	q, err := unit(q, f.dims)
	if err != nil || k <= 0 {
		return nil
	}
	f.mu.RLock()
	defer f.mu.RUnlock()
	var top maxHeap
	for i, id := range f.ids {
		if filter != nil && !filter(id) {
			continue
		}
		top.offer(item{d: -dot(q, f.vecs[i*f.dims:(i+1)*f.dims]), n: uint32(i)}, k)
	}
	return toHits(top.sorted(), f.ids)
}
