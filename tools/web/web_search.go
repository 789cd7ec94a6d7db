package web

import (
	"context"
	_ "embed"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/warren-dev/warren/policy/netguard"
	"github.com/warren-dev/warren/tools"
)

//go:embed web_search.md
var webSearchDoc string

// Search providers, as web.search_providers names them.
const (
	ProviderDuckDuckGo = "duckduckgo"
	ProviderBrave      = "brave"
	ProviderSearXNG    = "searxng"
)

// SearchProviders lists the provider names web.search_providers accepts.
var SearchProviders = []string{ProviderDuckDuckGo, ProviderBrave, ProviderSearXNG}

const (
	defaultSearchCount = 10
	maxSearchCount     = 20
	searchTimeout      = 20 * time.Second
	maxSearchBody      = 2 << 20
)

// WebSearchParams are web_search's arguments.
type WebSearchParams struct {
	Query string `json:"query" description:"What to search for"`
	Count int    `json:"count,omitempty" description:"How many results (default 10, at most 20)"`
}

// searchResult is one hit.
type searchResult struct {
	Title   string `json:"title"`
	URL     string `json:"url"`
	Snippet string `json:"snippet"`
}

// searcher runs one provider's query.
type searcher func(ctx context.Context, c *http.Client, query string, count int) ([]searchResult, error)

// configError is a provider that cannot run as configured: the message
// says what to set.
type configError struct{ msg string }

func (e *configError) Error() string { return e.msg }

func newWebSearch(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "web_search", Group: Group, LongDescription: webSearchDoc,
		Description: "Search the web; returns titles, URLs and snippets from the configured providers (DuckDuckGo, Brave, SearXNG).",
	}, func(ctx context.Context, p WebSearchParams) (tools.Result, error) {
		p.Query = strings.TrimSpace(p.Query)
		if p.Query == "" {
			return tools.Errorf(tools.CodeValidation, "query: say what to search for"), nil
		}
		if p.Count < 0 || p.Count > maxSearchCount {
			return tools.Errorf(tools.CodeValidation, "count must be between 1 and %d", maxSearchCount), nil
		}
		if p.Count == 0 {
			p.Count = defaultSearchCount
		}
		cfg := SearchConfig{Providers: []string{ProviderDuckDuckGo}}
		if d.Search != nil {
			var err error
			if cfg, err = d.Search(ctx); err != nil {
				return tools.Result{}, fmt.Errorf("web_search settings: %w", err)
			}
		}
		if len(cfg.Providers) == 0 {
			return tools.Errorf(tools.CodeValidation, "no search provider is configured: set web.search_providers (e.g. duckduckgo, or searxng,duckduckgo with web.searxng_url)"), nil
		}
		return runChain(ctx, d, cfg, p), nil
	})
}

// runChain tries the providers in the user's order; the first that
// answers wins. A guard refusal of the whole call (network off) stops the
// chain at once.
func runChain(ctx context.Context, d Deps, cfg SearchConfig, p WebSearchParams) tools.Result {
	c := d.Guard.HTTPClient(netguard.WithTimeout(searchTimeout))
	var failures []string
	var firstSecurity *netguard.Refusal
	for _, name := range cfg.Providers {
		run, err := providerFor(d, cfg, name)
		if err == nil {
			var hits []searchResult
			hits, err = run(ctx, c, p.Query, p.Count)
			if err == nil {
				return searchReport(name, p.Query, hits, failures)
			}
		}
		if r, ok := netguard.AsRefusal(err); ok {
			if r.Rule == netguard.RuleNetworkOff {
				return guardResult(err)
			}
			if firstSecurity == nil {
				firstSecurity = r
			}
			if u, perr := url.Parse(cfg.SearXNGURL); name == ProviderSearXNG && perr == nil {
				err = fmt.Errorf("%w (a SearXNG on this machine or the LAN must be in web.allowed_hosts, e.g. warren settings set web.allowed_hosts %s)", err, u.Host)
			}
		}
		failures = append(failures, fmt.Sprintf("%s: %v", name, err))
	}
	msg := "no search provider answered:\n- " + strings.Join(failures, "\n- ") +
		"\nConfigure web.search_providers (order of providers), web.searxng_url, or web.brave_api_key."
	if firstSecurity != nil && len(failures) == 1 {
		return tools.Errorf(tools.CodeSecurity, "%s", msg)
	}
	return tools.Errorf(tools.CodeNetwork, "%s", msg)
}

func providerFor(d Deps, cfg SearchConfig, name string) (searcher, error) {
	switch name {
	case ProviderDuckDuckGo:
		return duckDuckGo(d.Endpoints.DuckDuckGo), nil
	case ProviderBrave:
		if cfg.BraveKey == "" {
			return nil, &configError{"no API key: set web.brave_api_key"}
		}
		return brave(d.Endpoints.Brave, cfg.BraveKey), nil
	case ProviderSearXNG:
		if cfg.SearXNGURL == "" {
			return nil, &configError{"no instance: set web.searxng_url (e.g. http://searx.lan:8888) and add its host to web.allowed_hosts"}
		}
		return searXNG(cfg.SearXNGURL), nil
	}
	return nil, &configError{fmt.Sprintf("unknown provider %q (known: %s)", name, strings.Join(SearchProviders, ", "))}
}

func searchReport(provider, query string, hits []searchResult, failures []string) tools.Result {
	var b strings.Builder
	fmt.Fprintf(&b, "%d result(s) for %q from %s.\n", len(hits), query, provider)
	if len(failures) > 0 {
		fmt.Fprintf(&b, "(Skipped: %s)\n", strings.Join(failures, "; "))
	}
	var list strings.Builder
	for i, h := range hits {
		fmt.Fprintf(&list, "%d. %s\n   %s\n", i+1, oneLine(h.Title), h.URL)
		if s := oneLine(h.Snippet); s != "" {
			fmt.Fprintf(&list, "   %s\n", s)
		}
	}
	if len(hits) == 0 {
		b.WriteString("No results.")
		return tools.Text(b.String())
	}
	b.WriteString(wrapUntrusted(provider+" search results", list.String()))
	return tools.Text(b.String())
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
