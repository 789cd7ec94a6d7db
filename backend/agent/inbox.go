package agent

import (
	"context"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/sessions"
)

// Inbox hands subagent results to the turn running in a session: the loop
// picks them up before its next model call, as user messages stored with
// kind subagent_results. Deliver reports false when no turn is running
// there, so the caller starts one instead.
type Inbox struct {
	mu    sync.Mutex
	boxes map[string][]*mailbox // per session; the newest running turn last
}

// mailbox is one running turn's share of the inbox.
type mailbox struct {
	session string
	texts   []string
	closed  bool
}

// NewInbox returns an empty inbox.
func NewInbox() *Inbox { return &Inbox{boxes: map[string][]*mailbox{}} }

// Deliver queues text for the turn running in session; false when none is.
func (in *Inbox) Deliver(session, text string) bool {
	if in == nil {
		return false
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	boxes := in.boxes[session]
	if len(boxes) == 0 {
		return false
	}
	mb := boxes[len(boxes)-1]
	mb.texts = append(mb.texts, text)
	return true
}

// open registers a running turn of session.
func (in *Inbox) open(session string) *mailbox {
	mb := &mailbox{session: session}
	if in == nil {
		return mb
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	in.boxes[session] = append(in.boxes[session], mb)
	return mb
}

// take returns the texts delivered since the last take. With final set and
// nothing pending, it also unregisters the turn in the same step, so a text
// arriving afterwards is refused (and starts a new turn) rather than lost.
func (in *Inbox) take(mb *mailbox, final bool) []string {
	if in == nil {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	texts := mb.texts
	mb.texts = nil
	if final && len(texts) == 0 {
		in.unregister(mb)
	}
	return texts
}

// close unregisters the turn and returns what it never picked up.
func (in *Inbox) close(mb *mailbox) []string {
	if in == nil {
		return nil
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	texts := mb.texts
	mb.texts = nil
	in.unregister(mb)
	return texts
}

// unregister removes mb (caller holds mu); closing twice is a no-op.
func (in *Inbox) unregister(mb *mailbox) {
	if mb.closed {
		return
	}
	mb.closed = true
	boxes := in.boxes[mb.session]
	for i, b := range boxes {
		if b == mb {
			boxes = append(boxes[:i:i], boxes[i+1:]...)
			break
		}
	}
	if len(boxes) == 0 {
		delete(in.boxes, mb.session)
	} else {
		in.boxes[mb.session] = boxes
	}
}

// inject adds messages handed to the running turn (subagent results) to
// the conversation and the session.
func (l *Loop) inject(ctx context.Context, sid string, conv *conversation, texts []string, on func(Event)) error {
	if len(texts) == 0 {
		return nil
	}
	msgs := make([]llm.Message, len(texts))
	for i, text := range texts {
		msgs[i] = llm.Message{Role: llm.RoleUser, Content: text}
	}
	if err := l.persistKind(ctx, sid, sessions.KindSubagentResults, msgs...); err != nil {
		return err
	}
	conv.current = append(conv.current, msgs...)
	for _, text := range texts {
		on(Event{Kind: EventInjected, Session: sid, Text: text})
	}
	return nil
}

// keepUndelivered stores what reached the turn too late to be answered
// (it failed, was stopped or hit the limit), so the next turn sees it.
func (l *Loop) keepUndelivered(ctx context.Context, sid string, mb *mailbox) {
	texts := l.d.Inbox.close(mb)
	if len(texts) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	msgs := make([]llm.Message, len(texts))
	for i, text := range texts {
		msgs[i] = llm.Message{Role: llm.RoleUser, Content: text}
	}
	if err := l.persistKind(ctx, sid, sessions.KindSubagentResults, msgs...); err != nil {
		l.log().Error("subagent results lost", "session", sid, "err", err)
	}
}
