// Package events is Warren's in-process event bus: tool lifecycle, approvals
// and other notifications flow from the core to the UI and CLI through it.
package events

import (
	"sync"
	"sync/atomic"
	"time"
)

// Topic names a kind of event.
type Topic string

// Topics published by the core.
const (
	TopicToolStart    Topic = "tool.start"
	TopicToolComplete Topic = "tool.complete"
	TopicToolError    Topic = "tool.error"
)

// Event is one published notification.
type Event struct {
	Topic   Topic     `json:"topic"`
	Time    time.Time `json:"time"`
	Payload any       `json:"payload"`
}

// Bus fans events out to subscribers. Publishing never blocks: a subscriber
// whose buffer is full misses the event and the drop is counted, because a
// slow UI must not stall tool execution.
type Bus struct {
	mu      sync.RWMutex
	subs    map[int]chan Event
	next    int
	dropped atomic.Uint64
}

// New returns an empty bus.
func New() *Bus { return &Bus{subs: map[int]chan Event{}} }

// Publish delivers ev to every subscriber that has room.
func (b *Bus) Publish(ev Event) {
	if b == nil {
		return
	}
	if ev.Time.IsZero() {
		ev.Time = time.Now()
	}
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, ch := range b.subs {
		select {
		case ch <- ev:
		default:
			b.dropped.Add(1)
		}
	}
}

// Subscribe returns a channel of future events and a function that ends the
// subscription and closes the channel.
func (b *Bus) Subscribe(buffer int) (<-chan Event, func()) {
	if buffer < 1 {
		buffer = 64
	}
	ch := make(chan Event, buffer)
	b.mu.Lock()
	id := b.next
	b.next++
	b.subs[id] = ch
	b.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			b.mu.Lock()
			delete(b.subs, id)
			b.mu.Unlock()
			close(ch)
		})
	}
}

// Dropped reports how many deliveries were skipped because a subscriber was full.
func (b *Bus) Dropped() uint64 { return b.dropped.Load() }
