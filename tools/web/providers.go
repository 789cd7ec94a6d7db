package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/PuerkitoBio/goquery"
)

// getSearch sends one provider request and returns its capped body.
func getSearch(c *http.Client, req *http.Request) ([]byte, error) {
	req.Header.Set("User-Agent", userAgent)
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxSearchBody))
	if err != nil {
		return nil, fmt.Errorf("read answer: %w", err)
	}
	if resp.StatusCode >= 400 {
		return nil, &statusError{Code: resp.StatusCode, Status: resp.Status}
	}
	return body, nil
}

// duckDuckGo scrapes DuckDuckGo's no-JavaScript result page.
func duckDuckGo(endpoint string) searcher {
	return func(ctx context.Context, c *http.Client, query string, count int) ([]searchResult, error) {
		form := url.Values{"q": {query}, "kl": {"wt-wt"}}
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		body, err := getSearch(c, req)
		if err != nil {
			return nil, err
		}
		doc, err := goquery.NewDocumentFromReader(strings.NewReader(string(body)))
		if err != nil {
			return nil, fmt.Errorf("parse result page: %w", err)
		}
		if doc.Find(".anomaly-modal__title, form#challenge-form").Length() > 0 {
			return nil, fmt.Errorf("DuckDuckGo asked for a bot check; try again later or configure another provider")
		}
		var out []searchResult
		doc.Find(".result").EachWithBreak(func(_ int, s *goquery.Selection) bool {
			if s.HasClass("result--ad") || len(out) >= count {
				return len(out) < count
			}
			a := s.Find("a.result__a").First()
			link := ddgTarget(a.AttrOr("href", ""))
			if link == "" {
				return true
			}
			out = append(out, searchResult{
				Title: strings.TrimSpace(a.Text()), URL: link,
				Snippet: strings.TrimSpace(s.Find(".result__snippet").First().Text()),
			})
			return true
		})
		if len(out) == 0 && doc.Find(".no-results").Length() == 0 && doc.Find(".result").Length() == 0 &&
			!strings.Contains(string(body), "No results") {
			return nil, fmt.Errorf("the result page had an unknown layout")
		}
		return out, nil
	}
}

// ddgTarget unwraps DuckDuckGo's redirect links (/l/?uddg=<target>).
func ddgTarget(href string) string {
	if href == "" {
		return ""
	}
	u, err := url.Parse(href)
	if err != nil {
		return ""
	}
	if t := u.Query().Get("uddg"); t != "" {
		return t
	}
	if u.Scheme == "http" || u.Scheme == "https" {
		return u.String()
	}
	return ""
}

// brave queries the Brave Search API.
func brave(endpoint, key string) searcher {
	return func(ctx context.Context, c *http.Client, query string, count int) ([]searchResult, error) {
		u, err := url.Parse(endpoint)
		if err != nil {
			return nil, fmt.Errorf("brave endpoint: %w", err)
		}
		u.RawQuery = url.Values{"q": {query}, "count": {strconv.Itoa(count)}}.Encode()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("X-Subscription-Token", key)
		body, err := getSearch(c, req)
		if err != nil {
			return nil, err
		}
		var ans struct {
			Web struct {
				Results []struct {
					Title       string `json:"title"`
					URL         string `json:"url"`
					Description string `json:"description"`
				} `json:"results"`
			} `json:"web"`
		}
		if err := json.Unmarshal(body, &ans); err != nil {
			return nil, fmt.Errorf("brave answer is not the expected JSON: %w", err)
		}
		var out []searchResult
		for _, r := range ans.Web.Results {
			if len(out) == count {
				break
			}
			out = append(out, searchResult{Title: r.Title, URL: r.URL, Snippet: stripTags(r.Description)})
		}
		return out, nil
	}
}

// searXNG queries a SearXNG instance's JSON API.
func searXNG(base string) searcher {
	return func(ctx context.Context, c *http.Client, query string, count int) ([]searchResult, error) {
		u, err := url.Parse(strings.TrimRight(base, "/") + "/search")
		if err != nil {
			return nil, fmt.Errorf("web.searxng_url: %w", err)
		}
		u.RawQuery = url.Values{"q": {query}, "format": {"json"}}.Encode()
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/json")
		body, err := getSearch(c, req)
		if err != nil {
			if se, ok := errors.AsType[*statusError](err); ok && se.Code == http.StatusForbidden {
				return nil, fmt.Errorf("%w (enable the json format in the instance's settings.yml: search.formats)", err)
			}
			return nil, err
		}
		var ans struct {
			Results []struct {
				Title   string `json:"title"`
				URL     string `json:"url"`
				Content string `json:"content"`
			} `json:"results"`
		}
		if err := json.Unmarshal(body, &ans); err != nil {
			return nil, fmt.Errorf("SearXNG answer is not JSON (is format=json enabled?): %w", err)
		}
		var out []searchResult
		for _, r := range ans.Results {
			if len(out) == count {
				break
			}
			out = append(out, searchResult{Title: r.Title, URL: r.URL, Snippet: r.Content})
		}
		return out, nil
	}
}

// stripTags removes the <strong> highlighting Brave puts in snippets.
func stripTags(s string) string {
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(s))
	if err != nil {
		return s
	}
	return doc.Text()
}
