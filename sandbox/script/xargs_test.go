//go:build unix

package script_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warren-dev/warren/sandbox/script"
)

// recorder allows everything and remembers what ran and what was opened.
type recorder struct {
	mu    sync.Mutex
	execs [][]string
	opens []string
	deny  func(argv []string) bool
}

func (r *recorder) Exec(_ context.Context, e script.Exec) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.execs = append(r.execs, e.Argv)
	if r.deny != nil && r.deny(e.Argv) {
		return errors.New("refused by the test")
	}
	return nil
}

func (r *recorder) Open(_ context.Context, _, path string, _ int) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.opens = append(r.opens, path)
	return nil
}

func runWith(t *testing.T, g script.Guard, src string) (ws string, code int, out string, err error) {
	t.Helper()
	ws = t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "victim", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	code, err = script.Run(ctx, script.Options{
		Script: src, Dir: ws, Env: []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + ws},
		Stdout: &stdout, Stderr: &stderr, Guard: g,
	})
	return ws, code, stdout.String() + stderr.String(), err
}

// xargs' commands are judged with the words they really get from stdin.
func TestXargsCommandsAreJudgedWithTheirInput(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		`printf '%s\n' -rf victim | xargs rm`,
		`printf '%s\0' -rf victim | xargs -0 rm`,
		`echo victim | xargs -I{} rm -rf {}`,
		`echo victim | xargs -n1 rm -rf`,
		`echo victim | busybox xargs rm -rf`,
		`echo '-rf victim' > list; xargs -a list rm`,
		`echo victim | xargs -r -t rm -rf`,
		`echo rm -rf victim | xargs sh -c '"$@"' x`,
		`echo rm -rf victim | xargs xargs`,
	} {
		ws, code, out, err := run(t, src)
		var ref *script.Refused
		if !victimAlive(t, ws) || !errors.As(err, &ref) || code != 126 {
			t.Errorf("%s: victim alive %v, code %d, err %v\n%s", src, victimAlive(t, ws), code, err, out)
		}
	}
}

func TestXargsBuildsCommandsLikeXargs(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		want [][]string
		out  string
	}{
		{`printf 'a b\nc\n' | xargs echo`, [][]string{{"echo", "a", "b", "c"}}, "a b c\n"},
		{`printf 'a b\nc\n' | xargs`, [][]string{{"echo", "a", "b", "c"}}, "a b c\n"},
		{`printf 'a b\nc\n' | xargs -n 2 echo`, [][]string{{"echo", "a", "b"}, {"echo", "c"}}, "a b\nc\n"},
		{`printf 'a b\nc\n' | xargs -L1 echo`, [][]string{{"echo", "a", "b"}, {"echo", "c"}}, "a b\nc\n"},
		{`printf '"x y" z\\ w\n' | xargs printf '[%s]'`, [][]string{{"printf", "[%s]", "x y", "z w"}}, "[x y][z w]"},
		{`printf 'a b\0c\0' | xargs -0 printf '[%s]'`, [][]string{{"printf", "[%s]", "a b", "c"}}, "[a b][c]"},
		{`printf 'a,b' | xargs -d, printf '[%s]'`, [][]string{{"printf", "[%s]", "a", "b"}}, "[a][b]"},
		{`printf ' one two\nthree\n' | xargs -I % echo 'x %'`, [][]string{{"echo", "x one two"}, {"echo", "x three"}}, "x one two\nx three\n"},
		{`printf 'a\nSTOP\nb\n' | xargs -E STOP echo`, [][]string{{"echo", "a"}}, "a\n"},
		{`true | xargs -r echo`, nil, ""},
		{`true | xargs echo hi`, [][]string{{"echo", "hi"}}, "hi\n"},
	} {
		g := &recorder{}
		_, code, out, err := runWith(t, g, tc.src)
		var got [][]string
		for _, a := range g.execs {
			if a[0] == "echo" || a[0] == "printf" {
				got = append(got, a)
			}
		}
		if err != nil || code != 0 || out != tc.out || len(got) != len(tc.want) {
			t.Errorf("%s: code %d err %v out %q execs %q", tc.src, code, err, out, got)
			continue
		}
		for i := range got {
			if strings.Join(got[i], "\x00") != strings.Join(tc.want[i], "\x00") {
				t.Errorf("%s: exec %d = %q, want %q", tc.src, i, got[i], tc.want[i])
			}
		}
	}
}

func TestXargsStatusAndErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		code int
		msg  string
	}{
		{`echo a | xargs false`, 123, ""},
		{`echo a | xargs --interactive echo`, 1, "not supported by Warren's xargs"},
		{`echo "a 'b" | xargs echo`, 1, "unmatched ' quote"},
		{`echo a | xargs -n x echo`, 1, "positive number"},
		{`echo a | xargs no-such-program-here`, 127, "command not found"},
	} {
		_, code, out, err := runWith(t, &recorder{}, tc.src)
		if err != nil || code != tc.code || !strings.Contains(out, tc.msg) {
			t.Errorf("%s: code %d (want %d), err %v, out %q", tc.src, code, tc.code, err, out)
		}
	}
	// -a names a file: it is opened through the guard.
	g := &recorder{}
	if _, code, out, err := runWith(t, g, `echo a > list; xargs -a list echo`); err != nil || code != 0 || out != "a\n" {
		t.Fatalf("xargs -a: code %d err %v out %q", code, err, out)
	}
	if !strings.Contains(strings.Join(g.opens, " "), "list") || len(g.opens) < 2 {
		t.Errorf("xargs -a list was not opened through the guard: %q", g.opens)
	}
}
