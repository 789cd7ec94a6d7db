// Package embedtest is a scripted OpenAI-compatible embeddings server for
// tests: POST /v1/embeddings answers with deterministic vectors (the same text
// always gets the same vector, see Vector), and faults can be queued to test
// a client's retries and validation: rate limits, server errors, garbage,
// wrong counts, dropped connections.
package embedtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// Options configure a Server; the zero value serves 8-dim vectors to anyone.
type Options struct {
	// Dims is the vector length (default 8).
	Dims int
	// Model, when set, is the only model served: others get a 404.
	Model string
	// APIKey, when set, is required as "Authorization: Bearer <key>" (401 otherwise).
	APIKey string
}

// Fault is one scripted misbehaviour; a queued fault is spent by the next
// request.
type Fault struct {
	// Status answers with this HTTP status and an OpenAI-style error body.
	Status int
	// RetryAfter and RetryAfterMS set the Retry-After and retry-after-ms
	// headers (with Status).
	RetryAfter, RetryAfterMS string
	// Body answers 200 with this raw body (garbage, truncated JSON).
	Body string
	// Mutate answers 200 with a normal response changed by it (drop an item,
	// break an index, change dims, put NaN in…).
	Mutate func(r *Response)
	// RawEmbedding answers 200 with the first embedding replaced by this
	// text, written as is.
	RawEmbedding string
	// Drop closes the connection without an answer.
	Drop bool
	// Hang waits until the request's context ends (a client timeout or
	// cancellation) or the test ends, then drops the connection.
	Hang bool
}

// Request is a request the server received.
type Request struct {
	Model         string
	Input         []string
	Authorization string
}

// Response is the JSON the server answers with. Embedding is raw JSON so a
// Mutate can put in what encoding/json would refuse (a bare NaN, strings).
type Response struct {
	Object string  `json:"object"`
	Data   []Datum `json:"data"`
	Model  string  `json:"model"`
	Usage  struct {
		PromptTokens int `json:"prompt_tokens"`
		TotalTokens  int `json:"total_tokens"`
	} `json:"usage"`
}

// Datum is one embedding in a Response.
type Datum struct {
	Object    string          `json:"object"`
	Index     int             `json:"index"`
	Embedding json.RawMessage `json:"embedding"`
}

// Server is a running scripted embeddings server; URL is its root and
// BaseURL() the OpenAI-style base (URL + "/v1").
type Server struct {
	*httptest.Server
	opts Options
	stop chan struct{} // closed when the test ends: releases hanging handlers

	mu       sync.Mutex
	faults   []Fault
	requests []Request
}

// NewServer starts a server that closes when the test ends.
func NewServer(t testing.TB, opts Options) *Server {
	t.Helper()
	if opts.Dims <= 0 {
		opts.Dims = 8
	}
	s := &Server{opts: opts, stop: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/embeddings", s.serveEmbeddings)
	s.Server = httptest.NewServer(mux)
	t.Cleanup(s.Close)
	// Cleanups run last-in first-out: hanging handlers are let go before
	// Close waits for them.
	t.Cleanup(func() { close(s.stop) })
	return s
}

// BaseURL is the OpenAI-style base URL clients are configured with.
func (s *Server) BaseURL() string { return s.URL + "/v1" }

// Fail queues faults; each is spent by one request, in order.
func (s *Server) Fail(faults ...Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, faults...)
}

// Requests returns every request received so far, in order (faulted ones too).
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Vector is the server's vector for text: deterministic, not unit length
// (clients are expected to normalise), never zero.
func Vector(text string, dims int) []float32 {
	h := fnv.New64a()
	_, _ = io.WriteString(h, text)
	seed := h.Sum64()
	rng := rand.New(rand.NewPCG(seed, seed>>1|1)) //nolint:gosec // deterministic test vectors
	v := make([]float32, dims)
	for i := range v {
		v[i] = float32(rng.Float64()*4 - 2)
	}
	v[0] += 5 // keeps the norm away from zero
	return v
}

// Unit is Vector normalised to unit length: what a client should return.
func Unit(text string, dims int) []float32 {
	v := Vector(text, dims)
	var n float64
	for _, x := range v {
		n += float64(x) * float64(x)
	}
	inv := 1 / math.Sqrt(n)
	for i := range v {
		v[i] = float32(float64(v[i]) * inv)
	}
	return v
}

