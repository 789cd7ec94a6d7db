package scrub

import (
	"fmt"
	"strings"
	"testing"
)

// benchText builds about size bytes of what tools print: Go source, JSON API responses, log
// lines, shell output, with a few secrets (one block in 64 carries them).
func benchText(size int, secrets bool) string {
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `func (s *Server) handle%d(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 5*time.Second)
	defer cancel()
	maxTokens := cfg.MaxTokens // budget, not a secret
	if err := s.store.Save(ctx, item); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
}
{"id":"550e8400-e29b-41d4-a716-44665544%04d","name":"build-%d","status":"ok","count":%d,"tags":["ci","linux"],"url":"https://example.com/api/v1/items/%d?page=2","max_tokens":4096}
2025-03-14T10:22:%02d.123Z INFO request_id=req-%d method=GET path=/api/v1/sessions/%d status=200 duration=12ms commit=9fceb02d0ae598e95dc970b74767f19372d61af8
$ ls -la /home/dev/project
drwxr-xr-x  5 dev dev  4096 Mar 14 10:22 .
-rw-r--r--  1 dev dev  1234 Mar 14 10:22 go.mod
The task-runner retries failed steps; see docs/risk-assessment.md for details.
`, i, i%10000, i, i, i, i%60, i, i)
		if secrets && i%64 == 0 {
			fmt.Fprintf(&b, `OPENAI_API_KEY=sk-proj-Ab3dEfGh1jKlMnOpQrStUvWxYz%010d
{"password": "hunter2-%d", "api_key":"k-%d"}
DATABASE_URL=postgres://app:s3cret%d@db:5432/app
ssh deploy@10.0.0.7 with token ghp_abcdefghijklmnopqrstuvwxyz01234567%02d
`, i, i, i, i, i%100)
		}
	}
	return b.String()
}

func benchmarkScrub(b *testing.B, text string) {
	s := New()
	s.AddValues("10.0.0.7", "hunter2-deploy-key")
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		s.Scrub(text)
	}
}

// BenchmarkScrub1MB is the number that matters: every tool result goes through Scrub.
func BenchmarkScrub1MB(b *testing.B) { benchmarkScrub(b, benchText(1<<20, true)) }

// BenchmarkScrub1MBClean is the common case, output without secrets (one pass, no copy).
func BenchmarkScrub1MBClean(b *testing.B) { benchmarkScrub(b, benchText(1<<20, false)) }

// BenchmarkScrubHostile shows repetitive input does not go quadratic.
func BenchmarkScrubHostile(b *testing.B) {
	for _, in := range hostileInputs(1 << 20) {
		b.Run(strings.NewReplacer("\\", "bs", "\"", "q", "/", "sl").Replace(in[:min(len(in), 8)]),
			func(b *testing.B) { benchmarkScrub(b, in) })
	}
}
