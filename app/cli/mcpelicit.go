package cli

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/warren-dev/warren/backend/warren"
)

// elicit asks an MCP server's question on the terminal, field by field,
// and answers it; false when the command is over.
func (a *cliAnswerer) elicit(ctx context.Context, req warren.ElicitationRequest) bool {
	if a.lines == nil {
		a.lines = make(chan string)
		go readLines(a.env.Stdin, a.lines)
	}
	next := func() (string, bool) {
		select {
		case <-ctx.Done():
			return "", false
		case l, ok := <-a.lines:
			return strings.TrimSpace(l), ok
		}
	}
	ans, ok := askElicitation(a.env.Stderr, req, next)
	if !ok {
		return false
	}
	if _, err := a.w.AnswerElicitation(ans); err != nil {
		fmt.Fprintf(a.env.Stderr, "  not accepted (%v): declined\n", err)
		_, _ = a.w.AnswerElicitation(warren.ElicitationAnswer{ID: req.ID, Action: "decline"})
	}
	return true
}

// askElicitation asks req's fields on out, reading answers with next;
// ok is false when the input ended.
func askElicitation(out io.Writer, req warren.ElicitationRequest, next func() (string, bool)) (warren.ElicitationAnswer, bool) {
	ans := warren.ElicitationAnswer{ID: req.ID, Action: "decline"}
	fmt.Fprintf(out, "\nMCP server %s asks: %s\n", req.Server, req.Message)
	fields, err := warren.ParseElicitSchema(req.Schema)
	if err != nil {
		fmt.Fprintf(out, "  cannot show the form (%v): declined\n", err)
		return ans, true
	}
	fmt.Fprint(out, "  answer? [y]es, [d]ecline, [c]ancel: ")
	line, ok := next()
	if !ok {
		return ans, false
	}
	switch strings.ToLower(line) {
	case "y", "yes":
	case "c", "cancel":
		ans.Action = "cancel"
		return ans, true
	default:
		return ans, true
	}
	content := map[string]any{}
	for _, f := range fields {
		if f.Type == "unsupported" {
			continue
		}
		for {
			label := cmp.Or(f.Title, f.Name)
			hint := f.Type
			if len(f.Enum) > 0 {
				hint = strings.Join(f.Enum, "|")
			}
			if f.Default != nil {
				hint += fmt.Sprintf(", default %v", f.Default)
			}
			if f.Required {
				hint += ", required"
			}
			fmt.Fprintf(out, "  %s (%s): ", label, hint)
			line, ok := next()
			if !ok {
				return ans, false
			}
			if line == "" {
				if f.Default != nil {
					content[f.Name] = f.Default
					break
				}
				if !f.Required {
					break
				}
				fmt.Fprintln(out, "  required")
				continue
			}
			v, err := elicitValue(f, line)
			if err != nil {
				fmt.Fprintf(out, "  %v\n", err)
				continue
			}
			content[f.Name] = v
			break
		}
	}
	ans.Action, ans.Content = "accept", content
	return ans, true
}

func elicitValue(f warren.ElicitField, s string) (any, error) {
	switch f.Type {
	case "number", "integer":
		n, err := strconv.ParseFloat(s, 64)
		if err != nil || (f.Type == "integer" && n != float64(int64(n))) {
			return nil, fmt.Errorf("want a %s", map[bool]string{true: "whole number", false: "number"}[f.Type == "integer"])
		}
		return n, nil
	case "boolean":
		switch strings.ToLower(s) {
		case "y", "yes", "true":
			return true, nil
		case "n", "no", "false":
			return false, nil
		}
		return nil, fmt.Errorf("want yes or no")
	}
	if len(f.Enum) > 0 {
		for _, e := range f.Enum {
			if strings.EqualFold(e, s) {
				return e, nil
			}
		}
		return nil, fmt.Errorf("want one of %s", strings.Join(f.Enum, ", "))
	}
	return s, nil
}
