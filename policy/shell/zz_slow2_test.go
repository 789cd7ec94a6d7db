package shell

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestZZPathological(t *testing.T) {
	var vars strings.Builder
	for i := 0; vars.Len() < 60000; i++ {
		fmt.Fprintf(&vars, "a%d=1;$a%d;", i, i)
	}
	long := "X='" + strings.Repeat("ab ", 20000) + "'; echo $X"
	cases := map[string]string{
		"vars":    vars.String(),
		"split":   long,
		"parens":  strings.Repeat("(", 20000) + "ls" + strings.Repeat(")", 20000),
		"subst":   strings.Repeat("$(", 15000) + "ls" + strings.Repeat(")", 15000),
		"braces":  strings.Repeat("echo {a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b,c,d}; ", 1400),
		"evals":   strings.Repeat("eval {a,b,c,d}{a,b,c,d}{a,b,c,d}{a,b,c,d}; ", 1400),
		"funcs":   strings.Repeat("f(){ f|f& }; ", 4000) + "f",
		"pipes":   strings.Repeat("a | ", 15000) + "b",
		"shc":     strings.Repeat("sh -c 'ls' ; ", 4000),
		"heredoc": "cat <<EOF\n" + strings.Repeat("$(ls) ", 9000) + "\nEOF",
		"ifs":     strings.Repeat("a ", 30000),
		"nest":    "eval " + strings.Repeat("'eval ", 1) + strings.Repeat("x", 60000) + "'",
	}
	for name, s := range cases {
		st := time.Now()
		a := Analyze(s)
		t.Logf("%-8s len=%6d %10v %v %d findings %d cmds", name, len(s), time.Since(st), a.Verdict, len(a.Findings), len(a.Commands))
	}
}
