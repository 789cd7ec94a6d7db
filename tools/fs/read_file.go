package fs

import (
	"context"
	_ "embed"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/tools"
)

//go:embed read_file.md
var readFileDoc string

// maxReadOutput caps what one read_file call hands the model; past it the
// output ends at a line boundary with a note on how to continue.
const maxReadOutput = 100_000

// ReadFileParams are the arguments of read_file.
type ReadFileParams struct {
	Path      string `json:"path" description:"File to read: relative to the workspace, absolute inside it, or file_cache_dir/<path> / file_state_dir/<path>"`
	StartLine int    `json:"start_line,omitempty" description:"First line to return, 1-based (default 1)"`
	EndLine   int    `json:"end_line,omitempty" description:"Last line to return, inclusive (default: end of file)"`
}

func newReadFile(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name:            "read_file",
		Group:           group,
		Description:     "Read a text file from the workspace, optionally a range of lines.",
		LongDescription: readFileDoc,
		Danger:          tools.DangerSafe,
	}, e.readFile)
}

func (e *env) readFile(ctx context.Context, p ReadFileParams) (tools.Result, error) {
	if p.StartLine < 0 || p.EndLine < 0 {
		return tools.Errorf(tools.CodeValidation, "start_line and end_line must be 1 or more"), nil
	}
	if p.EndLine > 0 && p.StartLine > p.EndLine {
		return tools.Errorf(tools.CodeValidation, "start_line %d is after end_line %d", p.StartLine, p.EndLine), nil
	}
	res, fail, ok := e.resolveRead(ctx, p.Path, false)
	if !ok {
		return fail, nil
	}
	name := res.Display()
	content, handled, err := e.interceptRead(ctx, res)
	if err != nil {
		return interceptorFailure(name, "read", err)
	}
	if !handled {
		if content, fail, ok = e.readDisk(res); !ok {
			return fail, nil
		}
	}
	return sliceLines(name, content, p.StartLine, p.EndLine), nil
}

// sliceLines returns the requested 1-based inclusive line range of content,
// cut at maxReadOutput with a note saying where to continue.
func sliceLines(name, content string, start, end int) tools.Result {
	lines := strings.SplitAfter(content, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the empty piece after a final newline
	}
	total := len(lines)
	if total == 0 {
		if start > 1 {
			return tools.Errorf(tools.CodeValidation, "start_line %d is past the end of %s (it is empty)", start, name)
		}
		return tools.TextFor(fmt.Sprintf("[%s is empty]", name), fmt.Sprintf("Read %s: empty file", name))
	}
	if start == 0 {
		start = 1
	}
	if start > total {
		return tools.Errorf(tools.CodeValidation, "start_line %d is past the end of %s (%d lines)", start, name, total)
	}
	if end == 0 || end > total {
		end = total
	}
	var b strings.Builder
	last := start - 1
	for _, line := range lines[start-1 : end] {
		if b.Len()+len(line) > maxReadOutput {
			if last < start { // one huge first line: show its head
				b.WriteString(tools.CutUTF8(line, maxReadOutput))
				b.WriteString("\n")
			}
			break
		}
		b.WriteString(line)
		last++
	}
	out := b.String()
	ranged := start > 1 || end < total
	user := fmt.Sprintf("Read %d lines from %s", end-start+1, name)
	if ranged {
		user = fmt.Sprintf("Read lines %d-%d of %d from %s", start, end, total, name)
	}
	switch {
	case last < start:
		out += fmt.Sprintf("[output truncated: line %d alone is over %s and was cut; continue with start_line=%d]",
			start, humanBytes(maxReadOutput), start+1)
		user = fmt.Sprintf("Read part of line %d from %s (truncated)", start, name)
	case last < end:
		out += fmt.Sprintf("\n[output truncated: %d of %d requested lines shown (limit %s); continue with start_line=%d]",
			last-start+1, end-start+1, humanBytes(maxReadOutput), last+1)
		user = fmt.Sprintf("Read %d lines from %s (truncated, %d lines in file)", last-start+1, name, total)
	}
	return tools.TextFor(out, user)
}
