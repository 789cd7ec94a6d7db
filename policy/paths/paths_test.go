package paths

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// fixture is a real directory tree with real symlinks:
//
//	base/ws            the workspace (a.txt, sub/b.txt, .warren/secret, links)
//	base/ws-evil       a sibling whose name shares the workspace's prefix
//	base/outside       what escapes would reach
//	base/cache, state  the alias roots
type fixture struct {
	base, ws, outside, cache, state string
}

func newFixture(tb testing.TB) fixture {
	tb.Helper()
	base, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	fx := fixture{
		base:    base,
		ws:      filepath.Join(base, "ws"),
		outside: filepath.Join(base, "outside"),
		cache:   filepath.Join(base, "cache"),
		state:   filepath.Join(base, "state"),
	}
	for _, d := range []string{"ws/sub", "ws/.warren", "ws-evil", "outside/dir", "cache", "state"} {
		mustMkdir(tb, filepath.Join(base, d))
	}
	for _, f := range []string{"ws/a.txt", "ws/sub/b.txt", "ws/.warren/secret", "ws-evil/x", "outside/secret.txt", "cache/c.txt"} {
		mustWrite(tb, filepath.Join(base, f))
	}
	links := [][2]string{
		{"ws/in_link", "sub"},
		{"ws/in_file_link", "sub/b.txt"},
		{"ws/abs_in_link", filepath.Join(base, "ws/sub")},
		{"ws/out_link", "../outside"},
		{"ws/out_file_link", "../outside/secret.txt"},
		{"ws/abs_out_link", "/etc"},
		{"ws/chain1", "chain2"},
		{"ws/chain2", "chain3"},
		{"ws/chain3", "../outside"},
		{"ws/chain_in1", "chain_in2"},
		{"ws/chain_in2", "sub"},
		{"ws/sub/up_link", ".."},
		{"ws/sub/upup_link", "../.."},
		{"ws/dangling_out", "../outside/new.txt"},
		{"ws/dangling_in", "sub/new.txt"},
		{"ws/dangling_chain", "dangling_out"},
		{"ws/warren_link", ".warren"},
		{"ws/root_link", "."},
		{"ws/cache_link", "../cache"},
		{"outside/back_in", "../ws/a.txt"},
		{"ws/.warren/to_a", "../a.txt"},
		{"ws/loop1", "loop2"},
		{"ws/loop2", "loop1"},
	}
	for _, l := range links {
		if err := os.Symlink(l[1], filepath.Join(base, l[0])); err != nil {
			tb.Fatal(err)
		}
	}
	return fx
}

