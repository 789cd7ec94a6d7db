package sessions

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// ErrNotUserMessage is returned by ReplaceFrom when from is not one of the
// session's own user messages (a tool result, a summary, another session's).
var ErrNotUserMessage = errors.New("not a user message of this session")

const messageCols = `id, role, content, tool_calls, tool_call_id, name, kind, covers_through, model, incomplete, created_at`

// Append adds messages in order, in one transaction.
func (st *SQLStore) Append(ctx context.Context, id string, msgs ...Message) error {
	_, err := st.ReplaceFrom(ctx, id, 0, msgs...)
	return err
}

// ReplaceFrom removes the user message from and every later message of the
// session, then appends msgs, all in one transaction: an edited message
// replaces the old turn only once its replacement is stored, and a failure
// leaves the old conversation whole. from = 0 removes nothing. It returns
// the ids of msgs, in order.
func (st *SQLStore) ReplaceFrom(ctx context.Context, id string, from int64, msgs ...Message) ([]int64, error) {
	tx, err := st.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("append to %s: %w", id, err)
	}
	defer func() { _ = tx.Rollback() }()
	res, err := tx.ExecContext(ctx, `UPDATE sessions SET updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?`, id)
	if err != nil {
		return nil, fmt.Errorf("append to %s: %w", id, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	if from != 0 {
		if err := cutFrom(ctx, tx, id, from); err != nil {
			return nil, err
		}
	}
	ids := make([]int64, 0, len(msgs))
	for _, m := range msgs {
		calls := m.ToolCalls
		if calls == nil {
			calls = []ToolCall{}
		}
		raw, err := json.Marshal(calls)
		if err != nil {
			return nil, err
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO messages (session_id, role, content, tool_calls, tool_call_id, name, kind, covers_through, model, incomplete)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, id, m.Role, m.Content, string(raw), m.ToolCallID, m.Name, m.Kind, m.CoversThrough, m.Model, m.Incomplete)
		if err != nil {
			return nil, fmt.Errorf("append %s message to %s: %w", m.Role, id, err)
		}
		n, err := res.LastInsertId()
		if err != nil {
			return nil, fmt.Errorf("append %s message to %s: %w", m.Role, id, err)
		}
		ids = append(ids, n)
	}
	return ids, tx.Commit()
}

// cutFrom deletes message from and everything after it, after checking it
// is an ordinary user message of session id: cutting at a tool result would
// leave a tool call without its result, which models refuse.
func cutFrom(ctx context.Context, tx *sql.Tx, id string, from int64) error {
	var role, kind string
	err := tx.QueryRowContext(ctx, `SELECT role, kind FROM messages WHERE id = ? AND session_id = ?`, from, id).Scan(&role, &kind)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && (role != "user" || kind != "")) {
		return fmt.Errorf("message %d: %w %s", from, ErrNotUserMessage, id)
	}
	if err != nil {
		return fmt.Errorf("cut %s at %d: %w", id, from, err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE session_id = ? AND id >= ?`, id, from); err != nil {
		return fmt.Errorf("cut %s at %d: %w", id, from, err)
	}
	return nil
}

// History returns the last limit messages (all when limit <= 0), oldest first.
func (st *SQLStore) History(ctx context.Context, id string, limit int) ([]Message, error) {
	if _, err := st.Get(ctx, id); err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = -1
	}
	rows, err := st.db.QueryContext(ctx, `SELECT `+messageCols+` FROM (
		SELECT * FROM messages WHERE session_id = ? ORDER BY id DESC LIMIT ?) ORDER BY id`, id, limit)
	if err != nil {
		return nil, fmt.Errorf("history of %s: %w", id, err)
	}
	defer rows.Close()
	var out []Message
	for rows.Next() {
		var m Message
		var raw string
		if err := rows.Scan(&m.ID, &m.Role, &m.Content, &raw, &m.ToolCallID, &m.Name, &m.Kind, &m.CoversThrough,
			&m.Model, &m.Incomplete, &m.Created); err != nil {
			return nil, fmt.Errorf("history of %s: %w", id, err)
		}
		if err := json.Unmarshal([]byte(raw), &m.ToolCalls); err != nil {
			return nil, fmt.Errorf("message %d: tool calls are corrupt: %w", m.ID, err)
		}
		out = append(out, m)
	}
	return out, rows.Err()
}
