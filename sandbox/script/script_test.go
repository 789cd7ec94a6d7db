//go:build unix

package script_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/policy/guard"
	"github.com/warren-dev/warren/sandbox/script"
)

// run runs src in a fresh workspace holding a victim folder, with the host
// policy and nobody to approve anything.
func run(t *testing.T, src string) (ws string, code int, out string, err error) {
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
		Stdout: &stdout, Stderr: &stderr,
		Guard: script.Judge{Policy: guard.New(guard.Options{Mode: guard.Host, Workspace: ws, TempDirs: []string{}})},
	})
	return ws, code, stdout.String() + stderr.String(), err
}

func victimAlive(t *testing.T, ws string) bool {
	t.Helper()
	_, err := os.Stat(filepath.Join(ws, "victim", "sub"))
	return err == nil
}

// Every way of reaching `rm -rf victim` is judged when it runs.
func TestDestructiveCommandsAreStoppedWhereverTheyRun(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		`X=rm; $X -rf victim`,
		`eval "rm -rf victim"`,
		`f() { rm -rf "$1"; }; f victim`,
		`sh -c 'rm -rf victim'`,
		`bash -c "rm -r -f victim"`,
		`echo 'rm -rf victim' | sh`,
		`echo 'rm -rf victim' > s.sh; sh s.sh`,
		`echo 'rm -rf victim' > s.sh; bash < s.sh`,
		`printf '#!/bin/sh\nrm -rf victim\n' > s.sh; chmod +x s.sh; ./s.sh`,
		`printf '#!/usr/bin/env bash\nrm -rf victim\n' > s.sh; chmod +x s.sh; ./s.sh`,
		`printf 'rm -rf victim\n' > s; chmod +x s; ./s`,
		`echo 'rm -rf victim' > s.sh; . ./s.sh`,
		`echo 'rm -rf victim' > s.sh; source s.sh`,
		`exec rm -rf victim`,
		`command rm -rf victim`,
		`a=(rm -rf victim); "${a[@]}"`,
		`$(echo rm) -rf victim`,
		`find victim -true -delete`,
		`env rm -rf victim`,
		`xargs rm -rf <<< victim`,
	} {
		ws, code, out, err := run(t, src)
		var ref *script.Refused
		if !victimAlive(t, ws) || !errors.As(err, &ref) || code != 126 {
			t.Errorf("%s: victim alive %v, code %d, err %v\n%s", src, victimAlive(t, ws), code, err, out)
		}
	}
}

// The syntax the analysis read is the syntax that runs: bash's, not dash's.
func TestOneDialect(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		`true &>/dev/null rm -rf victim`,
		`echo $'\' ; rm -rf victim ; echo '\'`,
		`((rm -rf victim))`,
	} {
		ws, _, out, _ := run(t, src)
		if !victimAlive(t, ws) {
			t.Errorf("%s deleted the victim\n%s", src, out)
		}
	}
}

func TestRefusalStopsTheScript(t *testing.T) {
	t.Parallel()
	_, code, out, err := run(t, `echo before; python3 -c 'print(1)'; echo after`)
	var ref *script.Refused
	if code != 126 || !errors.As(err, &ref) || !strings.Contains(out, "before") || strings.Contains(out, "after") ||
		!strings.Contains(ref.Reason, "needs approval") {
		t.Fatalf("code %d err %v\n%s", code, err, out)
	}
}

func TestRedirectionsAreJudged(t *testing.T) {
	t.Parallel()
	for _, src := range []string{`Z=/dev; cat < $Z/tcp/127.0.0.1/9`, `echo x > "$(echo /dev/tcp)/127.0.0.1/9"`} {
		_, code, out, err := run(t, src)
		if code != 126 || err == nil || !strings.Contains(err.Error(), "reverse shell") {
			t.Errorf("%s: code %d err %v\n%s", src, code, err, out)
		}
	}
	// fd numbers past 2 are not supported by the interpreter: nothing opens.
	if _, _, out, _ := run(t, `exec 3<>/dev/tcp/127.0.0.1/9; cat <&3 | sh`); !strings.Contains(out, "unsupported redirect fd: 3") {
		t.Errorf("exec 3<> ran\n%s", out)
	}
}

