package web

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/tools"
)

// echoHandler answers with what it received, so the test sees exactly
// what url_fetch sent.
func echoHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/echo", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"v1"`)
		_ = json.NewEncoder(w).Encode(map[string]any{
			"method": r.Method, "ctype": r.Header.Get("Content-Type"), "x": r.Header.Get("X-Trace"),
			"auth": r.Header.Get("Authorization"), "cookie": r.Header.Get("Cookie"), "body": string(body),
		})
	})
	mux.HandleFunc("/blob", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write([]byte(strings.Repeat("\x00\x01rabbit", 100)))
	})
	mux.HandleFunc("/teapot", func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "short and stout", http.StatusTeapot)
	})
	mux.HandleFunc("/to-metadata", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/", http.StatusFound)
	})
	return mux
}

func TestURLFetchRequests(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, echoHandler(), nil)
	u := e.srv.URL
	cases := []struct {
		name string
		args map[string]any
		code tools.ErrorCode
		want []string
	}{
		{"get", map[string]any{"url": u + "/echo"}, "", []string{"HTTP 200 OK", `"method":"GET"`, `ETag: "v1"`, untrustedStart}},
		{"post json", map[string]any{"url": u + "/echo", "method": "POST", "body": map[string]any{"a": 1}, "headers": map[string]string{"X-Trace": "t1"}},
			"", []string{`"method":"POST"`, `"ctype":"application/json"`, `"body":"{\"a\":1}"`, `"x":"t1"`}},
		{"put text", map[string]any{"url": u + "/echo", "method": "PUT", "body": "hello"}, "", []string{`"ctype":"text/plain; charset=utf-8"`, `"body":"hello"`}},
		{"header ctype wins", map[string]any{"url": u + "/echo", "method": "POST", "body": "a=1", "headers": map[string]string{"Content-Type": "application/x-www-form-urlencoded"}},
			"", []string{`"ctype":"application/x-www-form-urlencoded"`}},
		{"authorization", map[string]any{"url": u + "/echo", "headers": map[string]string{"authorization": "Bearer x"}}, tools.CodeSecurity, []string{"auth profile"}},
		{"cookie", map[string]any{"url": u + "/echo", "headers": map[string]string{"Cookie": "s=1"}}, tools.CodeSecurity, []string{"Cookie"}},
		{"proxy header", map[string]any{"url": u + "/echo", "headers": map[string]string{"Proxy-Authorization": "x"}}, tools.CodeSecurity, nil},
		{"host header", map[string]any{"url": u + "/echo", "headers": map[string]string{"Host": "internal"}}, tools.CodeSecurity, nil},
		{"crlf", map[string]any{"url": u + "/echo", "headers": map[string]string{"X-A": "a\r\nX-B: b"}}, tools.CodeValidation, []string{"line breaks"}},
		{"method", map[string]any{"url": u + "/echo", "method": "TRACE"}, tools.CodeValidation, nil},
		{"binary", map[string]any{"url": u + "/blob"}, "", []string{"binary body, 800 bytes"}},
		{"max bytes", map[string]any{"url": u + "/echo", "max_bytes": 10}, "", []string{"body cut at max_bytes=10"}},
		{"status", map[string]any{"url": u + "/teapot"}, tools.CodeNetwork, []string{"418", "short and stout"}},
		{"redirect to metadata", map[string]any{"url": u + "/to-metadata"}, tools.CodeSecurity, []string{"rule link-local"}},
		{"octal loopback", map[string]any{"url": "http://0177.0.0.1/"}, tools.CodeSecurity, []string{"rule loopback"}},
		{"scheme", map[string]any{"url": "file:///etc/passwd"}, tools.CodeSecurity, []string{"rule scheme"}},
		{"timeout range", map[string]any{"url": u + "/echo", "timeout_seconds": 301}, tools.CodeValidation, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := e.call(t, "url_fetch", c.args, true)
			if r.Code() != c.code {
				t.Fatalf("code %q, want %q: %s", r.Code(), c.code, r.ForLLM)
			}
			mustContain(t, r.ForLLM, c.want...)
			mustNotContain(t, r.ForLLM, `"auth":"Bearer`, `"cookie":"s=1"`)
		})
	}
}

func TestURLFetchDownload(t *testing.T) {
	t.Parallel()
	e := newTestEnv(t, echoHandler(), nil)
	r := e.call(t, "url_fetch", map[string]any{"url": e.srv.URL + "/blob", "download_path": "file_cache_dir/dl/blob.bin"}, true)
	if r.IsError {
		t.Fatal(r.ForLLM)
	}
	mustContain(t, r.ForLLM, "Saved 800 bytes to file_cache_dir/dl/blob.bin", "SHA-256: ")
	b, err := os.ReadFile(filepath.Join(e.cacheDir, "dl", "blob.bin"))
	if err != nil || len(b) != 800 {
		t.Fatalf("downloaded file: %d bytes, %v", len(b), err)
	}
	for _, bad := range []string{"../escape", "/etc/x", "a/../../b", "file_cache_dir/../x", "", "a//b"} {
		if bad == "" {
			continue
		}
		r := e.call(t, "url_fetch", map[string]any{"url": e.srv.URL + "/blob", "download_path": bad}, true)
		if r.Code() != tools.CodeSecurity {
			t.Errorf("%q: %s", bad, r.ForLLM)
		}
	}
	// A symbolic link in the cache folder cannot carry the file out.
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(e.cacheDir, "link")); err != nil {
		t.Fatal(err)
	}
	r = e.call(t, "url_fetch", map[string]any{"url": e.srv.URL + "/blob", "download_path": "link/x.bin"}, true)
	if !r.IsError {
		t.Fatalf("wrote through a symlink: %s", r.ForLLM)
	}
	if _, err := os.Stat(filepath.Join(outside, "x.bin")); err == nil {
		t.Fatal("the file landed outside the cache folder")
	}
	// Too big: nothing is left behind.
	r = e.call(t, "url_fetch", map[string]any{"url": e.srv.URL + "/blob", "download_path": "big.bin", "max_bytes": 100}, true)
	mustContain(t, r.ForLLM, "larger than max_bytes")
	if _, err := os.Stat(filepath.Join(e.cacheDir, "big.bin")); err == nil {
		t.Fatal("a partial download was left")
	}
}
