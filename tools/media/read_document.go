package media

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/warren-dev/warren/backend/doctext"
	"github.com/warren-dev/warren/tools"
)

//go:embed read_document.md
var readDocumentDoc string

// Character caps of read_document's answer.
const (
	defaultDocChars = 40_000
	maxDocChars     = 200_000
)

// ReadDocumentParams are read_document's parameters.
type ReadDocumentParams struct {
	Path      string `json:"path" description:"Workspace path of a PDF, DOCX, HTML or text file"`
	Pages     string `json:"pages,omitempty" description:"PDF pages to read, e.g. 3, 2-5, 1,4,7- (default: all, up to max_chars)"`
	MaxChars  int    `json:"max_chars,omitempty" description:"Most characters to return (default 40000, at most 200000)"`
	Summarize bool   `json:"summarize,omitempty" description:"Return a summary made by your own model instead of the text (for long documents; one model call per ~24000 characters)"`
	Focus     string `json:"focus,omitempty" description:"With summarize: what the summary should keep, e.g. deadlines and costs"`
}

func newReadDocument(e *env) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "read_document", Group: "media_read", LongDescription: readDocumentDoc,
		Description: "Extract the text of a PDF (page ranges), DOCX or HTML file in the workspace, locally.",
	}, e.readDocument)
}

func (e *env) readDocument(ctx context.Context, p ReadDocumentParams) (tools.Result, error) {
	limit := p.MaxChars
	switch {
	case limit == 0:
		limit = defaultDocChars
	case limit < 0 || limit > maxDocChars:
		return tools.Errorf(tools.CodeValidation, "max_chars must be between 1 and %d, got %d", maxDocChars, p.MaxChars), nil
	}
	if strings.TrimSpace(p.Path) == "" {
		return tools.Errorf(tools.CodeValidation, "path is required"), nil
	}
	f, display, fail, ok := e.Files.Open(ctx, p.Path, doctext.DefaultMaxBytes)
	if !ok {
		return fail, nil
	}
	defer func() { _ = f.Close() }() // read-only
	if p.Summarize {
		if e.Summarize == nil {
			return tools.Errorf(tools.CodeValidation, "summaries need the agent's model, which this call has none of; read the text instead"), nil
		}
		limit = summaryMaxChars + 1
	}
	doc, err := doctext.ExtractFile(ctx, f, display, doctext.Options{Pages: p.Pages, MaxChars: limit})
	switch {
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return tools.Errorf(tools.CodeTimeout, "reading %s: %v", display, err), nil
	case errors.Is(err, doctext.ErrEncrypted):
		return tools.Errorf(tools.CodeValidation, "%v", err), nil
	case errors.Is(err, doctext.ErrCorrupt), errors.Is(err, doctext.ErrUnsupported),
		errors.Is(err, doctext.ErrPages), errors.Is(err, doctext.ErrTooLarge):
		return tools.Errorf(tools.CodeValidation, "%v", err), nil
	case err != nil:
		return tools.Errorf(tools.CodeIO, "reading %s: %v", display, err), nil
	}
	if p.Summarize {
		return e.summaryResult(ctx, display, doc, p.Focus), nil
	}
	return tools.Text(docHeader(display, doc) + doc.Text + docFooter(doc, limit)), nil
}

// summaryResult summarises doc, or says which pages to pick when it is
// too long for one summary.
func (e *env) summaryResult(ctx context.Context, display string, doc doctext.Text, focus string) tools.Result {
	if doc.Truncated {
		hint := "pick a page range with pages"
		if doc.NextPage > 0 {
			hint = fmt.Sprintf("summarise pages %d-%d first (pages=\"%d-%d\"), then the rest", doc.FirstPage, doc.NextPage-1, doc.FirstPage, doc.NextPage-1)
		}
		return tools.Errorf(tools.CodeValidation, "%s is longer than one summary covers (%d characters): %s", display, summaryMaxChars, hint)
	}
	if strings.TrimSpace(doc.Text) == "" {
		return tools.Text(docHeader(display, doc) + "(no text to summarise: a scanned document has images only)")
	}
	sum, calls, err := summarize(ctx, e.Summarize, display, doc.Text, focus)
	if err != nil {
		return tools.Errorf(tools.CodeExecution, "summarising %s (after %d model calls): %v", display, calls, err)
	}
	return tools.Text(fmt.Sprintf("%sSummary by your model (%d characters read, %d model calls):\n\n%s", docHeader(display, doc), len([]rune(doc.Text)), calls, sum))
}

// docHeader says what the text is: kind, page count and pages shown.
func docHeader(display string, d doctext.Text) string {
	if d.Kind != doctext.KindPDF {
		return fmt.Sprintf("%s (%s)\n\n", display, strings.ToUpper(string(d.Kind)))
	}
	return fmt.Sprintf("%s (PDF, %d pages; pages %d-%d below)\n\n", display, d.Pages, d.FirstPage, d.LastPage)
}

// docFooter tells the model how to get the rest of a cut document.
func docFooter(d doctext.Text, limit int) string {
	switch {
	case !d.Truncated:
		return ""
	case d.NextPage > 0:
		return fmt.Sprintf("\n[cut at %d characters: call read_document again with pages=\"%d-\" for the rest, "+
			"or summarise what you have if that is enough]", limit, d.NextPage)
	case d.Kind == doctext.KindPDF:
		return fmt.Sprintf("\n[cut at %d characters inside the last page shown: raise max_chars (up to %d) to read it whole]", limit, maxDocChars)
	}
	return fmt.Sprintf("\n[cut at %d characters: raise max_chars (up to %d) for more, or read the file with read_file and offsets]", limit, maxDocChars)
}
