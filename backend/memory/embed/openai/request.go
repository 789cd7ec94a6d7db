package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// maxAnswerBytes bounds an answer: 64 texts × 4,096 dims as JSON text is
// about 6 MB.
const maxAnswerBytes = 64 << 20

// Error is an answer the endpoint refused to give.
type Error struct {
	Endpoint string // without credentials
	Model    string
	Status   int    // the HTTP status, 0 for a connection failure
	Message  string // the server's error message, or what went wrong
}

func (e *Error) Error() string {
	if e.Status == 0 {
		return fmt.Sprintf("embeddings endpoint %s (model %q): %s", e.Endpoint, e.Model, e.Message)
	}
	return fmt.Sprintf("embeddings endpoint %s (model %q): HTTP %d: %s", e.Endpoint, e.Model, e.Status, e.Message)
}

// retryable statuses: rate limited, timed out, server-side trouble.
func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusRequestTimeout || status >= 500
}

// request embeds one batch, retrying what can be retried.
func (e *Embedder) request(ctx context.Context, texts []string) ([][]float32, error) {
	body, err := json.Marshal(map[string]any{"model": e.opts.Model, "input": texts})
	if err != nil {
		return nil, err
	}
	backoff := e.opts.MinBackoff
	for attempt := 0; ; attempt++ {
		vecs, wait, err := e.attempt(ctx, body, len(texts))
		if err == nil {
			return vecs, nil
		}
		if ctx.Err() != nil {
			return nil, fmt.Errorf("embeddings endpoint %s (model %q): %w", e.shown, e.opts.Model, ctx.Err())
		}
		var he *Error
		if !errors.As(err, &he) || (he.Status != 0 && !retryable(he.Status)) || attempt >= e.opts.MaxRetries {
			if attempt > 0 {
				return nil, fmt.Errorf("%w (after %d attempts)", err, attempt+1)
			}
			return nil, err
		}
		wait = min(max(wait, e.jitter(backoff)), e.opts.MaxBackoff)
		backoff = min(2*backoff, e.opts.MaxBackoff)
		if err := e.sleep(ctx, wait); err != nil {
			return nil, fmt.Errorf("embeddings endpoint %s (model %q): %w", e.shown, e.opts.Model, err)
		}
	}
}

// attempt makes one request. A retryable failure is an *Error with a
// retryable Status, or Status 0 (no answer); wait is what the server asked for.
func (e *Embedder) attempt(ctx context.Context, body []byte, n int) ([][]float32, time.Duration, error) {
	ctx, cancel := context.WithTimeout(ctx, e.opts.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.endpoint, bytes.NewReader(body))
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if e.opts.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+e.opts.APIKey)
	}
	resp, err := e.opts.HTTPClient.Do(req)
	if err != nil {
		return nil, 0, e.fail(0, "no answer: %v", unwrapURL(err))
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBytes+1))
	if err != nil {
		return nil, 0, e.fail(0, "answer cut short: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, retryAfter(resp.Header), e.fail(resp.StatusCode, "%s", errorMessage(raw))
	}
	if len(raw) > maxAnswerBytes {
		return nil, 0, e.fail(http.StatusOK, "answer larger than %d bytes", maxAnswerBytes)
	}
	vecs, err := e.decode(raw, n)
	if err != nil {
		return nil, 0, e.fail(http.StatusOK, "bad answer: %v", err)
	}
	return vecs, 0, nil
}

// fail builds an *Error. A 200 whose answer is wrong is not retried: the
// same request would get the same answer.
func (e *Embedder) fail(status int, format string, args ...any) *Error {
	return &Error{Endpoint: e.shown, Model: e.opts.Model, Status: status, Message: fmt.Sprintf(format, args...)}
}

// unwrapURL drops *url.Error's "Post URL:" prefix; Error names the endpoint.
func unwrapURL(err error) error {
	if ue, ok := errors.AsType[*url.Error](err); ok {
		return ue.Err
	}
	return err
}

// decode checks an answer: n embeddings, indexes 0..n-1 each once, one
// length, finite values; it returns them in index order, unit length.
func (e *Embedder) decode(raw []byte, n int) ([][]float32, error) {
	var ans struct {
		Data []struct {
			Index     *int      `json:"index"`
			Embedding []float64 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(raw, &ans); err != nil {
		return nil, fmt.Errorf("not an embeddings answer: %v (starts %q)", err, truncate(raw, 80))
	}
	if len(ans.Data) != n {
		return nil, fmt.Errorf("%d embeddings for %d texts", len(ans.Data), n)
	}
	out := make([][]float32, n)
	for pos, d := range ans.Data {
		idx := pos // some servers leave index out; then order is the list's
		if d.Index != nil {
			idx = *d.Index
		}
		if idx < 0 || idx >= n || out[idx] != nil {
			return nil, fmt.Errorf("embedding %d has index %d (want each of 0..%d once)", pos, idx, n-1)
		}
		if len(d.Embedding) == 0 {
			return nil, fmt.Errorf("embedding %d is empty", idx)
		}
		if err := e.checkDims(len(d.Embedding)); err != nil {
			return nil, fmt.Errorf("embedding %d: %w", idx, err)
		}
		v, err := unit(d.Embedding)
		if err != nil {
			return nil, fmt.Errorf("embedding %d: %w", idx, err)
		}
		out[idx] = v
	}
	return out, nil
}

// unit converts v to float32 at unit length; a zero vector stays zero.
func unit(v []float64) ([]float32, error) {
	var sum float64
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > math.MaxFloat32 {
			return nil, fmt.Errorf("value %d is %v (not a finite float32)", i, x)
		}
		sum += x * x
	}
	out := make([]float32, len(v))
	if sum == 0 {
		return out, nil
	}
	inv := 1 / math.Sqrt(sum)
	for i, x := range v {
		out[i] = float32(x * inv)
	}
	return out, nil
}

// errorMessage pulls the message out of an OpenAI-style error body
// ({"error": {"message": …}} or {"error": "…"}), else shows the body's start.
func errorMessage(raw []byte) string {
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(raw, &body) == nil && body.Error != nil {
		var obj struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(body.Error, &obj) == nil && obj.Message != "" {
			return obj.Message
		}
		var s string
		if json.Unmarshal(body.Error, &s) == nil && s != "" {
			return s
		}
	}
	if len(bytes.TrimSpace(raw)) == 0 {
		return "(empty body)"
	}
	return truncate(raw, 200)
}

func truncate(b []byte, n int) string {
	s := strings.ToValidUTF8(string(b), "?")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// retryAfter reads retry-after-ms (OpenAI) or Retry-After (seconds or an
// HTTP date); 0 when absent. The caller caps it.
func retryAfter(h http.Header) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("retry-after-ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	v := h.Get("Retry-After")
	if secs, err := strconv.ParseFloat(v, 64); err == nil && secs > 0 {
		// Fractions are not in the standard but some local servers send them.
		return time.Duration(secs * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(time.Until(t), 0)
	}
	return 0
}
