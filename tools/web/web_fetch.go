package web

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/warren-dev/warren/tools"
)

//go:embed web_fetch.md
var webFetchDoc string

// Limits of web_fetch (seed 004).
const (
	maxFetchURLs     = 10
	defaultMaxChars  = 50_000
	maxMaxChars      = 200_000
	maxFetchBytes    = 5 << 20 // raw bytes read per URL before extraction
	fetchTimeout     = 30 * time.Second
	fetchConcurrency = 4
)

// WebFetchParams are web_fetch's arguments.
type WebFetchParams struct {
	URLs     []string `json:"urls" description:"One to 10 http(s) URLs to fetch"`
	Selector string   `json:"selector,omitempty" description:"CSS selector of the part of an HTML page to return (default: the main content, found automatically)"`
	Format   string   `json:"format,omitempty" enum:"markdown|text|html" description:"Output for HTML pages: markdown (default), text or html"`
	MaxChars int      `json:"max_chars,omitempty" description:"Characters returned per URL (default 50000, at most 200000)"`
}

// fetchOutcome is one URL's result.
type fetchOutcome struct {
	url     string
	title   string
	ctype   string
	content string
	notes   []string
	fail    *tools.Result
}

func newWebFetch(d Deps) (tools.Tool, error) {
	c := &cache{db: d.DB, ttl: d.CacheTTL, now: d.Now}
	return tools.New(tools.Spec{
		Name: "web_fetch", Group: Group, LongDescription: webFetchDoc,
		Description: "Fetch up to 10 web pages and return their readable content (Markdown by default), labelled as untrusted external content.",
	}, func(ctx context.Context, p WebFetchParams) (tools.Result, error) {
		if r, ok := checkFetchParams(&p); !ok {
			return r, nil
		}
		outs := make([]fetchOutcome, len(p.URLs))
		sem := make(chan struct{}, fetchConcurrency)
		var wg sync.WaitGroup
		for i, u := range p.URLs {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				outs[i] = fetchOne(ctx, d, c, u, p)
			})
		}
		wg.Wait()
		return fetchReport(outs), nil
	})
}

func checkFetchParams(p *WebFetchParams) (tools.Result, bool) {
	switch {
	case len(p.URLs) == 0:
		return tools.Errorf(tools.CodeValidation, "urls: give at least one URL"), false
	case len(p.URLs) > maxFetchURLs:
		return tools.Errorf(tools.CodeValidation, "urls: at most %d URLs per call (got %d)", maxFetchURLs, len(p.URLs)), false
	case p.MaxChars < 0 || p.MaxChars > maxMaxChars:
		return tools.Errorf(tools.CodeValidation, "max_chars must be between 1 and %d", maxMaxChars), false
	}
	if p.MaxChars == 0 {
		p.MaxChars = defaultMaxChars
	}
	p.Format = strings.ToLower(strings.TrimSpace(p.Format))
	switch p.Format {
	case "":
		p.Format = formatMarkdown
	case formatMarkdown, formatText, formatHTML:
	default:
		return tools.Errorf(tools.CodeValidation, "format %q: use markdown, text or html", p.Format), false
	}
	return tools.Result{}, true
}

func fetchOne(ctx context.Context, d Deps, c *cache, raw string, p WebFetchParams) fetchOutcome {
	out := fetchOutcome{url: raw}
	fail := func(r tools.Result) fetchOutcome { out.fail = &r; return out }
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || !u.IsAbs() {
		return fail(tools.Errorf(tools.CodeValidation, "%q is not an absolute http(s) URL", raw))
	}
	// The guard runs before the cache: a page cached for an agent whose
	// network was on, or from a host since taken off the allow list, is
	// not served to a call the guard would refuse.
	if err := d.Guard.CheckURL(ctx, u); err != nil {
		return fail(guardResult(err))
	}
	key := u.String()
	pg, hit, err := c.get(ctx, key)
	if err != nil {
		return fail(tools.Errorf(tools.CodeIO, "%v", err))
	}
	if hit {
		out.notes = append(out.notes, "from cache, fetched "+pg.FetchedAt.UTC().Format(time.RFC3339))
	} else {
		fctx, cancel := context.WithTimeout(ctx, fetchTimeout)
		defer cancel()
		pg, err = fetchPage(fctx, d.Guard.HTTPClient(), key, maxFetchBytes)
		if err != nil {
			var se *statusError
			if errors.As(err, &se) {
				return fail(tools.Errorf(tools.CodeNetwork, "%s", se.Error()))
			}
			return fail(guardResult(err))
		}
		if err := c.put(ctx, key, pg); err != nil {
			out.notes = append(out.notes, err.Error())
		}
	}
	if pg.Truncated {
		out.notes = append(out.notes, fmt.Sprintf("the response was longer than %d bytes; only the start was read", maxFetchBytes))
	}
	if pg.URL != key {
		out.notes = append(out.notes, "redirected to "+pg.URL)
	}
	return convert(ctx, d, out, pg, p)
}

