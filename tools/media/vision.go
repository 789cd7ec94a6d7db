package media

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/warren-dev/warren/tools"
)

// picture is one image handed to a vision model.
type picture struct {
	mime string
	data []byte
}

// visionTokens caps the description a vision model writes.
const visionTokens = 1024

// describe asks the vision chain about pictures; it returns the answer and
// the provider that gave it.
func (e *env) describe(ctx context.Context, prompt string, pics []picture) (string, string, tools.Result, bool) {
	var answer string
	used, fail, ok := e.runChain(ctx, KindVision, func(ctx context.Context, p Provider, model string) error {
		var err error
		if p.Kind == ProviderAnthropic {
			answer, err = e.anthropicVision(ctx, p, model, prompt, pics)
		} else {
			answer, err = e.openAIVision(ctx, p, model, prompt, pics)
		}
		if err == nil && strings.TrimSpace(answer) == "" {
			err = errors.New("the model answered with no text (is it a vision model?)")
		}
		return err
	})
	return answer, used, fail, ok
}

// openAIVision sends the pictures as image_url content parts (data URLs)
// of one user message, streaming the answer as chat always does here.
func (e *env) openAIVision(ctx context.Context, p Provider, model, prompt string, pics []picture) (string, error) {
	parts := []map[string]any{{"type": "text", "text": prompt}}
	for _, pic := range pics {
		parts = append(parts, map[string]any{"type": "image_url", "image_url": map[string]any{
			"url": "data:" + pic.mime + ";base64," + base64.StdEncoding.EncodeToString(pic.data)}})
	}
	body := map[string]any{"model": model, "stream": true, "max_tokens": visionTokens,
		"messages": []map[string]any{{"role": "user", "content": parts}}}
	return e.streamText(ctx, p, "/chat/completions", body, func(data []byte) string {
		var chunk struct {
			Choices []struct {
				Delta struct {
					Content string `json:"content"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if json.Unmarshal(data, &chunk) != nil || len(chunk.Choices) == 0 {
			return ""
		}
		return chunk.Choices[0].Delta.Content
	})
}

// anthropicVision sends the pictures as base64 image blocks.
func (e *env) anthropicVision(ctx context.Context, p Provider, model, prompt string, pics []picture) (string, error) {
	var blocks []map[string]any
	for _, pic := range pics {
		blocks = append(blocks, map[string]any{"type": "image", "source": map[string]any{
			"type": "base64", "media_type": pic.mime, "data": base64.StdEncoding.EncodeToString(pic.data)}})
	}
	blocks = append(blocks, map[string]any{"type": "text", "text": prompt})
	body := map[string]any{"model": model, "stream": true, "max_tokens": visionTokens,
		"messages": []map[string]any{{"role": "user", "content": blocks}}}
	return e.streamText(ctx, p, "/v1/messages", body, func(data []byte) string {
		var ev struct {
			Type  string `json:"type"`
			Delta struct {
				Text string `json:"text"`
			} `json:"delta"`
		}
		if json.Unmarshal(data, &ev) != nil || ev.Type != "content_block_delta" {
			return ""
		}
		return ev.Delta.Text
	})
}

// streamText posts body and joins the text the SSE events carry.
func (e *env) streamText(ctx context.Context, p Provider, path string, body any, text func([]byte) string) (string, error) {
	raw, err := json.Marshal(body)
	if err != nil {
		return "", err
	}
	resp, err := e.send(ctx, p, http.MethodPost, path, "application/json", bytes.NewReader(raw))
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	var out strings.Builder
	sc := bufio.NewScanner(io.LimitReader(resp.Body, maxAnswer))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data:")
		if !ok {
			continue
		}
		data = strings.TrimSpace(data)
		if data == "[DONE]" {
			break
		}
		out.WriteString(text([]byte(data)))
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("reading the answer: %w", err)
	}
	return out.String(), nil
}