func (fx fixture) resolver(tb testing.TB) *Resolver {
	tb.Helper()
	r, err := New(Config{
		Workspace: fx.ws,
		Aliases:   map[string]string{"file_cache_dir": fx.cache, "file_state_dir": fx.state},
		Deny:      []string{".warren"},
	})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

func mustMkdir(tb testing.TB, dir string) {
	tb.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
}

func mustWrite(tb testing.TB, file string) {
	tb.Helper()
	if err := os.WriteFile(file, []byte("x\n"), 0o644); err != nil {
		tb.Fatal(err)
	}
}

func TestResolve(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("fixture uses POSIX symlinks and paths")
	}
	fx := newFixture(t)
	r := fx.resolver(t)
	tests := []struct {
		name, path string
		wantErr    error  // nil: must succeed
		wantRel    string // checked on success
		wantAlias  string
	}{
		{name: "plain file", path: "a.txt", wantRel: "a.txt"},
		{name: "nested", path: "sub/b.txt", wantRel: "sub/b.txt"},
		{name: "dot dot inside", path: "sub/../a.txt", wantRel: "a.txt"},
		{name: "root", path: ".", wantRel: "."},
		{name: "not yet existing tail", path: "new/dir/f.txt", wantRel: "new/dir/f.txt"},
		{name: "symlink inside to inside dir", path: "in_link/b.txt", wantRel: "in_link/b.txt"},
		{name: "symlink inside to inside file", path: "in_file_link", wantRel: "in_file_link"},
		{name: "absolute symlink to inside", path: "abs_in_link/b.txt", wantRel: "abs_in_link/b.txt"},
		{name: "chain of inside symlinks", path: "chain_in1/b.txt", wantRel: "chain_in1/b.txt"},
		{name: "link to parent still inside", path: "sub/up_link/a.txt", wantRel: "sub/up_link/a.txt"},
		{name: "dangling link to inside", path: "dangling_in", wantRel: "dangling_in"},
		{name: "link to alias root", path: "cache_link/c.txt", wantRel: "cache_link/c.txt"},
		{name: "dir symlink escape", path: "out_link/secret.txt", wantErr: ErrOutsideWorkspace},
		{name: "dir symlink itself", path: "out_link", wantErr: ErrOutsideWorkspace},
		{name: "new file under escaping dir link", path: "out_link/new.txt", wantErr: ErrOutsideWorkspace},
		{name: "file symlink escape", path: "out_file_link", wantErr: ErrOutsideWorkspace},
		{name: "absolute symlink escape", path: "abs_out_link/passwd", wantErr: ErrOutsideWorkspace},
		{name: "chain of symlinks escape", path: "chain1/secret.txt", wantErr: ErrOutsideWorkspace},
		{name: "link to grandparent", path: "sub/upup_link/outside/secret.txt", wantErr: ErrOutsideWorkspace},
		{name: "dangling link escape", path: "dangling_out", wantErr: ErrOutsideWorkspace},
		{name: "dangling chain escape", path: "dangling_chain", wantErr: ErrOutsideWorkspace},
		{name: "through outside and back in", path: "out_link/back_in", wantErr: ErrOutsideWorkspace},
		{name: "link in denied dir back out", path: "warren_link/to_a", wantErr: ErrDenied},
		{name: "dot dot escape", path: "a/../../x", wantErr: ErrOutsideWorkspace},
		{name: "plain parent", path: "..", wantErr: ErrOutsideWorkspace},
		{name: "sibling prefix relative", path: "../ws-evil/x", wantErr: ErrOutsideWorkspace},
		{name: "sibling prefix absolute", path: fx.ws + "-evil/x", wantErr: ErrOutsideWorkspace},
		{name: "absolute inside", path: filepath.Join(fx.ws, "sub/b.txt"), wantRel: "sub/b.txt"},
		{name: "absolute workspace root", path: fx.ws, wantRel: "."},
		{name: "absolute with dot dot back inside", path: fx.ws + "/sub/../a.txt", wantRel: "a.txt"},
		{name: "absolute outside", path: filepath.Join(fx.outside, "secret.txt"), wantErr: ErrOutsideWorkspace},
		{name: "absolute system file", path: "/etc/passwd", wantErr: ErrOutsideWorkspace},
		{name: "absolute dot dot out", path: fx.ws + "/../outside/secret.txt", wantErr: ErrOutsideWorkspace},
		{name: "denied dir", path: ".warren", wantErr: ErrDenied},
		{name: "denied file", path: ".warren/secret", wantErr: ErrDenied},
		{name: "denied other case", path: ".WARREN/secret", wantErr: ErrDenied},
		{name: "denied via dot dot", path: "sub/../.warren/secret", wantErr: ErrDenied},
		{name: "denied absolute", path: filepath.Join(fx.ws, ".warren/secret"), wantErr: ErrDenied},
		{name: "denied through link", path: "warren_link/secret", wantErr: ErrDenied},
		{name: "denied through root link", path: "root_link/.warren/secret", wantErr: ErrDenied},
		{name: "root link to allowed file", path: "root_link/a.txt", wantRel: "root_link/a.txt"},
		{name: "deny is not a string prefix", path: ".warrenx/y", wantRel: ".warrenx/y"},
		{name: "deny is rooted", path: "sub/.warren/y", wantRel: "sub/.warren/y"},
		{name: "cache alias", path: "file_cache_dir/c.txt", wantRel: "c.txt", wantAlias: "file_cache_dir"},
		{name: "cache alias backslash", path: `file_cache_dir\d\e.txt`, wantRel: "d/e.txt", wantAlias: "file_cache_dir"},
		{name: "state alias new file", path: "file_state_dir/deep/y.md", wantRel: "deep/y.md", wantAlias: "file_state_dir"},
		{name: "alias double slash", path: "file_cache_dir//c.txt", wantRel: "c.txt", wantAlias: "file_cache_dir"},
		{name: "absolute in alias root", path: filepath.Join(fx.cache, "c.txt"), wantRel: "c.txt", wantAlias: "file_cache_dir"},
		{name: "bare alias", path: "file_cache_dir", wantErr: ErrInvalidPath},
		{name: "bare alias slash", path: "file_state_dir/", wantErr: ErrInvalidPath},
		{name: "bare alias backslash", path: `file_state_dir\`, wantErr: ErrInvalidPath},
		{name: "bare alias dot", path: "file_cache_dir/./", wantErr: ErrInvalidPath},
		{name: "alias escape", path: "file_cache_dir/../ws/a.txt", wantErr: ErrOutsideWorkspace},
		{name: "alias name is case-sensitive", path: "FILE_CACHE_DIR/x", wantRel: "FILE_CACHE_DIR/x"},
		{name: "backslash separators", path: `sub\b.txt`, wantRel: "sub/b.txt"},
		{name: "backslash escape", path: `..\outside\secret.txt`, wantErr: ErrOutsideWorkspace},
		{name: "backslash denied", path: `.warren\secret`, wantErr: ErrDenied},
		{name: "windows drive path", path: `C:\Windows\system32`, wantErr: ErrInvalidPath},
		{name: "bare drive", path: `c:`, wantErr: ErrInvalidPath},
		{name: "empty", path: "", wantErr: ErrInvalidPath},
		{name: "blank", path: "  ", wantErr: ErrInvalidPath},
		{name: "NUL byte", path: "a.txt\x00/../../etc", wantErr: ErrInvalidPath},
		{name: "too long", path: strings.Repeat("a/", MaxPathLen/2+1), wantErr: ErrInvalidPath},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			res, err := r.Resolve("", tc.path)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("Resolve(%q) = %+v, %v; want %v", tc.path, res, err, tc.wantErr)
				}
				if len(tc.path) < 200 && !strings.Contains(err.Error(), strings.TrimRight(quote(tc.path), `"`)) {
					t.Errorf("error %q does not name the path %q", err, tc.path)
				}
				return
			}
			if err != nil {
				t.Fatalf("Resolve(%q): %v", tc.path, err)
			}
			if res.Rel != tc.wantRel || res.Alias != tc.wantAlias {
				t.Errorf("Resolve(%q) = rel %q alias %q; want rel %q alias %q", tc.path, res.Rel, res.Alias, tc.wantRel, tc.wantAlias)
			}
			if !Within(res.Root, res.Abs) {
				t.Errorf("Abs %q not inside Root %q", res.Abs, res.Root)
			}
		})
	}
}

