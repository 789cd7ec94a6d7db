// Package openai embeds text with any OpenAI-compatible /v1/embeddings
// endpoint: Ollama, LM Studio, llama.cpp's server, OpenAI. Requests are
// batched and retried with back-off on rate limits, server errors and broken
// connections; answers are validated (count, index order, dimensions, finite
// values) and the vectors re-normalised to unit length.
package openai

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/memory/embed"
)

// Options configure an Embedder. BaseURL and Model are required.
type Options struct {
	// BaseURL is the API base, e.g. http://127.0.0.1:11434/v1 (Ollama),
	// http://127.0.0.1:1234/v1 (LM Studio); "/embeddings" is appended.
	BaseURL string
	// Model is the embedding model's name on that server.
	Model string
	// APIKey, when set, is sent as "Authorization: Bearer <key>".
	APIKey string
	// Dims is the expected vector length; 0 learns it from the first answer.
	Dims int
	// BatchSize is the most texts per request (default 64).
	BatchSize int
	// MaxRetries is how many times a failed request is tried again (default 4).
	MaxRetries int
	// Timeout bounds one request, answer included (default 60 s).
	Timeout time.Duration
	// MinBackoff is the first retry's wait, doubled each time (default 500 ms).
	MinBackoff time.Duration
	// MaxBackoff caps any wait, a server's Retry-After included (default 30 s).
	MaxBackoff time.Duration
	// HTTPClient sends the requests (default: a client of its own).
	HTTPClient *http.Client
}

// Embedder is an OpenAI-compatible embeddings client; safe for concurrent use.
type Embedder struct {
	opts     Options
	endpoint string // {BaseURL}/embeddings
	shown    string // the endpoint as errors show it (no credentials)
	sleep    func(ctx context.Context, d time.Duration) error
	jitter   func(d time.Duration) time.Duration

	mu   sync.Mutex
	dims int
}

var _ embed.Embedder = (*Embedder)(nil)

// New checks opts and returns an Embedder; it makes no request.
func New(opts Options) (*Embedder, error) {
	if opts.Model == "" {
		return nil, errors.New("openai embedder: no model")
	}
	u, err := url.Parse(strings.TrimRight(opts.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("openai embedder: base URL %q: want http(s)://host[:port]/path", opts.BaseURL)
	}
	if opts.Dims < 0 {
		return nil, fmt.Errorf("openai embedder: dims %d", opts.Dims)
	}
	setDefault(&opts.BatchSize, 64)
	setDefault(&opts.MaxRetries, 4)
	setDefault(&opts.Timeout, 60*time.Second)
	setDefault(&opts.MinBackoff, 500*time.Millisecond)
	setDefault(&opts.MaxBackoff, 30*time.Second)
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{}
	}
	u.Path += "/embeddings"
	return &Embedder{opts: opts, endpoint: u.String(), shown: u.Redacted(), sleep: sleepCtx, jitter: jitter, dims: opts.Dims}, nil
}

func setDefault[T int | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

// Identity is {openai, Model, Dims}; Dims is 0 until configured or learnt
// from the first answer (see Discover).
func (e *Embedder) Identity() embed.Identity {
	e.mu.Lock()
	defer e.mu.Unlock()
	return embed.Identity{Kind: "openai", Model: e.opts.Model, Dims: e.dims}
}

// Discover makes sure the dimensions are known, asking the endpoint to embed
// a probe text if need be, and returns the full Identity. It doubles as a
// health check for settings screens.
func (e *Embedder) Discover(ctx context.Context) (embed.Identity, error) {
	if e.Identity().Dims == 0 {
		if _, err := e.request(ctx, []string{"dimension probe"}); err != nil {
			return embed.Identity{}, err
		}
	}
	return e.Identity(), nil
}

// Embed returns one unit vector per text, in order. Blank texts are not sent
// (servers refuse or garble them) and get a zero vector.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	var send []string
	var at []int // send[i] is texts[at[i]]
	for i, t := range texts {
		if strings.TrimSpace(t) != "" {
			send = append(send, t)
			at = append(at, i)
		}
	}
	for start := 0; start < len(send); start += e.opts.BatchSize {
		end := min(start+e.opts.BatchSize, len(send))
		vecs, err := e.request(ctx, send[start:end])
		if err != nil {
			return nil, err
		}
		for i, v := range vecs {
			out[at[start+i]] = v
		}
	}
	if len(send) < len(texts) {
		id, err := e.Discover(ctx)
		if err != nil {
			return nil, err
		}
		for i := range out {
			if out[i] == nil {
				out[i] = make([]float32, id.Dims)
			}
		}
	}
	return out, nil
}

// checkDims learns the dimensions from the first answer and holds every
// later one to them.
func (e *Embedder) checkDims(n int) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dims == 0 {
		e.dims = n
		return nil
	}
	if n != e.dims {
		return fmt.Errorf("vectors of %d dims, want %d (was the model changed on the server?)", n, e.dims)
	}
	return nil
}

// jitter spreads d by ±10% so agents rate-limited together do not retry
// together.
func jitter(d time.Duration) time.Duration {
	return d - d/10 + time.Duration(rand.Int64N(int64(d)/5+1)) //nolint:gosec // spreading retries needs no secrecy
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
