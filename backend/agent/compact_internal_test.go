package agent

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/warren-dev/warren/backend/llm"
)

func TestRenderTranscript(t *testing.T) {
	t.Parallel()
	prev := &llm.Message{Role: llm.RoleSystem, Content: SummaryPrefix + "they met"}
	msgs := []llm.Message{
		{Role: llm.RoleUser, Content: "héllo " + strings.Repeat("é", 3000)},
		{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c1", Name: "exec", Arguments: `{"command":"ls"}`}}},
		{Role: llm.RoleTool, Name: "exec", ToolCallID: "c1", Content: "a.go"},
		{Role: llm.RoleAssistant, Content: "done"},
	}
	full := renderTranscript(prev, msgs, 0)
	for _, want := range []string{"[earlier summary]\nthey met", "[user]\nhéllo", "…", `[assistant called exec] {"command":"ls"}`, "[result of exec]\na.go", "[assistant]\ndone"} {
		if !strings.Contains(full, want) {
			t.Errorf("transcript lacks %q", want)
		}
	}
	if strings.Count(full, "é") > maxTranscriptMessage {
		t.Error("a message was not clipped")
	}
	cut := renderTranscript(prev, msgs, 1001)
	if !utf8.ValidString(cut) || !strings.Contains(cut, "bytes omitted") || !strings.HasPrefix(cut, "[earlier summary]") || !strings.HasSuffix(cut, "done") {
		t.Fatalf("cut transcript: %q", cut)
	}
}

func TestSummaryCutKeepsWholeTurns(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("x", 4000) // ~1000 tokens
	c := &conversation{
		system: llm.Message{Role: llm.RoleSystem, Content: "sys"},
		prior: []llm.Message{
			{Role: llm.RoleUser, Content: "one"}, {Role: llm.RoleAssistant, Content: big},
			{Role: llm.RoleUser, Content: "two"},
			{Role: llm.RoleAssistant, ToolCalls: []llm.ToolCall{{ID: "c", Name: "t"}}}, {Role: llm.RoleTool, ToolCallID: "c", Content: big},
			{Role: llm.RoleAssistant, Content: "ok"},
		},
		current: []llm.Message{{Role: llm.RoleUser, Content: "three"}},
	}
	cases := []struct{ target, want int }{
		{5000, 0}, // everything fits: nothing to summarise
		{1100, 2}, // the second turn fits with its tool call and result
		{500, 6},  // nothing fits: summarise every earlier turn
		{1020, 6}, // the second turn alone is too big: never split it
	}
	for _, tc := range cases {
		if got := c.summaryCut(tc.target); got != tc.want {
			t.Errorf("summaryCut(%d) = %d, want %d", tc.target, got, tc.want)
		}
	}
}
