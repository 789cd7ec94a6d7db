package teams

import (
	"context"
	"fmt"
	"strings"
	"unicode"
)

// SearchHit is a task that matched a search, best match first, with the
// matching words in context.
type SearchHit struct {
	Task    Task   `json:"task"`
	Snippet string `json:"snippet"`
}

// ftsQuery turns free text into an FTS5 query that matches any of its
// words: each word is quoted, so FTS5 syntax in the text (AND, NEAR, *, ")
// is searched for literally instead of being interpreted. bm25 ranks tasks
// matching more (and rarer) words first.
func ftsQuery(text string) string {
	words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	seen := map[string]bool{}
	var quoted []string
	for _, w := range words {
		w = strings.ToLower(w)
		if seen[w] {
			continue
		}
		seen[w] = true
		quoted = append(quoted, `"`+w+`"`)
	}
	return strings.Join(quoted, " OR ")
}

// Search finds the team's tasks whose subject, description, result or
// comments contain any of the query's words, ranked by bm25 with the
// subject weighted most. bm25() is negative and lower is better, so hits are
// ordered ascending by it; the score itself is not returned because it is
// not a 0..1 relevance.
func (s *SQLStore) Search(ctx context.Context, c Call, query string, limit int) ([]SearchHit, error) {
	if _, err := s.reader(ctx, c); err != nil {
		return nil, err
	}
	match := ftsQuery(query)
	if match == "" {
		return nil, invalidf("search needs a query with at least one word")
	}
	if limit <= 0 {
		limit = 20
	}
	hits := []SearchHit{}
	var tasks []Task
	err := eachRow(ctx, s.db.SQL(), `SELECT `+prefixed("t.", taskCols)+`,
		snippet(team_tasks_fts, -1, '[', ']', '…', 16)
		FROM team_tasks_fts JOIN team_tasks t ON t.id = team_tasks_fts.rowid
		WHERE team_tasks_fts MATCH ? AND t.team = ?
		ORDER BY bm25(team_tasks_fts, 10.0, 4.0, 2.0, 1.0), t.num LIMIT ?`,
		[]any{match, c.Team, limit}, func(scan func(...any) error) error {
			var snip string
			task, err := scanTask(scanner(func(dest ...any) error { return scan(append(dest, &snip)...) }))
			tasks = append(tasks, task)
			hits = append(hits, SearchHit{Snippet: snip})
			return err
		})
	if err != nil {
		return nil, fmt.Errorf("search tasks: %w", err)
	}
	if err := decorate(ctx, s.db.SQL(), tasks); err != nil {
		return nil, err
	}
	for i := range hits {
		hits[i].Task = tasks[i]
	}
	return hits, nil
}

// prefixed qualifies each column of a column list with a table alias.
func prefixed(alias, cols string) string {
	parts := strings.Split(cols, ",")
	for i, p := range parts {
		parts[i] = alias + strings.TrimSpace(p)
	}
	return strings.Join(parts, ", ")
}
