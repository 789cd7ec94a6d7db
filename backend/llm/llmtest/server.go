package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Server replays a Cassette over HTTP; it embeds the httptest.Server, so URL is its root.
type Server struct {
	*httptest.Server
	t        testing.TB
	cassette Cassette

	mu       sync.Mutex
	served   []bool // per turn
	faults   []int  // per turn, faults already served
	requests []Recorded
	holds    map[int]*hold // by model request number, from 1
}

// hold keeps one model request waiting until the test releases it.
type hold struct {
	arrived, release chan struct{}
}

// Recorded is a request the server received.
type Recorded struct {
	Method string
	Path   string
	Header http.Header
	Body   []byte
}

// NewServer starts a server replaying cassette; it closes when the test ends.
func NewServer(t testing.TB, cassette Cassette) *Server {
	s := &Server{t: t, cassette: cassette, served: make([]bool, len(cassette.Turns)), faults: make([]int, len(cassette.Turns))}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.serveOpenAI)
	mux.HandleFunc("POST /v1/messages", s.serveAnthropic)
	mux.HandleFunc("GET /v1/models", s.serveModels)
	mux.HandleFunc("GET /api/tags", s.serveTags)
	s.mediaRoutes(mux)
	s.Server = httptest.NewServer(s.record(mux))
	t.Cleanup(s.Close)
	return s
}

// Requests returns every request received so far, in order.
func (s *Server) Requests() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Recorded(nil), s.requests...)
}

// Remaining is the number of turns not yet served.
func (s *Server) Remaining() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.remaining()
}

func (s *Server) remaining() int {
	n := 0
	for _, done := range s.served {
		if !done {
			n++
		}
	}
	return n
}

