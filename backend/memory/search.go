package memory

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Search modes: which channels ran.
const (
	ModeHybrid      = "hybrid"
	ModeKeywordOnly = "keyword-only"
	ModeVectorOnly  = "vector-only"
)

// Scope narrows what a search sees of an agent's memory.
type Scope string

// Scopes.
const (
	ScopeAll    Scope = ""       // the user's, the agent's and global documents
	ScopeUser   Scope = "user"   // the user's own copies only
	ScopeAgent  Scope = "agent"  // the agent's documents (user's and shared), not global ones
	ScopeGlobal Scope = "global" // global documents only
)

// pool is how many candidates each channel brings, whatever max_results
// is: the fused top results do not change with max_results.
const pool = 50

// rrfK is the reciprocal rank fusion constant.
const rrfK = 60

// userBoost lifts a user's own documents over shared ones.
const userBoost = 1.15

// Query is one memory search.
type Query struct {
	Text       string
	Agent      string
	User       string
	MaxResults int     // default 6, at most 50
	MinScore   float64 // 0..1 on the fused score; never drops an exact keyword hit
	Scope      Scope
	PathPrefix string
	Since      time.Time // documents updated at or after (zero: any time)
	Until      time.Time // documents updated before (zero: any time)
	// KeywordWeight and VectorWeight weigh the channels in the fusion;
	// zero means 1.
	KeywordWeight, VectorWeight float64
	// Sources keeps only documents from these sources (memory_search:
	// memory; search_documents: import; search_system_knowledge: system);
	// empty means memory and imported documents.
	Sources []Source
	// Exact makes the vector channel scan exactly (sqlite-vec) even when an
	// approximate index is ready: the recall oracle.
	Exact bool
	// Channels restricts the search to one channel: "keyword" or
	// "vector" ("" runs both). Benchmarks and quality tests compare them.
	Channels string
}

// Hit is one search result.
type Hit struct {
	Path      string  `json:"path"`
	Agent     string  `json:"agent"`
	User      string  `json:"user"`
	StartLine int     `json:"start_line"`
	EndLine   int     `json:"end_line"`
	Heading   string  `json:"heading,omitempty"`
	Score     float64 `json:"score"`
	// KeywordRank and VectorRank are the hit's rank in each channel
	// (1 is best; 0: the channel did not find it).
	KeywordRank int    `json:"keyword_rank"`
	VectorRank  int    `json:"vector_rank"`
	Exact       bool   `json:"exact,omitempty"`
	Snippet     string `json:"snippet"`
	chunk       int64
	rankScore   float64
	hash        string
	text        string
	// hashKey and textKey identify duplicates (collapse).
	hashKey, textKey uint64
}

// Result is a search's answer: the hits and which channels ran.
type Result struct {
	Mode string `json:"mode"`
	Hits []Hit  `json:"hits"`
	// Note says why a channel did not run, or that nothing matched.
	Note string `json:"note,omitempty"`
}

// ErrBadQuery wraps what is wrong with a query's arguments.
var ErrBadQuery = errors.New("invalid memory search")

// candidate is a chunk one channel found, with its rank there.
type candidate struct {
	id   int64
	rank int
	// partial marks a keyword hit that has only some of the query's
	// words (the OR pass): it counts half in the fusion.
	partial bool
}

// Search runs the keyword and vector channels and fuses them.
func (s *Store) Search(ctx context.Context, q Query) (Result, error) {
	q.Text = strings.TrimSpace(q.Text)
	if q.Text == "" {
		return Result{}, fmt.Errorf("%w: it needs a query", ErrBadQuery)
	}
	if q.MaxResults <= 0 {
		q.MaxResults = 6
	}
	q.MaxResults = min(q.MaxResults, pool)
	if q.MinScore < 0 || q.MinScore > 1 {
		return Result{}, fmt.Errorf("%w: min_score must be between 0 and 1, not %g", ErrBadQuery, q.MinScore)
	}
	switch q.Scope {
	case ScopeAll, ScopeUser, ScopeAgent, ScopeGlobal:
	default:
		return Result{}, fmt.Errorf("%w: scope %q: use user, agent, global or leave it empty for all", ErrBadQuery, q.Scope)
	}
	s.catchUp(ctx)
	s.syncKW(ctx)
	if q.Channels != "" && q.Channels != "keyword" && q.Channels != "vector" {
		return Result{}, fmt.Errorf("%w: channels %q: use keyword, vector or leave it empty for both", ErrBadQuery, q.Channels)
	}
	// The channels run side by side (each on its own connection): the
	// query takes the slower one's time, not the sum.
	var kw, vec []candidate
	var kwRan bool
	var vecNote string
	var kwErr, err error
	var wg sync.WaitGroup
	if q.Channels != "vector" {
		wg.Go(func() { kw, kwRan, kwErr = s.keyword(ctx, q) })
	}
	if q.Channels != "keyword" {
		vec, vecNote, err = s.vector(ctx, q)
	} else {
		vecNote = "only keywords were asked for"
	}
	wg.Wait()
	if err = cmp.Or(kwErr, err); err != nil {
		return Result{}, err
	}
	res := Result{Mode: ModeHybrid}
	switch {
	case !kwRan && vec == nil:
		res.Mode, res.Note = ModeKeywordOnly, "the query has no searchable words; "+vecNote
	case vec == nil:
		res.Mode, res.Note = ModeKeywordOnly, vecNote
	case !kwRan && q.Channels == "vector":
		res.Mode = ModeVectorOnly
	case !kwRan:
		res.Mode, res.Note = ModeVectorOnly, "the query has no searchable words"
	}
	hits, err := s.fuse(ctx, q, kw, vec)
	if err != nil {
		return Result{}, err
	}
	res.Hits = hits
	if len(hits) == 0 {
		res.Note = strings.TrimPrefix(strings.Join(nonEmpty([]string{res.Note, "nothing in memory matches the query"}), "; "), "; ")
	}
	return res, nil
}

