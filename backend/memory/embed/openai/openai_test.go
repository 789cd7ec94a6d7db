package openai

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/memory/embed/embedtest"
)

const testModel = "nomic-embed-text"

// waits records the back-off waits instead of sleeping them.
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.mu.Unlock()
	return ctx.Err()
}

func newEmbedder(t *testing.T, srv *embedtest.Server, opts Options) (*Embedder, *waits) {
	t.Helper()
	if opts.BaseURL == "" {
		opts.BaseURL = srv.BaseURL()
	}
	if opts.Model == "" {
		opts.Model = testModel
	}
	e, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	w := &waits{}
	e.sleep = w.sleep
	e.jitter = func(d time.Duration) time.Duration { return d }
	return e, w
}

func texts(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("text number %d", i)
	}
	return out
}

func sameVector(t *testing.T, got, want []float32) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("vector of %d dims, want %d", len(got), len(want))
	}
	for i := range got {
		if math.Abs(float64(got[i]-want[i])) > 1e-6 {
			t.Fatalf("vector[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestEmbedBatchesInOrder(t *testing.T) {
	t.Parallel()
	srv := embedtest.NewServer(t, embedtest.Options{Dims: 16, Model: testModel, APIKey: "sk-test"})
	e, _ := newEmbedder(t, srv, Options{APIKey: "sk-test", BatchSize: 64})
	if got := e.Identity(); got.Kind != "openai" || got.Model != testModel || got.Dims != 0 {
		t.Fatalf("Identity before any answer = %+v", got)
	}
	srv.Fail(embedtest.Reversed())
	in := texts(150)
	vecs, err := e.Embed(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range in {
		sameVector(t, vecs[i], embedtest.Unit(text, 16))
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || len(reqs[0].Input) != 64 || len(reqs[1].Input) != 64 || len(reqs[2].Input) != 22 {
		t.Fatalf("%d requests, want batches of 64, 64, 22", len(reqs))
	}
	if reqs[0].Authorization != "Bearer sk-test" || reqs[0].Model != testModel {
		t.Errorf("request: auth %q, model %q", reqs[0].Authorization, reqs[0].Model)
	}
	if got := e.Identity().Dims; got != 16 {
		t.Errorf("Identity().Dims = %d after an answer, want 16", got)
	}
}

func TestEmbedBlankTexts(t *testing.T) {
	t.Parallel()
	srv := embedtest.NewServer(t, embedtest.Options{Dims: 4})
	e, _ := newEmbedder(t, srv, Options{})
	vecs, err := e.Embed(context.Background(), []string{"", "  \n", "hello"})
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 3 || len(vecs[0]) != 4 || len(vecs[1]) != 4 || vecs[0][0] != 0 {
		t.Fatalf("blank texts: %v", vecs)
	}
	sameVector(t, vecs[2], embedtest.Unit("hello", 4))
	if reqs := srv.Requests(); len(reqs) != 1 || len(reqs[0].Input) != 1 {
		t.Errorf("blank texts were sent: %+v", reqs)
	}
	// All blank with unknown dims: a probe learns them.
	e2, _ := newEmbedder(t, srv, Options{})
	vecs, err = e2.Embed(context.Background(), []string{" "})
	if err != nil || len(vecs[0]) != 4 {
		t.Fatalf("all blank: %v, %v", vecs, err)
	}
	if vecs, err := e2.Embed(context.Background(), nil); err != nil || len(vecs) != 0 {
		t.Errorf("Embed(nil) = %v, %v", vecs, err)
	}
}

func TestEmbedRetries(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		faults    []embedtest.Fault
		wantWaits []time.Duration
	}{
		{"429 with Retry-After", []embedtest.Fault{{Status: 429, RetryAfter: "3"}}, []time.Duration{3 * time.Second}},
		{"429 with retry-after-ms", []embedtest.Fault{{Status: 429, RetryAfterMS: "250"}}, []time.Duration{250 * time.Millisecond}},
		{"fractional Retry-After", []embedtest.Fault{{Status: 429, RetryAfter: "1.5"}}, []time.Duration{1500 * time.Millisecond}},
		{"Retry-After capped", []embedtest.Fault{{Status: 503, RetryAfter: "3600"}}, []time.Duration{10 * time.Second}},
		{"5xx back-off doubles", []embedtest.Fault{{Status: 500}, {Status: 502}, {Status: 503}}, []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond}},
		{"dropped connection", []embedtest.Fault{{Drop: true}}, []time.Duration{100 * time.Millisecond}},
		{"request timeout", []embedtest.Fault{{Hang: true}}, []time.Duration{100 * time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := embedtest.NewServer(t, embedtest.Options{Dims: 8})
			e, w := newEmbedder(t, srv, Options{MinBackoff: 100 * time.Millisecond, MaxBackoff: 10 * time.Second, Timeout: 200 * time.Millisecond})
			srv.Fail(tt.faults...)
			vecs, err := e.Embed(context.Background(), []string{"a", "b"})
			if err != nil {
				t.Fatal(err)
			}
			sameVector(t, vecs[1], embedtest.Unit("b", 8))
			if fmt.Sprint(w.d) != fmt.Sprint(tt.wantWaits) {
				t.Errorf("waits %v, want %v", w.d, tt.wantWaits)
			}
			if got := len(srv.Requests()); got != len(tt.faults)+1 {
				t.Errorf("%d requests, want %d", got, len(tt.faults)+1)
			}
		})
	}
}

func TestEmbedFailures(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		opts     Options
		faults   []embedtest.Fault
		requests int
		want     string // in the error
	}{
		{"retries run out", Options{MaxRetries: 2}, []embedtest.Fault{{Status: 503}, {Status: 503}, {Status: 503}}, 3, "HTTP 503: scripted fault 503 (after 3 attempts)"},
		{"bad request not retried", Options{}, []embedtest.Fault{{Status: 400}}, 1, "HTTP 400: scripted fault 400"},
		{"wrong key", Options{APIKey: "sk-wrong"}, nil, 1, "HTTP 401: invalid api key"},
		{"unknown model", Options{Model: "no-such-model"}, nil, 1, `model "no-such-model" not found`},
		{"garbage", Options{}, []embedtest.Fault{{Body: "<html>gateway</html>"}}, 1, "not an embeddings answer"},
		{"truncated JSON", Options{}, []embedtest.Fault{{Body: `{"data":[{"index":0,"embedding":[0.1,`}}, 1, "not an embeddings answer"},
		{"one missing", Options{}, []embedtest.Fault{embedtest.MissingOne()}, 1, "2 embeddings for 3 texts"},
		{"duplicate index", Options{}, []embedtest.Fault{embedtest.DuplicateIndex()}, 1, "has index 0 (want each of 0..2 once)"},
		{"inconsistent dims", Options{}, []embedtest.Fault{embedtest.WrongDims()}, 1, "vectors of 7 dims, want 8"},
		{"configured dims", Options{Dims: 384}, nil, 1, "vectors of 8 dims, want 384"},
		{"NaN", Options{}, []embedtest.Fault{embedtest.Embedding("[NaN,1,1,1,1,1,1,1]")}, 1, "not an embeddings answer"},
		{"overflows float32", Options{}, []embedtest.Fault{embedtest.Embedding("[1e39,1,1,1,1,1,1,1]")}, 1, "value 0 is 1e+39 (not a finite float32)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := embedtest.NewServer(t, embedtest.Options{Dims: 8, Model: testModel, APIKey: "sk-right"})
			if tt.opts.APIKey == "" {
				tt.opts.APIKey = "sk-right"
			}
			tt.opts.MinBackoff = time.Millisecond
			e, _ := newEmbedder(t, srv, tt.opts)
			srv.Fail(tt.faults...)
			_, err := e.Embed(context.Background(), []string{"a", "b", "c"})
			if err == nil {
				t.Fatal("Embed succeeded")
			}
			model := tt.opts.Model
			if model == "" {
				model = testModel
			}
			prefix := fmt.Sprintf("embeddings endpoint %s/embeddings (model %q): ", srv.BaseURL(), model)
			if msg := err.Error(); !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, tt.want) || strings.Contains(msg, "sk-") {
				t.Errorf("error %q, want %q…%q", msg, prefix, tt.want)
			}
			var he *Error
			if !errors.As(err, &he) {
				t.Errorf("error %T is not an *Error", err)
			}
			if got := len(srv.Requests()); got != tt.requests {
				t.Errorf("%d requests, want %d", got, tt.requests)
			}
		})
	}
}

