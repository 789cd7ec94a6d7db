package llm

import (
	"fmt"
	"strings"
)

// The estimate follows OpenAI's published accounting: ~4 bytes of English per token, ~4 tokens of
// framing per message, ~3 tokens priming the reply. Counting bytes rather than runes overestimates
// non-Latin text slightly, which is the safe side for a budget.
const (
	bytesPerToken   = 4
	messageOverhead = 4
	replyPriming    = 3
	toolOverhead    = 8
)

// EstimateTokens approximates the prompt tokens of messages and tools: bytes/4 of every text field,
// plus 4 per message, 8 per tool and 3 for the reply. Good to ±25% for English; use it for budgets,
// never for billing.
func EstimateTokens(messages []Message, tools []ToolDef) int {
	n := replyPriming
	for _, m := range messages {
		n += messageTokens(m)
	}
	for _, t := range tools {
		n += toolOverhead + ceilDiv(len(t.Name)+len(t.Description)+len(t.Parameters), bytesPerToken)
	}
	return n
}

func messageTokens(m Message) int {
	size := len(m.Content) + len(m.Name) + len(m.ToolCallID)
	for _, tc := range m.ToolCalls {
		size += len(tc.ID) + len(tc.Name) + len(tc.Arguments)
	}
	return messageOverhead + ceilDiv(size, bytesPerToken)
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// contextWindows maps normalised model-name fragments to context sizes. Order matters: the first
// fragment contained in the name wins, so specific names precede their prefixes; a leading "^"
// matches only at the start, since "o1" would otherwise match inside other names. Read-only.
var contextWindows = []struct {
	fragment string
	tokens   int
}{
	{"gpt4o", 128000}, {"gpt4.1", 1047576}, {"gpt4turbo", 128000}, {"gpt4", 8192},
	{"gpt3.5", 16385}, {"^o1", 200000}, {"^o3", 200000}, {"^o4mini", 200000}, {"gpt5", 400000},
	{"claude", 200000},
	{"llama3.1", 131072}, {"llama3.2", 131072}, {"llama3.3", 131072}, {"llama3", 8192},
	{"llama2", 4096}, {"codellama", 16384},
	{"qwen2.5", 32768}, {"qwen3", 40960}, {"qwen2", 32768}, {"qwq", 131072},
	{"mistralnemo", 128000}, {"mistralsmall", 32768}, {"mistral", 32768}, {"mixtral", 32768},
	{"codestral", 32768},
	{"gemma3", 131072}, {"gemma2", 8192}, {"gemma", 8192},
	{"phi4", 16384}, {"phi3.5", 131072}, {"phi3", 4096}, {"phi", 2048},
	{"deepseekr1", 131072}, {"deepseekcoderv2", 163840}, {"deepseekv3", 131072},
}

// DefaultContextWindow is assumed for models the table does not know.
const DefaultContextWindow = 8192

// ContextWindow returns the context size in tokens of a model, matched loosely so "llama3.1:8b",
// "meta-llama-3.1-8b-instruct" and "ollama/llama3.1" all resolve; unknown models get 8192.
func ContextWindow(model string) int {
	name := strings.ToLower(model)
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	name = strings.NewReplacer("-", "", "_", "", " ", "").Replace(name)
	for _, w := range contextWindows {
		if anchored, ok := strings.CutPrefix(w.fragment, "^"); ok && strings.HasPrefix(name, anchored) ||
			!ok && strings.Contains(name, w.fragment) {
			return w.tokens
		}
	}
	return DefaultContextWindow
}

// Trim fits messages into budget tokens. It keeps every system message and the newest turns,
// drops the oldest whole turns (a turn starts at a user message, so an assistant tool-call message
// always stays with its tool results) and says so in a "[n earlier messages trimmed]" system note.
// When the newest turn alone is too big, it keeps that turn's opening user message and drops its
// oldest assistant/tool groups instead. The input slice is not modified.
func Trim(messages []Message, budget int) []Message {
	if EstimateTokens(messages, nil) <= budget {
		return append([]Message(nil), messages...)
	}
	var system []Message
	var rest []Message
	for _, m := range messages {
		if m.Role == RoleSystem {
			system = append(system, m)
		} else {
			rest = append(rest, m)
		}
	}
	turns := splitBefore(rest, func(i int) bool { return rest[i].Role == RoleUser })
	dropped := 0
	build := func(kept [][]Message) []Message {
		out := append([]Message(nil), system...)
		if dropped > 0 {
			out = append(out, Message{Role: RoleSystem, Content: fmt.Sprintf("[%d earlier messages trimmed]", dropped)})
		}
		for _, g := range kept {
			out = append(out, g...)
		}
		return out
	}
	for len(turns) > 1 && EstimateTokens(build(turns), nil) > budget {
		dropped += len(turns[0])
		turns = turns[1:]
	}
	if len(turns) == 0 || EstimateTokens(build(turns), nil) <= budget {
		return build(turns)
	}
	// One turn left and still too big: keep its opening user message, drop its oldest groups.
	last := turns[0]
	var head []Message
	if last[0].Role == RoleUser {
		head, last = last[:1], last[1:]
	}
	groups := splitBefore(last, func(i int) bool { return last[i].Role != RoleTool })
	for len(groups) > 1 && EstimateTokens(build(append([][]Message{head}, groups...)), nil) > budget {
		dropped += len(groups[0])
		groups = groups[1:]
	}
	return build(append([][]Message{head}, groups...))
}

// splitBefore cuts msgs into groups, starting a new group at every index where starts is true.
func splitBefore(msgs []Message, starts func(i int) bool) [][]Message {
	var out [][]Message
	for i := range msgs {
		if i == 0 || starts(i) {
			out = append(out, nil)
		}
		out[len(out)-1] = append(out[len(out)-1], msgs[i])
	}
	return out
}
