package llmtest

import "net/http"

type obj = map[string]any

// serveOpenAI streams the turn as chat.completion.chunk events, tool calls the way OpenAI does:
// id and name with the first argument piece, later pieces keyed by index only.
func (s *Server) serveOpenAI(w http.ResponseWriter, r *http.Request) {
	turn, limit, ok := s.begin(w, r)
	if !ok {
		return
	}
	out := &sseWriter{w: w, limit: limit}
	chunk := func(delta obj, finish any) obj {
		return obj{"object": "chat.completion.chunk", "choices": []obj{{"index": 0, "delta": delta, "finish_reason": finish}}}
	}
	for _, text := range turn.Chunks {
		out.send("", chunk(obj{"role": "assistant", "content": text}, nil))
	}
	for i, tc := range turn.ToolCalls {
		pieces := tc.Arguments
		if len(pieces) == 0 {
			pieces = []string{""}
		}
		for j, p := range pieces {
			call := obj{"index": i, "function": obj{"arguments": p}}
			if j == 0 {
				call = obj{"index": i, "id": tc.ID, "type": "function", "function": obj{"name": tc.Name, "arguments": p}}
			}
			out.send("", chunk(obj{"tool_calls": []obj{call}}, nil))
		}
	}
	out.send("", chunk(obj{}, turn.finish()))
	if u := turn.Usage; u != nil {
		out.send("", obj{"object": "chat.completion.chunk", "choices": []obj{}, "usage": obj{
			"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens, "total_tokens": u.PromptTokens + u.CompletionTokens,
		}})
	}
	out.send("", "[DONE]")
}

// serveAnthropic streams the turn as Messages API events: text blocks, then tool_use blocks whose
// input arrives as input_json_delta pieces.
func (s *Server) serveAnthropic(w http.ResponseWriter, r *http.Request) {
	turn, limit, ok := s.begin(w, r)
	if !ok {
		return
	}
	out := &sseWriter{w: w, limit: limit}
	var in, outTokens int
	if turn.Usage != nil {
		in, outTokens = turn.Usage.PromptTokens, turn.Usage.CompletionTokens
	}
	out.send("message_start", obj{"type": "message_start", "message": obj{
		"id": "msg_llmtest", "type": "message", "role": "assistant", "content": []obj{},
		"usage": obj{"input_tokens": in, "output_tokens": 1},
	}})
	block := 0
	if len(turn.Chunks) > 0 {
		out.send("content_block_start", obj{"type": "content_block_start", "index": block, "content_block": obj{"type": "text", "text": ""}})
		for _, text := range turn.Chunks {
			out.send("content_block_delta", obj{"type": "content_block_delta", "index": block, "delta": obj{"type": "text_delta", "text": text}})
		}
		out.send("content_block_stop", obj{"type": "content_block_stop", "index": block})
		block++
	}
	for _, tc := range turn.ToolCalls {
		out.send("content_block_start", obj{"type": "content_block_start", "index": block, "content_block": obj{"type": "tool_use", "id": tc.ID, "name": tc.Name, "input": obj{}}})
		for _, p := range tc.Arguments {
			out.send("content_block_delta", obj{"type": "content_block_delta", "index": block, "delta": obj{"type": "input_json_delta", "partial_json": p}})
		}
		out.send("content_block_stop", obj{"type": "content_block_stop", "index": block})
		block++
	}
	stop := map[string]string{"stop": "end_turn", "tool_calls": "tool_use", "length": "max_tokens"}[turn.finish()]
	out.send("message_delta", obj{"type": "message_delta", "delta": obj{"stop_reason": stop}, "usage": obj{"output_tokens": outTokens}})
	out.send("message_stop", obj{"type": "message_stop"})
}
