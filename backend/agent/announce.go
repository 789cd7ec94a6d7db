package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/warren-dev/warren/tools"
)

// DefaultAnnounceDebounce is how long the announce queue waits after a
// subagent finishes for its siblings before telling the parent.
const DefaultAnnounceDebounce = time.Second

// AnnounceOptions configures an AnnounceQueue.
type AnnounceOptions struct {
	// Debounce is the quiet period after the last completion of a parent's
	// children before their batch is delivered; zero means
	// DefaultAnnounceDebounce.
	Debounce time.Duration
	// Deliver receives one batch of finished tasks for one parent session,
	// oldest first. It runs on the queue's goroutine, so it must not block
	// for long (inject into the running turn, or start one in the background).
	Deliver func(ctx context.Context, parent string, batch []Task)
	// After is the timer; nil means time.After. Tests pass one they fire.
	After func(time.Duration) <-chan time.Time
}

// AnnounceQueue batches subagent completions per parent session and
// delivers each batch once the parent's children have been quiet for the
// debounce window, so a burst of children finishing is one announcement.
type AnnounceQueue struct {
	opts    AnnounceOptions
	in      chan Task
	fire    chan fired
	stopped chan struct{}
}

// fired says a parent's debounce timer ran out; gen tells stale timers
// (re-armed since) from the current one.
type fired struct {
	parent string
	gen    uint64
}

// pendingBatch is what one parent is waiting to be told.
type pendingBatch struct {
	tasks []Task
	gen   uint64
}

// NewAnnounceQueue returns a queue; Run delivers its batches.
func NewAnnounceQueue(opts AnnounceOptions) *AnnounceQueue {
	if opts.Debounce <= 0 {
		opts.Debounce = DefaultAnnounceDebounce
	}
	if opts.After == nil {
		opts.After = time.After
	}
	return &AnnounceQueue{opts: opts, in: make(chan Task), fire: make(chan fired), stopped: make(chan struct{})}
}

// Add queues a finished task for its parent. It returns once the queue has
// taken it, or at once when the queue has stopped (the task is dropped:
// Warren is closing).
func (q *AnnounceQueue) Add(t Task) {
	select {
	case q.in <- t:
	case <-q.stopped:
	}
}

// Run delivers batches until ctx ends; batches still waiting are dropped.
func (q *AnnounceQueue) Run(ctx context.Context) {
	defer close(q.stopped)
	pending := map[string]*pendingBatch{}
	for {
		select {
		case <-ctx.Done():
			return
		case t := <-q.in:
			b := pending[t.Parent]
			if b == nil {
				b = &pendingBatch{}
				pending[t.Parent] = b
			}
			b.tasks = append(b.tasks, t)
			b.gen++
			go q.wait(ctx, fired{t.Parent, b.gen}, q.opts.After(q.opts.Debounce))
		case f := <-q.fire:
			b := pending[f.parent]
			if b == nil || b.gen != f.gen {
				continue // re-armed by a later completion
			}
			delete(pending, f.parent)
			if q.opts.Deliver != nil {
				q.opts.Deliver(ctx, f.parent, b.tasks)
			}
		}
	}
}

// wait reports the timer to Run unless the queue stops first.
func (q *AnnounceQueue) wait(ctx context.Context, f fired, timer <-chan time.Time) {
	select {
	case <-timer:
	case <-ctx.Done():
		return
	}
	select {
	case q.fire <- f:
	case <-ctx.Done():
	}
}

// AnnouncementPrefix starts every announcement, so models and readers can
// tell subagent results from the user's own words.
const AnnouncementPrefix = "[Subagent results]"

// FormatAnnouncement is the message a parent receives for a batch: each
// child's id, label, status and result or error.
func FormatAnnouncement(batch []Task) string {
	var b strings.Builder
	b.WriteString(AnnouncementPrefix)
	fmt.Fprintf(&b, " %d subagent(s) you started in the background finished:\n", len(batch))
	for _, t := range batch {
		label := t.Label
		if label == "" {
			label = tools.OneLine(t.Task, 80)
		}
		fmt.Fprintf(&b, "\n- %s (%s): %s\n", t.ID, label, t.Status)
		switch {
		case t.Error != "":
			fmt.Fprintf(&b, "  error: %s\n", t.Error)
		case t.Result != "":
			fmt.Fprintf(&b, "  result:\n%s\n", indent(t.Result, "    "))
		default:
			b.WriteString("  (no result)\n")
		}
	}
	b.WriteString("\nUse these results to continue; the user has not seen them yet.")
	return b.String()
}

func indent(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = prefix + l
	}
	return strings.Join(lines, "\n")
}
