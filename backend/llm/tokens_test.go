package llm_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm"
)

func TestEstimateTokens(t *testing.T) {
	t.Parallel()
	msgs := []llm.Message{{Role: llm.RoleUser, Content: strings.Repeat("a", 400)}}
	if got := llm.EstimateTokens(msgs, nil); got != 3+4+100 {
		t.Errorf("estimate = %d, want 107", got)
	}
	withTool := llm.EstimateTokens(msgs, []llm.ToolDef{{Name: "read_file", Description: "Read a file"}})
	if withTool <= 107 {
		t.Errorf("tools must add tokens: %d", withTool)
	}
	calls := []llm.Message{{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c", Name: "n", Arguments: strings.Repeat("x", 80)}}}}
	if got := llm.EstimateTokens(calls, nil); got < 20 {
		t.Errorf("tool call arguments must count: %d", got)
	}
}

func TestContextWindow(t *testing.T) {
	t.Parallel()
	cases := map[string]int{
		"llama3.1:8b":                131072,
		"meta-llama-3.1-8b-instruct": 131072,
		"llama3:8b":                  8192,
		"qwen2.5-coder:7b":           32768,
		"Qwen2.5-7B-Instruct-GGUF":   32768,
		"mistral:7b":                 32768,
		"mistral-nemo":               128000,
		"gemma2:9b":                  8192,
		"phi3.5":                     131072,
		"gpt-4o-mini":                128000,
		"gpt-4":                      8192,
		"o3-mini":                    200000,
		"claude-sonnet-4-5":          200000,
		"anthropic/claude-3-5-haiku": 200000,
		"my-custom-model":            llm.DefaultContextWindow,
		"tinyllama":                  llm.DefaultContextWindow,
	}
	for model, want := range cases {
		if got := llm.ContextWindow(model); got != want {
			t.Errorf("ContextWindow(%q) = %d, want %d", model, got, want)
		}
	}
}

// conversation builds system + n turns, each: user, assistant tool call, tool result, assistant text.
func conversation(n int) []llm.Message {
	msgs := []llm.Message{{Role: llm.RoleSystem, Content: "You are Warren."}}
	for i := range n {
		id := fmt.Sprintf("call_%d", i)
		msgs = append(msgs,
			llm.Message{Role: llm.RoleUser, Content: fmt.Sprintf("task %d %s", i, strings.Repeat("u", 200))},
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id, Name: "read_file", Arguments: `{"path":"x"}`}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id, Content: strings.Repeat("r", 400)},
			llm.Message{Role: llm.RoleAssistant, Content: fmt.Sprintf("done %d", i)},
		)
	}
	return msgs
}

// checkPairs fails when a tool result lacks its call in the kept messages, or a call lacks its result.
func checkPairs(t *testing.T, msgs []llm.Message) {
	t.Helper()
	open := map[string]bool{}
	for _, m := range msgs {
		for _, tc := range m.ToolCalls {
			open[tc.ID] = true
		}
		if m.Role == llm.RoleTool {
			if !open[m.ToolCallID] {
				t.Errorf("tool result %s kept without its call", m.ToolCallID)
			}
			delete(open, m.ToolCallID)
		}
	}
	for id := range open {
		t.Errorf("tool call %s kept without its result", id)
	}
}

func TestTrim(t *testing.T) {
	t.Parallel()
	msgs := conversation(10)
	full := llm.EstimateTokens(msgs, nil)
	if got := llm.Trim(msgs, full); len(got) != len(msgs) {
		t.Errorf("within budget: %d messages, want %d", len(got), len(msgs))
	}
	for _, budget := range []int{full / 2, full / 4, 250, 180} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			got := llm.Trim(msgs, budget)
			if got[0].Content != "You are Warren." || got[1].Role != llm.RoleSystem || !strings.HasSuffix(got[1].Content, "earlier messages trimmed]") {
				t.Fatalf("head = %+v", got[:2])
			}
			if last := got[len(got)-1]; last.Content != "done 9" {
				t.Errorf("newest message lost: %+v", last)
			}
			checkPairs(t, got)
			var dropped int
			fmt.Sscanf(got[1].Content, "[%d earlier", &dropped)
			if dropped+len(got)-2 != len(msgs)-1 {
				t.Errorf("note says %d dropped, but %d of %d remain", dropped, len(got)-2, len(msgs)-1)
			}
			if budget >= 250 && llm.EstimateTokens(got, nil) > budget {
				t.Errorf("over budget: %d > %d", llm.EstimateTokens(got, nil), budget)
			}
		})
	}
	if len(msgs) != 41 || msgs[1].Content[:6] != "task 0" {
		t.Error("Trim modified its input")
	}
}

func TestTrimLongSingleTurnKeepsTask(t *testing.T) {
	t.Parallel()
	// An agent run: one user task, then many tool rounds.
	msgs := conversation(1)[:3]
	for i := range 8 {
		id := fmt.Sprintf("more_%d", i)
		msgs = append(msgs,
			llm.Message{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: id + "a", Name: "ls"}, {ID: id + "b", Name: "ls"}}},
			llm.Message{Role: llm.RoleTool, ToolCallID: id + "a", Content: strings.Repeat("r", 300)},
			llm.Message{Role: llm.RoleTool, ToolCallID: id + "b", Content: strings.Repeat("r", 300)},
		)
	}
	got := llm.Trim(msgs, 600)
	if got[2].Role != llm.RoleUser || !strings.HasPrefix(got[2].Content, "task 0") {
		t.Fatalf("the task must survive: %+v", got[2])
	}
	checkPairs(t, got)
	if llm.EstimateTokens(got, nil) > 600 {
		t.Errorf("over budget: %d", llm.EstimateTokens(got, nil))
	}
}