func (s *Server) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body) // a short read just leaves the recorded body short
		r.Body = io.NopCloser(strings.NewReader(string(body)))
		s.mu.Lock()
		s.requests = append(s.requests, Recorded{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
		h := s.holds[s.modelRequests()]
		s.mu.Unlock()
		if h != nil && r.Method == http.MethodPost {
			close(h.arrived)
			select {
			case <-h.release:
			case <-r.Context().Done():
				return
			}
		}
		if err != nil {
			// The client gave up while sending (its context was cancelled):
			// there is no request to match a turn to and nobody to answer.
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Hold makes the n-th model request (from 1) wait until release is
// called: arrived closes when it comes in. A test uses it to act while a
// turn is waiting on the model. Release runs at the test's end anyway.
func (s *Server) Hold(n int) (arrived <-chan struct{}, release func()) {
	h := &hold{arrived: make(chan struct{}), release: make(chan struct{})}
	s.mu.Lock()
	if s.holds == nil {
		s.holds = map[int]*hold{}
	}
	s.holds[n] = h
	s.mu.Unlock()
	var once sync.Once
	release = func() { once.Do(func() { close(h.release) }) }
	s.t.Cleanup(release)
	return h.arrived, release
}

// modelRequests counts the POSTs received (model requests); mu is held.
func (s *Server) modelRequests() int {
	n := 0
	for _, r := range s.requests {
		if r.Method == http.MethodPost {
			n++
		}
	}
	return n
}

// next picks what to serve for one streaming request: a fault of its turn, or the turn.
func (s *Server) next(body []byte) (Turn, *Fault, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i, err := s.pick(body)
	if err != nil {
		return Turn{}, nil, err
	}
	turn := s.cassette.Turns[i]
	if s.faults[i] < len(turn.Faults) {
		s.faults[i]++
		return turn, &turn.Faults[s.faults[i]-1], nil
	}
	if turn.Expect != "" {
		if last := lastMessageText(body); !strings.Contains(last, turn.Expect) {
			return Turn{}, nil, fmt.Errorf("turn %d: last message %.200q does not contain %q", i, last, turn.Expect)
		}
	}
	s.served[i] = true
	return turn, nil, nil
}

// pick returns the turn a request is for (caller holds mu): the first
// unserved one, or in a concurrent cassette the first unserved one whose
// expect the request's last message contains.
func (s *Server) pick(body []byte) (int, error) {
	last := ""
	if s.cassette.Concurrent {
		last = lastMessageText(body)
	}
	for i, turn := range s.cassette.Turns {
		if s.served[i] {
			continue
		}
		if !s.cassette.Concurrent || strings.Contains(last, turn.Expect) {
			return i, nil
		}
	}
	if s.cassette.Concurrent && s.remaining() > 0 {
		return 0, fmt.Errorf("cassette %q: no unserved turn expects last message %.200q", s.cassette.Name, last)
	}
	return 0, fmt.Errorf("cassette %q exhausted after %d turns", s.cassette.Name, len(s.cassette.Turns))
}

// begin resolves the request to a turn, answering errors and HTTP faults itself; ok=false means
// the response is already written. limit is how many SSE events may be written (-1: all).
func (s *Server) begin(w http.ResponseWriter, r *http.Request) (turn Turn, limit int, ok bool) {
	body, _ := io.ReadAll(r.Body)
	turn, fault, err := s.next(body)
	if err != nil {
		s.t.Errorf("llmtest: %v", err)
		http.Error(w, `{"error":{"message":"llmtest: `+strings.ReplaceAll(err.Error(), `"`, `'`)+`"}}`, http.StatusBadRequest)
		return Turn{}, 0, false
	}
	if fault != nil && fault.Status != 0 {
		if fault.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.FormatFloat(fault.RetryAfter, 'f', -1, 64))
		}
		msg := fault.Body
		if msg == "" {
			msg = fmt.Sprintf(`{"error":{"message":"injected %d"}}`, fault.Status)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(fault.Status)
		_, _ = io.WriteString(w, msg)
		return Turn{}, 0, false
	}
	if turn.DelayMS > 0 {
		select {
		case <-time.After(time.Duration(turn.DelayMS) * time.Millisecond):
		case <-r.Context().Done():
			return Turn{}, 0, false
		}
	}
	limit = -1
	if fault != nil && fault.DropAfterChunks != nil {
		limit = *fault.DropAfterChunks
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	return turn, limit, true
}

// sseWriter writes events until its limit, after which writes are swallowed: the handler then
// returns and the client sees the stream end early, as when a local server crashes.
type sseWriter struct {
	w     http.ResponseWriter
	limit int
	n     int
}

func (e *sseWriter) send(event string, v any) {
	if e.limit >= 0 && e.n >= e.limit {
		return
	}
	e.n++
	data, _ := v.(string)
	if data == "" {
		raw, _ := json.Marshal(v) // cassette values always marshal
		data = string(raw)
	}
	if event != "" {
		fmt.Fprintf(e.w, "event: %s\n", event)
	}
	fmt.Fprintf(e.w, "data: %s\n\n", data)
	if f, ok := e.w.(http.Flusher); ok {
		f.Flush()
	}
}

func (s *Server) serveModels(w http.ResponseWriter, _ *http.Request) {
	if s.cassette.ModelsStatus != 0 {
		http.Error(w, `{"error":{"message":"models unavailable"}}`, s.cassette.ModelsStatus)
		return
	}
	type model struct {
		ID     string `json:"id"`
		Object string `json:"object"`
	}
	out := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, m := range s.cassette.Models {
		out.Data = append(out.Data, model{ID: m, Object: "model"})
	}
	writeJSON(w, out)
}

func (s *Server) serveTags(w http.ResponseWriter, _ *http.Request) {
	type tag struct {
		Name string `json:"name"`
	}
	out := struct {
		Models []tag `json:"models"`
	}{Models: []tag{}}
	for _, m := range s.cassette.Models {
		out.Models = append(out.Models, tag{Name: m})
	}
	writeJSON(w, out)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v) // the client reports a broken answer itself
}

// lastMessageText is the text of the last message in an OpenAI or Anthropic request body.
func lastMessageText(body []byte) string {
	var req struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil || len(req.Messages) == 0 {
		return ""
	}
	raw := req.Messages[len(req.Messages)-1].Content
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Text    string          `json:"text"`
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(raw, &blocks) // unknown shapes just match nothing
	var parts []string
	for _, b := range blocks {
		parts = append(parts, b.Text)
		if json.Unmarshal(b.Content, &s) == nil {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n")
}
