package sandbox

import (
	"bytes"
	"sync"
)

// OutputBuffer keeps the first limit bytes written to it and drops the rest,
// so a chatty command cannot grow Warren's memory. It is safe for
// concurrent writers: the stages of a pipeline, background programs and the
// interpreter's own builtins write the same stream.
type OutputBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
	over  bool
}

// NewOutputBuffer returns a buffer capped at limit bytes (DefaultMaxOutput
// when limit <= 0).
func NewOutputBuffer(limit int) *OutputBuffer {
	if limit <= 0 {
		limit = DefaultMaxOutput
	}
	return &OutputBuffer{limit: limit}
}

// Write never fails: bytes past the limit are counted as written and dropped.
func (c *OutputBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	room := c.limit - c.buf.Len()
	if room < len(p) {
		c.over = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return c.buf.Write(p)
}

// String returns what was kept.
func (c *OutputBuffer) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// Truncated reports whether anything was dropped.
func (c *OutputBuffer) Truncated() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.over
}