func TestEmbedDimsChangeBetweenCalls(t *testing.T) {
	t.Parallel()
	small := embedtest.NewServer(t, embedtest.Options{Dims: 8})
	big := embedtest.NewServer(t, embedtest.Options{Dims: 12})
	e, _ := newEmbedder(t, small, Options{})
	if id, err := e.Discover(context.Background()); err != nil || id.Dims != 8 {
		t.Fatalf("Discover = %+v, %v", id, err)
	}
	e.endpoint = big.BaseURL() + "/embeddings" // the server now runs another model
	if _, err := e.Embed(context.Background(), []string{"x"}); err == nil || !strings.Contains(err.Error(), "vectors of 12 dims, want 8") {
		t.Errorf("a dims change: %v", err)
	}
}

// cancelOnFirstRequest returns a context cancelled once srv has a request.
func cancelOnFirstRequest(t *testing.T, srv *embedtest.Server) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		for len(srv.Requests()) == 0 && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		cancel()
	}()
	return ctx
}

func TestEmbedCancelled(t *testing.T) {
	t.Parallel()
	t.Run("during a request", func(t *testing.T) {
		t.Parallel()
		srv := embedtest.NewServer(t, embedtest.Options{})
		srv.Fail(embedtest.Fault{Hang: true})
		e, _ := newEmbedder(t, srv, Options{})
		ctx := cancelOnFirstRequest(t, srv)
		if _, err := e.Embed(ctx, []string{"a"}); !errors.Is(err, context.Canceled) {
			t.Errorf("Embed: %v, want context.Canceled", err)
		}
	})
	t.Run("during a back-off", func(t *testing.T) {
		t.Parallel()
		srv := embedtest.NewServer(t, embedtest.Options{})
		srv.Fail(embedtest.Fault{Status: 429, RetryAfter: "3600"})
		e, _ := newEmbedder(t, srv, Options{MaxBackoff: time.Hour})
		e.sleep = sleepCtx
		ctx := cancelOnFirstRequest(t, srv)
		if _, err := e.Embed(ctx, []string{"a"}); !errors.Is(err, context.Canceled) {
			t.Errorf("Embed: %v, want context.Canceled", err)
		}
	})
}

func TestNewChecksOptions(t *testing.T) {
	t.Parallel()
	for _, o := range []Options{
		{BaseURL: "http://127.0.0.1:11434/v1"},
		{BaseURL: "127.0.0.1:11434/v1", Model: "m"},
		{BaseURL: "ftp://host/v1", Model: "m"},
		{BaseURL: "http:///v1", Model: "m"},
		{BaseURL: "http://host/v1", Model: "m", Dims: -1},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) accepted it", o)
		}
	}
}

// Credentials in the base URL never reach an error message.
func TestErrorsHideURLCredentials(t *testing.T) {
	t.Parallel()
	srv := embedtest.NewServer(t, embedtest.Options{})
	srv.Fail(embedtest.Fault{Status: 400})
	base := strings.Replace(srv.BaseURL(), "http://", "http://user:hunter2@", 1)
	e, _ := newEmbedder(t, srv, Options{BaseURL: base})
	_, err := e.Embed(context.Background(), []string{"a"})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("error %v shows the password", err)
	}
}
