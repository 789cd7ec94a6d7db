package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryOptions controls how a provider retries transient failures.
type RetryOptions struct {
	// MaxRetries is how many times a failed call is retried; 0 means the default of 3, negative disables.
	MaxRetries int
	// Backoff returns the wait before retry attempt n (0-based); nil means DefaultBackoff.
	Backoff func(attempt int) time.Duration
}

// maxRetryAfter caps a server's Retry-After so a misconfigured proxy cannot park an agent for hours.
const maxRetryAfter = time.Minute

// DefaultBackoff waits 500ms·2^n with ±20% jitter, capped at 8 s.
func DefaultBackoff(attempt int) time.Duration {
	d := 500 * time.Millisecond << min(attempt, 4)
	d = min(d, 8*time.Second)
	jitter := time.Duration(rand.Int64N(int64(d)/5 + 1)) //nolint:gosec // jitter spreads parallel agents' retries; no secrecy needed
	return d - d/10 + jitter
}

// HTTPError is a non-2xx answer from a provider.
type HTTPError struct {
	Provider   string
	Method     string
	URL        string
	Status     int
	StatusText string
	// Excerpt is the server's error message, or the start of the body.
	Excerpt    string
	RetryAfter time.Duration
}

// Error reads like: ollama: POST http://…/chat/completions: 404 Not Found: model "x" not found.
func (e *HTTPError) Error() string {
	s := fmt.Sprintf("%s: %s %s: %s", e.Provider, e.Method, e.URL, e.StatusText)
	if e.Excerpt != "" {
		s += ": " + e.Excerpt
	}
	return s
}

// Temporary reports whether retrying may succeed (rate limits and server errors).
func (e *HTTPError) Temporary() bool {
	return e.Status == http.StatusTooManyRequests || e.Status >= 500
}

// connError marks failures to reach the server, which are worth retrying.
type connError struct{ err error }

func (e *connError) Error() string { return e.err.Error() }
func (e *connError) Unwrap() error { return e.err }

// transport is the HTTP plumbing shared by providers.
type transport struct {
	name    string
	client  *http.Client
	headers map[string]string
	retry   RetryOptions
}

func newTransport(name string, client *http.Client, headers map[string]string, retry RetryOptions) transport {
	if client == nil {
		client = http.DefaultClient
	}
	if retry.MaxRetries == 0 {
		retry.MaxRetries = 3
	}
	if retry.Backoff == nil {
		retry.Backoff = DefaultBackoff
	}
	return transport{name: name, client: client, headers: headers, retry: retry}
}

// parseFunc reads one streamed HTTP body, emitting events, and returns the assembled response.
type parseFunc func(ctx context.Context, body io.Reader, emit func(Event)) (Response, error)

// stream POSTs body to url and parses the answer, retrying transient failures as long as no event
// reached the caller: once text was shown, a retry would duplicate it.
func (t *transport) stream(ctx context.Context, url string, body any, parse parseFunc, on func(Event)) (Response, error) {
	payload, err := json.Marshal(body)
	if err != nil {
		return Response{}, fmt.Errorf("%s: encode request: %w", t.name, err)
	}
	for attempt := 0; ; attempt++ {
		emitted := false
		emit := func(e Event) { emitted = true; on(e) }
		resp, err := t.once(ctx, url, payload, parse, emit)
		if err == nil {
			return resp, nil
		}
		if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
			// Cancelled while the failed attempt was in flight: the caller
			// stopped the call, so that is what it is told.
			err = fmt.Errorf("%s: %w (last attempt: %v)", t.name, cerr, err)
		}
		wait, retry := t.shouldRetry(ctx, err, attempt, emitted)
		if !retry {
			on(Event{Type: EventError, Err: err})
			return Response{}, err
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			err = fmt.Errorf("%s: waiting to retry: %w", t.name, ctx.Err())
			on(Event{Type: EventError, Err: err})
			return Response{}, err
		case <-timer.C:
		}
	}
}

