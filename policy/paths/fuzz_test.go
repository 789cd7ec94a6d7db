package paths

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzResolve feeds arbitrary paths to a Resolver over the symlink fixture and
// re-checks every accepted path independently: its real location, found by a
// separate walk, must be inside an allowed root and outside .warren.
func FuzzResolve(f *testing.F) {
	fx := newFixture(f)
	r := fx.resolver(f)
	// Absolute seeds depend on the temp dir, so they cannot live in testdata.
	for _, s := range []string{
		filepath.Join(fx.ws, "a.txt"),
		filepath.Join(fx.ws, "../outside/secret.txt"),
		fx.ws + "-evil/x",
		filepath.Join(fx.cache, "../ws/.warren/secret"),
		filepath.Join(fx.ws, "out_link"),
		filepath.Join(fx.ws, "out_link/back_in"),
	} {
		f.Add(s)
	}
	roots := map[string]string{"": fx.ws, "file_cache_dir": fx.cache, "file_state_dir": fx.state}

	f.Fuzz(func(t *testing.T, p string) {
		_ = r.IsDenied(p)
		for _, resolve := range []func(string, string) (Resolved, error){r.Resolve, r.ResolveDir} {
			res, err := resolve("", p)
			if err != nil {
				continue
			}
			checkResolved(t, fx, roots, p, res)
		}
	})
}

// checkResolved re-checks an accepted path without the resolver's code.
func checkResolved(t *testing.T, fx fixture, roots map[string]string, p string, res Resolved) {
	t.Helper()
	if root, ok := roots[res.Alias]; !ok || root != res.Root {
		t.Fatalf("Resolve(%q): root %q alias %q is not a configured root", p, res.Root, res.Alias)
	}
	if res.Abs != filepath.Clean(res.Abs) || !filepath.IsAbs(res.Abs) || strings.IndexByte(res.Abs, 0) >= 0 {
		t.Fatalf("Resolve(%q): Abs %q is not a clean absolute path", p, res.Abs)
	}
	if !insideComponents(res.Root, res.Abs) {
		t.Fatalf("Resolve(%q): Abs %q is not inside Root %q", p, res.Abs, res.Root)
	}
	if res.Alias == "" && firstIsWarren(res.Rel) {
		t.Fatalf("Resolve(%q): denied Rel %q accepted", p, res.Rel)
	}
	real, err := independentReal(res.Abs, 0)
	if err != nil {
		t.Fatalf("Resolve(%q) accepted %q but it cannot be evaluated: %v", p, res.Abs, err)
	}
	if real != res.Real {
		t.Fatalf("Resolve(%q): Real %q, independent walk says %q", p, res.Real, real)
	}
	inWS := insideComponents(fx.ws, real)
	if !inWS && !insideComponents(fx.cache, real) && !insideComponents(fx.state, real) {
		t.Fatalf("Resolve(%q) = %q really at %q, outside every root", p, res.Abs, real)
	}
	if rel, _ := filepath.Rel(fx.ws, real); inWS && firstIsWarren(filepath.ToSlash(rel)) {
		t.Fatalf("Resolve(%q) = %q really at denied %q", p, res.Abs, real)
	}
	checkLocation(t, fx, roots, p, "Target", res.Target, real)
	entry := real
	if res.Abs != res.Root {
		parent, err := independentReal(filepath.Dir(res.Abs), 0)
		if err != nil {
			t.Fatalf("Resolve(%q): parent of %q cannot be evaluated: %v", p, res.Abs, err)
		}
		entry = filepath.Join(parent, filepath.Base(res.Abs))
	}
	checkLocation(t, fx, roots, p, "Entry", res.Entry, entry)
}

// checkLocation checks that loc is a name an os.Root on a configured root can
// take (local, no "..") and that it spells want, outside .warren.
func checkLocation(t *testing.T, fx fixture, roots map[string]string, p, what string, loc Location, want string) {
	t.Helper()
	if root, ok := roots[loc.Alias]; !ok || root != loc.Dir {
		t.Fatalf("Resolve(%q).%s: dir %q alias %q is not a configured root", p, what, loc.Dir, loc.Alias)
	}
	name := filepath.FromSlash(loc.Name)
	if !filepath.IsLocal(name) || strings.Contains(loc.Name, `\`) || path.Clean(loc.Name) != loc.Name {
		t.Fatalf("Resolve(%q).%s: name %q is not a clean local name", p, what, loc.Name)
	}
	if got := filepath.Join(loc.Dir, name); got != want {
		t.Fatalf("Resolve(%q).%s = %q; an independent walk says %q", p, what, got, want)
	}
	if loc.Alias == "" && firstIsWarren(loc.Name) {
		t.Fatalf("Resolve(%q).%s = %q lies in the denied directory", p, what, loc.Name)
	}
}

// independentReal finds where p really leads by walking up to the deepest
// existing ancestor, evaluating it, and following a dangling link by hand.
func independentReal(p string, depth int) (string, error) {
	if depth > 50 {
		return "", errors.New("link chain too long")
	}
	var tail []string
	cur := p
	for {
		if _, err := os.Lstat(cur); err == nil {
			break
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return "", errors.New("nothing exists")
		}
		tail = append([]string{filepath.Base(cur)}, tail...)
		cur = parent
	}
	base, err := filepath.EvalSymlinks(cur)
	if err != nil {
		target, rerr := os.Readlink(cur)
		if rerr != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			dir, derr := filepath.EvalSymlinks(filepath.Dir(cur))
			if derr != nil {
				return "", derr
			}
			target = filepath.Join(dir, target)
		}
		if base, err = independentReal(target, depth+1); err != nil {
			return "", err
		}
	}
	return filepath.Join(append([]string{base}, tail...)...), nil
}

// insideComponents is a second, differently written containment check.
func insideComponents(root, p string) bool {
	rc := strings.Split(filepath.Clean(root), string(filepath.Separator))
	pc := strings.Split(filepath.Clean(p), string(filepath.Separator))
	if len(pc) < len(rc) {
		return false
	}
	for i := range rc {
		if rc[i] != pc[i] {
			return false
		}
	}
	return true
}

func firstIsWarren(rel string) bool {
	first, _, _ := strings.Cut(rel, "/")
	return strings.EqualFold(first, ".warren")
}
