package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// whichSubst resolves $(which X), $(command -v X) and $(type -P X) to X:
// a common way to hide a command name that still names a known program.
func whichSubst(cs *syntax.CmdSubst) (string, bool) {
	if len(cs.Stmts) != 1 {
		return "", false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 {
		return "", false
	}
	var args []string
	for _, w := range ce.Args {
		v := w.Lit()
		if v == "" {
			return "", false
		}
		args = append(args, v)
	}
	switch {
	case len(args) == 2 && (args[0] == "which" || args[0] == "whereis"):
		return args[1], true
	case len(args) == 3 && args[0] == "command" && args[1] == "-v",
		len(args) == 3 && args[0] == "type" && (args[1] == "-P" || args[1] == "-p"):
		return args[2], true
	}
	return "", false
}

// printNode renders a node as shell source (used for placeholders and for
// re-parsing code strings that contain expansions).
func (a *analyzer) printNode(n syntax.Node) string {
	if p, ok := n.(*syntax.ParamExp); ok && simpleParam(p) { // fast path: $X, ${X}
		if p.Short {
			return "$" + p.Param.Value
		}
		return "${" + p.Param.Value + "}"
	}
	if a.printer == nil {
		a.printer = syntax.NewPrinter(syntax.Minify(true))
	}
	var b strings.Builder
	if err := a.printer.Print(&b, n); err != nil {
		return "…"
	}
	return b.String()
}

// simpleParam matches $X and ${X} with no operators.
func simpleParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Length && !p.Width && !p.IsSet && p.Index == nil &&
		p.Slice == nil && p.Repl == nil && p.Exp == nil && p.Names == 0 && p.Flags == nil &&
		p.NestedParam == nil && len(p.Modifiers) == 0
}

// source renders a code word as the text the inner shell would parse, with
// unknown expansions left as shell syntax so they are analysed too.
func (s *scope) source(f field) string {
	if f.word == nil {
		return f.s
	}
	var b strings.Builder
	var walk func(parts []syntax.WordPart, quoted bool)
	walk = func(parts []syntax.WordPart, quoted bool) {
		for _, p := range parts {
			switch p := p.(type) {
			case *syntax.DblQuoted:
				walk(p.Parts, true)
			case *syntax.Lit, *syntax.SglQuoted:
				var tmp field
				for _, g := range s.part(p, quoted, false, &tmp, nil) {
					b.WriteString(g.text)
				}
			case *syntax.ParamExp:
				if v, ok := s.resolve(p); ok {
					b.WriteString(v)
				} else {
					b.WriteString(s.a.printNode(p))
				}
			default:
				b.WriteString(s.a.printNode(p))
			}
		}
	}
	walk(f.word.Parts, false)
	return b.String()
}
