// Package messaging holds the message tool, which delivers an agent's
// message to the user's desktop: into the conversation (stored and
// published for the window) and as an OS notification.
package messaging

import (
	"time"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/tools"
)

// TopicUserMessage is the bus topic of a delivered message; its payload is
// a Message.
const TopicUserMessage events.Topic = "message.user"

// Levels of a message.
const (
	LevelInfo    = "info"
	LevelSuccess = "success"
	LevelWarning = "warning"
	LevelError   = "error"
)

// Message is what the user receives, as published on the bus.
type Message struct {
	ID      string    `json:"id"`
	Agent   string    `json:"agent"`
	Session string    `json:"session"`
	Title   string    `json:"title"`
	Text    string    `json:"text"`
	Level   string    `json:"level"`
	At      time.Time `json:"at"`
}

// Deps configures the messaging tools.
type Deps struct {
	// Sessions stores the message in the calling conversation; nil skips it.
	Sessions sessions.Store
	// Bus carries the message to the window; nil skips it.
	Bus *events.Bus
	// Notifier shows the OS notification; nil means none is available.
	Notifier Notifier
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Tools builds the messaging tools.
func Tools(d Deps) ([]tools.Tool, error) {
	if d.Now == nil {
		d.Now = time.Now
	}
	msg, err := newMessage(d)
	if err != nil {
		return nil, err
	}
	return []tools.Tool{msg}, nil
}