func (s *Server) serveEmbeddings(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	body, err := io.ReadAll(r.Body)
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	var input []string
	if err == nil {
		input, err = decodeInput(req.Input)
	}
	s.mu.Lock()
	s.requests = append(s.requests, Request{Model: req.Model, Input: input, Authorization: r.Header.Get("Authorization")})
	var fault *Fault
	if len(s.faults) > 0 {
		fault = &s.faults[0]
		s.faults = s.faults[1:]
	}
	s.mu.Unlock()

	switch {
	case err != nil:
		writeError(w, http.StatusBadRequest, "bad request: "+err.Error())
		return
	case s.opts.APIKey != "" && r.Header.Get("Authorization") != "Bearer "+s.opts.APIKey:
		writeError(w, http.StatusUnauthorized, "invalid api key")
		return
	case s.opts.Model != "" && req.Model != s.opts.Model:
		writeError(w, http.StatusNotFound, fmt.Sprintf("model %q not found", req.Model))
		return
	}
	if fault != nil && s.serveFault(w, r, fault) {
		return
	}
	resp := &Response{Object: "list", Model: req.Model}
	for i, text := range input {
		emb, _ := json.Marshal(Vector(text, s.opts.Dims))
		resp.Data = append(resp.Data, Datum{Object: "embedding", Index: i, Embedding: emb})
		resp.Usage.PromptTokens += len(text) / 4
	}
	resp.Usage.TotalTokens = resp.Usage.PromptTokens
	if fault != nil && fault.Mutate != nil {
		fault.Mutate(resp)
	}
	const placeholder = `"embedtest-raw-embedding"`
	if fault != nil && fault.RawEmbedding != "" && len(resp.Data) > 0 {
		resp.Data[0].Embedding = json.RawMessage(placeholder)
	}
	out, err := json.Marshal(resp)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	if fault != nil && fault.RawEmbedding != "" {
		out = bytes.Replace(out, []byte(placeholder), []byte(fault.RawEmbedding), 1)
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// serveFault answers a fault that replaces the normal answer; it reports
// false for a Mutate, which changes the normal answer instead.
func (s *Server) serveFault(w http.ResponseWriter, r *http.Request, f *Fault) bool {
	switch {
	case f.Hang:
		select {
		case <-r.Context().Done():
		case <-s.stop:
		}
		drop(w)
	case f.Drop:
		drop(w)
	case f.Status != 0:
		if f.RetryAfter != "" {
			w.Header().Set("Retry-After", f.RetryAfter)
		}
		if f.RetryAfterMS != "" {
			w.Header().Set("retry-after-ms", f.RetryAfterMS)
		}
		writeError(w, f.Status, fmt.Sprintf("scripted fault %d", f.Status))
	case f.Body != "":
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, f.Body)
	default:
		return false
	}
	return true
}

// drop closes the connection without writing a response.
func drop(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

// decodeInput accepts what OpenAI accepts for text: a string or a list of them.
func decodeInput(raw json.RawMessage) ([]string, error) {
	var list []string
	if err := json.Unmarshal(raw, &list); err == nil {
		return list, nil
	}
	var one string
	if err := json.Unmarshal(raw, &one); err != nil {
		return nil, fmt.Errorf("input: want a string or a list of strings")
	}
	return []string{one}, nil
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"message": msg, "type": http.StatusText(status), "code": status},
	})
}

// Reversed answers correctly but lists the embeddings last index first
// (legal: clients must order by index).
func Reversed() Fault {
	return Fault{Mutate: func(r *Response) {
		for i, j := 0, len(r.Data)-1; i < j; i, j = i+1, j-1 {
			r.Data[i], r.Data[j] = r.Data[j], r.Data[i]
		}
	}}
}

// MissingOne answers with one embedding too few.
func MissingOne() Fault {
	return Fault{Mutate: func(r *Response) { r.Data = r.Data[:len(r.Data)-1] }}
}

// DuplicateIndex gives the last embedding the first one's index.
func DuplicateIndex() Fault {
	return Fault{Mutate: func(r *Response) { r.Data[len(r.Data)-1].Index = r.Data[0].Index }}
}

// WrongDims makes the last embedding one value short.
func WrongDims() Fault {
	return Fault{Mutate: func(r *Response) {
		var v []float64
		last := &r.Data[len(r.Data)-1]
		_ = json.Unmarshal(last.Embedding, &v)
		last.Embedding, _ = json.Marshal(v[:len(v)-1])
	}}
}

// Embedding replaces the first embedding with raw text, even what JSON
// forbids: "[NaN, 1]", or "[1e39, 0]" (finite as float64, not as float32).
func Embedding(raw string) Fault { return Fault{RawEmbedding: raw} }
