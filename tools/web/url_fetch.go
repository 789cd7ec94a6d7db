package web

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/warren-dev/warren/policy/netguard"
	"github.com/warren-dev/warren/tools"
)

//go:embed url_fetch.md
var urlFetchDoc string

const (
	urlFetchDefaultBytes   = 1 << 20
	urlFetchMaxBytes       = 50 << 20
	urlFetchDefaultTimeout = 30
	urlFetchMaxTimeout     = 300
	cacheDirAlias          = "file_cache_dir/"
)

// blockedHeaders may not be set by the model: credentials come only from
// an auth profile, and the rest belong to the transport, which sets them
// truthfully itself.
var blockedHeaders = []string{
	"authorization", "proxy-authorization", "cookie", "cookie2",
	"host", "content-length", "transfer-encoding", "connection", "keep-alive",
	"upgrade", "te", "trailer", "proxy-connection",
}

// URLFetchParams are url_fetch's arguments (seed 003).
type URLFetchParams struct {
	URL            string            `json:"url" description:"The http(s) URL to request"`
	AuthProfile    string            `json:"auth_profile,omitempty" description:"An auth profile the user set up (warren auth list): Warren adds its credential, only for the profile's hosts; you never see it"`
	Method         string            `json:"method,omitempty" enum:"GET|POST|PUT|PATCH|DELETE|HEAD" description:"HTTP method (default GET)"`
	Headers        map[string]string `json:"headers,omitempty" description:"Request headers; Authorization and Cookie are refused"`
	Body           any               `json:"body,omitempty" description:"Request body: a string is sent as text/plain, anything else as JSON"`
	DownloadPath   string            `json:"download_path,omitempty" description:"Save the response body to this path under file_cache_dir/ and return its metadata instead of the body"`
	TimeoutSeconds int               `json:"timeout_seconds,omitempty" description:"Timeout in seconds (default 30, at most 300)"`
	MaxBytes       int64             `json:"max_bytes,omitempty" description:"Most bytes of the body to read (default 1 MiB, at most 50 MiB)"`
}

func newURLFetch(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "url_fetch", Group: Group, LongDescription: urlFetchDoc, Danger: tools.DangerWarning,
		Description: "Make an HTTP(S) request (any method, headers, body) and return the status, headers and body, or save the body under file_cache_dir/.",
	}, func(ctx context.Context, p URLFetchParams) (tools.Result, error) {
		req, dest, r, ok := buildRequest(ctx, d, &p)
		if !ok {
			return r, nil
		}
		opts := []netguard.ClientOption{netguard.WithTimeout(time.Duration(p.TimeoutSeconds) * time.Second)}
		if p.AuthProfile != "" {
			opts = append(opts, netguard.WithNoFollow()) // the credential goes nowhere else
		}
		c := d.Guard.HTTPClient(opts...)
		resp, err := c.Do(req)
		if err != nil {
			return guardResult(err), nil
		}
		defer func() { _ = resp.Body.Close() }()
		if dest != "" {
			return download(d, resp, dest, p), nil
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, p.MaxBytes+1))
		if err != nil {
			return guardResult(fmt.Errorf("read body: %w", err)), nil
		}
		return responseReport(resp, body, p.MaxBytes), nil
	})
}

