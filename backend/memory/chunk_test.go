package memory

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func para(words int, seed string) string {
	var b strings.Builder
	for i := range words {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprintf(&b, "%s%d", seed, i)
		if i%12 == 11 {
			b.WriteString(".")
		}
	}
	return b.String()
}

func TestChunkMarkdown(t *testing.T) {
	t.Run("small document is one chunk with its heading path", func(t *testing.T) {
		cs := ChunkMarkdown("# Setup\n\n## Linux\n\nInstall podman.\nThen run it.\n")
		if len(cs) != 1 || cs[0].Heading != "Setup > Linux" || cs[0].StartLine != 1 || cs[0].EndLine != 6 {
			t.Fatalf("%+v", cs)
		}
	})
	t.Run("sections start chunks of their own", func(t *testing.T) {
		cs := ChunkMarkdown("# A\n\nalpha text\n\n# B\n\nbeta text\n")
		if len(cs) != 2 || cs[0].Heading != "A" || cs[1].Heading != "B" || strings.Contains(cs[1].Text, "alpha") {
			t.Fatalf("%+v", cs)
		}
		if cs[1].StartLine != 5 {
			t.Fatalf("B starts at line %d", cs[1].StartLine)
		}
	})
	t.Run("long text is cut near the target with overlap", func(t *testing.T) {
		var doc strings.Builder
		doc.WriteString("# Notes\n\n")
		for i := range 12 {
			doc.WriteString(para(60, fmt.Sprintf("p%dw", i)) + "\n\n")
		}
		cs := ChunkMarkdown(doc.String())
		if len(cs) < 3 {
			t.Fatalf("%d chunks", len(cs))
		}
		for i, c := range cs {
			if n := tokens(c.Text); n > chunkTarget+chunkOverlap+50 {
				t.Fatalf("chunk %d has %d tokens", i, n)
			}
			if i > 0 {
				prev := cs[i-1].Text
				first := strings.Fields(c.Text)[0]
				if !strings.Contains(prev, first) {
					t.Fatalf("chunk %d does not overlap the previous one (starts with %q)", i, first)
				}
			}
		}
	})
	t.Run("a code fence is never split", func(t *testing.T) {
		code := "```go\n" + strings.Repeat("fmt.Println(\"a line of code in the fence\")\n", 120) + "```"
		doc := "# Code\n\n" + para(300, "intro") + "\n\n" + code + "\n\nafter the fence\n"
		cs := ChunkMarkdown(doc)
		found := 0
		for _, c := range cs {
			opens := strings.Count(c.Text, "```")
			if opens%2 != 0 {
				t.Fatalf("a chunk holds half a fence:\n%s", c.Text)
			}
			if strings.Contains(c.Text, "```go") {
				found++
				if strings.Count(c.Text, "a line of code") != 120 {
					t.Fatalf("fence split")
				}
			}
		}
		if found != 1 {
			t.Fatalf("fence in %d chunks", found)
		}
	})
	t.Run("a fence past the hard maximum is cut into closed fences", func(t *testing.T) {
		code := "~~~\n" + strings.Repeat("x := 1 // filler filler filler filler filler\n", 500) + "~~~\n"
		for _, c := range ChunkMarkdown(code) {
			if !strings.HasPrefix(c.Text, "~~~") || !strings.HasSuffix(c.Text, "~~~") {
				t.Fatalf("piece not a closed fence: %.60q … %.20q", c.Text, c.Text[len(c.Text)-20:])
			}
		}
	})
	t.Run("one enormous line", func(t *testing.T) {
		cs := ChunkMarkdown(strings.Repeat("ä", 10000))
		total := 0
		for _, c := range cs {
			if !utf8.ValidString(c.Text) {
				t.Fatal("cut inside a rune")
			}
			total += utf8.RuneCountInString(c.Text)
		}
		if total < 10000 {
			t.Fatalf("lost text: %d runes", total)
		}
	})
	t.Run("empty and blank", func(t *testing.T) {
		if cs := ChunkMarkdown(""); len(cs) != 0 {
			t.Fatalf("%+v", cs)
		}
		if cs := ChunkMarkdown("# Only a heading"); len(cs) != 1 || cs[0].Heading != "Only a heading" {
			t.Fatalf("%+v", cs)
		}
	})
}

// FuzzChunkMarkdown: any input chunks without panicking, into valid UTF-8
// (for valid input), with lines in range, and every non-blank line of the
// input lands in some chunk.
func FuzzChunkMarkdown(f *testing.F) {
	for _, s := range []string{"", "# a\n\nb", "```\nunclosed", "~~~~\n~~~\n~~~~", "#\n##x\n### y ###", para(900, "w"), "\r\n\r\n# t\r\nx"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		cs := ChunkMarkdown(doc)
		lines := strings.Count(strings.ReplaceAll(doc, "\r\n", "\n"), "\n") + 1
		var all strings.Builder
		for _, c := range cs {
			if c.StartLine < 1 || c.EndLine < c.StartLine || c.EndLine > lines {
				t.Fatalf("lines %d-%d of %d", c.StartLine, c.EndLine, lines)
			}
			if utf8.ValidString(doc) && !utf8.ValidString(c.Text) {
				t.Fatalf("invalid UTF-8 chunk from valid input")
			}
			all.WriteString(c.Text)
		}
		joined := strings.Join(strings.Fields(all.String()), "")
		for _, w := range strings.Fields(doc) {
			if len(w) < 200 && !strings.Contains(joined, w) {
				t.Fatalf("word %q lost", w)
			}
		}
	})
}
