package runner

import (
	"bufio"
	"bytes"
	"strings"
	"testing"
)

func TestFrameRoundTrip(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	for _, p := range []string{"", "hello", strings.Repeat("x", 70000)} {
		if err := WriteFrame(&b, FrameStdout, []byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	r := bufio.NewReader(&b)
	var buf []byte
	for _, want := range []string{"", "hello", strings.Repeat("x", 70000)} {
		typ, payload, err := ReadFrame(r, buf)
		if err != nil || typ != FrameStdout || string(payload) != want {
			t.Fatalf("got %q %d %v", typ, len(payload), err)
		}
		buf = payload[:0]
	}
	if err := WriteFrame(&b, FrameStdout, make([]byte, MaxFrame+1)); err == nil {
		t.Fatal("oversized frame written")
	}
	// A header announcing more than MaxFrame is refused before allocating.
	if _, _, err := ReadFrame(bufio.NewReader(bytes.NewReader([]byte{'O', 0xff, 0xff, 0xff, 0xff})), nil); err == nil {
		t.Fatal("oversized frame read")
	}
}

func FuzzReadFrame(f *testing.F) {
	f.Add([]byte{'O', 0, 0, 0, 2, 'h', 'i'})
	f.Add([]byte{'X', 0, 0, 0, 0})
	f.Add([]byte{'Q', 0xff, 0xff, 0xff, 0xff})
	f.Add([]byte{'E', 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		for range 4 {
			_, payload, err := ReadFrame(r, nil)
			if err != nil {
				return
			}
			if len(payload) > MaxFrame {
				t.Fatalf("payload of %d bytes", len(payload))
			}
		}
	})
}
