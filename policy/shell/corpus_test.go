package shell

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// corpusCase is one line of a testdata corpus.
type corpusCase struct {
	line   int
	want   Verdict
	script string
}

// readCorpus reads "<verdict> <script>" lines (or bare scripts with def),
// where "⏎" stands for a newline.
func readCorpus(tb testing.TB, name string, def *Verdict) []corpusCase {
	tb.Helper()
	f, err := os.Open(name)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := corpusCase{line: n}
		if def != nil {
			c.want, c.script = *def, line
		} else {
			word, rest, _ := strings.Cut(line, " ")
			switch word {
			case "deny":
				c.want = Deny
			case "ask":
				c.want = Ask
			default:
				tb.Fatalf("%s:%d: want deny or ask, got %q", name, n, word)
			}
			c.script = rest
		}
		c.script = strings.ReplaceAll(c.script, "⏎", "\n")
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return out
}

func TestBypassCorpus(t *testing.T) {
	t.Parallel()
	cases := readCorpus(t, "testdata/bypass.txt", nil)
	deny := 0
	for _, c := range cases {
		if c.want == Deny {
			deny++
		}
	}
	if deny < 60 {
		t.Errorf("bypass corpus has %d deny cases, want 60+", deny)
	}
	for _, c := range cases {
		t.Run("", func(t *testing.T) {
			t.Parallel()
			got := Analyze(c.script)
			if got.Verdict != c.want {
				t.Errorf("bypass.txt:%d: %q: verdict %v, want %v\n%s", c.line, c.script, got.Verdict, c.want, dump(got))
			}
		})
	}
}

func TestBenignCorpus(t *testing.T) {
	t.Parallel()
	allow := Allow
	cases := readCorpus(t, "testdata/benign.txt", &allow)
	if len(cases) < 30 {
		t.Errorf("benign corpus has %d cases, want 30+", len(cases))
	}
	for _, c := range cases {
		t.Run("", func(t *testing.T) {
			t.Parallel()
			got := Analyze(c.script)
			if got.Verdict != Allow {
				t.Errorf("benign.txt:%d: %q: verdict %v, want allow\n%s", c.line, c.script, got.Verdict, dump(got))
			}
		})
	}
}

// dump renders an analysis for failure messages.
func dump(a Analysis) string {
	var b strings.Builder
	b.WriteString("  summary: " + a.Summary() + "\n")
	for _, f := range a.Findings {
		b.WriteString("  finding: " + f.Verdict.String() + " " + f.Category.String() + ": " + f.Reason + ": " + DisplayArgv(f.Argv) + "\n")
	}
	for _, c := range a.Commands {
		b.WriteString("  command: " + DisplayArgv(c.Argv))
		if !c.Literal {
			b.WriteString(" (not literal)")
		}
		if len(c.Via) > 0 {
			b.WriteString(" via " + strings.Join(c.Via, ","))
		}
		b.WriteString("\n")
	}
	return b.String()
}