func TestExitStatusAndOutput(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]int{`exit 3`: 3, `sh -c 'exit 4'`: 4, `false`: 1, `ls /nonexistent-dir-x`: 2, `nosuchprogram-x`: 127, `echo ok`: 0} {
		_, code, out, err := run(t, src)
		if code != want || err != nil {
			t.Errorf("%s: code %d err %v, want %d\n%s", src, code, err, want, out)
		}
	}
	_, _, out, _ := run(t, `for i in 1 2; do echo "n$i"; done | sort -r; cd victim && pwd`)
	if !strings.HasPrefix(out, "n2\nn1\n") || !strings.Contains(out, "/victim\n") {
		t.Fatalf("output %q", out)
	}
}

// Programs still running when the script ends (backgrounded) are killed.
func TestBackgroundProgramsEndWithTheScript(t *testing.T) {
	t.Parallel()
	_, code, out, err := run(t, `sleep 61.2345 & echo started`)
	if code != 0 || err != nil || !strings.Contains(out, "started") {
		t.Fatalf("code %d err %v\n%s", code, err, out)
	}
	for i := 0; sleeping("61.2345"); i++ {
		if i > 500 {
			t.Fatal("the background sleep outlived its script")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// sleeping reports whether a `sleep ARG` process exists.
func sleeping(arg string) bool {
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if b, err := os.ReadFile(p); err == nil && string(b) == "sleep\x00"+arg+"\x00" {
			return true
		}
	}
	return false
}

func TestCancelKillsTheProgramGroup(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := script.Run(ctx, script.Options{Script: `sleep 60`, Dir: ws, Env: []string{"PATH=/usr/bin:/bin"},
			Stdout: &strings.Builder{}, Stderr: &strings.Builder{},
			Guard: script.Judge{Policy: guard.New(guard.Options{Mode: guard.Host, Workspace: ws})}})
		done <- err
	}()
	time.Sleep(100 * time.Millisecond)
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v", err)
	}
}

func TestNoGuardRefuses(t *testing.T) {
	t.Parallel()
	if _, err := script.Run(context.Background(), script.Options{Script: "true"}); err == nil {
		t.Fatal("ran without a guard")
	}
}

// A script read whole before it runs: a fork bomb in a file is refused
// before any of it runs (it would run as goroutines in Warren's process).
func TestScriptFilesAreReadWhole(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		`printf 'b(){ b|b& }; b\n' > bomb.sh; sh bomb.sh`,
		`printf 'b(){ b|b& }; b\n' > bomb.sh; . ./bomb.sh`,
		`printf 'b(){ b|b& }; b\n' | bash`,
	} {
		_, code, out, err := run(t, src)
		var ref *script.Refused
		if code != 126 || !errors.As(err, &ref) || !strings.Contains(ref.Reason, "fork bomb") {
			t.Errorf("%s: code %d err %v\n%s", src, code, err, out)
		}
	}
}

// Process substitution's FIFO goes to $TMPDIR: a TMPDIR outside the
// workspace set by the script is judged as a write there.
func TestProcessSubstitutionFifoIsJudged(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	ws, code, out, err := run(t, "TMPDIR="+outside+" bash -c 'cat <(echo hi)'")
	var ref *script.Refused
	if !errors.As(err, &ref) || code != 126 {
		t.Fatalf("code %d err %v\n%s", code, err, out)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("a FIFO was left in %s: %v", outside, ents)
	}
	// In the workspace it runs.
	_, code, out, err = run(t, "mkdir -p t && TMPDIR=$PWD/t bash -c 'cat <(echo hi)'")
	if err != nil || code != 0 || !strings.Contains(out, "hi") {
		t.Errorf("TMPDIR in the workspace: code %d err %v out %q", code, err, out)
	}
	_ = ws
}
