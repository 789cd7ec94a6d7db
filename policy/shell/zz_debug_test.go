package shell

import (
	"fmt"
	"testing"
)

func TestZZDump(t *testing.T) {
	for _, f := range []string{"testdata/bypass.txt", "testdata/benign.txt"} {
		var def *Verdict
		if f == "testdata/benign.txt" {
			a := Allow
			def = &a
		}
		for _, c := range readCorpus(t, f, def) {
			a := Analyze(c.script)
			fmt.Printf("%-4s %q\n  => %s\n", c.want, c.script, a.Summary())
		}
	}
}
