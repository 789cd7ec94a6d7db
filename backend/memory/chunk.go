package memory

import (
	"strings"
	"unicode/utf8"
)

// ChunkerVersion names the chunking rules; chunks made by other rules are
// made again (part of the index identity).
const ChunkerVersion = 1

// Chunking sizes, in estimated tokens (about four characters each).
const (
	chunkTarget  = 400
	chunkOverlap = 70 // about 17% of the target
	// chunkHardMax bounds a code fence kept whole: past it the fence is
	// cut at line boundaries (each piece re-opened as a fence).
	chunkHardMax = 4000
)

// Chunk is one piece of a document as it is indexed.
type Chunk struct {
	Seq int
	// StartLine and EndLine are 1-based and inclusive.
	StartLine, EndLine int
	// Heading is the section path ("Setup > Linux"), empty before any heading.
	Heading string
	Text    string
}

// block is a unit the chunker never cuts inside (a paragraph is cut by
// lines only when it alone is larger than a chunk).
type block struct {
	start, end int // 1-based lines
	heading    string
	text       string
	fence      bool
	isHeading  bool
}

func tokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

// ChunkMarkdown splits a Markdown document into heading-aware chunks of
// about 400 tokens with about 17% overlap; a code fence is never split
// (up to a hard maximum) and a new top-level section starts a new chunk.
func ChunkMarkdown(doc string) []Chunk {
	c := &chunker{}
	for _, b := range splitBlocks(doc) {
		c.add(b)
	}
	if c.fresh > 0 || len(c.out) == 0 && len(c.cur) > 0 {
		c.flush(false)
	}
	return c.out
}

// chunker accumulates blocks into chunks; fresh counts the blocks of cur
// not carried over from the previous chunk as overlap.
type chunker struct {
	out   []Chunk
	cur   []block
	size  int
	fresh int
}

func (c *chunker) add(b block) {
	t := tokens(b.text)
	switch {
	case b.isHeading && c.fresh > 0 && hasBody(c.cur):
		c.flush(false) // a section starts a chunk of its own
	case b.isHeading:
		c.dropOverlap()
	case c.size+t > chunkTarget && c.fresh > 0:
		c.flush(true)
	}
	switch {
	case !b.fence && t > chunkTarget:
		for _, piece := range splitLines(b, chunkTarget) {
			c.push(piece)
			c.flush(true)
		}
	case b.fence && t > chunkHardMax:
		if c.fresh > 0 {
			c.flush(false)
		}
		c.dropOverlap()
		for _, piece := range splitFence(b) {
			c.push(piece)
			c.flush(false)
		}
	default:
		c.push(b)
	}
}

func (c *chunker) push(b block) {
	c.cur = append(c.cur, b)
	c.size += tokens(b.text)
	c.fresh++
}

// dropOverlap forgets carried-over blocks: a new section does not begin
// with the end of the previous one.
func (c *chunker) dropOverlap() {
	if c.fresh == 0 {
		c.cur, c.size = nil, 0
	}
}

// flush emits cur as a chunk; with overlap, the tail of it (whole blocks
// only, never a heading alone or a large fence) starts the next chunk.
func (c *chunker) flush(overlap bool) {
	if len(c.cur) == 0 {
		return
	}
	c.out = append(c.out, makeChunk(len(c.out), c.cur))
	c.fresh = 0
	if !overlap {
		c.cur, c.size = nil, 0
		return
	}
	var keep []block
	n := 0
	for i := len(c.cur) - 1; i >= 0; i-- {
		t := tokens(c.cur[i].text)
		if c.cur[i].isHeading || n+t > chunkOverlap {
			break
		}
		keep = append([]block{c.cur[i]}, keep...)
		n += t
	}
	if last := c.cur[len(c.cur)-1]; len(keep) == 0 && !last.isHeading && !last.fence {
		if tail, ok := tailBlock(last, chunkOverlap); ok {
			keep, n = []block{tail}, tokens(tail.text)
		}
	}
	c.cur, c.size = keep, n
}

// tailBlock is the end of a paragraph, at most max tokens, starting at a
// sentence or word boundary: the overlap when the last block is large.
func tailBlock(b block, max int) (block, bool) {
	limit := max * 4
	if len(b.text) <= limit {
		return block{}, false
	}
	from := len(b.text) - limit
	for step := 0; step < utf8.UTFMax && from < len(b.text) && !utf8.RuneStart(b.text[from]); step++ {
		from++
	}
	rest := b.text[from:]
	if i := strings.Index(rest, ". "); i >= 0 && i < len(rest)/2 {
		from += i + 2
	} else if i := strings.IndexAny(rest, " \n"); i >= 0 {
		from += i + 1
	}
	text := strings.TrimSpace(b.text[from:])
	if text == "" {
		return block{}, false
	}
	start := b.start + strings.Count(b.text[:from], "\n")
	return block{start: start, end: b.end, heading: b.heading, text: text}, true
}

func hasBody(bs []block) bool {
	for _, b := range bs {
		if !b.isHeading {
			return true
		}
	}
	return false
}

func makeChunk(seq int, bs []block) Chunk {
	texts := make([]string, len(bs))
	for i, b := range bs {
		texts[i] = b.text
	}
	heading := bs[len(bs)-1].heading
	return Chunk{Seq: seq, StartLine: bs[0].start, EndLine: bs[len(bs)-1].end, Heading: heading,
		Text: strings.Join(texts, "\n\n")}
}

