package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// EmulationPrompt is system-prompt text that teaches a model without native tool calling to ask
// for tools with fenced JSON blocks that ParseEmulated understands.
func EmulationPrompt(tools []ToolDef) string {
	var b strings.Builder
	b.WriteString("You can use tools. To call a tool, answer with a fenced JSON block of exactly this form:\n\n")
	b.WriteString("```json\n{\"tool\": \"TOOL_NAME\", \"arguments\": {\"param\": \"value\"}}\n```\n\n")
	b.WriteString("Use one block per call; several blocks call several tools. Use double quotes and valid JSON. ")
	b.WriteString("After your tool calls, stop and wait: the results arrive in the next message. ")
	b.WriteString("When no tool is needed, answer in plain text without any JSON block.\n\nAvailable tools:\n")
	for _, t := range tools {
		fmt.Fprintf(&b, "\n- %s: %s\n", t.Name, strings.TrimSpace(t.Description))
		if len(t.Parameters) > 0 {
			var compact bytes.Buffer
			if json.Compact(&compact, t.Parameters) == nil {
				fmt.Fprintf(&b, "  arguments (JSON schema): %s\n", compact.String())
			}
		}
	}
	return b.String()
}

// fenceRe finds ``` blocks with an optional language tag; the body is group 1.
var fenceRe = regexp.MustCompile("(?s)```[A-Za-z_]*[ \t]*\r?\n?(.*?)```")

// wrapperTagRe matches the tags some fine-tunes (Hermes, Qwen) put around calls.
var wrapperTagRe = regexp.MustCompile(`</?(tool_call|function_call|tool_calls)>`)

// ParseEmulated extracts tool calls a model wrote as text: fenced ```json blocks or bare JSON
// objects (optionally inside <tool_call> tags) with a "tool"/"name"/"function" key and
// "arguments"/"parameters"/"args"/"input", arrays of those, or {"tool_calls": [...]}. Damaged JSON
// is repaired when RepairArguments is sure. rest is the text with the calls removed.
func ParseEmulated(text string) (calls []ToolCall, rest string) {
	var spans [][2]int // byte ranges of text that held calls
	for _, m := range fenceRe.FindAllStringSubmatchIndex(text, -1) {
		if found := callsFromJSON(text[m[2]:m[3]]); len(found) > 0 {
			calls = append(calls, found...)
			spans = append(spans, [2]int{m[0], m[1]})
		}
	}
	for i := 0; i < len(text); i++ {
		if inSpans(spans, i) || text[i] != '{' && text[i] != '[' {
			continue
		}
		end := matchBracket(text, i)
		candidate := text[i:]
		if end > 0 {
			candidate = text[i:end]
		}
		found := callsFromJSON(candidate)
		if len(found) == 0 {
			continue
		}
		if end < 0 {
			end = len(text)
		}
		calls = append(calls, found...)
		spans = append(spans, [2]int{i, end})
		i = end - 1
	}
	for i := range calls {
		calls[i].ID = fmt.Sprintf("call_emu_%d", i)
	}
	return calls, cleanRest(text, spans)
}

// callsFromJSON decodes s (repairing it if needed) into tool calls, or returns none.
func callsFromJSON(s string) []ToolCall {
	s = strings.TrimSpace(s)
	if !json.Valid([]byte(s)) {
		fixed, ok := RepairArguments(s)
		if !ok {
			return nil
		}
		s = fixed
	}
	var v any
	if json.Unmarshal([]byte(s), &v) != nil {
		return nil
	}
	return callsFromValue(v)
}

func callsFromValue(v any) []ToolCall {
	switch x := v.(type) {
	case []any:
		var out []ToolCall
		for _, e := range x {
			found := callsFromValue(e)
			if len(found) == 0 {
				return nil // a mixed array is data, not a list of calls
			}
			out = append(out, found...)
		}
		return out
	case map[string]any:
		for _, k := range []string{"tool_calls", "calls"} {
			if list, ok := x[k].([]any); ok {
				return callsFromValue(list)
			}
		}
		if tc, ok := callFromObject(x); ok {
			return []ToolCall{tc}
		}
	}
	return nil
}

// callFromObject accepts {"tool": N, ...}, {"name": N, "arguments": {...}} and the OpenAI shape
// {"function": {"name": N, "arguments": "..."}}. A lone "name" is not enough: plain data has names.
func callFromObject(o map[string]any) (ToolCall, bool) {
	if fn, ok := o["function"].(map[string]any); ok {
		return callFromObject(fn)
	}
	args, hasArgs := firstKey(o, "arguments", "parameters", "args", "input")
	name, _ := firstKey(o, "tool", "tool_name", "function")
	if n, ok := name.(string); !ok || n == "" {
		if n, ok := o["name"].(string); ok && n != "" && hasArgs {
			name = n
		} else {
			return ToolCall{}, false
		}
	}
	tc := ToolCall{Name: name.(string), Arguments: "{}"}
	switch a := args.(type) {
	case nil:
	case string: // arguments double-encoded as a JSON string, as OpenAI's wire format does
		if fixed, ok := RepairArguments(a); ok {
			tc.Arguments = fixed
		} else {
			return ToolCall{}, false
		}
	case map[string]any:
		raw, err := json.Marshal(a)
		if err != nil {
			return ToolCall{}, false
		}
		tc.Arguments = string(raw)
	default:
		return ToolCall{}, false
	}
	return tc, true
}

func firstKey(o map[string]any, keys ...string) (any, bool) {
	for _, k := range keys {
		if v, ok := o[k]; ok {
			return v, true
		}
	}
	return nil, false
}

// matchBracket returns the index just past the bracket closing the one at s[i], or -1.
func matchBracket(s string, i int) int {
	depth := 0
	var quote byte
	for j := i; j < len(s); j++ {
		c := s[j]
		switch {
		case quote != 0:
			switch c {
			case '\\':
				j++
			case quote:
				quote = 0
			}
		case c == '"' || c == '\'' && depth > 0 && j > 0 && !isLetter(s[j-1]):
			quote = c
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return -1
}

func inSpans(spans [][2]int, i int) bool {
	for _, s := range spans {
		if i >= s[0] && i < s[1] {
			return true
		}
	}
	return false
}

var blankLinesRe = regexp.MustCompile(`\n{3,}`)

func cleanRest(text string, spans [][2]int) string {
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		if !inSpans(spans, i) {
			b.WriteByte(text[i])
		}
	}
	out := wrapperTagRe.ReplaceAllString(b.String(), "")
	return strings.TrimSpace(blankLinesRe.ReplaceAllString(out, "\n\n"))
}
