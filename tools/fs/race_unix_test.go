//go:build unix

package fs

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/warren-dev/warren/tools"
)

// flipper swaps name in the workspace, by renames, between a real entry
// (inside content) and a symlink to the outside: the path checker sees one,
// the operation may meet the other. It stands for a command the agent left
// running in the background.
type flipper struct {
	name, real, link string // name and its two stashes
	flips            atomic.Int64
}

func newFlipper(t *testing.T, ws, name, outsideTarget string) *flipper {
	t.Helper()
	f := &flipper{
		name: filepath.Join(ws, name),
		real: filepath.Join(ws, ".flip-real-"+name),
		link: filepath.Join(ws, ".flip-link-"+name),
	}
	if err := os.Symlink(outsideTarget, f.link); err != nil {
		t.Fatal(err)
	}
	return f
}

// run flips until stop is closed; each step is one atomic rename, so name
// is the real entry, missing, or the link.
func (f *flipper) run(t *testing.T, stop <-chan struct{}) {
	steps := [][2]string{{f.name, f.real}, {f.link, f.name}, {f.name, f.link}, {f.real, f.name}}
	for i := 0; ; i++ {
		select {
		case <-stop:
			if i%4 != 0 { // leave the real entry in place
				for _, s := range steps[i%4:] {
					_ = os.Rename(s[0], s[1])
				}
			}
			return
		default:
		}
		from, to := steps[i%4][0], steps[i%4][1]
		err := os.Rename(from, to)
		for try := 0; err != nil && to == f.name && try < 100; try++ {
			// A tool made name while it was missing (write_file creates
			// parent directories): clear it, it is inside, and flip on.
			_ = os.RemoveAll(f.name)
			err = os.Rename(from, to)
		}
		if err != nil {
			t.Errorf("flip: %v", err)
			return
		}
		f.flips.Add(1)
	}
}

// snapshot records every entry below dir: kind, mode, content or link target.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		v := fi.Mode().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			v += " -> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += " " + string(b)
		}
		out[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSymlinkSwapRace attacks the check-then-use gap for real: while a
// goroutine flips a directory and a file between inside entries and links
// to the outside, every tool runs hundreds of times. Nothing of the outside
// may appear in a result, and the outside tree must end exactly as it began
// (nothing modified, deleted or created).
func TestSymlinkSwapRace(t *testing.T) {
	w := newWorld(t)
	for name, content := range map[string]string{
		"marker.txt":           "OUTSIDE MARKER\n",
		"dir/secret.txt":       "OUTSIDE SECRET\n",
		"dir/victim.txt":       "OUTSIDE victim\n",
		"dir/edit.txt":         "OUTSIDE a\n",
		"dir/app.txt":          "OUTSIDE app\n",
		"dir/outside-only.txt": "OUTSIDE only\n",
	} {
		writeFile(t, filepath.Join(w.outside, name), content)
	}
	for name, content := range map[string]string{
		"d/secret.txt": "inside secret\n",
		"d/victim.txt": "inside victim\n",
		"d/edit.txt":   "inside a\n",
		"d/app.txt":    "inside app\n",
		"f":            "inside file\n",
	} {
		writeFile(t, filepath.Join(w.ws, name), content)
	}
	// The real d moves between d and its stash; a Root follows the
	// directory itself, so the test can restore the victim inside it.
	realD, err := os.OpenRoot(filepath.Join(w.ws, "d"))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = realD.Close() }()
	before := snapshot(t, w.outside)

	dirFlip := newFlipper(t, w.ws, "d", "../outside/dir")
	fileFlip := newFlipper(t, w.ws, "f", "../outside/marker.txt")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for _, f := range []*flipper{dirFlip, fileFlip} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f.run(t, stop)
		}()
	}

	calls := []struct {
		tool string
		args any
	}{
		{"read_file", args{"path": "f"}},
		{"read_file", args{"path": "d/secret.txt"}},
		{"search", args{"pattern": "."}},
		{"search", args{"pattern": ".", "path": "d"}},
		{"search", args{"pattern": ".", "path": "f"}},
		{"list_files", args{"path": "d"}},
		{"list_files", args{"path": ".", "recursive": true}},
		{"glob", args{"pattern": "d/*"}},
		{"get_file_info", args{"path": "d/secret.txt"}},
		{"write_file", args{"path": "d/new.txt", "content": "written\n"}},
		{"write_file", args{"path": "d/app.txt", "content": "appended\n", "mode": "append"}},
		{"edit", args{"path": "d/edit.txt", "old_text": "a\n", "new_text": "a\n\n"}},
		{"delete_file", args{"path": "d/victim.txt"}},
		{"delete_file", args{"path": "d/new.txt"}},
		{"delete_file", args{"path": "d/victim.txt"}},
	}
	rounds := 300
	if testing.Short() {
		rounds = 50
	}
	ok, refused, caughtAtUse := 0, 0, 0
	for range rounds {
		for _, c := range calls {
			res := w.call(t, c.tool, c.args)
			if strings.Contains(res.ForLLM, "OUTSIDE") || strings.Contains(res.ForUser, "OUTSIDE") ||
				strings.Contains(res.ForLLM, "outside-only") {
				t.Errorf("%s(%v) leaked the outside: %s", c.tool, c.args, res.ForLLM)
			}
			switch {
			case !res.IsError:
				ok++
			case res.Code() == tools.CodeSecurity:
				refused++
				if strings.Contains(res.ForLLM, "leads outside its root") {
					caughtAtUse++ // passed the path check, stopped by os.Root
				}
			}
			// Put back what a call changed inside, so every call has a
			// victim to aim at.
			if err := realD.WriteFile("victim.txt", []byte("inside victim\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := realD.WriteFile("edit.txt", []byte("inside a\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	close(stop)
	wg.Wait()
	t.Logf("%d calls: %d succeeded, %d refused as security errors (%d of them by os.Root at use); %d + %d flips",
		rounds*len(calls), ok, refused, caughtAtUse, dirFlip.flips.Load(), fileFlip.flips.Load())

	after := snapshot(t, w.outside)
	for p, v := range after {
		if before[p] != v {
			t.Errorf("outside %s changed or was created: %q (was %q)", p, v, before[p])
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("outside %s was deleted", p)
		}
	}
	if ok == 0 {
		t.Error("no call succeeded: the race never let the tools work inside")
	}
}