func TestResolveSymlinkLoopIsAnError(t *testing.T) {
	fx := newFixture(t)
	if _, err := fx.resolver(t).Resolve("", "loop1"); err == nil {
		t.Fatal("want an error for a symlink loop")
	}
}

// TestResolveWorkspaceUnderSymlink covers a workspace reached through a
// symlinked directory, as /tmp is on macOS.
func TestResolveWorkspaceUnderSymlink(t *testing.T) {
	fx := newFixture(t)
	linkBase := filepath.Join(t.TempDir(), "linkbase")
	if err := os.Symlink(fx.base, linkBase); err != nil {
		t.Fatal(err)
	}
	linkWS := filepath.Join(linkBase, "ws")
	r := fx.resolver(t)
	tests := []struct {
		path    string
		wantErr error
		wantRel string
	}{
		{path: "a.txt", wantRel: "a.txt"},
		{path: "in_link/b.txt", wantRel: "in_link/b.txt"},
		{path: "new.txt", wantRel: "new.txt"},
		{path: filepath.Join(linkWS, "a.txt"), wantRel: "a.txt"},
		// The real spelling of the same workspace is accepted too.
		{path: filepath.Join(fx.ws, "sub/b.txt"), wantRel: "sub/b.txt"},
		{path: "out_link/secret.txt", wantErr: ErrOutsideWorkspace},
		{path: filepath.Join(linkBase, "outside/secret.txt"), wantErr: ErrOutsideWorkspace},
		{path: filepath.Join(fx.ws, ".warren/secret"), wantErr: ErrDenied},
	}
	for _, tc := range tests {
		res, err := r.Resolve(linkWS, tc.path)
		if tc.wantErr != nil {
			if !errors.Is(err, tc.wantErr) {
				t.Errorf("Resolve(%q) = %+v, %v; want %v", tc.path, res, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("Resolve(%q): %v", tc.path, err)
			continue
		}
		if res.Rel != tc.wantRel || res.Root != linkWS || !Within(linkWS, res.Abs) {
			t.Errorf("Resolve(%q) = %+v; want rel %q under %s", tc.path, res, tc.wantRel, linkWS)
		}
	}
}

func TestResolveWorkspaceOverride(t *testing.T) {
	fx := newFixture(t)
	r := fx.resolver(t)
	other := filepath.Join(fx.base, "ws-evil")
	res, err := r.Resolve(other, "x")
	if err != nil || res.Root != other || res.Rel != "x" {
		t.Fatalf("override: %+v, %v", res, err)
	}
	if _, err := r.Resolve(other, filepath.Join(fx.ws, "a.txt")); !errors.Is(err, ErrOutsideWorkspace) {
		t.Fatalf("configured workspace must not stay allowed under an override: %v", err)
	}
	if _, err := r.Resolve("relative/ws", "x"); !errors.Is(err, ErrInvalidPath) {
		t.Fatalf("relative workspace: %v", err)
	}
	bare, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bare.Resolve("", "x"); !errors.Is(err, ErrInvalidPath) {
		t.Fatalf("no workspace: %v", err)
	}
}

func TestNewRejectsBadConfig(t *testing.T) {
	for name, cfg := range map[string]Config{
		"relative workspace":  {Workspace: "ws"},
		"relative alias root": {Workspace: "/ws", Aliases: map[string]string{"file_cache_dir": "cache"}},
		"alias with slash":    {Workspace: "/ws", Aliases: map[string]string{"a/b": "/c"}},
		"empty alias":         {Workspace: "/ws", Aliases: map[string]string{"": "/c"}},
		"dot dot alias":       {Workspace: "/ws", Aliases: map[string]string{"..": "/c"}},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: want an error", name)
		}
	}
}

func TestIsDenied(t *testing.T) {
	t.Parallel()
	r, err := New(Config{Workspace: "/ws", Deny: []string{".warren", `node_modules\.cache`, "/secrets/", "", ".", "../up"}})
	if err != nil {
		t.Fatal(err)
	}
	tests := map[string]bool{
		".warren":                   true,
		".warren/x/y":               true,
		"./.warren":                 true,
		".Warren/x":                 true,
		`.warren\x`:                 true,
		".warrenx":                  false,
		"a/.warren":                 false,
		"node_modules/.cache/z":     true,
		"node_modules":              false,
		"secrets":                   true,
		"up":                        true, // "../up" is rooted, not a way out
		".":                         false,
		"":                          false,
		"src/main.go":               false,
		"x/../.warren":              true,
		"node_modules/.cache-other": false,
	}
	for rel, want := range tests {
		if got := r.IsDenied(rel); got != want {
			t.Errorf("IsDenied(%q) = %v; want %v", rel, got, want)
		}
	}
}

func TestAddDenyIsConcurrencySafe(t *testing.T) {
	fx := newFixture(t)
	r := fx.resolver(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(2)
		go func() {
			defer wg.Done()
			r.AddDeny("sub", "blocked"+string(rune('a'+i)))
		}()
		go func() {
			defer wg.Done()
			_, _ = r.Resolve("", "a.txt")
			r.IsDenied("sub/b.txt")
		}()
	}
	wg.Wait()
	if _, err := r.Resolve("", "sub/b.txt"); !errors.Is(err, ErrDenied) {
		t.Fatalf("sub after AddDeny: %v", err)
	}
	if _, err := r.Resolve("", "in_link/b.txt"); !errors.Is(err, ErrDenied) {
		t.Fatalf("a link into a denied dir: %v", err)
	}
}

func TestDeniedBelow(t *testing.T) {
	fx := newFixture(t)
	r := fx.resolver(t)
	for _, tc := range []struct {
		dir, sub string
		want     bool
	}{
		{".", ".warren", true},
		{".", ".warren/secret", true},
		{".", "sub", false},
		{"root_link", ".warren", true}, // the link reaches the workspace root
		{"sub", ".warren", false},
		{"file_cache_dir/x", ".warren", false},
	} {
		res, err := r.Resolve("", tc.dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.DeniedBelow(res, tc.sub); got != tc.want {
			t.Errorf("DeniedBelow(%s, %s) = %v; want %v", tc.dir, tc.sub, got, tc.want)
		}
	}
}

func TestResolvedDisplay(t *testing.T) {
	for _, tc := range []struct {
		res  Resolved
		want string
	}{
		{Resolved{Rel: "a/b"}, "a/b"},
		{Resolved{Rel: ".", Alias: "file_cache_dir"}, "file_cache_dir"},
		{Resolved{Rel: "x.md", Alias: "file_state_dir"}, "file_state_dir/x.md"},
	} {
		if got := tc.res.Display(); got != tc.want {
			t.Errorf("%+v.Display() = %q; want %q", tc.res, got, tc.want)
		}
	}
}

func TestResolveDir(t *testing.T) {
	fx := newFixture(t)
	r := fx.resolver(t)
	for _, p := range []string{"file_cache_dir", "file_cache_dir/", `file_cache_dir\`, "file_cache_dir/."} {
		res, err := r.ResolveDir("", p)
		if err != nil || res.Alias != "file_cache_dir" || res.Rel != "." || res.Abs != fx.cache || res.Display() != "file_cache_dir" {
			t.Errorf("ResolveDir(%q) = %+v, %v", p, res, err)
		}
		if _, err := r.Resolve("", p); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("Resolve(%q) must keep refusing a bare alias: %v", p, err)
		}
	}
	for p, want := range map[string]error{
		"file_cache_dir/..": ErrOutsideWorkspace,
		".warren":           ErrDenied,
		"out_link":          ErrOutsideWorkspace,
	} {
		if _, err := r.ResolveDir("", p); !errors.Is(err, want) {
			t.Errorf("ResolveDir(%q) = %v; want %v", p, err, want)
		}
	}
}

func TestDeniedMessageNamesPrefix(t *testing.T) {
	fx := newFixture(t)
	_, err := fx.resolver(t).Resolve("", "warren_link/secret")
	if err == nil || !strings.Contains(err.Error(), `".warren"`) || !strings.Contains(err.Error(), `"warren_link/secret"`) {
		t.Fatalf("message %v", err)
	}
}

// TestResolveLocations pins the os.Root spelling of accepted paths: Target
// is where the path leads, Entry is its last component itself.
func TestResolveLocations(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("fixture uses POSIX symlinks and paths")
	}
	fx := newFixture(t)
	r := fx.resolver(t)
	dirs := map[string]string{"": fx.ws, "file_cache_dir": fx.cache}
	tests := []struct {
		path                string
		target, entry       string // "alias:name"
		targetDir, entryDir string // alias, looked up in dirs
	}{
		{path: "a.txt", target: "a.txt", entry: "a.txt"},
		{path: ".", target: ".", entry: "."},
		{path: "new/dir/f.txt", target: "new/dir/f.txt", entry: "new/dir/f.txt"},
		{path: "in_file_link", target: "sub/b.txt", entry: "in_file_link"},
		{path: "in_link/b.txt", target: "sub/b.txt", entry: "sub/b.txt"},
		{path: "abs_in_link/b.txt", target: "sub/b.txt", entry: "sub/b.txt"},
		{path: "sub/up_link/a.txt", target: "a.txt", entry: "a.txt"},
		{path: "root_link/a.txt", target: "a.txt", entry: "a.txt"},
		{path: "dangling_in", target: "sub/new.txt", entry: "dangling_in"},
		{path: "cache_link", target: ".", targetDir: "file_cache_dir", entry: "cache_link"},
		{path: "cache_link/c.txt", target: "c.txt", targetDir: "file_cache_dir", entry: "c.txt", entryDir: "file_cache_dir"},
		{path: "file_cache_dir/c.txt", target: "c.txt", targetDir: "file_cache_dir", entry: "c.txt", entryDir: "file_cache_dir"},
	}
	for _, tc := range tests {
		res, err := r.Resolve("", tc.path)
		if err != nil {
			t.Errorf("Resolve(%q): %v", tc.path, err)
			continue
		}
		want := func(what string, got Location, alias, name string) {
			if got.Alias != alias || got.Name != name || got.Dir != dirs[alias] {
				t.Errorf("Resolve(%q).%s = %+v; want %s:%s in %s", tc.path, what, got, alias, name, dirs[alias])
			}
		}
		want("Target", res.Target, tc.targetDir, tc.target)
		want("Entry", res.Entry, tc.entryDir, tc.entry)
	}
}