// scopeSQL is the WHERE fragment (over memory_chunks c and memory_docs d)
// for what the query may see.
func scopeSQL(q Query) (string, []any) {
	var where []string
	var args []any
	switch q.Scope {
	case ScopeUser:
		where, args = append(where, "c.agent = ? AND c.user = ? AND c.user != ''"), append(args, q.Agent, q.User)
	case ScopeAgent:
		where, args = append(where, "c.agent = ? AND c.user IN (?, '')"), append(args, q.Agent, q.User)
	case ScopeGlobal:
		where = append(where, "c.agent = '' AND c.user = ''")
	default:
		where, args = append(where, "((c.agent = ? AND c.user IN (?, '')) OR (c.agent = '' AND c.user = ''))"), append(args, q.Agent, q.User)
	}
	if q.PathPrefix != "" {
		where, args = append(where, "substr(c.path, 1, ?) = ?"), append(args, len(q.PathPrefix), q.PathPrefix)
	}
	if !q.Since.IsZero() {
		where, args = append(where, "d.updated_at >= ?"), append(args, fmtTime(q.Since))
	}
	if !q.Until.IsZero() {
		where, args = append(where, "d.updated_at < ?"), append(args, fmtTime(q.Until))
	}
	if len(q.Sources) > 0 {
		where = append(where, "d.source IN ("+marks(len(q.Sources))+")")
		for _, src := range q.Sources {
			args = append(args, string(src))
		}
	} else {
		where = append(where, "d.source != 'system'") // Warren's own docs only when asked for
	}
	return strings.Join(where, " AND "), args
}

