package memory

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// The knowledge graph's fixed vocabulary: extraction keeps to it, so the
// graph stays searchable by type.
var (
	EntityTypes   = []string{"person", "organization", "project", "place", "product", "tool", "concept", "event", "document"}
	RelationTypes = []string{"works_on", "works_for", "member_of", "knows", "reports_to", "part_of", "located_in", "uses",
		"depends_on", "owns", "created", "attended", "related_to"}
)

// Entity is a node of the knowledge graph.
type Entity struct {
	ID          int64   `json:"id"`
	Agent       string  `json:"agent"`
	Name        string  `json:"name"`
	Type        string  `json:"type"`
	Description string  `json:"description,omitempty"`
	ValidFrom   string  `json:"valid_from,omitempty"`
	ValidTo     string  `json:"valid_to,omitempty"`
	Confidence  float64 `json:"confidence"`
	SourceChunk int64   `json:"source_chunk,omitempty"`
	// Review names a likely duplicate kept apart for the user to judge.
	Review string `json:"review,omitempty"`
}

// Relation is an edge: Src —Type→ Dst, valid over an interval.
type Relation struct {
	ID          int64   `json:"id"`
	Src         int64   `json:"src"`
	Dst         int64   `json:"dst"`
	SrcName     string  `json:"src_name"`
	DstName     string  `json:"dst_name"`
	Type        string  `json:"type"`
	ValidFrom   string  `json:"valid_from,omitempty"`
	ValidTo     string  `json:"valid_to,omitempty"`
	Confidence  float64 `json:"confidence"`
	SourceChunk int64   `json:"source_chunk,omitempty"`
	Depth       int     `json:"depth"`
}

// ErrBadGraph wraps what is wrong with a graph edit or query's arguments.
var ErrBadGraph = errors.New("invalid knowledge graph input")

func badGraph(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrBadGraph, fmt.Sprintf(format, args...))
}

// checkInterval accepts "" or a date (2006-01-02, or RFC 3339) and
// normalises it; from must not be after to.
func checkInterval(from, to string) (string, string, error) {
	norm := func(s string) (string, error) {
		s = strings.TrimSpace(s)
		if s == "" {
			return "", nil
		}
		for _, l := range []string{"2006-01-02", time.RFC3339} {
			if t, err := time.Parse(l, s); err == nil {
				return t.UTC().Format("2006-01-02T15:04:05Z"), nil
			}
		}
		return "", badGraph("%q is not a date: use 2026-11-01 or 2026-11-01T09:00:00Z", s)
	}
	f, err := norm(from)
	if err != nil {
		return "", "", err
	}
	t, err := norm(to)
	if err != nil {
		return "", "", err
	}
	if f != "" && t != "" && f > t {
		return "", "", badGraph("valid_from %s is after valid_to %s", f, t)
	}
	return f, t, nil
}

// AddEntity stores an entity (the user's or an extraction's).
func (s *Store) AddEntity(ctx context.Context, e Entity) (Entity, error) {
	e.Name, e.Type = strings.TrimSpace(e.Name), strings.ToLower(strings.TrimSpace(e.Type))
	switch {
	case e.Name == "" || len(e.Name) > 200:
		return Entity{}, badGraph("an entity needs a name of 1 to 200 characters")
	case !slices.Contains(EntityTypes, e.Type):
		return Entity{}, badGraph("entity type %q: use one of %s", e.Type, strings.Join(EntityTypes, ", "))
	case e.Confidence < 0 || e.Confidence > 1:
		return Entity{}, badGraph("confidence %g is not between 0 and 1", e.Confidence)
	}
	if e.Confidence == 0 {
		e.Confidence = 1
	}
	var err error
	if e.ValidFrom, e.ValidTo, err = checkInterval(e.ValidFrom, e.ValidTo); err != nil {
		return Entity{}, err
	}
	now := fmtTime(s.now())
	err = s.db.QueryRowContext(ctx, `INSERT INTO kg_entities (agent, name, type, description, valid_from, valid_to, confidence,
		source_chunk, review, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, NULLIF(?, 0), ?, ?, ?) RETURNING id`,
		e.Agent, e.Name, e.Type, e.Description, e.ValidFrom, e.ValidTo, e.Confidence, e.SourceChunk, e.Review, now, now).Scan(&e.ID)
	if err != nil {
		return Entity{}, fmt.Errorf("add entity %s: %w", e.Name, err)
	}
	return e, nil
}

