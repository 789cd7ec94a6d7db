package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"sync"
	"time"
)

// DialFunc opens one connection (netguard's Guard.DialContext, which
// checks every resolved address at connect time).
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// proxy is Chromium's only way out: the browser runs with --proxy-server
// pointing here, loopback included, so every connection it opens is
// judged and dialed by Warren. It covers what request interception cannot
// see (WebSockets, and the address a name resolves to when the request
// leaves: with netguard's dialer, DNS rebinding after the check fails).
type proxy struct {
	ln   net.Listener
	srv  *http.Server
	in   *interceptor
	dial DialFunc
	rp   *httputil.ReverseProxy

	mu      sync.Mutex
	tunnels map[net.Conn]struct{}
}

func startProxy(ctx context.Context, in *interceptor, dial DialFunc) (*proxy, error) {
	if dial == nil {
		d := &net.Dialer{Timeout: 15 * time.Second}
		dial = d.DialContext
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("browser proxy: %w", err)
	}
	p := &proxy{ln: ln, in: in, tunnels: map[net.Conn]struct{}{}}
	p.dial = func(ctx context.Context, network, addr string) (net.Conn, error) {
		return dial(in.callContext(ctx), network, addr)
	}
	p.rp = &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {}, // already absolute-form
		Transport: &http.Transport{
			DialContext:         p.dial,
			MaxIdleConnsPerHost: 4,
			IdleConnTimeout:     30 * time.Second,
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			p.refuse(r.URL.String(), err)
			http.Error(w, "refused", http.StatusBadGateway)
		},
	}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = p.srv.Serve(ln) }()
	return p, nil
}

// addr is the proxy's URL for --proxy-server.
func (p *proxy) addr() string { return "http://" + p.ln.Addr().String() }

func (p *proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.tunnel(w, r)
		return
	}
	if !r.URL.IsAbs() {
		http.Error(w, "this is Warren's browser proxy", http.StatusBadRequest)
		return
	}
	if err := p.in.check(r.Context(), r.URL.String()); err != nil {
		p.refuse(r.URL.String(), err)
		http.Error(w, "refused by Warren's network guard", http.StatusForbidden)
		return
	}
	p.rp.ServeHTTP(w, r)
}

// tunnel serves CONNECT (https and WebSockets): the host is checked as an
// https URL, then the dialer checks the address it connects to.
func (p *proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	target := (&url.URL{Scheme: "https", Host: r.Host}).String()
	if err := p.in.check(r.Context(), target); err != nil {
		p.refuse(target, err)
		http.Error(w, "refused by Warren's network guard", http.StatusForbidden)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	up, err := p.dial(ctx, "tcp", r.Host)
	cancel()
	if err != nil {
		p.refuse(target, err)
		http.Error(w, "refused", http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		_ = up.Close()
		http.Error(w, "no tunnel", http.StatusInternalServerError)
		return
	}
	down, _, err := hj.Hijack()
	if err != nil {
		_ = up.Close()
		return
	}
	if _, err := io.WriteString(down, "HTTP/1.1 200 Connection Established\r\n\r\n"); err != nil {
		_ = up.Close()
		_ = down.Close()
		return
	}
	p.track(up, down)
	go p.pipe(up, down)
}

func (p *proxy) track(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		p.tunnels[c] = struct{}{}
	}
}

// pipe copies both ways until either side ends, then closes both.
func (p *proxy) pipe(a, b net.Conn) {
	done := make(chan struct{}, 2)
	cp := func(dst, src net.Conn) {
		_, _ = io.Copy(dst, src)
		done <- struct{}{}
	}
	go cp(a, b)
	go cp(b, a)
	<-done
	_ = a.Close()
	_ = b.Close()
	<-done
	p.mu.Lock()
	delete(p.tunnels, a)
	delete(p.tunnels, b)
	p.mu.Unlock()
}

// refuse records a refused connection for the model (dial errors of the
// guard included; a plain network failure is recorded too, as it did not
// happen).
func (p *proxy) refuse(target string, err error) {
	if errors.Is(err, context.Canceled) {
		return
	}
	p.in.record(target, err)
}

// close stops the proxy and every tunnel it holds.
func (p *proxy) close() {
	_ = p.srv.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.tunnels {
		_ = c.Close()
	}
}