// buildRequest checks the arguments and makes the request; ok is false
// with the error result when the model must change something.
func buildRequest(ctx context.Context, d Deps, p *URLFetchParams) (*http.Request, string, tools.Result, bool) {
	fail := func(code tools.ErrorCode, format string, a ...any) (*http.Request, string, tools.Result, bool) {
		return nil, "", tools.Errorf(code, format, a...), false
	}
	p.Method = strings.ToUpper(cmpOr(p.Method, http.MethodGet))
	if !slices.Contains([]string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"}, p.Method) {
		return fail(tools.CodeValidation, "method %q: use GET, POST, PUT, PATCH, DELETE or HEAD", p.Method)
	}
	switch {
	case p.TimeoutSeconds < 0 || p.TimeoutSeconds > urlFetchMaxTimeout:
		return fail(tools.CodeValidation, "timeout_seconds must be between 1 and %d", urlFetchMaxTimeout)
	case p.MaxBytes < 0 || p.MaxBytes > urlFetchMaxBytes:
		return fail(tools.CodeValidation, "max_bytes must be between 1 and %d", urlFetchMaxBytes)
	}
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = urlFetchDefaultTimeout
	}
	if p.MaxBytes == 0 {
		p.MaxBytes = urlFetchDefaultBytes
	}
	u, err := url.Parse(strings.TrimSpace(p.URL))
	if err != nil || !u.IsAbs() {
		return fail(tools.CodeValidation, "url %q is not an absolute http(s) URL", p.URL)
	}
	if err := d.Guard.CheckURL(ctx, u); err != nil {
		r := guardResult(err)
		return nil, "", r, false
	}
	for k, v := range p.Headers {
		lk := strings.ToLower(strings.TrimSpace(k))
		if slices.Contains(blockedHeaders, lk) || strings.HasPrefix(lk, "proxy-") {
			return fail(tools.CodeSecurity, "header %q may not be set by a tool call (credentials come from an auth profile; transport headers are set by Warren)", k)
		}
		if lk == "" || strings.ContainsAny(k+v, "\r\n\x00") {
			return fail(tools.CodeValidation, "header %q: names and values may not be empty or hold line breaks", k)
		}
	}
	dest := ""
	if p.DownloadPath != "" {
		if dest, err = cachePath(d.CacheDir, p.DownloadPath); err != nil {
			return fail(tools.CodeSecurity, "%v", err)
		}
	}
	body, ctype, err := encodeBody(p.Body)
	if err != nil {
		return fail(tools.CodeValidation, "%v", err)
	}
	req, err := http.NewRequestWithContext(ctx, p.Method, u.String(), body)
	if err != nil {
		return fail(tools.CodeValidation, "request: %v", err)
	}
	req.Header.Set("User-Agent", userAgent)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	for k, v := range p.Headers {
		req.Header.Set(k, v)
	}
	if p.AuthProfile != "" {
		if r, ok := addCredential(ctx, d, req, p); !ok {
			return nil, "", r, false
		}
	}
	return req, dest, tools.Result{}, true
}

// addCredential puts the auth profile's header on req, never replacing a
// header the model set (that would hide which value was sent).
func addCredential(ctx context.Context, d Deps, req *http.Request, p *URLFetchParams) (tools.Result, bool) {
	if d.Auth == nil {
		return tools.Errorf(tools.CodeValidation, "auth profiles are not available here"), false
	}
	header, value, err := d.Auth.Credential(ctx, p.AuthProfile, req.URL)
	var refusal *AuthRefusal
	if errors.As(err, &refusal) {
		return tools.Errorf(refusal.Code, "%s", refusal.Msg), false
	}
	if err != nil {
		return tools.Errorf(tools.CodeExecution, "auth profile %s: %v", p.AuthProfile, err), false
	}
	for k := range p.Headers {
		if strings.EqualFold(strings.TrimSpace(k), header) {
			return tools.Errorf(tools.CodeSecurity, "header %q comes from auth profile %s; do not set it yourself", k, p.AuthProfile), false
		}
	}
	req.Header.Set(header, value)
	return tools.Result{}, true
}

func cmpOr(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return strings.TrimSpace(a)
	}
	return b
}

// encodeBody sends a string as text and anything else as JSON.
func encodeBody(b any) (io.Reader, string, error) {
	switch v := b.(type) {
	case nil:
		return nil, "", nil
	case string:
		return strings.NewReader(v), "text/plain; charset=utf-8", nil
	}
	js, err := json.Marshal(b)
	if err != nil {
		return nil, "", fmt.Errorf("body: %v", err)
	}
	return bytes.NewReader(js), "application/json", nil
}

