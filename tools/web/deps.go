// Package web holds the tools that reach the web for an agent: web_fetch
// (readable pages), web_search (a chain of search providers) and url_fetch
// (raw HTTP requests). Every request goes through the network guard
// (policy/netguard), which also honours the agent's network switch.
package web

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"time"

	"github.com/warren-dev/warren/policy/netguard"
	"github.com/warren-dev/warren/tools"
)

// Group is the policy group of the web tools.
const Group = "web"

// SearchConfig is what web_search reads on every call (from settings).
type SearchConfig struct {
	// Providers is the fallback chain in order: duckduckgo, brave, searxng.
	Providers []string
	// SearXNGURL is the base URL of a SearXNG instance.
	SearXNGURL string
	// BraveKey is the Brave Search API key ("" = not configured).
	BraveKey string
}

// Deps configures the web tools.
type Deps struct {
	// Guard judges every request; required.
	Guard *netguard.Guard
	// DB holds the web_fetch cache (migration 0015); nil disables caching.
	DB *sql.DB
	// CacheTTL is how long a fetched page is served from the cache (default 15 min).
	CacheTTL time.Duration
	// Search reads the search settings; nil means DuckDuckGo alone.
	Search func(ctx context.Context) (SearchConfig, error)
	// PDFText extracts a PDF's text; nil reports that it is not available.
	PDFText func(ctx context.Context, pdf []byte) (string, error)
	// Auth resolves url_fetch's auth_profile; nil: no profiles exist.
	Auth AuthProfiles
	// CacheDir is where url_fetch's download_path lands (file_cache_dir/).
	CacheDir string
	// Endpoints overrides the public search endpoints (tests).
	Endpoints Endpoints
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// AuthProfiles hands url_fetch the credential of a named auth profile.
type AuthProfiles interface {
	// Credential returns the header to send for profile name on a request
	// to u. An *AuthRefusal is for the model (no such profile, a host the
	// profile is not for); other errors are Warren's.
	Credential(ctx context.Context, name string, u *url.URL) (header, value string, err error)
}

// AuthRefusal is an auth profile the model may not use for a request.
type AuthRefusal struct {
	Code tools.ErrorCode
	Msg  string
}

func (r *AuthRefusal) Error() string { return r.Msg }

// Endpoints are the search providers' public URLs.
type Endpoints struct {
	DuckDuckGo string
	Brave      string
}

// Tools builds web_fetch, web_search and url_fetch.
func Tools(d Deps) ([]tools.Tool, error) {
	if d.Guard == nil {
		return nil, errors.New("web tools: no network guard")
	}
	if d.CacheTTL <= 0 {
		d.CacheTTL = 15 * time.Minute
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Endpoints.DuckDuckGo == "" {
		d.Endpoints.DuckDuckGo = "https://html.duckduckgo.com/html/"
	}
	if d.Endpoints.Brave == "" {
		d.Endpoints.Brave = "https://api.search.brave.com/res/v1/web/search"
	}
	var out []tools.Tool
	for _, b := range []func(Deps) (tools.Tool, error){newWebFetch, newWebSearch, newURLFetch} {
		t, err := b(d)
		if err != nil {
			return nil, fmt.Errorf("web tools: %w", err)
		}
		out = append(out, t)
	}
	return out, nil
}

// guardResult turns a request error into the result the model sees: a
// guard refusal is a SecurityError naming the rule; anything else is a
// NetworkError (or TimeoutError) the model may retry or route around.
func guardResult(err error) tools.Result {
	if r, ok := netguard.AsRefusal(err); ok {
		return tools.Errorf(tools.CodeSecurity, "%s", r.Error())
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return tools.Errorf(tools.CodeTimeout, "%v", err)
	}
	return tools.Errorf(tools.CodeNetwork, "%v", err)
}

// NetworkAllowed reads the calling agent's network switch from the call
// context: the guard's Options.NetworkAllowed for agent requests.
func NetworkAllowed(ctx context.Context) bool { return tools.CallContextFrom(ctx).Network }
