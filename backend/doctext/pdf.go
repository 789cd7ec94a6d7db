package doctext

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// maxPages bounds a PDF's declared page count: the count is read from the
// file, and a damaged one must not make the loop below run for ever.
const maxPages = 100_000

// pdfTimeout is the last resort against a file that still makes the PDF
// library loop: the call returns, the library's goroutine is left behind.
const pdfTimeout = 60 * time.Second

// extractPDF returns the text of the selected pages. It runs the library
// apart so that a file that hangs it (past the link checks in pdfguard.go)
// still gives the caller an answer.
func extractPDF(ctx context.Context, data []byte, opts Options) (Text, error) {
	if err := checkXrefChain(data); err != nil {
		return Text{}, err
	}
	if err := checkNesting(data); err != nil {
		return Text{}, err
	}
	type result struct {
		t   Text
		err error
	}
	done := make(chan result, 1)
	go func() {
		t, err := extractPDFPages(ctx, data, opts)
		done <- result{t, err}
	}()
	timer := time.NewTimer(pdfTimeout)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.t, r.err
	case <-ctx.Done():
		return Text{}, ctx.Err()
	case <-timer.C:
		return Text{}, fmt.Errorf("%w: reading it took over %s", ErrCorrupt, pdfTimeout)
	}
}

// extractPDFPages does the work. The PDF library reports damage by
// panicking, so every call into it is recovered and turned into ErrCorrupt.
func extractPDFPages(ctx context.Context, data []byte, opts Options) (out Text, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = Text{}, fmt.Errorf("%w: %v", ErrCorrupt, r)
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if errors.Is(err, pdf.ErrInvalidPassword) || strings.Contains(err.Error(), "encrypt") {
			return Text{}, fmt.Errorf("%w (%v); decrypt it first, e.g. qpdf --decrypt", ErrEncrypted, err)
		}
		return Text{}, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	all, err := collectPages(r)
	if err != nil {
		return Text{}, err
	}
	n := len(all)
	if n == 0 || n > maxPages {
		return Text{}, fmt.Errorf("%w: %d pages", ErrCorrupt, n)
	}
	pages, err := ParsePages(opts.Pages, n)
	if err != nil {
		return Text{}, err
	}
	out = Text{Pages: n, FirstPage: pages[0]}
	var b strings.Builder
	runes := 0
	for i, num := range pages {
		if err := ctx.Err(); err != nil {
			return Text{}, err
		}
		if err := checkPageStreams(all[num-1]); err != nil {
			return Text{}, fmt.Errorf("page %d: %w", num, err)
		}
		text, err := all[num-1].GetPlainText(nil)
		if err != nil {
			return Text{}, fmt.Errorf("%w: page %d: %v", ErrCorrupt, num, err)
		}
		chunk := fmt.Sprintf("--- page %d ---\n%s\n", num, strings.TrimSpace(text))
		cnt := utf8.RuneCountInString(chunk)
		if opts.MaxChars > 0 && runes+cnt > opts.MaxChars {
			out.Truncated = true
			out.NextPage = num
			if i == 0 { // not even one page fits: return its start
				chunk, _ = capText(chunk, opts.MaxChars)
				b.WriteString(chunk)
				out.LastPage = num
				if num < n {
					out.NextPage = num + 1
				} else {
					out.NextPage = 0
				}
			}
			break
		}
		b.WriteString(chunk)
		runes += cnt
		out.LastPage = num
	}
	out.Text = b.String()
	return out, nil
}

// ParsePages turns a page range such as "1,3,5-7" or "4-" into sorted,
// distinct page numbers within 1..n.
func ParsePages(spec string, n int) ([]int, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		spec = "1-"
	}
	seen := make(map[int]bool)
	var out []int
	for part := range strings.SplitSeq(spec, ",") {
		part = strings.TrimSpace(part)
		lo, hi, isRange := strings.Cut(part, "-")
		from, err := pageNum(lo, n)
		if err != nil {
			return nil, fmt.Errorf("%w %q: %v", ErrPages, spec, err)
		}
		to := from
		if isRange {
			to = n
			if strings.TrimSpace(hi) != "" {
				if to, err = pageNum(hi, n); err != nil {
					return nil, fmt.Errorf("%w %q: %v", ErrPages, spec, err)
				}
			}
		}
		if to < from {
			return nil, fmt.Errorf("%w %q: %d-%d runs backwards", ErrPages, spec, from, to)
		}
		for p := from; p <= to; p++ {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

func pageNum(s string, n int) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a page number", s)
	}
	if v < 1 || v > n {
		return 0, fmt.Errorf("page %d does not exist (the document has %d pages)", v, n)
	}
	return v, nil
}
