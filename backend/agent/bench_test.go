package agent_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/llm"
	"github.com/warren-dev/warren/backend/sessions"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/tools"
)

// instantModel answers at once: n tool calls of noop, then a final text.
// It stands in for model time, which the benchmark excludes.
type instantModel struct{ calls, n int }

func (m *instantModel) Name() string                                { return "instant" }
func (m *instantModel) Models(context.Context) ([]llm.Model, error) { return nil, nil }
func (m *instantModel) Stream(_ context.Context, _ llm.Request, on func(llm.Event)) (llm.Response, error) {
	m.calls++
	if m.calls > m.n {
		on(llm.Event{Type: llm.EventTextDelta, Text: "done"})
		return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, Content: "done"}}, nil
	}
	tc := llm.ToolCall{ID: fmt.Sprintf("c%d", m.calls), Name: "noop_7", Arguments: `{"path":"a.go"}`}
	return llm.Response{Message: llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{tc}}}, nil
}

type noopParams struct {
	Path string `json:"path" description:"a path"`
}

// BenchmarkLoopIteration measures the agent loop's own cost per iteration
// (tool definitions for 50 tools, trimming, one tool call through the full
// registry pipeline, persisting both messages to SQLite), with an instant
// model. Target: under 1 ms.
func BenchmarkLoopIteration(b *testing.B) {
	ctx := context.Background()
	db, err := store.Open(ctx, b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	reg := tools.NewRegistry(tools.Options{})
	allowed := map[string]bool{}
	for i := range 50 {
		name := fmt.Sprintf("noop_%d", i)
		t, err := tools.New(tools.Spec{Name: name, Group: "bench", Description: "does nothing"},
			func(context.Context, noopParams) (tools.Result, error) { return tools.Text("ok"), nil })
		if err != nil {
			b.Fatal(err)
		}
		_ = reg.Register(t)
		allowed[name] = true
	}
	loop := agent.New(agent.Deps{
		Registry:     func(context.Context, string) (*tools.Registry, error) { return reg, nil },
		Allowed:      func(context.Context, string, int) (map[string]bool, error) { return allowed, nil },
		SystemPrompt: func(context.Context, string, string) (string, error) { return "You are a benchmark.", nil },
		Sessions:     sessions.NewSQLStore(db.SQL()),
	})
	const perRun = 10
	b.ResetTimer()
	iterations := 0
	for b.Loop() {
		res, err := loop.Run(ctx, agent.RunRequest{Agent: "default", Prompt: "go", Provider: &instantModel{n: perRun}, Model: "m", MaxIterations: perRun + 1}, nil)
		if err != nil {
			b.Fatal(err)
		}
		iterations += res.Iterations
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(iterations)/1e3, "µs/iteration")
}
