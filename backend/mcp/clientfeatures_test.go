package mcp

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/tools"
)

// recordingHandlers answer a server's requests and remember who asked.
type recordingHandlers struct {
	mu   sync.Mutex
	seen []Requester
}

func (r *recordingHandlers) note(from Requester) {
	r.mu.Lock()
	r.seen = append(r.seen, from)
	r.mu.Unlock()
}

func (r *recordingHandlers) handlers() *ClientHandlers {
	return &ClientHandlers{
		Roots: func(_ context.Context, from Requester) ([]mcp.Root, error) {
			r.note(from)
			ws := from.CallContext().Workspace
			if ws == "" {
				ws = "/srv/default-workspace"
			}
			return []mcp.Root{{URI: "file://" + ws, Name: "workspace"}}, nil
		},
		Sample: func(_ context.Context, from Requester, p mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
			r.note(from)
			text := "sampled for " + from.Agent
			if len(p.Messages) > 0 {
				if tc, ok := p.Messages[0].Content.(mcp.TextContent); ok {
					text += ": " + tc.Text
				}
			}
			return &mcp.CreateMessageResult{
				SamplingMessage: mcp.SamplingMessage{Role: mcp.RoleAssistant, Content: mcp.NewTextContent(text)},
				Model:           "test-model", StopReason: "endTurn",
			}, nil
		},
		Elicit: func(_ context.Context, from Requester, p mcp.ElicitationParams) (*mcp.ElicitationResult, error) {
			r.note(from)
			return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{
				Action: mcp.ElicitationResponseActionAccept, Content: map[string]any{"name": "Ada " + from.Agent},
			}}, nil
		},
	}
}

// TestClientFeaturesServerEverything: with handlers set, Warren declares
// roots, sampling and elicitation; server-everything then offers the tools
// it hides otherwise, and their requests reach the handlers on behalf of
// the calling agent.
func TestClientFeaturesServerEverything(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.save(t, Server{Name: "everything", Transport: TransportStdio, Command: serverBin(t, "mcp-server-everything"),
		Args: []string{"stdio"}, Enabled: true})
	rec := &recordingHandlers{}
	m := f.manager(t, Options{Client: rec.handlers()})
	if err := m.StartEnabled(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := []string{"get-roots-list", "trigger-sampling-request", "trigger-elicitation-request"}
	deadline := time.Now().Add(30 * time.Second)
	for {
		names := toolNames(m, "everything")
		missing := slices.DeleteFunc(slices.Clone(want), func(n string) bool { return slices.Contains(names, n) })
		if len(missing) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("tools %v lack %v", names, missing)
		}
		time.Sleep(100 * time.Millisecond)
	}
	ctx := tools.WithCallContext(context.Background(), tools.CallContext{Agent: "ada", Workspace: "/home/ada/project"})

	res, err := m.Call(ctx, "everything", "trigger-sampling-request", json.RawMessage(`{"prompt":"hello","maxTokens":50}`))
	if err != nil || res.IsError {
		t.Fatalf("sampling call = %+v, %v", res, err)
	}
	if text := ResultText(res); !strings.Contains(text, "sampled for ada") || !strings.Contains(text, "test-model") {
		t.Fatalf("sampling result does not carry the handler's answer: %s", text)
	}

	res, err = m.Call(ctx, "everything", "trigger-elicitation-request", json.RawMessage(`{}`))
	if err != nil || res.IsError {
		t.Fatalf("elicitation call = %+v, %v", res, err)
	}
	if text := ResultText(res); !strings.Contains(text, "Ada ada") {
		t.Fatalf("elicitation result does not carry the answer: %s", text)
	}

	res, err = m.Call(ctx, "everything", "get-roots-list", json.RawMessage(`{}`))
	if err != nil || res.IsError {
		t.Fatalf("roots call = %+v, %v", res, err)
	}
	if text := ResultText(res); !strings.Contains(text, "file://") {
		t.Fatalf("roots result names no file root: %s", text)
	}
	// roots/list_changed: the server asks for the roots again.
	rootsAsked := func() int {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		n := 0
		for _, from := range rec.seen {
			if from.Call == nil { // roots asked outside a call
				n++
			}
		}
		return n
	}
	before := rootsAsked()
	m.RootsChanged(context.Background())
	deadline = time.Now().Add(10 * time.Second)
	for rootsAsked() == before {
		if time.Now().After(deadline) {
			t.Fatal("the server did not ask for the roots after roots/list_changed")
		}
		time.Sleep(20 * time.Millisecond)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var sampled bool
	for _, from := range rec.seen {
		if from.Server != "everything" {
			t.Errorf("request attributed to server %q", from.Server)
		}
		if from.Agent == "ada" && from.Call != nil {
			sampled = true
		}
	}
	if !sampled {
		t.Fatalf("no request was attributed to ada's call: %+v", rec.seen)
	}
}

// TestNoHandlersHidesClientTools: without handlers Warren declares nothing
// and the server hides the tools that would need it.
func TestNoHandlersHidesClientTools(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	f.save(t, Server{Name: "everything", Transport: TransportStdio, Command: serverBin(t, "mcp-server-everything"),
		Args: []string{"stdio"}, Enabled: true})
	ch, cancel := f.bus.Subscribe(64)
	defer cancel()
	m := f.manager(t, Options{})
	if err := m.StartEnabled(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitState(t, ch, "everything", 30*time.Second, StateConnected)
	if names := toolNames(m, "everything"); slices.Contains(names, "trigger-sampling-request") {
		t.Fatalf("sampling tool offered without the capability: %v", names)
	}
}

func TestInflightAmbiguity(t *testing.T) {
	t.Parallel()
	var f inflight
	if call, _, _ := f.current(); call != nil {
		t.Fatal("empty set has a call")
	}
	a := tools.WithCallContext(context.Background(), tools.CallContext{Agent: "a"})
	b := tools.WithCallContext(context.Background(), tools.CallContext{Agent: "b"})
	ra := f.add(a)
	if _, agent, amb := f.current(); agent != "a" || amb {
		t.Fatalf("one call: agent %q ambiguous %v", agent, amb)
	}
	rb := f.add(b)
	if _, _, amb := f.current(); !amb {
		t.Fatal("calls of two agents are not ambiguous")
	}
	ra()
	if _, agent, amb := f.current(); agent != "b" || amb {
		t.Fatalf("after a ended: agent %q ambiguous %v", agent, amb)
	}
	rb()
	fc := &clientFeatures{agent: "own", calls: &f}
	f.add(a)
	if _, err := fc.requester(); err == nil {
		t.Fatal("another agent's call on an agent's own connection was not refused")
	}
}
