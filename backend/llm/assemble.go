package llm

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// assembler turns streamed pieces into events and the final Response; both providers share it so
// the agent loop sees the same event sequence whichever backend answered.
type assembler struct {
	emit     func(Event)
	text     strings.Builder
	calls    map[int]*pendingCall
	finished bool
}

// pendingCall accumulates argument pieces in a Builder: a file written through a tool can stream
// in thousands of pieces, and string += would copy quadratically.
type pendingCall struct {
	ToolCall
	args strings.Builder
}

func newAssembler(emit func(Event)) *assembler {
	return &assembler{emit: emit, calls: map[int]*pendingCall{}}
}

func (a *assembler) textDelta(s string) {
	if s == "" {
		return
	}
	a.text.WriteString(s)
	a.emit(Event{Type: EventTextDelta, Text: s})
}

// toolDelta records a piece of tool call index; id and name usually come only with the first piece.
func (a *assembler) toolDelta(index int, id, name, args string) {
	tc, ok := a.calls[index]
	if !ok {
		tc = &pendingCall{}
		a.calls[index] = tc
	}
	if id != "" {
		tc.ID = id
	}
	if name != "" {
		tc.Name += name // some servers stream the name in pieces too
	}
	tc.args.WriteString(args)
	a.emit(Event{Type: EventToolCallDelta, Index: index, ToolCall: &ToolCall{ID: id, Name: name, Arguments: args}})
}

// finishCalls emits tool_call_done for every call in index order, repairing arguments; idempotent.
func (a *assembler) finishCalls() {
	if a.finished {
		return
	}
	a.finished = true
	for _, i := range slices.Sorted(maps.Keys(a.calls)) {
		tc := a.calls[i]
		tc.Arguments = tc.args.String()
		if tc.ID == "" {
			tc.ID = fmt.Sprintf("call_%d", i) // some local servers omit ids; results must still pair up
		}
		err := normaliseArguments(&tc.ToolCall)
		done := tc.ToolCall
		a.emit(Event{Type: EventToolCallDone, Index: i, ToolCall: &done, Err: err})
	}
}

// normaliseArguments makes tc.Arguments valid JSON when that is safe, else reports why not.
func normaliseArguments(tc *ToolCall) error {
	raw := strings.TrimSpace(tc.Arguments)
	switch {
	case raw == "":
		tc.Arguments = "{}" // no-argument tools often stream nothing at all
		return nil
	case json.Valid([]byte(raw)):
		return nil
	}
	if fixed, ok := RepairArguments(raw); ok {
		tc.Arguments = fixed
		return nil
	}
	return fmt.Errorf("tool %q: %w: %.120s", tc.Name, ErrMalformedArguments, raw)
}

func (a *assembler) response(usage Usage, finish string) Response {
	a.finishCalls()
	msg := Message{Role: RoleAssistant, Content: a.text.String()}
	for _, i := range slices.Sorted(maps.Keys(a.calls)) {
		msg.ToolCalls = append(msg.ToolCalls, a.calls[i].ToolCall)
	}
	if finish == "" {
		finish = FinishStop
	}
	return Response{Message: msg, Usage: usage, FinishReason: finish}
}

// estimatedUsage fills in usage for servers that report none (older Ollama, some llama.cpp builds).
func (a *assembler) estimatedUsage(req Request) Usage {
	prompt := EstimateTokens(req.Messages, req.Tools)
	out := Message{Role: RoleAssistant, Content: a.text.String()}
	for _, tc := range a.calls {
		out.ToolCalls = append(out.ToolCalls, ToolCall{Name: tc.Name, Arguments: tc.args.String()})
	}
	completion := max(0, EstimateTokens([]Message{out}, nil)-replyPriming-messageOverhead)
	return Usage{PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion, Estimated: true}
}