// Link stores a relation between two entities.
func (s *Store) Link(ctx context.Context, r Relation) (Relation, error) {
	r.Type = strings.ToLower(strings.TrimSpace(r.Type))
	if !slices.Contains(RelationTypes, r.Type) {
		return Relation{}, badGraph("relation type %q: use one of %s", r.Type, strings.Join(RelationTypes, ", "))
	}
	if r.Src == r.Dst {
		return Relation{}, badGraph("an entity cannot be related to itself")
	}
	if r.Confidence < 0 || r.Confidence > 1 {
		return Relation{}, badGraph("confidence %g is not between 0 and 1", r.Confidence)
	}
	if r.Confidence == 0 {
		r.Confidence = 1
	}
	var err error
	if r.ValidFrom, r.ValidTo, err = checkInterval(r.ValidFrom, r.ValidTo); err != nil {
		return Relation{}, err
	}
	for _, id := range []int64{r.Src, r.Dst} {
		if _, err := s.Entity(ctx, id); err != nil {
			return Relation{}, err
		}
	}
	err = s.db.QueryRowContext(ctx, `INSERT INTO kg_relations (src, dst, type, valid_from, valid_to, confidence, source_chunk, created_at)
		VALUES (?, ?, ?, ?, ?, ?, NULLIF(?, 0), ?)
		ON CONFLICT (src, dst, type, valid_from) DO UPDATE SET valid_to = excluded.valid_to, confidence = MAX(confidence, excluded.confidence)
		RETURNING id`, r.Src, r.Dst, r.Type, r.ValidFrom, r.ValidTo, r.Confidence, r.SourceChunk, fmtTime(s.now())).Scan(&r.ID)
	if err != nil {
		return Relation{}, fmt.Errorf("link %d %s %d: %w", r.Src, r.Type, r.Dst, err)
	}
	return r, nil
}

const entityCols = `id, agent, name, type, description, valid_from, valid_to, confidence, COALESCE(source_chunk, 0), review`

func scanEntity(scan func(...any) error) (Entity, error) {
	var e Entity
	err := scan(&e.ID, &e.Agent, &e.Name, &e.Type, &e.Description, &e.ValidFrom, &e.ValidTo, &e.Confidence, &e.SourceChunk, &e.Review)
	return e, err
}

// Entity returns one entity.
func (s *Store) Entity(ctx context.Context, id int64) (Entity, error) {
	e, err := scanEntity(s.db.QueryRowContext(ctx, "SELECT "+entityCols+" FROM kg_entities WHERE id = ?", id).Scan)
	if errors.Is(err, sql.ErrNoRows) {
		return Entity{}, fmt.Errorf("%w: no entity %d", ErrNotFound, id)
	}
	return e, err
}

// UpdateEntity changes an entity's name, type, description or interval.
func (s *Store) UpdateEntity(ctx context.Context, e Entity) (Entity, error) {
	cur, err := s.Entity(ctx, e.ID)
	if err != nil {
		return Entity{}, err
	}
	if e.Name = strings.TrimSpace(e.Name); e.Name == "" {
		e.Name = cur.Name
	}
	if e.Type = strings.ToLower(strings.TrimSpace(e.Type)); e.Type == "" {
		e.Type = cur.Type
	}
	if !slices.Contains(EntityTypes, e.Type) {
		return Entity{}, badGraph("entity type %q: use one of %s", e.Type, strings.Join(EntityTypes, ", "))
	}
	if e.ValidFrom, e.ValidTo, err = checkInterval(e.ValidFrom, e.ValidTo); err != nil {
		return Entity{}, err
	}
	_, err = s.db.ExecContext(ctx, `UPDATE kg_entities SET name = ?, type = ?, description = ?, valid_from = ?, valid_to = ?,
		review = '', updated_at = ? WHERE id = ?`, e.Name, e.Type, e.Description, e.ValidFrom, e.ValidTo, fmtTime(s.now()), e.ID)
	if err != nil {
		return Entity{}, err
	}
	return s.Entity(ctx, e.ID)
}

