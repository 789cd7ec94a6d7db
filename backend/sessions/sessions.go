// Package sessions persists conversations: sessions, their messages (with
// tool calls) and token usage, in Warren's SQLite database.
package sessions

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
)

// ErrNotFound is returned for an unknown session.
var ErrNotFound = errors.New("session not found")

// Session is one conversation with an agent.
type Session struct {
	ID       string `json:"id"`
	Agent    string `json:"agent"`
	ParentID string `json:"parent_id,omitempty"`
	Title    string `json:"title"`
	Status   string `json:"status"`
	// Model is the model chosen for this chat in its header ("" = the agent's).
	Model            string `json:"model"`
	PromptTokens     int    `json:"prompt_tokens"`
	CompletionTokens int    `json:"completion_tokens"`
	Created          string `json:"created"`
	Updated          string `json:"updated"`
}

// ToolCall is a tool call an assistant message made.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Message kinds say what a message is beyond its role; "" is an ordinary
// conversation message.
const (
	// KindNotification is a message the agent delivered to the user (the
	// message tool): shown in the history, never sent back to the model,
	// which already has the tool call that made it.
	KindNotification = "notification"
	// KindSummary is a system message summarising every earlier message up
	// to CoversThrough; later turns send it instead of those messages.
	KindSummary = "summary"
	// KindSubagentResults is a user message announcing finished subagents
	// to their parent conversation.
	KindSubagentResults = "subagent_results"
)

// Message is one stored message.
type Message struct {
	ID         int64      `json:"id"`
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
	// Kind is one of the Kind constants ("" for ordinary messages).
	Kind string `json:"kind,omitempty"`
	// CoversThrough is, for a summary, the id of the last message it replaces.
	CoversThrough int64 `json:"covers_through,omitempty"`
	// Model is the model that wrote an assistant message.
	Model string `json:"model,omitempty"`
	// Incomplete says why a stored reply is partial (an Incomplete
	// constant); "" for a complete message.
	Incomplete string `json:"incomplete,omitempty"`
	Created    string `json:"created"`
}

// Why a stored assistant reply is partial.
const (
	// IncompleteStopped: the user stopped the turn while the reply streamed.
	IncompleteStopped = "stopped"
	// IncompleteDropped: the connection to the model broke off.
	IncompleteDropped = "dropped"
	// IncompleteError: another failure cut the reply short.
	IncompleteError = "error"
)

// Store is the session store; SQLStore is the SQLite implementation.
type Store interface {
	Create(ctx context.Context, s Session) (Session, error)
	Get(ctx context.Context, id string) (Session, error)
	List(ctx context.Context, agent string, limit int) ([]Session, error)
	Append(ctx context.Context, id string, msgs ...Message) error
	// ReplaceFrom removes the user message from (0 = none) and every later
	// message, then appends msgs, in one transaction; it returns their ids.
	ReplaceFrom(ctx context.Context, id string, from int64, msgs ...Message) ([]int64, error)
	History(ctx context.Context, id string, limit int) ([]Message, error)
	// Search finds sessions whose title or conversation contains query.
	Search(ctx context.Context, agent, query string, limit int) ([]SearchHit, error)
	// SetModel records the model chosen for a chat ("" = the agent's).
	SetModel(ctx context.Context, id, model string) error
	AddUsage(ctx context.Context, id string, prompt, completion int) error
	SetStatus(ctx context.Context, id, status string) error
	Delete(ctx context.Context, id string) error
}

// SQLStore keeps sessions in SQLite.
type SQLStore struct{ db *sql.DB }

var _ Store = (*SQLStore)(nil)

// NewSQLStore returns a store over an open, migrated Warren database.
func NewSQLStore(db *sql.DB) *SQLStore { return &SQLStore{db: db} }

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "s-" + hex.EncodeToString(b)
}

const sessionCols = `id, agent_key, parent_id, title, status, model, prompt_tokens, completion_tokens, created_at, updated_at`

func scanSession(row interface{ Scan(...any) error }) (Session, error) {
	var s Session
	err := row.Scan(&s.ID, &s.Agent, &s.ParentID, &s.Title, &s.Status, &s.Model, &s.PromptTokens, &s.CompletionTokens, &s.Created, &s.Updated)
	return s, err
}

// Create stores a new session; an empty ID is generated.
func (st *SQLStore) Create(ctx context.Context, s Session) (Session, error) {
	if s.Agent == "" {
		return Session{}, errors.New("create session: no agent")
	}
	if s.ID == "" {
		s.ID = newID()
	}
	if s.Status == "" {
		s.Status = "active"
	}
	_, err := st.db.ExecContext(ctx, `INSERT INTO sessions (id, agent_key, parent_id, title, status, model) VALUES (?, ?, ?, ?, ?, ?)`,
		s.ID, s.Agent, s.ParentID, s.Title, s.Status, s.Model)
	if err != nil {
		return Session{}, fmt.Errorf("create session: %w", err)
	}
	return st.Get(ctx, s.ID)
}

// Get returns one session.
func (st *SQLStore) Get(ctx context.Context, id string) (Session, error) {
	s, err := scanSession(st.db.QueryRowContext(ctx, "SELECT "+sessionCols+" FROM sessions WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Session{}, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if err != nil {
		return Session{}, fmt.Errorf("get session %s: %w", id, err)
	}
	return s, nil
}

// List returns the newest sessions first, of one agent or of all ("").
func (st *SQLStore) List(ctx context.Context, agent string, limit int) ([]Session, error) {
	if limit <= 0 {
		limit = 50
	}
	rows, err := st.db.QueryContext(ctx, "SELECT "+sessionCols+` FROM sessions
		WHERE ? = '' OR agent_key = ? ORDER BY updated_at DESC, id LIMIT ?`, agent, agent, limit)
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	defer rows.Close()
	var out []Session
	for rows.Next() {
		s, err := scanSession(rows)
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

// AddUsage adds token counts to a session.
func (st *SQLStore) AddUsage(ctx context.Context, id string, prompt, completion int) error {
	_, err := st.db.ExecContext(ctx, `UPDATE sessions SET prompt_tokens = prompt_tokens + ?,
		completion_tokens = completion_tokens + ? WHERE id = ?`, prompt, completion, id)
	if err != nil {
		return fmt.Errorf("usage of %s: %w", id, err)
	}
	return nil
}

// SetStatus changes a session's status (active, done, cancelled, archived…).
func (st *SQLStore) SetStatus(ctx context.Context, id, status string) error {
	res, err := st.db.ExecContext(ctx, `UPDATE sessions SET status = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`, status, id)
	if err != nil {
		return fmt.Errorf("status of %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return nil
}

// SetModel records the model chosen for a chat ("" = the agent's).
func (st *SQLStore) SetModel(ctx context.Context, id, model string) error {
	res, err := st.db.ExecContext(ctx, `UPDATE sessions SET model = ? WHERE id = ?`, model, id)
	if err != nil {
		return fmt.Errorf("model of %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return nil
}

// Delete removes a session and its messages.
func (st *SQLStore) Delete(ctx context.Context, id string) error {
	res, err := st.db.ExecContext(ctx, "DELETE FROM sessions WHERE id = ?", id)
	if err != nil {
		return fmt.Errorf("delete session %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return nil
}