// keyword is the FTS5 channel: every word (AND) first, then any word (OR)
// to fill the pool, then trigrams for code and CJK. Ranks follow bm25's
// order; its raw value is never used as a score. Words in more than
// commonDocs chunks are left out like stopwords; when every word is that
// common, the chunks holding them all come newest first. ran is false
// when the query has no word to search for.
func (s *Store) keyword(ctx context.Context, q Query) ([]candidate, bool, error) {
	terms := queryTerms(q.Text)
	out := []candidate{} // non-nil: the channel ran, even when it finds nothing
	seen := map[int64]bool{}
	add := func(table, match, rank string, partial bool) error {
		if match == "" || len(out) >= pool {
			return nil
		}
		where, args := scopeSQL(q)
		// Ranked inside FTS5 first, the best rankedFirst joined and
		// filtered (joining every match cost more than ranking it); only
		// when the filter leaves the pool short and more matches exist does
		// the query join them all.
		var ids []int64
		collect := func(scan func(...any) error) error {
			var id int64
			err := scan(&id)
			ids = append(ids, id)
			return err
		}
		err := eachRow(ctx, s.db, `SELECT c.id FROM (SELECT rowid, `+rank+` AS r FROM `+table+` f WHERE `+table+` MATCH ?
			ORDER BY r LIMIT ?) f JOIN memory_chunks c ON c.id = f.rowid JOIN memory_docs d ON d.id = c.doc_id
			WHERE `+where+` ORDER BY f.r`, append([]any{match, rankedFirst}, args...), collect)
		if err == nil && len(ids) < pool {
			var n int
			err = s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM `+table+` WHERE `+table+` MATCH ? LIMIT ?)`,
				match, rankedFirst+1).Scan(&n)
			if err == nil && n > rankedFirst {
				ids = ids[:0]
				err = eachRow(ctx, s.db, `SELECT c.id FROM `+table+` f JOIN memory_chunks c ON c.id = f.rowid
					JOIN memory_docs d ON d.id = c.doc_id WHERE `+table+` MATCH ? AND `+where+` ORDER BY `+rank+` LIMIT ?`,
					append(append([]any{match}, args...), pool), collect)
			}
		}
		if err != nil {
			return fmt.Errorf("keyword search: %w", err)
		}
		for _, id := range ids {
			if !seen[id] && len(out) < pool {
				seen[id] = true
				out = append(out, candidate{id: id, rank: len(out) + 1, partial: partial})
			}
		}
		return nil
	}
	indexed := false
	if x := s.kwIndex(); x != nil {
		words := kwTerms(q.Text)
		if found, ok := x.search(q, words); ok {
			out, terms, indexed = found, words, true
			for _, c := range out {
				seen[c.id] = true
			}
		}
	}
	if !indexed {
		if err := s.keywordFTS(ctx, terms, add); err != nil {
			return nil, false, err
		}
	}
	if tri := trigramQuery(q.Text); tri != "" && (len(out) == 0 || codeOrCJK(q.Text)) {
		if err := add("memory_fts_tri", tri, "rank", false); err != nil {
			return nil, false, err
		}
	}
	if len(terms) == 0 && trigramQuery(q.Text) == "" {
		return nil, false, nil
	}
	return out, true, nil
}

// keywordFTS is the word pass on FTS5 (while the in-process index builds,
// and in short-lived processes): every word (AND) first, then any word
// (OR) to fill the pool.
func (s *Store) keywordFTS(ctx context.Context, terms []string, add func(table, match, rank string, partial bool) error) error {
	const bm25 = "bm25(memory_fts, 2.0, 1.0)"
	rare, err := s.rareTerms(ctx, terms)
	if err != nil {
		return err
	}
	switch {
	case len(rare) > 0:
		if err := add("memory_fts", strings.Join(rare, " "), bm25, false); err != nil {
			return err
		}
		if len(rare) > 1 {
			return add("memory_fts", strings.Join(rare, " OR "), bm25, true)
		}
	case len(terms) > 0:
		return add("memory_fts", strings.Join(terms, " "), "-f.rowid", false)
	}
	return nil
}

// rankedFirst is how many of a keyword query's best matches are joined
// with their chunks and filtered by the query's scope at first.
const rankedFirst = 4 * pool

// commonDocs is how many chunks a word may be in before the keyword
// channel treats it as a stopword: bm25 counts the chunks holding each
// query word (for its IDF) on every query, so one word in 30,000 chunks
// costs tens of milliseconds, and says little about relevance.
const commonDocs = 5000

// rareTerms keeps the terms in at most commonDocs chunks (counting stops
// there, so a common word costs no more than that).
func (s *Store) rareTerms(ctx context.Context, terms []string) ([]string, error) {
	var out []string
	for _, t := range terms {
		var n int
		if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM (SELECT 1 FROM memory_fts WHERE memory_fts MATCH ? LIMIT ?)",
			t, commonDocs+1).Scan(&n); err != nil {
			return nil, fmt.Errorf("keyword search: %w", err)
		}
		if n <= commonDocs {
			out = append(out, t)
		}
	}
	return out, nil
}

// stopwords are dropped from keyword queries (they match everything and
// make OR queries slow).
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be by for from has have how i in is it its of on or that the this to
		was were what when where which who why will with you your do does did can could should would my me we our`) {
		stopwords[w] = true
	}
}

// queryTerms are the query's words as quoted FTS5 strings.
func queryTerms(text string) []string {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsNumber(r) && r != '_'
	})
	var out []string
	seen := map[string]bool{}
	for _, w := range words {
		if stopwords[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, `"`+strings.ReplaceAll(w, `"`, `""`)+`"`)
	}
	return out
}

// trigramQuery is the query as one substring for the trigram table (three
// characters at least).
func trigramQuery(text string) string {
	t := strings.TrimSpace(text)
	if len([]rune(t)) < 3 {
		return ""
	}
	return `"` + strings.ReplaceAll(t, `"`, `""`) + `"`
}

// codeOrCJK reports text the word tokenizer handles badly: identifiers
// with punctuation (foo.bar, a::b, --flag) and scripts without spaces.
func codeOrCJK(text string) bool {
	for _, r := range text {
		if unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r) {
			return true
		}
	}
	return strings.ContainsAny(text, "._:/()[]{}<>=-$@#")
}

