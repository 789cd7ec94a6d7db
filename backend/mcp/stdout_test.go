package mcp

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestStdoutFilter(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 200<<10)
	bigJSON := `{"jsonrpc":"2.0","id":1,"result":{"t":"` + strings.Repeat("y", 100<<10) + `"}}`
	cases := []struct {
		name, in, out string
		junk          []string
	}{
		{"json passes", `{"jsonrpc":"2.0","id":1}` + "\n", `{"jsonrpc":"2.0","id":1}` + "\n", nil},
		{"banner is junk", "hello world\n{\"id\":1}\n", "{\"id\":1}\n", []string{"hello world\n"}},
		{"blank lines skipped", "\n\r\n  \n{\"id\":2}\n", "{\"id\":2}\n", nil},
		{"broken json is junk", "{not json\n", "", []string{"{not json\n"}},
		{"array is junk", "[1,2]\n", "", []string{"[1,2]\n"}},
		{"last line without newline", `{"id":3}`, `{"id":3}`, nil},
		{"huge junk line is cut", long + "\n{\"id\":4}\n", "{\"id\":4}\n", []string{long[:maxJunkLine]}},
		{"huge json passes", bigJSON + "\n", bigJSON + "\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var junk []string
			f := newStdoutFilter(strings.NewReader(c.in), func(line []byte) { junk = append(junk, string(line)) })
			out, err := io.ReadAll(f)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != c.out {
				t.Errorf("out = %.80q, want %.80q", out, c.out)
			}
			if len(junk) != len(c.junk) {
				t.Fatalf("junk = %.80q, want %.80q", junk, c.junk)
			}
			for i := range junk {
				if junk[i] != c.junk[i] {
					t.Errorf("junk[%d] = %.80q, want %.80q", i, junk[i], c.junk[i])
				}
			}
		})
	}
}

func TestJunkPreview(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"hello\r\n", "hello"},
		{"hello world, this is far too long", "hello worl…"},
		{"\xff\xfebinary", "\uFFFDbinary"},
	} {
		if got := junkPreview([]byte(c.in), 10); got != c.want {
			t.Errorf("junkPreview(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzStdoutFilter: whatever a server writes, the transport gets only
// whole JSON lines, the rest is reported, and nothing panics.
func FuzzStdoutFilter(f *testing.F) {
	f.Add([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\nhello\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var junk int
		filter := newStdoutFilter(bytes.NewReader(in), func(line []byte) {
			junk++
			if p := junkPreview(line, 40); !utf8.ValidString(p) || utf8.RuneCountInString(p) > 41 {
				t.Fatalf("preview %q", p)
			}
		})
		out, err := io.ReadAll(filter)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.SplitAfter(out, []byte("\n")) {
			if len(line) > 0 && !isJSONMessage(line) {
				t.Fatalf("passed a non-JSON line %q", line)
			}
		}
		if len(out) > len(in) {
			t.Fatalf("out longer than in")
		}
	})
}

// A server that writes something else than JSON-RPC to stdout is named
// with its first bytes at once (not after the connect timeout), and the
// line is in its log; one that prints a banner and then works connects
// with a warning.
func TestStdoutJunkIsNamed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	// A ten-minute connect timeout: only the junk check can end this soon.
	f.save(t, Server{Name: "junk", Transport: TransportStdio, Command: "sh",
		Args: []string{"-c", "echo 'hello world, I am not JSON'; exec sleep 600"}, ConnectTimeout: 10 * time.Minute, Enabled: true})
	f.save(t, Server{Name: "banner", Transport: TransportStdio, Command: "sh",
		Args: []string{"-c", "echo 'starting up'; exec " + serverBin(t, "mcp-server-everything") + " stdio"}, Enabled: true})
	ch, cancel := f.bus.Subscribe(64)
	defer cancel()
	m := f.manager(t, Options{Backoff: Backoff{Initial: 10 * time.Minute, Max: 10 * time.Minute, Attempts: 3}})
	if err := m.StartEnabled(context.Background()); err != nil {
		t.Fatal(err)
	}
	st := waitState(t, ch, "junk", 60*time.Second, StateReconnecting, StateFailed)
	if want := `server wrote non-JSON to stdout: "hello world, I am not JSON"`; !strings.Contains(st.LastError, want) {
		t.Fatalf("last error %q, want it to contain %q", st.LastError, want)
	}
	lines, err := ReadLog(m.opts.LogDir, "junk", 20)
	if err != nil || !strings.Contains(strings.Join(lines, "\n"), "non-JSON to stdout: hello world, I am not JSON") {
		t.Fatalf("log = %q, %v", lines, err)
	}
	// Polled: waiting for junk's events skipped banner's.
	deadline := time.Now().Add(60 * time.Second)
	for st, _ = m.status("banner"); st.State == StateConnecting && time.Now().Before(deadline); st, _ = m.status("banner") {
		time.Sleep(50 * time.Millisecond)
	}
	if st.State != StateConnected || !strings.Contains(st.Warning, `non-JSON to stdout: "starting up"`) {
		t.Fatalf("banner server: %s %q %q", st.State, st.LastError, st.Warning)
	}
}
