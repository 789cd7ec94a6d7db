package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestReadSSE(t *testing.T) {
	t.Parallel()
	in := ": keep-alive\r\nevent: ping\r\ndata:{\"a\":1}\r\n\r\ndata: line1\ndata: line2\n\nevent: x\n\ndata: tail-without-blank-line"
	var got []string
	err := readSSE(strings.NewReader(in), func(ev sseEvent) error {
		got = append(got, ev.Name+"|"+string(ev.Data))
		return nil
	})
	want := []string{`ping|{"a":1}`, "|line1\nline2", "|tail-without-blank-line"}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
}

func TestParseRetryAfter(t *testing.T) {
	t.Parallel()
	cases := map[string]time.Duration{"": 0, "2": 2 * time.Second, "0.25": 250 * time.Millisecond, "9999": maxRetryAfter, "junk": 0}
	for in, want := range cases {
		if got := parseRetryAfter(in); got != want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", in, got, want)
		}
	}
	if d := DefaultBackoff(10); d > 8*time.Second+8*time.Second/5 || d < 7*time.Second {
		t.Errorf("DefaultBackoff(10) = %v, want about 8s", d)
	}
}

func TestOpenAIStreamWithoutDoneButFinished(t *testing.T) {
	t.Parallel()
	// llama.cpp builds have ended streams after finish_reason without [DONE]; that is complete.
	body := `data: {"choices":[{"delta":{"content":"hi"},"finish_reason":"stop"}]}` + "\n\n"
	resp, err := parseOpenAIStream(context.Background(), strings.NewReader(body), Request{}, func(Event) {})
	if err != nil || resp.Message.Content != "hi" {
		t.Fatalf("%+v, %v", resp, err)
	}
	_, err = parseOpenAIStream(context.Background(), strings.NewReader(`data: {"choices":[{"delta":{"content":"hi"}}]}`+"\n\n"), Request{}, func(Event) {})
	if !errors.Is(err, ErrStreamDropped) {
		t.Fatalf("err = %v, want ErrStreamDropped", err)
	}
}

// streamBody is an OpenAI SSE body of n text chunks followed by a tool call in n/10 pieces.
func streamBody(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"token %d \"},\"finish_reason\":null}]}\n\n", i)
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"write_file","arguments":"{\"content\":\""}}]}}]}` + "\n\n")
	for range n / 10 {
		b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"abcdefgh"}}]}}]}` + "\n\n")
	}
	b.WriteString(`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"}"}}]}}]}` + "\n\n")
	b.WriteString(`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n")
	b.WriteString(`data: {"choices":[],"usage":{"prompt_tokens":10,"completion_tokens":1000,"total_tokens":1010}}` + "\n\ndata: [DONE]\n\n")
	return b.Bytes()
}

func BenchmarkStreamParse(b *testing.B) {
	body := streamBody(1000)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		resp, err := parseOpenAIStream(context.Background(), bytes.NewReader(body), Request{}, func(Event) {})
		if err != nil || len(resp.Message.ToolCalls) != 1 {
			b.Fatalf("%v, %+v", err, resp.Message.ToolCalls)
		}
	}
}
