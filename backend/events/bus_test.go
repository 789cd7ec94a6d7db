package events

import (
	"sync"
	"testing"
)

func TestPublishSubscribe(t *testing.T) {
	t.Parallel()
	b := New()
	a, cancelA := b.Subscribe(4)
	c, cancelC := b.Subscribe(1)
	b.Publish(Event{Topic: TopicToolStart, Payload: 1})
	b.Publish(Event{Topic: TopicToolComplete, Payload: 2})
	if ev := <-a; ev.Topic != TopicToolStart || ev.Time.IsZero() {
		t.Fatalf("first event %+v", ev)
	}
	if ev := <-a; ev.Payload != 2 {
		t.Fatalf("second event %+v", ev)
	}
	<-c
	if b.Dropped() != 1 {
		t.Fatalf("dropped = %d, want 1 (slow subscriber)", b.Dropped())
	}
	cancelA()
	cancelA() // idempotent
	if _, ok := <-a; ok {
		t.Fatal("channel open after cancel")
	}
	cancelC()
	b.Publish(Event{Topic: TopicToolError}) // no subscribers: no panic
	var nilBus *Bus
	nilBus.Publish(Event{})
}

func TestConcurrentPublish(t *testing.T) {
	t.Parallel()
	b := New()
	ch, cancel := b.Subscribe(10000)
	defer cancel()
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				b.Publish(Event{Topic: TopicToolStart})
			}
		}()
	}
	wg.Wait()
	if len(ch) != 800 {
		t.Fatalf("got %d events", len(ch))
	}
}