// splitBlocks parses lines into headings, fences and paragraphs, each with
// the heading path it sits under.
func splitBlocks(doc string) []block {
	lines := strings.Split(strings.ReplaceAll(doc, "\r\n", "\n"), "\n")
	var out []block
	var path []string // heading texts by level-1
	var para []string
	paraStart := 0
	heading := func() string { return strings.Join(nonEmpty(path), " > ") }
	endPara := func(end int) {
		if len(para) > 0 {
			out = append(out, block{start: paraStart, end: end, heading: heading(), text: strings.Join(para, "\n")})
			para = nil
		}
	}
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		trim := strings.TrimSpace(line)
		if marker := fenceMarker(trim); marker != "" {
			endPara(i)
			start := i
			body := []string{line}
			for i++; i < len(lines); i++ {
				body = append(body, lines[i])
				if strings.HasPrefix(strings.TrimSpace(lines[i]), marker) && strings.Trim(strings.TrimSpace(lines[i]), marker[:1]) == "" {
					break
				}
			}
			end := min(i, len(lines)-1)
			out = append(out, block{start: start + 1, end: end + 1, heading: heading(), text: strings.Join(body, "\n"), fence: true})
			continue
		}
		if level, title := atxHeading(trim); level > 0 {
			endPara(i)
			for len(path) < level {
				path = append(path, "")
			}
			path = append(path[:level-1], title)
			out = append(out, block{start: i + 1, end: i + 1, heading: heading(), text: line, isHeading: true})
			continue
		}
		if trim == "" {
			endPara(i)
			continue
		}
		if len(para) == 0 {
			paraStart = i + 1
		}
		para = append(para, line)
	}
	endPara(len(lines))
	return out
}

func nonEmpty(ss []string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// fenceMarker returns the fence that opens a code block (``` or ~~~, three
// or more), or "".
func fenceMarker(trim string) string {
	for _, c := range []string{"`", "~"} {
		n := 0
		for n < len(trim) && trim[n] == c[0] {
			n++
		}
		if n >= 3 {
			return strings.Repeat(c, n)
		}
	}
	return ""
}

// atxHeading returns the level and text of "## Title", or 0.
func atxHeading(trim string) (int, string) {
	n := 0
	for n < len(trim) && trim[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (len(trim) > n && trim[n] != ' ' && trim[n] != '\t') {
		return 0, ""
	}
	return n, strings.TrimSpace(strings.TrimRight(strings.TrimSpace(trim[n:]), "#"))
}

// splitLines cuts an oversized paragraph into pieces of at most max
// tokens at line (then word) boundaries.
func splitLines(b block, max int) []block {
	lines := strings.Split(b.text, "\n")
	var out []block
	var cur []string
	size := 0
	start := b.start
	emit := func(end int) {
		if len(cur) > 0 {
			out = append(out, block{start: start, end: end, heading: b.heading, text: strings.Join(cur, "\n")})
			cur, size = nil, 0
		}
	}
	for i, l := range lines {
		line := b.start + i
		for tokens(l) > max { // one huge line: cut at a space near the limit
			emit(line - 1)
			cut := cutAt(l, max*4)
			out = append(out, block{start: line, end: line, heading: b.heading, text: l[:cut]})
			l = strings.TrimLeft(l[cut:], " ")
			start = line
		}
		if t := tokens(l) + 1; size+t > max && len(cur) > 0 {
			emit(line - 1)
			start = line
		}
		if len(cur) == 0 {
			start = line
		}
		cur = append(cur, l)
		size += tokens(l) + 1
	}
	emit(b.end)
	return out
}

// cutAt returns a byte offset at most limit into s, at a space when one is
// near, never inside a UTF-8 sequence.
func cutAt(s string, limit int) int {
	if limit >= len(s) {
		return len(s)
	}
	// Step back to the start of a rune, at most UTFMax bytes: invalid
	// bytes have no rune start, and are cut anywhere.
	cut := limit
	for back := 0; back < utf8.UTFMax && cut > 0 && !utf8.RuneStart(s[cut]); back++ {
		cut--
	}
	if !utf8.RuneStart(s[cut]) || cut == 0 {
		cut = limit
	}
	if sp := strings.LastIndexByte(s[:cut], ' '); sp > cut/2 {
		return sp + 1
	}
	return cut
}

// splitFence cuts a fence past the hard maximum into fences of its lines.
func splitFence(b block) []block {
	lines := strings.Split(b.text, "\n")
	open := lines[0]
	marker := fenceMarker(strings.TrimSpace(open))
	body := lines[1:]
	if n := len(body); n > 0 && strings.HasPrefix(strings.TrimSpace(body[n-1]), marker) {
		body = body[:n-1]
	}
	var out []block
	var cur []string
	start := b.start + 1
	for i, l := range body {
		if tokens(strings.Join(cur, "\n"))+tokens(l) > chunkTarget && len(cur) > 0 {
			out = append(out, block{start: start, end: b.start + i, heading: b.heading, fence: true,
				text: open + "\n" + strings.Join(cur, "\n") + "\n" + marker})
			cur, start = nil, b.start+i+1
		}
		cur = append(cur, l)
	}
	if len(cur) > 0 {
		out = append(out, block{start: start, end: b.end, heading: b.heading, fence: true,
			text: open + "\n" + strings.Join(cur, "\n") + "\n" + marker})
	}
	return out
}
