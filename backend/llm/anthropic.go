package llm

import (
	"context"
	"io"
	"net/http"
	"strings"
)

// AnthropicOptions configures the Anthropic Messages API provider.
type AnthropicOptions struct {
	// Name identifies the provider in errors; default "anthropic".
	Name string
	// BaseURL defaults to https://api.anthropic.com.
	BaseURL string
	APIKey  string
	// Version is the anthropic-version header; default 2023-06-01.
	Version    string
	HTTPClient *http.Client
	RetryOptions
	// Headers are sent with every request (e.g. anthropic-beta).
	Headers map[string]string
	// DefaultMaxTokens is used when a Request sets none, since the API requires max_tokens; default 4096.
	DefaultMaxTokens int
}

// Anthropic talks to the Anthropic Messages API.
type Anthropic struct {
	base      string
	maxTokens int
	t         transport
}

var _ Provider = (*Anthropic)(nil)

// NewAnthropic returns a provider for the Anthropic Messages API.
func NewAnthropic(opts AnthropicOptions) *Anthropic {
	if opts.Name == "" {
		opts.Name = "anthropic"
	}
	if opts.BaseURL == "" {
		opts.BaseURL = "https://api.anthropic.com"
	}
	if opts.Version == "" {
		opts.Version = "2023-06-01"
	}
	if opts.DefaultMaxTokens == 0 {
		opts.DefaultMaxTokens = 4096
	}
	headers := map[string]string{"anthropic-version": opts.Version}
	if opts.APIKey != "" {
		headers["x-api-key"] = opts.APIKey
	}
	for k, v := range opts.Headers {
		headers[k] = v
	}
	return &Anthropic{
		base:      strings.TrimRight(opts.BaseURL, "/"),
		maxTokens: opts.DefaultMaxTokens,
		t:         newTransport(opts.Name, opts.HTTPClient, headers, opts.RetryOptions),
	}
}

// Name identifies the provider.
func (p *Anthropic) Name() string { return p.t.name }

// Stream runs req against /v1/messages with streaming on.
func (p *Anthropic) Stream(ctx context.Context, req Request, on func(Event)) (Response, error) {
	if on == nil {
		on = func(Event) {}
	}
	body := toAnthropicRequest(req, p.maxTokens)
	return p.t.stream(ctx, p.base+"/v1/messages", body, func(ctx context.Context, r io.Reader, emit func(Event)) (Response, error) {
		return parseAnthropicStream(ctx, r, emit)
	}, on)
}

// Models lists /v1/models.
func (p *Anthropic) Models(ctx context.Context) ([]Model, error) {
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := p.t.getJSON(ctx, p.base+"/v1/models?limit=1000", &list); err != nil {
		return nil, err
	}
	out := make([]Model, 0, len(list.Data))
	for _, m := range list.Data {
		out = append(out, Model{ID: m.ID})
	}
	return out, nil
}
