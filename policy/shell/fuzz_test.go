package shell

import (
	"reflect"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// FuzzAnalyze checks that the analyser never fails, is deterministic, and
// that wrapping a denied script in `bash -c` or `env bash -c` keeps it denied.
func FuzzAnalyze(f *testing.F) {
	allow := Allow
	for _, c := range append(readCorpus(f, "testdata/bypass.txt", nil), readCorpus(f, "testdata/benign.txt", &allow)...) {
		f.Add(c.script)
	}
	f.Fuzz(func(t *testing.T, script string) {
		a := Analyze(script)
		if !reflect.DeepEqual(a, Analyze(script)) {
			t.Fatalf("%q: two analyses differ", script)
		}
		want := Allow
		for _, fd := range a.Findings {
			want = max(want, fd.Verdict)
			if strings.HasPrefix(fd.Reason, "analyser error") {
				t.Fatalf("%q: %s", script, fd.Reason)
			}
		}
		if a.Verdict != want {
			t.Fatalf("%q: verdict %v is not the max of its findings (%v)", script, a.Verdict, want)
		}
		_ = a.Summary()
		// bash -c takes a script starting with - or + as options, so the
		// wrapped form means something else there.
		if a.Verdict != Deny || len(script) > 4<<10 || strings.HasPrefix(script, "-") || strings.HasPrefix(script, "+") {
			return
		}
		q, err := syntax.Quote(script, syntax.LangBash)
		if err != nil {
			return
		}
		for _, wrapped := range []string{"bash -c " + q, "env bash -c " + q} {
			if w := Analyze(wrapped); w.Verdict != Deny {
				t.Fatalf("%q is denied but %q is %v:\n%s", script, wrapped, w.Verdict, dump(w))
			}
		}
	})
}
