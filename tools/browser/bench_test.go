package browser

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/approvals"
)

// BenchmarkSnapshot reads the accessibility snapshot of a page with 300
// links, 100 buttons and 50 fields.
func BenchmarkSnapshot(b *testing.B) {
	var page strings.Builder
	page.WriteString("<!doctype html><title>Big</title>")
	for i := range 300 {
		fmt.Fprintf(&page, `<p>Paragraph %d with <a href="/p%d">link %d</a></p>`, i, i, i)
	}
	for i := range 100 {
		fmt.Fprintf(&page, `<button>Button %d</button>`, i)
	}
	for i := range 50 {
		fmt.Fprintf(&page, `<label>Field %d <input name="f%d"></label>`, i, i)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, page.String())
	}))
	defer srv.Close()
	r := newRig(b, allowList{hostOf(srv.URL): true}, approvals.Deny, 0)
	r.ok(b, map[string]any{"action": "open", "url": srv.URL})
	b.ResetTimer()
	for b.Loop() {
		res := r.call(b, map[string]any{"action": "snapshot", "max_chars": 40000})
		if res.IsError {
			b.Fatal(res.ForLLM)
		}
		b.ReportMetric(float64(len(res.ForLLM)), "chars")
	}
}
