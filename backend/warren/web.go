package warren

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warren-dev/warren/backend/doctext"
	"github.com/warren-dev/warren/policy/netguard"
	"github.com/warren-dev/warren/tools/web"
)

// Web settings (tools/web, policy/netguard).
const (
	SettingWebAllowedHosts    = "web.allowed_hosts"
	SettingWebSearchProviders = "web.search_providers"
	SettingWebSearXNGURL      = "web.searxng_url"
	SettingWebBraveKey        = "web.brave_api_key"
)

// checkAllowedHosts normalises web.allowed_hosts: host or host:port
// entries, comma-separated.
func checkAllowedHosts(v string) (string, error) {
	list, err := netguard.ParseAllowList(v)
	if err != nil {
		return "", err
	}
	return strings.Join(list, ","), nil
}

// checkSearchProviders normalises web.search_providers: known names, in
// the user's order, each once.
func checkSearchProviders(v string) (string, error) {
	var out []string
	for p := range strings.SplitSeq(v, ",") {
		p = strings.ToLower(strings.TrimSpace(p))
		if p == "" {
			continue
		}
		if !slices.Contains(web.SearchProviders, p) {
			return "", fmt.Errorf("unknown search provider %q (known: %s)", p, strings.Join(web.SearchProviders, ", "))
		}
		if slices.Contains(out, p) {
			return "", fmt.Errorf("search provider %q is listed twice", p)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return "", fmt.Errorf("name at least one search provider (%s)", strings.Join(web.SearchProviders, ", "))
	}
	return strings.Join(out, ","), nil
}

// checkSearXNGURL accepts an http(s) base URL without credentials.
func checkSearXNGURL(v string) (string, error) {
	v = strings.TrimSpace(v)
	u, err := url.Parse(v)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
		return "", fmt.Errorf("%q: give the instance's http(s) address, e.g. http://searx.lan:8888", v)
	}
	return strings.TrimRight(u.String(), "/"), nil
}

func checkSecretValue(v string) (string, error) {
	v = strings.TrimSpace(v)
	if strings.ContainsAny(v, "\r\n ") {
		return "", fmt.Errorf("the key may not hold spaces or line breaks")
	}
	return v, nil
}

// newNetGuard makes the one network guard every agent request goes
// through, with the user's allow list and the agents' network switch.
func (w *Warren) newNetGuard() error {
	hosts, err := netguard.ParseAllowList(w.settings.get(SettingWebAllowedHosts))
	if err != nil {
		return fmt.Errorf("setting %s: %w", SettingWebAllowedHosts, err)
	}
	w.netguard, err = netguard.New(netguard.Options{AllowedHosts: hosts, NetworkAllowed: web.NetworkAllowed})
	return err
}

// NetGuard is the network guard for agent requests (the browser's too).
func (w *Warren) NetGuard() *netguard.Guard { return w.netguard }

// applyAllowedHosts hands a changed allow list to the guard.
func (w *Warren) applyAllowedHosts() error {
	hosts, err := netguard.ParseAllowList(w.settings.get(SettingWebAllowedHosts))
	if err != nil {
		return err
	}
	return w.netguard.SetAllowedHosts(hosts)
}

// initWeb registers web_fetch, web_search and url_fetch.
func (w *Warren) initWeb() error {
	ts, err := web.Tools(web.Deps{
		Guard:    w.netguard,
		DB:       w.db.SQL(),
		Search:   w.webSearchConfig,
		CacheDir: filepath.Join(w.dataDir, "cache"),
		PDFText:  pdfText,
		Auth:     webAuth{w},
	})
	if err != nil {
		return err
	}
	return w.registry.RegisterAll(ts...)
}

// webSearchConfig reads the search settings for one web_search call.
func (w *Warren) webSearchConfig(context.Context) (web.SearchConfig, error) {
	key, err := w.secretSetting(SettingWebBraveKey)
	if err != nil {
		return web.SearchConfig{}, err
	}
	if key != "" {
		// A provider that echoes the key back (an error page, say) must
		// not hand it to the model.
		w.scrubber.AddValues(key)
	}
	return web.SearchConfig{
		Providers:  strings.Split(w.settings.get(SettingWebSearchProviders), ","),
		SearXNGURL: w.settings.get(SettingWebSearXNGURL),
		BraveKey:   key,
	}, nil
}

// pdfText is web_fetch's PDF reader: the same local extraction
// read_document and the memory import use (bounded against hostile files).
func pdfText(ctx context.Context, pdf []byte) (string, error) {
	t, err := doctext.ExtractBytes(ctx, pdf, "page.pdf", doctext.Options{Kind: doctext.KindPDF})
	if err != nil {
		return "", err
	}
	return t.Text, nil
}
