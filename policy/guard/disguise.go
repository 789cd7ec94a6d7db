package guard

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// A program in a writable folder was made by whoever could write there, so
// its name proves nothing: it may be a copy or hard link of an installed
// program (rm, busybox) under another name, or a script for an interpreter
// other than a shell (#!/usr/bin/awk -f). disguises lists what really runs,
// so the guard judges that too and the stricter verdict wins.
func (g *Guard) disguises(c Command) []Command {
	if c.Path == "" || !g.writable(c.Path) {
		return nil
	}
	var out []Command
	if words := shebang(c.Path); len(words) > 0 {
		argv := append(append(words, c.Path), c.Argv[1:]...)
		out = append(out, Command{Argv: argv, Dir: c.Dir, Env: c.Env, Path: words[0]})
	}
	if name, path, ok := g.twins.find(c.Path); ok {
		out = append(out, Command{Argv: append([]string{name}, c.Argv[1:]...), Dir: c.Dir, Env: c.Env, Path: path})
		if multiCall(name) {
			// busybox and toybox act as the applet their argv[0] names.
			applet := filepath.Base(c.Argv[0])
			out = append(out, Command{Argv: append([]string{applet}, c.Argv[1:]...), Dir: c.Dir, Env: c.Env})
		}
	}
	return out
}

func multiCall(name string) bool { return name == "busybox" || name == "toybox" }

// shebang returns the interpreter words of a #! line that names no shell
// (a shell's script runs in Warren's interpreter instead); nil otherwise.
func shebang(path string) []string {
	f, err := os.Open(path) //nolint:gosec // only its first line is read
	if err != nil {
		return nil
	}
	defer func() { _ = f.Close() }()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if !bytes.HasPrefix(head, []byte("#!")) {
		return nil
	}
	if _, isShell := ScriptShell(path); isShell {
		return nil
	}
	line, _, _ := bytes.Cut(head[2:], []byte("\n"))
	return strings.Fields(string(line))
}

// twinIndex finds installed programs by content: built once, on first use,
// from the system folders' programs Warren has a class for.
type twinIndex struct {
	once   sync.Once
	bySize map[int64][]twin

	mu     sync.Mutex
	hashes map[string][sha256.Size]byte
}

type twin struct{ name, path string }

// systemBins are the folders installed programs live in.
var systemBins = []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}

func (x *twinIndex) build() {
	x.bySize = map[int64][]twin{}
	x.hashes = map[string][sha256.Size]byte{}
	names := []string{"busybox", "toybox"}
	for n := range classes {
		names = append(names, n)
	}
	seen := map[string]bool{}
	for _, dir := range systemBins {
		for _, n := range names {
			p := filepath.Join(dir, n)
			real, err := filepath.EvalSymlinks(p)
			if err != nil || seen[real] {
				continue
			}
			fi, err := os.Stat(real)
			if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
				continue
			}
			seen[real] = true
			// The real file's name when it means something (busybox,
			// whichever applet link is met first); else the link's
			// (python3, not python3.11): the name is what has a class.
			name := n
			if b := filepath.Base(real); multiCall(b) || ClassOf(b) != Unknown {
				name = b
			}
			x.bySize[fi.Size()] = append(x.bySize[fi.Size()], twin{name: name, path: real})
		}
	}
}

// find returns the installed program path is a copy or hard link of.
func (x *twinIndex) find(path string) (name, installed string, ok bool) {
	x.once.Do(x.build)
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return "", "", false
	}
	cands := x.bySize[fi.Size()]
	if len(cands) == 0 {
		return "", "", false
	}
	for _, t := range cands {
		if ti, err := os.Stat(t.path); err == nil && os.SameFile(fi, ti) {
			return t.name, t.path, true
		}
	}
	h, ok := fileHash(path)
	if !ok {
		return "", "", false
	}
	for _, t := range cands {
		if th, ok := x.hash(t.path); ok && th == h {
			return t.name, t.path, true
		}
	}
	return "", "", false
}

func (x *twinIndex) hash(path string) ([sha256.Size]byte, bool) {
	x.mu.Lock()
	h, ok := x.hashes[path]
	x.mu.Unlock()
	if ok {
		return h, true
	}
	h, ok = fileHash(path)
	if ok {
		x.mu.Lock()
		x.hashes[path] = h
		x.mu.Unlock()
	}
	return h, ok
}

func fileHash(path string) ([sha256.Size]byte, bool) {
	var sum [sha256.Size]byte
	f, err := os.Open(path) //nolint:gosec // hashed to compare with installed programs
	if err != nil {
		return sum, false
	}
	defer func() { _ = f.Close() }()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return sum, false
	}
	copy(sum[:], h.Sum(nil))
	return sum, true
}
