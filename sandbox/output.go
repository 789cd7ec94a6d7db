package sandbox

import "bytes"

// OutputBuffer keeps the first limit bytes written to it and drops the rest,
// so a chatty command cannot grow Warren's memory.
type OutputBuffer struct {
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
func (c *OutputBuffer) String() string { return c.buf.String() }

// Truncated reports whether anything was dropped.
func (c *OutputBuffer) Truncated() bool { return c.over }