// convert turns a fetched page into text by its media type.
func convert(ctx context.Context, d Deps, out fetchOutcome, pg page, p WebFetchParams) fetchOutcome {
	mt := mediaType(pg.ContentType)
	out.ctype = mt
	final, _ := url.Parse(pg.URL)
	switch {
	case isHTML(mt):
		ex, err := extractHTML(pg.Body, pg.ContentType, final, p.Selector, p.Format)
		if err != nil {
			r := tools.Errorf(tools.CodeValidation, "%v", err)
			out.fail = &r
			return out
		}
		out.title, out.content = ex.Title, ex.Content
	case isJSON(mt), isText(mt):
		out.content = toUTF8(pg.Body)
		if p.Selector != "" {
			out.notes = append(out.notes, "selector ignored: not an HTML page")
		}
		if isJSON(mt) && !json.Valid(pg.Body) && !pg.Truncated {
			out.notes = append(out.notes, "the body is not valid JSON")
		}
	case mt == "application/pdf":
		if d.PDFText == nil {
			r := tools.Errorf(tools.CodeExecution, "PDF text extraction not available in this build (save the file with url_fetch download_path instead)")
			out.fail = &r
			return out
		}
		text, err := d.PDFText(ctx, pg.Body)
		if err != nil {
			r := tools.Errorf(tools.CodeExecution, "PDF text: %v", err)
			out.fail = &r
			return out
		}
		out.content = text
	default:
		r := tools.Errorf(tools.CodeValidation, "content type %q is not text (use url_fetch with download_path to save it)", mt)
		out.fail = &r
		return out
	}
	if n := utf8.RuneCountInString(out.content); n > p.MaxChars {
		out.content = string([]rune(out.content)[:p.MaxChars])
		out.notes = append(out.notes, fmt.Sprintf("truncated to %d of %d characters (raise max_chars or use a selector)", p.MaxChars, n))
	}
	return out
}

func toUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD")
}

// fetchReport lists every URL's content and every failure; the call fails
// only when every URL did, with the first failure's code.
func fetchReport(outs []fetchOutcome) tools.Result {
	var b, failed strings.Builder
	ok := 0
	var first *tools.Result
	for _, o := range outs {
		if o.fail != nil {
			if first == nil {
				first = o.fail
			}
			fmt.Fprintf(&failed, "- %s: %s\n", o.url, o.fail.ForLLM)
			continue
		}
		ok++
		fmt.Fprintf(&b, "## %s\n", o.url)
		if o.title != "" {
			fmt.Fprintf(&b, "Title: %s\n", strings.ReplaceAll(o.title, "\n", " "))
		}
		fmt.Fprintf(&b, "Content-Type: %s\n", o.ctype)
		if len(o.notes) > 0 {
			fmt.Fprintf(&b, "Notes: %s\n", strings.Join(o.notes, "; "))
		}
		b.WriteString(wrapUntrusted(o.url, o.content))
		b.WriteString("\n\n")
	}
	if ok == 0 && first != nil {
		if len(outs) == 1 {
			return *first
		}
		r := tools.Errorf(first.Code(), "no URL could be fetched:\n%s", strings.TrimRight(failed.String(), "\n"))
		return r
	}
	head := fmt.Sprintf("Fetched %d of %d URL(s).\n\n", ok, len(outs))
	if failed.Len() > 0 {
		b.WriteString("Failed (the others are above):\n" + failed.String())
	}
	return tools.Text(head + strings.TrimRight(b.String(), "\n"))
}
