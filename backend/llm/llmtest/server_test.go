package llmtest

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// tbRecorder captures Errorf so tests can check the server reports cassette mismatches.
type tbRecorder struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *tbRecorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func post(t *testing.T, url, body string) (int, []string) {
	t.Helper()
	res, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var lines []string
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if sc.Text() != "" {
			lines = append(lines, sc.Text())
		}
	}
	return res.StatusCode, lines
}

func TestServerReplaysAndChecksExpectations(t *testing.T) {
	t.Parallel()
	rec := &tbRecorder{TB: t}
	two := 2
	srv := NewServer(rec, Cassette{Name: "demo", Turns: []Turn{
		{Expect: "hello", Faults: []Fault{{Status: 429, RetryAfter: 1.5}, {DropAfterChunks: &two}}, Chunks: []string{"a", "b", "c"}},
		{Expect: "never sent"},
	}})
	const body = `{"messages":[{"role":"user","content":"hello there"}]}`
	if code, _ := post(t, srv.URL+"/v1/chat/completions", body); code != 429 {
		t.Errorf("first request: status %d, want the injected 429", code)
	}
	if _, lines := post(t, srv.URL+"/v1/chat/completions", body); len(lines) != 2 {
		t.Errorf("dropped stream: %q, want 2 events", lines)
	}
	_, lines := post(t, srv.URL+"/v1/chat/completions", body)
	if len(lines) != 5 || lines[len(lines)-1] != "data: [DONE]" {
		t.Errorf("full stream: %q", lines)
	}
	if code, _ := post(t, srv.URL+"/v1/messages", `{"messages":[{"role":"user","content":[{"type":"text","text":"other"}]}]}`); code != 400 {
		t.Errorf("mismatched expectation: status %d, want 400", code)
	}
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], `does not contain "never sent"`) {
		t.Errorf("reported errors = %q", rec.errs)
	}
	if n := len(srv.Requests()); n != 4 || srv.Remaining() != 1 {
		t.Errorf("requests = %d, remaining = %d", n, srv.Remaining())
	}
}

func TestLastMessageText(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		`{"messages":[{"role":"tool","content":"result text"}]}`:                                                "result text",
		`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"sunny"}]}]}`: "\nsunny",
		`{"messages":[]}`: "",
		`not json`:        "",
	}
	for in, want := range cases {
		if got := lastMessageText([]byte(in)); got != want {
			t.Errorf("lastMessageText(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestConcurrentCassetteServesByExpect: a concurrent cassette answers each
// request with the turn it expects, whatever order the requests come in,
// and counts faults per turn.
func TestConcurrentCassetteServesByExpect(t *testing.T) {
	t.Parallel()
	rec := &tbRecorder{TB: t}
	srv := NewServer(rec, Cassette{Name: "parallel", Concurrent: true, Turns: []Turn{
		{Expect: "parent", Chunks: []string{"for the parent"}},
		{Expect: "child", Faults: []Fault{{Status: 503}}, Chunks: []string{"for the child"}},
	}})
	ask := func(text string) (int, string) {
		code, lines := post(t, srv.URL+"/v1/chat/completions", `{"messages":[{"role":"user","content":"`+text+`"}]}`)
		return code, strings.Join(lines, "\n")
	}
	if code, _ := ask("the child asks"); code != 503 {
		t.Errorf("child's first request: status %d, want its injected 503", code)
	}
	if _, out := ask("the parent asks"); !strings.Contains(out, "for the parent") {
		t.Errorf("parent got %q", out)
	}
	if _, out := ask("the child asks again"); !strings.Contains(out, "for the child") {
		t.Errorf("child got %q", out)
	}
	if code, _ := ask("the parent asks again"); code != 400 {
		t.Errorf("request past the cassette: status %d, want 400", code)
	}
	if len(rec.errs) != 1 || !strings.Contains(rec.errs[0], "exhausted") || srv.Remaining() != 0 {
		t.Errorf("reported errors = %q, remaining %d", rec.errs, srv.Remaining())
	}
}

// A client that gives up while sending its request (a cancelled context)
// is not a cassette mismatch: the server drops it and serves the next one.
func TestAbandonedRequestIsNotAMismatch(t *testing.T) {
	t.Parallel()
	rec := &tbRecorder{TB: t}
	srv := NewServer(rec, Cassette{Name: "abandoned", Concurrent: true, Turns: []Turn{
		{Expect: "hello", Chunks: []string{"hi"}},
	}})
	conn, err := net.Dial("tcp", strings.TrimPrefix(srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fmt.Fprintf(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"messages\":[")
	_ = conn.Close()
	// The abandoned request reached the handler before this one.
	deadline := time.Now().Add(5 * time.Second)
	for len(srv.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if code, _ := post(t, srv.URL+"/v1/chat/completions", `{"stream":true,"messages":[{"role":"user","content":"hello"}]}`); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.errs) != 0 {
		t.Fatalf("errors reported: %v", rec.errs)
	}
}
