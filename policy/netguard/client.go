package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"syscall"
	"time"
)

// ClientOption tunes a guarded client.
type ClientOption func(*clientConfig)

type clientConfig struct {
	timeout      time.Duration
	maxRedirects int
	noFollow     bool
}

// WithTimeout bounds a whole request, redirects and body included.
func WithTimeout(d time.Duration) ClientOption { return func(c *clientConfig) { c.timeout = d } }

// WithMaxRedirects sets how many redirects are followed (at most
// MaxRedirects; 0 follows none).
func WithMaxRedirects(n int) ClientOption {
	return func(c *clientConfig) { c.maxRedirects = min(max(n, 0), MaxRedirects) }
}

// WithNoFollow returns a redirect as the response instead of following it
// (a request carrying a credential must not carry it anywhere else).
func WithNoFollow() ClientOption { return func(c *clientConfig) { c.noFollow = true } }

// HTTPClient returns a client whose every connection goes through the
// guard's dialer and whose every redirect is checked again. It never uses
// a proxy from the environment: a proxy would connect where the guard
// cannot see.
func (g *Guard) HTTPClient(opts ...ClientOption) *http.Client {
	cfg := clientConfig{timeout: 60 * time.Second, maxRedirects: MaxRedirects}
	for _, o := range opts {
		o(&cfg)
	}
	return &http.Client{
		Transport: guardedTransport{g: g},
		Timeout:   cfg.timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if cfg.noFollow {
				return http.ErrUseLastResponse
			}
			if len(via) > cfg.maxRedirects {
				return refusal(RuleRedirects, redact(req.URL), fmt.Sprintf("more than %d redirects", cfg.maxRedirects))
			}
			_, _, err := g.checkStatic(req.Context(), req.URL)
			return err
		},
	}
}

// newTransport is the connection pool behind every guarded client. A
// change of the allow list replaces it (SetAllowedHosts), so no connection
// opened under the old list is reused.
func (g *Guard) newTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 nil,
		DialContext:           g.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          32,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       30 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 30 * time.Second,
	}
}

// guardedTransport checks every request (a redirect is a new request)
// before it may reuse a pooled connection, so a switched-off agent or a
// bad scheme never gets through on a connection another call opened.
type guardedTransport struct {
	g *Guard
}

func (t guardedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if _, _, err := t.g.checkStatic(req.Context(), req.URL); err != nil {
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, err
	}
	return t.g.transport.Load().RoundTrip(req)
}

// DialContext resolves addr through the guard and connects only to
// addresses it allows; the socket's Control hook checks the address being
// connected once more, so nothing reaches connect() unjudged.
func (g *Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	if err := g.networkOff(ctx); err != nil {
		return nil, err
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, refusal(RuleBadURL, addr, "no port")
	}
	key, _, _, err := hostKey(host)
	if err != nil {
		return nil, err
	}
	addrs, err := g.resolve(ctx, key, port)
	if err != nil {
		return nil, err
	}
	allowed := g.allowedHost(key, port)
	d := net.Dialer{Timeout: g.dialTimeout, Control: func(_, raddr string, _ syscall.RawConn) error {
		if allowed {
			return nil
		}
		ap, err := netip.ParseAddrPort(raddr)
		if err != nil {
			return refusal(RuleBadURL, raddr, "unparsable socket address")
		}
		if r := CheckAddr(ap.Addr().Unmap()); r != "" {
			return refusal(r, raddr, "")
		}
		return nil
	}}
	var errs []error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, network, net.JoinHostPort(a.String(), port))
		if err == nil {
			return c, nil
		}
		if r, ok := AsRefusal(err); ok {
			return nil, r
		}
		errs = append(errs, err)
	}
	return nil, fmt.Errorf("connect %s: %w", net.JoinHostPort(key, port), errors.Join(errs...))
}

// portOf is the URL port or the scheme's default.
func portOf(scheme, port string) string {
	if port != "" {
		return port
	}
	if scheme == "https" {
		return strconv.Itoa(443)
	}
	return strconv.Itoa(80)
}
