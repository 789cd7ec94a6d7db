package teams

import (
	"context"
	"fmt"
	"time"
)

// Message is one mailbox message as a recipient sees it.
type Message struct {
	ID        int64      `json:"id"`
	Team      string     `json:"team"`
	FromKind  RecordKind `json:"from_kind"`
	From      string     `json:"from"`
	To        []string   `json:"to"`
	Broadcast bool       `json:"broadcast"`
	Text      string     `json:"text"`
	Created   time.Time  `json:"created"`
}

// Send delivers a direct message to one agent of the team.
func (s *SQLStore) Send(ctx context.Context, c Call, to, text string) (Message, error) {
	var msg Message
	_, err := s.write(ctx, c, func(t *txn) error {
		name, err := t.teamAgent(to, "recipient")
		if err != nil {
			return err
		}
		if t.who.agent() && name == t.who.name {
			return invalidf("you cannot send a message to yourself")
		}
		msg, err = t.deliver(text, false, []string{name})
		return err
	})
	return msg, err
}

// Broadcast delivers a message to every agent of the team but the sender,
// the lead included; each recipient reads it on its own.
func (s *SQLStore) Broadcast(ctx context.Context, c Call, text string) (Message, error) {
	var msg Message
	_, err := s.write(ctx, c, func(t *txn) error {
		var to []string
		for _, a := range append([]string{t.team.Lead}, memberNames(t.team)...) {
			if !t.who.agent() || a != t.who.name {
				to = append(to, a)
			}
		}
		if len(to) == 0 {
			return invalidf("team '%s' has no one else to broadcast to", t.team.Key)
		}
		var err error
		msg, err = t.deliver(text, true, to)
		return err
	})
	return msg, err
}

func memberNames(team Team) []string {
	out := make([]string, len(team.Members))
	for i, m := range team.Members {
		out[i] = m.Agent
	}
	return out
}

// deliver stores a message with one unread recipient row per addressee and
// an audit event the orchestrator uses to wake idle recipients.
func (t *txn) deliver(text string, broadcast bool, to []string) (Message, error) {
	body, err := checkText("text", text, maxText, true)
	if err != nil {
		return Message{}, invalidf("a message needs text")
	}
	msg := Message{Team: t.team.Key, FromKind: t.who.record(), From: t.who.name, To: to, Broadcast: broadcast,
		Text: body, Created: t.now}
	err = t.q.QueryRowContext(t.ctx, `INSERT INTO team_messages (team, sender_kind, sender, broadcast, text, created_at)
		VALUES (?, ?, ?, ?, ?, ?) RETURNING id`, msg.Team, string(msg.FromKind), msg.From, broadcast, body, fmtTime(t.now)).Scan(&msg.ID)
	if err != nil {
		return Message{}, fmt.Errorf("send message: %w", err)
	}
	for _, r := range to {
		if _, err := t.q.ExecContext(t.ctx, "INSERT INTO team_message_recipients (message_id, team, recipient) VALUES (?, ?, ?)",
			msg.ID, msg.Team, r); err != nil {
			return Message{}, fmt.Errorf("send message to %s: %w", r, err)
		}
	}
	return msg, t.record("", EventMessage, map[string]any{"message": msg.ID, "to": to, "broadcast": broadcast, "text": clip(body)})
}

// Read returns the calling agent's unread messages, oldest first, and marks
// them read for that agent only.
func (s *SQLStore) Read(ctx context.Context, c Call) ([]Message, error) {
	out := []Message{}
	_, err := s.write(ctx, c, func(t *txn) error {
		if err := t.require(t.who.agent(), "only the team's agents have a mailbox in team '%s'", t.team.Key); err != nil {
			return err
		}
		err := eachRow(t.ctx, t.q, `SELECT m.id, m.sender_kind, m.sender, m.broadcast, m.text, m.created_at
			FROM team_message_recipients r JOIN team_messages m ON m.id = r.message_id
			WHERE r.team = ? AND r.recipient = ? AND r.read_at = '' ORDER BY m.id`, []any{t.team.Key, t.who.name},
			func(scan func(...any) error) error {
				m := Message{Team: t.team.Key, To: []string{t.who.name}}
				var at string
				err := scan(&m.ID, &m.FromKind, &m.From, &m.Broadcast, &m.Text, &at)
				m.Created = parseTime(at)
				out = append(out, m)
				return err
			})
		if err != nil {
			return fmt.Errorf("read messages: %w", err)
		}
		_, err = t.q.ExecContext(t.ctx, `UPDATE team_message_recipients SET read_at = ?
			WHERE team = ? AND recipient = ? AND read_at = '' AND message_id <= ?`,
			fmtTime(t.now), t.team.Key, t.who.name, lastID(out))
		if err != nil {
			return fmt.Errorf("mark messages read: %w", err)
		}
		return nil
	})
	return out, err
}

func lastID(ms []Message) int64 {
	if len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].ID
}

// Unread counts the calling agent's unread messages.
func (s *SQLStore) Unread(ctx context.Context, c Call) (int, error) {
	team, err := loadTeam(ctx, s.db.SQL(), c.Team)
	if err != nil {
		return 0, err
	}
	who, err := resolve(team, c.By)
	if err != nil {
		return 0, err
	}
	var n int
	err = s.db.SQL().QueryRowContext(ctx, `SELECT COUNT(*) FROM team_message_recipients
		WHERE team = ? AND recipient = ? AND read_at = ''`, team.Key, who.name).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("unread messages: %w", err)
	}
	return n, nil
}

// UnreadRecipients lists the team's agents with unread messages: the
// orchestrator hands mail over after a restart, or one that arrived while
// no loop ran.
func (s *SQLStore) UnreadRecipients(ctx context.Context, team string) ([]string, error) {
	var out []string
	err := eachRow(ctx, s.db.SQL(), `SELECT DISTINCT recipient FROM team_message_recipients
		WHERE team = ? AND read_at = '' ORDER BY recipient`, []any{team}, func(scan func(...any) error) error {
		var a string
		err := scan(&a)
		out = append(out, a)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("unread mail of team %s: %w", team, err)
	}
	return out, nil
}
