package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode/utf8"
)

// stdoutFilter stands between a stdio server's stdout and the MCP
// transport. The transport silently skips lines that are not JSON, so a
// server printing a banner or logs to stdout would look hung ("no answer
// within 30 s"); the filter passes JSON-RPC lines on and reports the rest.
type stdoutFilter struct {
	src     *bufio.Reader
	pending []byte
	err     error
	// onJunk gets every line that is not a JSON-RPC message (cut to
	// maxJunkLine bytes).
	onJunk func(line []byte)
}

// maxJunkLine is how much of a non-JSON line is kept for the log.
const maxJunkLine = 512

func newStdoutFilter(r io.Reader, onJunk func(line []byte)) *stdoutFilter {
	return &stdoutFilter{src: bufio.NewReaderSize(r, 64<<10), onJunk: onJunk}
}

// Read implements io.Reader: the server's JSON lines, newline-terminated.
func (f *stdoutFilter) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		line, err := f.readLine()
		f.err = err
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if isJSONMessage(line) {
			f.pending = line
		} else if f.onJunk != nil {
			f.onJunk(line)
		}
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

// readLine reads one line. A line that grows past the buffer without
// looking like JSON is junk: only its start is kept, the rest skipped, so
// a server writing binary to stdout cannot make Warren buffer it all.
func (f *stdoutFilter) readLine() ([]byte, error) {
	var line []byte
	for {
		chunk, err := f.src.ReadSlice('\n')
		if !errors.Is(err, bufio.ErrBufferFull) {
			if line == nil {
				return append([]byte(nil), chunk...), err
			}
			return append(line, chunk...), err
		}
		if line == nil && !startsLikeJSON(chunk) {
			junk := append([]byte(nil), chunk[:min(len(chunk), maxJunkLine)]...)
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = f.src.ReadSlice('\n')
			}
			return junk, err
		}
		line = append(line, chunk...)
	}
}

func startsLikeJSON(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

// isJSONMessage reports whether a stdout line is a JSON object, what
// every JSON-RPC message on the stdio transport is.
func isJSONMessage(line []byte) bool {
	return startsLikeJSON(line) && json.Valid(line)
}

// junkPreview is the start of a non-JSON line as the user sees it:
// printable, at most n runes, "…" when cut.
func junkPreview(line []byte, n int) string {
	s := strings.TrimRight(strings.ToValidUTF8(string(line), "\uFFFD"), "\r\n")
	if utf8.RuneCountInString(s) > n {
		s = string([]rune(s)[:n]) + "…"
	}
	return s
}

// stdoutJunk remembers what a server wrote to stdout that was not JSON.
type stdoutJunk struct {
	mu    sync.Mutex
	first string
	lines int
	seen  chan struct{} // closed at the first junk line
}

func newStdoutJunk() *stdoutJunk { return &stdoutJunk{seen: make(chan struct{})} }

func (j *stdoutJunk) add(line []byte) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.lines++
	if j.lines == 1 {
		j.first = junkPreview(line, 40)
		close(j.seen)
	}
}

// describe is "" until junk was seen, then names its first bytes.
func (j *stdoutJunk) describe() string {
	if j == nil {
		return ""
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	switch j.lines {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("server wrote non-JSON to stdout: %q", j.first)
	}
	return fmt.Sprintf("server wrote non-JSON to stdout (%d lines), first: %q", j.lines, j.first)
}