// DeleteEntity removes an entity and its relations.
func (s *Store) DeleteEntity(ctx context.Context, id int64) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM kg_entities WHERE id = ?", id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: no entity %d", ErrNotFound, id)
	}
	return nil
}

// Unlink removes a relation.
func (s *Store) Unlink(ctx context.Context, id int64) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM kg_relations WHERE id = ?", id)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: no relation %d", ErrNotFound, id)
	}
	return nil
}

// GraphQuery is one knowledge_graph_search.
type GraphQuery struct {
	Text       string
	Agent      string // the agent's entities and the global ones
	EntityType string
	EntityID   int64
	MaxDepth   int    // 1..5, default 2
	AsOf       string // only what was valid then ("" = now, ignoring intervals… see Graph)
	Limit      int    // seed entities, default 5
}

// Graph is a search's answer: the entities found and the relations around
// them, with each relation's distance from a seed.
type Graph struct {
	Seeds     []Entity   `json:"seeds"`
	Entities  []Entity   `json:"entities"`
	Relations []Relation `json:"relations"`
	// Truncated is set when the edge limit cut the traversal short.
	Truncated bool `json:"truncated,omitempty"`
}

// maxEdges bounds one traversal.
const maxEdges = 300

// SearchGraph finds seed entities (by id, or by their names and
// descriptions), then walks relations breadth-first up to MaxDepth hops, in
// both directions, never through an entity twice (cycles end there),
// keeping only what was valid at AsOf when it is set.
func (s *Store) SearchGraph(ctx context.Context, q GraphQuery) (Graph, error) {
	if q.MaxDepth == 0 {
		q.MaxDepth = 2
	}
	if q.MaxDepth < 1 || q.MaxDepth > 5 {
		return Graph{}, badGraph("max_depth must be between 1 and 5, not %d", q.MaxDepth)
	}
	if q.EntityType != "" && !slices.Contains(EntityTypes, q.EntityType) {
		return Graph{}, badGraph("entity_type %q: use one of %s", q.EntityType, strings.Join(EntityTypes, ", "))
	}
	asOf := ""
	if q.AsOf != "" {
		var err error
		if asOf, _, err = checkInterval(q.AsOf, ""); err != nil {
			return Graph{}, err
		}
	}
	if q.Limit <= 0 {
		q.Limit = 5
	}
	seeds, err := s.seeds(ctx, q, asOf)
	if err != nil {
		return Graph{}, err
	}
	if len(seeds) == 0 && q.EntityID != 0 {
		return Graph{}, fmt.Errorf("%w: no entity %d in agent %s's graph (or the global one)%s", ErrNotFound, q.EntityID, q.Agent,
			map[bool]string{true: " valid on " + q.AsOf, false: ""}[q.AsOf != ""])
	}
	g := Graph{Seeds: seeds, Entities: []Entity{}, Relations: []Relation{}}
	if len(seeds) == 0 {
		return g, nil
	}
	ids := make([]any, len(seeds))
	for i, e := range seeds {
		ids[i] = e.ID
	}
	// The walk: a recursive CTE over relations in both directions; path
	// holds the entities visited (",1,4,") so a cycle stops instead of
	// looping; valid() keeps what held at as_of.
	valid := "(? = '' OR ((r.valid_from = '' OR r.valid_from <= ?) AND (r.valid_to = '' OR r.valid_to > ?)))"
	query := `WITH RECURSIVE walk(rel, node, depth, path) AS (
			SELECT NULL, id, 0, ',' || id || ',' FROM kg_entities WHERE id IN (` + marks(len(ids)) + `)
			UNION ALL
			SELECT r.id, CASE WHEN r.src = w.node THEN r.dst ELSE r.src END, w.depth + 1,
				w.path || (CASE WHEN r.src = w.node THEN r.dst ELSE r.src END) || ','
			FROM walk w JOIN kg_relations r ON (r.src = w.node OR r.dst = w.node)
			WHERE w.depth < ? AND ` + valid + `
				AND instr(w.path, ',' || (CASE WHEN r.src = w.node THEN r.dst ELSE r.src END) || ',') = 0
			LIMIT ?)
		SELECT r.id, r.src, r.dst, es.name, ed.name, r.type, r.valid_from, r.valid_to, r.confidence, COALESCE(r.source_chunk, 0), MIN(w.depth)
		FROM walk w JOIN kg_relations r ON r.id = w.rel JOIN kg_entities es ON es.id = r.src JOIN kg_entities ed ON ed.id = r.dst
		GROUP BY r.id ORDER BY MIN(w.depth), r.id`
	args := append(append([]any{}, ids...), q.MaxDepth, asOf, asOf, asOf, maxEdges*4)
	seen := map[int64]bool{}
	for _, e := range seeds {
		seen[e.ID] = true
	}
	var more []int64
	err = eachRow(ctx, s.db, query, args, func(scan func(...any) error) error {
		var r Relation
		if err := scan(&r.ID, &r.Src, &r.Dst, &r.SrcName, &r.DstName, &r.Type, &r.ValidFrom, &r.ValidTo, &r.Confidence,
			&r.SourceChunk, &r.Depth); err != nil {
			return err
		}
		if len(g.Relations) >= maxEdges {
			g.Truncated = true
			return nil
		}
		g.Relations = append(g.Relations, r)
		for _, id := range []int64{r.Src, r.Dst} {
			if !seen[id] {
				seen[id] = true
				more = append(more, id)
			}
		}
		return nil
	})
	if err != nil {
		return Graph{}, fmt.Errorf("knowledge graph walk: %w", err)
	}
	for _, id := range more {
		e, err := s.Entity(ctx, id)
		if err != nil {
			return Graph{}, err
		}
		g.Entities = append(g.Entities, e)
	}
	return g, nil
}

