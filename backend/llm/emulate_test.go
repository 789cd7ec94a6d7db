package llm_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm"
)

func TestEmulationPrompt(t *testing.T) {
	t.Parallel()
	got := llm.EmulationPrompt([]llm.ToolDef{{Name: "read_file", Description: "Read a file.", Parameters: json.RawMessage(`{ "type": "object" }`)}})
	for _, frag := range []string{"```json", `"tool": "TOOL_NAME"`, "- read_file: Read a file.", `{"type":"object"}`} {
		if !strings.Contains(got, frag) {
			t.Errorf("prompt lacks %q:\n%s", frag, got)
		}
	}
	// The prompt's own example must parse, so a model copying it verbatim is understood.
	calls, _ := llm.ParseEmulated(got)
	if len(calls) != 1 || calls[0].Name != "TOOL_NAME" {
		t.Errorf("example in prompt parses to %+v", calls)
	}
}

func TestParseEmulated(t *testing.T) {
	t.Parallel()
	type call struct{ name, args string }
	cases := []struct {
		name  string
		text  string
		calls []call
		rest  string
	}{
		{"fenced json", "I'll read it.\n```json\n{\"tool\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n```\nDone.",
			[]call{{"read_file", `{"path":"a.go"}`}}, "I'll read it.\n\nDone."},
		{"fence without language", "```\n{\"tool\": \"ls\", \"arguments\": {}}\n```", []call{{"ls", `{}`}}, ""},
		{"bare object in prose", `Sure! {"name": "grep", "arguments": {"pattern": "TODO"}} that's it`,
			[]call{{"grep", `{"pattern":"TODO"}`}}, "Sure!  that's it"},
		{"parameters key", `{"name": "search", "parameters": {"q": "go"}}`, []call{{"search", `{"q":"go"}`}}, ""},
		{"two fenced calls", "```json\n{\"tool\":\"a\",\"arguments\":{\"x\":1}}\n```\nand\n```json\n{\"tool\":\"b\",\"arguments\":{\"y\":2}}\n```",
			[]call{{"a", `{"x":1}`}, {"b", `{"y":2}`}}, "and"},
		{"array of calls", `[{"tool":"a","arguments":{}},{"tool":"b","arguments":{"k":"v"}}]`, []call{{"a", `{}`}, {"b", `{"k":"v"}`}}, ""},
		{"tool_calls wrapper", `{"tool_calls":[{"function":{"name":"run","arguments":"{\"cmd\":\"ls\"}"}}]}`, []call{{"run", `{"cmd":"ls"}`}}, ""},
		{"hermes tags", "<tool_call>\n{\"name\": \"fetch\", \"arguments\": {\"url\": \"https://x.dev\"}}\n</tool_call>", []call{{"fetch", `{"url":"https://x.dev"}`}}, ""},
		{"python literals and trailing comma", "```json\n{'tool': 'toggle', 'arguments': {'on': True, 'level': None,},}\n```", []call{{"toggle", `{"level":null,"on":true}`}}, ""},
		{"truncated at the end", `Calling now: {"tool": "write", "arguments": {"path": "x.txt"`, []call{{"write", `{"path":"x.txt"}`}}, "Calling now:"},
		{"arguments as string", `{"tool": "echo", "arguments": "{\"text\": \"hi\"}"}`, []call{{"echo", `{"text": "hi"}`}}, ""},
		{"plain json data is not a call", `The config is {"name": "warren", "version": 2}.`, nil, `The config is {"name": "warren", "version": 2}.`},
		{"code braces are not calls", "func main() { fmt.Println(\"hi\") }", nil, "func main() { fmt.Println(\"hi\") }"},
		{"no calls at all", "Just an answer.", nil, "Just an answer."},
		{"nested braces in strings", `{"tool": "write", "arguments": {"content": "if x { y }"}}`, []call{{"write", `{"content":"if x { y }"}`}}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			calls, rest := llm.ParseEmulated(tc.text)
			if len(calls) != len(tc.calls) {
				t.Fatalf("calls = %+v, want %v", calls, tc.calls)
			}
			for i, c := range calls {
				if c.Name != tc.calls[i].name || c.Arguments != tc.calls[i].args || c.ID == "" {
					t.Errorf("call %d = %+v, want %v", i, c, tc.calls[i])
				}
			}
			if rest != tc.rest {
				t.Errorf("rest = %q, want %q", rest, tc.rest)
			}
		})
	}
}

func TestRepairArguments(t *testing.T) {
	t.Parallel()
	cases := []struct {
		in, want string
		ok       bool
	}{
		{`{"a": 1}`, `{"a": 1}`, true},
		{`{"a": 1,}`, `{"a": 1}`, true},
		{`{'a': 'it"s'}`, `{"a": "it\"s"}`, true},
		{`{"a": [1, 2,],}`, `{"a": [1, 2]}`, true},
		{`{"a": {"b": [1, 2`, `{"a": {"b": [1, 2]}}`, true},
		{"```json\n{\"a\": true}\n```", `{"a": true}`, true},
		{`{"ok": True, "no": False, "v": None}`, `{"ok": true, "no": false, "v": null}`, true},
		{`{path: "x", n: -1.5e3}`, `{"path": "x", "n": -1.5e3}`, true},
		{`{"a": 1,`, `{"a": 1}`, true},
		{`{"a": "unterminated`, ``, false},
		{`{"a": }`, ``, false},
		{`{"a":`, ``, false},
		{`{"a": 1} and then prose`, ``, false},
		{`{"a": 1]`, ``, false},
		{`{"a": maybe}`, ``, false},
		{`{'a': 'it's'}`, ``, false},
		{``, ``, false},
	}
	for _, tc := range cases {
		got, ok := llm.RepairArguments(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("RepairArguments(%q) = %q, %v; want %q, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func FuzzRepairArguments(f *testing.F) {
	for _, s := range []string{`{"a": 1,}`, `{'a': True}`, `{"a": [1, {"b": "c`, "```json\n{}\n```", `[1,2,`, `{a: None}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		fixed, ok := llm.RepairArguments(raw)
		if ok && !json.Valid([]byte(fixed)) {
			t.Fatalf("RepairArguments(%q) = %q, ok but invalid JSON", raw, fixed)
		}
		if !ok && fixed != "" {
			t.Fatalf("RepairArguments(%q) returned text %q with ok=false", raw, fixed)
		}
		llm.ParseEmulated(raw) // must not panic either
	})
}
