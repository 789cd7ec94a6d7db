package web

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
)

// userAgent names Warren honestly; some sites refuse clients without one.
const userAgent = "Mozilla/5.0 (compatible; Warren/1.0; +agent web tools)"

// statusError is a response the server refused.
type statusError struct {
	Code   int
	Status string
}

func (e *statusError) Error() string { return "the server answered " + e.Status }

// fetchPage GETs u through the guarded client, reading at most maxBytes of
// the body (Truncated says when there was more).
func fetchPage(ctx context.Context, c *http.Client, u string, maxBytes int64) (page, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return page{}, fmt.Errorf("bad URL %q: %w", u, err)
	}
	req.Header.Set("User-Agent", userAgent)
	req.Header.Set("Accept", "text/html,application/xhtml+xml,application/json;q=0.9,text/plain;q=0.8,application/pdf;q=0.7,*/*;q=0.5")
	resp, err := c.Do(req)
	if err != nil {
		return page{}, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode >= 400 {
		return page{}, &statusError{Code: resp.StatusCode, Status: resp.Status}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBytes+1))
	if err != nil {
		return page{}, fmt.Errorf("read %s: %w", u, err)
	}
	p := page{URL: resp.Request.URL.String(), ContentType: resp.Header.Get("Content-Type")}
	if int64(len(body)) > maxBytes {
		body, p.Truncated = body[:maxBytes], true
	}
	p.Body = body
	if p.ContentType == "" {
		p.ContentType = http.DetectContentType(body)
	}
	return p, nil
}

// mediaType is the lower-case media type of a Content-Type header.
func mediaType(ct string) string {
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		mt, _, _ = strings.Cut(ct, ";")
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

func isHTML(mt string) bool { return mt == "text/html" || mt == "application/xhtml+xml" }

func isJSON(mt string) bool { return mt == "application/json" || strings.HasSuffix(mt, "+json") }

func isText(mt string) bool {
	return strings.HasPrefix(mt, "text/") || mt == "application/xml" || strings.HasSuffix(mt, "+xml") ||
		mt == "application/javascript" || mt == "application/x-ndjson"
}
