package sessions

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SearchHit is a session that matched a search, with the matching words in
// their context when the match was in the conversation ("" for a title).
type SearchHit struct {
	Session Session `json:"session"`
	Snippet string  `json:"snippet"`
}

// searchCols are sessionCols of the sessions table aliased s.
const searchCols = `s.id, s.agent_key, s.parent_id, s.title, s.status, s.model, s.prompt_tokens, s.completion_tokens, s.created_at, s.updated_at`

// snippetRunes bounds a hit's snippet: enough words either side of the
// match to recognise the conversation, short enough for one list row.
const snippetBefore, snippetAfter = 30, 70

// Search finds the newest sessions (of one agent, or of all with "") whose
// title or conversation (the user's and the agents' words, not tool
// output) contains query, case-insensitively for ASCII letters.
func (st *SQLStore) Search(ctx context.Context, agent, query string, limit int) ([]SearchHit, error) {
	query = strings.Join(strings.Fields(query), " ")
	if query == "" {
		return []SearchHit{}, nil
	}
	if limit <= 0 {
		limit = 50
	}
	like := "%" + escapeLike(query) + "%"
	rows, err := st.db.QueryContext(ctx, `SELECT * FROM (
		SELECT `+searchCols+`, COALESCE((SELECT m.content FROM messages m
			WHERE m.session_id = s.id AND m.role IN ('user', 'assistant') AND m.kind IN ('', 'notification')
			AND m.content LIKE ? ESCAPE '\' ORDER BY m.id DESC LIMIT 1), '') AS hit
		FROM sessions s WHERE ? = '' OR s.agent_key = ?)
		WHERE hit != '' OR title LIKE ? ESCAPE '\'
		ORDER BY updated_at DESC, id LIMIT ?`, like, agent, agent, like, limit)
	if err != nil {
		return nil, fmt.Errorf("search sessions: %w", err)
	}
	defer rows.Close()
	out := []SearchHit{}
	for rows.Next() {
		var h SearchHit
		var hit string
		s := &h.Session
		if err := rows.Scan(&s.ID, &s.Agent, &s.ParentID, &s.Title, &s.Status, &s.Model, &s.PromptTokens, &s.CompletionTokens,
			&s.Created, &s.Updated, &hit); err != nil {
			return nil, fmt.Errorf("search sessions: %w", err)
		}
		h.Snippet = snippet(hit, query)
		out = append(out, h)
	}
	return out, rows.Err()
}

// escapeLike makes query match literally in a LIKE pattern with ESCAPE '\'.
func escapeLike(q string) string {
	return strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`).Replace(q)
}

// snippet is text around the first match of query, on one line, with an
// ellipsis where it was cut; "" when text is empty.
func snippet(text, query string) string {
	text = strings.Join(strings.Fields(text), " ")
	if text == "" {
		return ""
	}
	runes := []rune(text)
	at := indexFold(runes, []rune(query))
	if at < 0 {
		at = 0
	}
	start := max(0, at-snippetBefore)
	end := min(len(runes), at+utf8.RuneCountInString(query)+snippetAfter)
	out := string(runes[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(runes) {
		out += "…"
	}
	return out
}

// indexFold is the rune index of the first case-insensitive match of q in
// s, or -1; it works on runes so the index survives case mapping.
func indexFold(s, q []rune) int {
outer:
	for i := 0; i+len(q) <= len(s); i++ {
		for j, r := range q {
			if unicode.ToLower(s[i+j]) != unicode.ToLower(r) {
				continue outer
			}
		}
		return i
	}
	return -1
}
