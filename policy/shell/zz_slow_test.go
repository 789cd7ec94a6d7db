package shell

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestZZSlow(t *testing.T) {
	dir := "/root/.cache/go-build/fuzz/github.com/warren-dev/warren/policy/shell/FuzzAnalyze"
	ents, _ := os.ReadDir(dir)
	type r struct{ d time.Duration; n int; s string }
	var rs []r
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		lines := strings.SplitN(string(b), "\n", 2)
		body := strings.TrimSpace(lines[1])
		body = strings.TrimSuffix(strings.TrimPrefix(body, "string("), ")")
		s, err := strconv.Unquote(body)
		if err != nil { continue }
		st := time.Now()
		Analyze(s)
		rs = append(rs, r{time.Since(st), len(s), s})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].d > rs[j].d })
	for _, x := range rs[:5] {
		t.Logf("%v len=%d %.80q", x.d, x.n, x.s)
	}
}
