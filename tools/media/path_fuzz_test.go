package media

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzCheckAPIPath attacks openai_compat_call's path guard: an accepted
// path must keep the request on the provider's host, under its base path,
// with no dot segments even after decoding.
func FuzzCheckAPIPath(f *testing.F) {
	for _, s := range []string{"/v1/models", "/embeddings?x=1", "//evil/x", "/../x", "/%2e%2e/x", "/a/%2E./b", "http://h/x", "/a@evil/x", "/\t/x"} {
		f.Add(s)
	}
	p := Provider{BaseURL: "http://127.0.0.1:8080/api/v1"}
	f.Fuzz(func(t *testing.T, path string) {
		if checkAPIPath(path) != "" {
			return
		}
		u, err := url.Parse(endpoint(p, path))
		if err != nil {
			t.Fatalf("%q accepted but makes an unparsable URL: %v", path, err)
		}
		if u.Host != "127.0.0.1:8080" || !strings.HasPrefix(u.Path, "/api/v1/") && u.Path != "/api/v1" {
			t.Fatalf("%q leads to %s", path, u)
		}
		if dec, _ := url.PathUnescape(u.EscapedPath()); strings.Contains(dec, "/..") || strings.Contains(dec, "/./") {
			t.Fatalf("%q keeps a dot segment: %s", path, dec)
		}
	})
}