// seeds finds the entities a search starts from.
func (s *Store) seeds(ctx context.Context, q GraphQuery, asOf string) ([]Entity, error) {
	where := []string{"e.agent IN (?, '')"}
	args := []any{q.Agent}
	if q.EntityType != "" {
		where, args = append(where, "e.type = ?"), append(args, q.EntityType)
	}
	if asOf != "" {
		where, args = append(where, "(e.valid_from = '' OR e.valid_from <= ?) AND (e.valid_to = '' OR e.valid_to > ?)"), append(args, asOf, asOf)
	}
	var query string
	switch {
	case q.EntityID != 0:
		query = "SELECT " + entityColsE + " FROM kg_entities e WHERE e.id = ? AND " + strings.Join(where, " AND ")
		args = append([]any{q.EntityID}, args...)
	case strings.TrimSpace(q.Text) != "":
		terms := queryTerms(q.Text)
		if len(terms) == 0 {
			return nil, badGraph("the query has no searchable words")
		}
		query = "SELECT " + entityColsE + ` FROM kg_entities_fts f JOIN kg_entities e ON e.id = f.rowid
			WHERE kg_entities_fts MATCH ? AND ` + strings.Join(where, " AND ") + ` ORDER BY bm25(kg_entities_fts, 3.0, 1.0) LIMIT ?`
		args = append(append([]any{strings.Join(terms, " OR ")}, args...), q.Limit)
	default:
		return nil, badGraph("give a query or an entity_id")
	}
	var out []Entity
	err := eachRow(ctx, s.db, query, args, func(scan func(...any) error) error {
		e, err := scanEntity(scan)
		out = append(out, e)
		return err
	})
	return out, err
}

// entityColsE is entityCols over the alias e.
const entityColsE = `e.id, e.agent, e.name, e.type, e.description, e.valid_from, e.valid_to, e.confidence,
	COALESCE(e.source_chunk, 0), e.review`
