package messaging

import (
	"cmp"
	"context"
	"crypto/rand"
	_ "embed"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/tools"
)

//go:embed message.md
var messageDoc string

// MessageParams are the parameters of message.
type MessageParams struct {
	Text  string `json:"text" description:"The message for the user, short and self-contained"`
	Title string `json:"title,omitempty" description:"A few words shown as the notification heading"`
	Level string `json:"level,omitempty" enum:"info|success|warning|error" description:"How it should look: info (default), success, warning or error"`
}

// maxText bounds a message; notifications are for short texts.
const maxText = 4000

func newMessage(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "message", Group: "messaging", LongDescription: messageDoc,
		Description: "Send a message to the user's desktop: shown in the conversation and as an OS notification.",
	}, func(ctx context.Context, p MessageParams) (tools.Result, error) {
		text, title := strings.TrimSpace(p.Text), strings.TrimSpace(p.Title)
		level := cmp.Or(p.Level, LevelInfo) // the schema's enum allows only the four levels
		switch {
		case text == "":
			return tools.Errorf(tools.CodeValidation, "text is required"), nil
		case len(text) > maxText:
			return tools.Errorf(tools.CodeValidation, "text is %d bytes; keep a message under %d", len(text), maxText), nil
		}
		cc := tools.CallContextFrom(ctx)
		m := Message{ID: newID(), Agent: cc.Agent, Session: cc.SandboxKey, Title: title, Text: text, Level: level, At: d.Now().UTC()}
		var report []string
		stored, err := store(ctx, d.Sessions, m)
		if err != nil {
			return tools.Result{}, err
		}
		if stored {
			report = append(report, "shown in the conversation")
		} else {
			report = append(report, "shown in the app (no conversation to keep it in)")
		}
		d.Bus.Publish(events.Event{Topic: TopicUserMessage, Time: m.At, Payload: m})
		if err := notify(ctx, d.Notifier, m); err != nil {
			report = append(report, "OS notification unavailable: "+err.Error())
		} else {
			report = append(report, "shown as a desktop notification")
		}
		return tools.Text("Message delivered: " + strings.Join(report, "; ") + "."), nil
	})
}

// store keeps the message in the calling session's history; false when
// the call has no stored session (a CLI tool call).
func store(ctx context.Context, st sessions.Store, m Message) (bool, error) {
	if st == nil || m.Session == "" {
		return false, nil
	}
	content := m.Text
	if m.Title != "" {
		content = "**" + m.Title + "**\n\n" + m.Text
	}
	err := st.Append(ctx, m.Session, sessions.Message{Role: "assistant", Name: "message", Content: content, Kind: sessions.KindNotification})
	if errors.Is(err, sessions.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("store message: %w", err)
	}
	return true, nil
}

func notify(ctx context.Context, n Notifier, m Message) error {
	if n == nil {
		return errors.New("no notifier configured")
	}
	title := m.Title
	if title == "" {
		title = "Warren"
		if m.Agent != "" {
			title = "Warren: " + m.Agent
		}
	}
	return n.Notify(ctx, title, m.Text)
}

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return "msg-" + hex.EncodeToString(b)
}
