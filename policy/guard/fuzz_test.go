package guard

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// FuzzCommand judges random command lines (the fuzz string split on spaces
// and NULs into argv) in both modes: the guard must not panic, and the
// sandbox's refusals must be a subset of the host's — a Deny in Sandbox
// mode is a Deny in Host mode too. The same holds for opens. Seeds are
// attacks from backend/warren/testdata/attacks (testdata/fuzz/FuzzCommand).
func FuzzCommand(f *testing.F) {
	for _, s := range []string{"rm -rf victim", "find victim -delete", "xargs rm", "dd of=/dev/sda", "tar cIf x a.tar ."} {
		f.Add(s)
	}
	ws, data := f.TempDir(), f.TempDir()
	host := New(Options{Mode: Host, Workspace: ws, DataDir: data})
	box := New(Options{Mode: Sandbox, Workspace: ws, DataDir: data})
	f.Fuzz(func(t *testing.T, line string) {
		argv := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == 0 })
		if len(line) > 1<<10 || len(argv) > 32 {
			t.Skip("too long to be interesting")
		}
		c := Command{Argv: argv, Dir: ws}
		if len(argv) > 0 && strings.Contains(argv[0], "/") {
			c.Path = argv[0]
		}
		stop := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("%q: judging took more than 5 s", argv)) })
		defer stop.Stop()
		hv, sv := host.Command(c), box.Command(c)
		if sv.Decision == Deny && hv.Decision != Deny {
			t.Fatalf("%q: the sandbox denies (%s) but the host says %v (%s)", argv, sv.Reason, hv.Decision, hv.Reason)
		}
		if sv.Decision == Ask {
			t.Fatalf("%q: the sandbox asks (%s); it only allows or denies", argv, sv.Reason)
		}
		for _, p := range argv {
			for _, write := range []bool{false, true} {
				ho, so := host.Open(ws, p, write), box.Open(ws, p, write)
				if so.Decision == Deny && ho.Decision != Deny {
					t.Fatalf("open %q (write %v): the sandbox denies (%s) but the host says %v", p, write, so.Reason, ho.Decision)
				}
			}
		}
	})
}