// cachePath resolves download_path inside the cache folder; nothing may
// escape it.
func cachePath(cacheDir, p string) (string, error) {
	if cacheDir == "" {
		return "", fmt.Errorf("download_path: no cache folder is configured")
	}
	p = strings.TrimPrefix(filepath.ToSlash(p), cacheDirAlias)
	clean := path.Clean("/" + p)[1:]
	if clean == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "/") || clean != p {
		return "", fmt.Errorf("download_path %q: give a plain relative path under file_cache_dir/ (no .., no absolute path)", p)
	}
	return clean, nil
}

// download streams the body into the cache folder through os.Root, so a
// symbolic link planted there cannot carry the file elsewhere.
func download(d Deps, resp *http.Response, rel string, p URLFetchParams) tools.Result {
	if err := os.MkdirAll(d.CacheDir, 0o700); err != nil {
		return tools.Errorf(tools.CodeIO, "cache folder: %v", err)
	}
	root, err := os.OpenRoot(d.CacheDir)
	if err != nil {
		return tools.Errorf(tools.CodeIO, "cache folder: %v", err)
	}
	defer func() { _ = root.Close() }()
	if dir := path.Dir(rel); dir != "." {
		if err := root.MkdirAll(dir, 0o700); err != nil {
			return tools.Errorf(tools.CodeIO, "download_path: %v", err)
		}
	}
	f, err := root.OpenFile(rel, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return tools.Errorf(tools.CodeIO, "download_path: %v", err)
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(resp.Body, p.MaxBytes+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return guardResult(fmt.Errorf("download: %w", err))
	}
	if n > p.MaxBytes {
		_ = root.Remove(rel)
		return tools.Errorf(tools.CodeValidation, "the body is larger than max_bytes (%d); nothing was saved (raise max_bytes, at most %d)", p.MaxBytes, urlFetchMaxBytes)
	}
	return tools.Text(fmt.Sprintf("HTTP %s\nSaved %d bytes to %s%s\nContent-Type: %s\nSHA-256: %s",
		resp.Status, n, cacheDirAlias, rel, resp.Header.Get("Content-Type"), hex.EncodeToString(h.Sum(nil))))
}

// shownHeaders are the response headers worth the model's attention.
var shownHeaders = []string{"Content-Type", "Content-Length", "Location", "Last-Modified", "ETag", "Retry-After"}

func responseReport(resp *http.Response, body []byte, maxBytes int64) tools.Result {
	var b strings.Builder
	fmt.Fprintf(&b, "HTTP %s\n", resp.Status)
	for _, h := range shownHeaders {
		if v := resp.Header.Get(h); v != "" {
			fmt.Fprintf(&b, "%s: %s\n", h, v)
		}
	}
	if resp.Request != nil && resp.Request.URL != nil {
		fmt.Fprintf(&b, "Final-URL: %s\n", resp.Request.URL.Redacted())
	}
	truncated := int64(len(body)) > maxBytes
	if truncated {
		body = body[:maxBytes]
		fmt.Fprintf(&b, "(body cut at max_bytes=%d)\n", maxBytes)
	}
	mt := mediaType(resp.Header.Get("Content-Type"))
	switch {
	case len(body) == 0:
		b.WriteString("(empty body)")
	case isText(mt) || isJSON(mt) || isHTML(mt) || (mt == "" && utf8.Valid(body)):
		b.WriteString("\n" + wrapUntrusted(resp.Request.URL.Redacted(), toUTF8(body)))
	default:
		fmt.Fprintf(&b, "(binary body, %d bytes: use download_path to save it)", len(body))
	}
	r := tools.Text(b.String())
	if resp.StatusCode >= 400 {
		r = tools.Errorf(tools.CodeNetwork, "%s", b.String())
	}
	return r
}