// vector is the KNN channel over the usable vector table, one query per
// partition (the agent's and the global one). A nil result with a note
// means the channel did not run, and why.
func (s *Store) vector(ctx context.Context, q Query) ([]candidate, string, error) {
	all, err := s.indexes(ctx, s.db)
	if err != nil {
		return nil, "", err
	}
	cur := s.Embedder()
	var use *vecIndex
	for i := range all {
		v := &all[i]
		if s.embedderFor(v.ID) == nil {
			continue
		}
		if v.Ready || use == nil && cur != nil && v.ID == s.knownIdentity(cur) {
			use = v
		}
	}
	if use == nil {
		if cur == nil {
			return nil, "no embedder is set, so only keywords were searched", nil
		}
		return nil, "the vector index is not built yet, so only keywords were searched", nil
	}
	e := s.embedderFor(use.ID)
	vecs, err := e.Embed(ctx, []string{q.Text})
	if err != nil || len(vecs) != 1 || len(vecs[0]) != use.ID.Dims {
		return nil, fmt.Sprintf("the embedder %s/%s failed (%v), so only keywords were searched", use.ID.Kind, use.ID.Model, err), nil
	}
	zero := true
	for _, f := range vecs[0] {
		zero = zero && f == 0
	}
	if zero {
		return nil, "the embedder knows none of the query's words, so only keywords were searched", nil
	}
	k := pool
	if q.PathPrefix != "" || !q.Since.IsZero() || !q.Until.IsZero() || q.Scope == ScopeUser {
		k = 4 * pool // filtered after the search: look wider
	}
	var found []scored
	var parts []string
	sources := q.Sources
	if len(sources) == 0 {
		sources = []Source{SourceMemory, SourceImport}
	}
	for _, src := range sources {
		switch q.Scope {
		case ScopeGlobal:
			parts = append(parts, partition("", src))
		case ScopeAll:
			parts = append(parts, partition(q.Agent, src), partition("", src))
		default:
			parts = append(parts, partition(q.Agent, src))
		}
	}
	parts = uniq(parts)
	if ai := s.annFor(*use); ai != nil && !q.Exact {
		if hits, ok := ai.search(vecs[0], k, parts); ok {
			for _, h := range hits {
				found = append(found, scored{id: h.ID, dist: 1 - float64(h.Score)})
			}
			return s.visibleRanks(ctx, q, found)
		}
	}
	blob := vecBlob(vecs[0])
	for _, part := range parts {
		err := eachRow(ctx, s.db, "SELECT rowid, distance FROM "+use.Name+" WHERE embedding MATCH ? AND k = ? AND agent = ?",
			[]any{blob, k, part}, func(scan func(...any) error) error {
				var sc scored
				err := scan(&sc.id, &sc.dist)
				found = append(found, sc)
				return err
			})
		if err != nil {
			return nil, "", fmt.Errorf("vector search: %w", err)
		}
	}
	return s.visibleRanks(ctx, q, found)
}

// scored is a vector hit: a chunk and its cosine distance.
type scored struct {
	id   int64
	dist float64
}

// visibleRanks orders vector hits by distance and ranks those the
// query's scope and filters let through, up to the pool.
func (s *Store) visibleRanks(ctx context.Context, q Query, found []scored) ([]candidate, string, error) {
	sort.SliceStable(found, func(i, j int) bool { return found[i].dist < found[j].dist })
	ids := make([]int64, len(found))
	for i, f := range found {
		ids[i] = f.id
	}
	keep, err := s.visible(ctx, q, ids)
	if err != nil {
		return nil, "", err
	}
	out := []candidate{}
	for _, f := range found {
		if keep[f.id] && len(out) < pool {
			out = append(out, candidate{id: f.id, rank: len(out) + 1})
		}
	}
	return out, "", nil
}

// visible returns which of ids the query's scope and filters allow.
func (s *Store) visible(ctx context.Context, q Query, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	if len(ids) == 0 {
		return out, nil
	}
	found, missing, _ := s.kwIndex().metaOf(ids)
	f := newScopeFilter(q)
	for id, m := range found {
		if f.admits(&m) {
			out[id] = true
		}
	}
	if len(missing) == 0 {
		return out, nil
	}
	ids = missing
	where, args := scopeSQL(q)
	for _, id := range ids {
		args = append(args, id)
	}
	err := eachRow(ctx, s.db, `SELECT c.id FROM memory_chunks c JOIN memory_docs d ON d.id = c.doc_id
		WHERE `+where+` AND c.id IN (`+marks(len(ids))+`)`, args, func(scan func(...any) error) error {
		var id int64
		err := scan(&id)
		out[id] = true
		return err
	})
	return out, err
}

func uniq(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
