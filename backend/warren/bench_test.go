package warren_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/ratelimit"
)

type noopParams struct {
	Path string `json:"path" description:"a path"`
}

// BenchmarkRegistryOverhead measures the full call pipeline (context values,
// policy gate, rate limit, schema validation, recovery, scrubbing, events)
// around a no-op tool against calling the same tool directly, and reports
// the overhead as a share of a 1 ms tool (target: under 2%).
func BenchmarkRegistryOverhead(b *testing.B) {
	ctx := context.Background()
	w, err := warren.Open(ctx, warren.Options{DataDir: b.TempDir(), RateLimit: &ratelimit.Config{Rate: 1e9, Burst: 1e9}})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	if err := w.SetActiveProfile(ctx, "full"); err != nil {
		b.Fatal(err)
	}
	noop, err := tools.New(tools.Spec{Name: "noop", Group: "bench", Description: "does nothing"},
		func(_ context.Context, p noopParams) (tools.Result, error) { return tools.Text("ok " + p.Path), nil })
	if err != nil {
		b.Fatal(err)
	}
	if err := w.Registry().Register(noop); err != nil {
		b.Fatal(err)
	}
	sub, cancel := w.Bus().Subscribe(1024)
	defer cancel()
	go func() {
		for range sub { // a UI-like consumer draining events
		}
	}()
	args := json.RawMessage(`{"path":"src/main.go"}`)
	call := tools.Call{Name: "noop", Args: args, Context: tools.CallContext{SandboxKey: "bench", Agent: "default"}}

	var direct, pipeline time.Duration
	b.ResetTimer()
	for b.Loop() {
		t0 := time.Now()
		if _, err := noop.Execute(ctx, args); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		res, err := w.Registry().ExecuteWithContext(ctx, call)
		if err != nil || res.IsError {
			b.Fatalf("%v %+v", err, res)
		}
		direct += t1.Sub(t0)
		pipeline += time.Since(t1)
	}
	n := float64(b.N)
	overhead := (float64(pipeline) - float64(direct)) / n
	b.ReportMetric(float64(direct)/n, "direct-ns/call")
	b.ReportMetric(float64(pipeline)/n, "pipeline-ns/call")
	b.ReportMetric(overhead/float64(time.Millisecond)*100, "%-of-1ms-tool")
}
