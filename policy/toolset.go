package policy

import "math/bits"

// bitset is a set of tool positions. The pipeline works on bitsets so each
// step costs one pass over its list's entries plus a few word operations,
// instead of hashing every tool's name and groups at every step.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) has(i int) bool { return b[i/64]&(1<<(uint(i)%64)) != 0 }

func (b bitset) set(i int) { b[i/64] |= 1 << (uint(i) % 64) }

// fill sets positions 0..n-1 and clears the rest.
func (b bitset) fill(n int) {
	clear(b)
	for i := range n / 64 {
		b[i] = ^uint64(0)
	}
	if r := n % 64; r != 0 {
		b[n/64] = 1<<uint(r) - 1
	}
}

func (b bitset) or(o bitset) {
	for i := range b {
		b[i] |= o[i]
	}
}

func (b bitset) and(o bitset) {
	for i := range b {
		b[i] &= o[i]
	}
}

func (b bitset) andNot(o bitset) {
	for i := range b {
		b[i] &^= o[i]
	}
}

// count returns the number of positions set.
func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// toolInfo is a registered tool with its groups resolved once per evaluation.
type toolInfo struct {
	name   string
	groups []string
}

// toolSet indexes the registered tools of one evaluation by name and group.
type toolSet struct {
	tools  []toolInfo
	index  map[string]int    // tool name → position
	groups map[string]bitset // group name → member positions
}

// resolveTools computes every tool's groups and the group bitsets, rejecting
// empty and duplicate names because a decision keyed by name would otherwise
// be ambiguous.
func resolveTools(tools []ToolRef) (*toolSet, error) {
	s := &toolSet{
		tools: make([]toolInfo, len(tools)),
		index: make(map[string]int, len(tools)),
	}
	bounds := make([]int, len(tools)+1)
	names := make([]string, 0, len(tools)*3)
	gids := make([]int, 0, cap(names)) // group id of names[k]
	ids := make(map[string]int, 16)
	static := staticIndex()
	for i, t := range tools {
		if t.Name == "" {
			return nil, errorf(ErrInvalidTool, "tool #%d has an empty name", i)
		}
		if _, dup := s.index[t.Name]; dup {
			return nil, errorf(ErrInvalidTool, "tool %q is registered twice", t.Name)
		}
		s.index[t.Name] = i
		names = appendGroups(names, t, static)
		for _, g := range names[bounds[i]:] {
			id, ok := ids[g]
			if !ok {
				id = len(ids)
				ids[g] = id
			}
			gids = append(gids, id)
		}
		bounds[i+1] = len(names)
	}
	// Slice only after all appends: earlier sub-slices could alias a stale
	// array. All group bitsets share one allocation.
	words := (len(tools) + 63) / 64
	backing := make(bitset, len(ids)*words)
	for i, t := range tools {
		s.tools[i] = toolInfo{name: t.Name, groups: names[bounds[i]:bounds[i+1]:bounds[i+1]]}
		for _, id := range gids[bounds[i]:bounds[i+1]] {
			backing[id*words:].set(i)
		}
	}
	s.groups = make(map[string]bitset, len(ids))
	for g, id := range ids {
		s.groups[g] = backing[id*words : (id+1)*words : (id+1)*words]
	}
	return s, nil
}

// selectInto sets dst to the tools m selects; a nil m selects every tool.
func (s *toolSet) selectInto(dst bitset, m *matcher) {
	if m == nil || m.all {
		dst.fill(len(s.tools))
		return
	}
	clear(dst)
	for _, name := range m.names {
		if i, ok := s.index[name]; ok {
			dst.set(i)
		}
	}
	for _, g := range m.groups {
		if members, ok := s.groups[g]; ok {
			dst.or(members)
		}
	}
}
