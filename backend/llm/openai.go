package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// OpenAIOptions configures an OpenAI-compatible provider.
type OpenAIOptions struct {
	// Name identifies the provider in errors, e.g. "ollama"; default "openai".
	Name string
	// BaseURL ends before /chat/completions, e.g. http://127.0.0.1:11434/v1.
	BaseURL    string
	APIKey     string
	HTTPClient *http.Client
	RetryOptions
	// Headers are sent with every request (e.g. OpenRouter's HTTP-Referer).
	Headers map[string]string
}

// OpenAI talks to any server implementing the OpenAI chat completions API.
type OpenAI struct {
	base string
	t    transport
}

var _ Provider = (*OpenAI)(nil)

// NewOpenAI returns a provider for an OpenAI-compatible endpoint.
func NewOpenAI(opts OpenAIOptions) *OpenAI {
	name := opts.Name
	if name == "" {
		name = "openai"
	}
	headers := map[string]string{}
	if opts.APIKey != "" {
		headers["Authorization"] = "Bearer " + opts.APIKey
	}
	for k, v := range opts.Headers {
		headers[k] = v
	}
	return &OpenAI{
		base: strings.TrimRight(opts.BaseURL, "/"),
		t:    newTransport(name, opts.HTTPClient, headers, opts.RetryOptions),
	}
}

// Name identifies the provider.
func (p *OpenAI) Name() string { return p.t.name }

// Stream runs req against {BaseURL}/chat/completions with streaming on.
func (p *OpenAI) Stream(ctx context.Context, req Request, on func(Event)) (Response, error) {
	if on == nil {
		on = func(Event) {}
	}
	body := toOpenAIRequest(req)
	parse := func(ctx context.Context, r io.Reader, emit func(Event)) (Response, error) {
		return parseOpenAIStream(ctx, r, req, emit)
	}
	return p.t.stream(ctx, p.base+"/chat/completions", body, parse, on)
}

// Models lists {BaseURL}/models; when that fails it tries Ollama's native {root}/api/tags, because
// older Ollama builds and some proxies only serve the latter.
func (p *OpenAI) Models(ctx context.Context) ([]Model, error) {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	err := p.t.getJSON(ctx, p.base+"/models", &list)
	if err == nil {
		out := make([]Model, 0, len(list.Data))
		for _, m := range list.Data {
			out = append(out, Model{ID: m.ID})
		}
		return out, nil
	}
	if ctx.Err() != nil {
		return nil, err
	}
	var tags struct {
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	root := strings.TrimSuffix(p.base, "/v1")
	if terr := p.t.getJSON(ctx, root+"/api/tags", &tags); terr != nil {
		return nil, fmt.Errorf("list models: %w", errors.Join(err, terr))
	}
	out := make([]Model, 0, len(tags.Models))
	for _, m := range tags.Models {
		out = append(out, Model{ID: m.Name})
	}
	return out, nil
}