func (t *transport) shouldRetry(ctx context.Context, err error, attempt int, emitted bool) (time.Duration, bool) {
	if emitted || ctx.Err() != nil || attempt >= t.retry.MaxRetries {
		return 0, false
	}
	wait := t.retry.Backoff(attempt)
	var he *HTTPError
	var ce *connError
	switch {
	case errors.As(err, &he):
		if !he.Temporary() {
			return 0, false
		}
		wait = max(wait, he.RetryAfter)
	case errors.As(err, &ce), errors.Is(err, ErrStreamDropped):
	default:
		return 0, false
	}
	return wait, true
}

func (t *transport) once(ctx context.Context, url string, payload []byte, parse parseFunc, emit func(Event)) (Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(payload))
	if err != nil {
		return Response{}, fmt.Errorf("%s: POST %s: %w", t.name, url, err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	res, err := t.do(req)
	if err != nil {
		return Response{}, err
	}
	defer closeBody(res)
	out, err := parse(ctx, res.Body, emit)
	if err != nil {
		if ctx.Err() != nil {
			return Response{}, fmt.Errorf("%s: POST %s: %w", t.name, url, ctx.Err())
		}
		return Response{}, fmt.Errorf("%s: POST %s: %w", t.name, url, err)
	}
	return out, nil
}

// do sends req with the provider headers and turns non-2xx answers into *HTTPError.
func (t *transport) do(req *http.Request) (*http.Response, error) {
	for k, v := range t.headers {
		req.Header.Set(k, v)
	}
	res, err := t.client.Do(req)
	if err != nil {
		if req.Context().Err() != nil {
			return nil, fmt.Errorf("%s: %s %s: %w", t.name, req.Method, req.URL, req.Context().Err())
		}
		return nil, fmt.Errorf("%s: %s %s: %w", t.name, req.Method, req.URL, &connError{err})
	}
	if res.StatusCode/100 == 2 {
		return res, nil
	}
	defer closeBody(res)
	raw, _ := io.ReadAll(io.LimitReader(res.Body, 4096)) // best effort: the status alone is still an error
	return nil, &HTTPError{
		Provider: t.name, Method: req.Method, URL: req.URL.String(),
		Status: res.StatusCode, StatusText: res.Status,
		Excerpt: excerpt(raw), RetryAfter: parseRetryAfter(res.Header.Get("Retry-After")),
	}
}

// getJSON GETs url and decodes the JSON answer into out.
func (t *transport) getJSON(ctx context.Context, url string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return fmt.Errorf("%s: GET %s: %w", t.name, url, err)
	}
	res, err := t.do(req)
	if err != nil {
		return err
	}
	defer closeBody(res)
	if err := json.NewDecoder(io.LimitReader(res.Body, 16<<20)).Decode(out); err != nil {
		return fmt.Errorf("%s: GET %s: decode: %w", t.name, url, err)
	}
	return nil
}

// excerpt pulls the human message out of the usual JSON error shapes, else the body's start.
func excerpt(raw []byte) string {
	var shaped struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
	}
	if json.Unmarshal(raw, &shaped) == nil {
		var inner struct {
			Message string `json:"message"`
		}
		var s string
		switch {
		case json.Unmarshal(shaped.Error, &inner) == nil && inner.Message != "":
			return inner.Message
		case json.Unmarshal(shaped.Error, &s) == nil && s != "":
			return s
		case shaped.Message != "":
			return shaped.Message
		}
	}
	s := strings.Join(strings.Fields(string(raw)), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// parseRetryAfter reads delta-seconds (fractions allowed, as some local servers send) or an HTTP date.
func parseRetryAfter(v string) time.Duration {
	if v == "" {
		return 0
	}
	var d time.Duration
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs > 0 {
		d = time.Duration(secs * float64(time.Second))
	} else if when, err := http.ParseTime(v); err == nil {
		d = time.Until(when)
	}
	return max(0, min(d, maxRetryAfter))
}

// closeBody closes a response body; a close error after the body was read changes nothing.
func closeBody(res *http.Response) { _ = res.Body.Close() }
