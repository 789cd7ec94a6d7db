package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// optSpec says which options of a program take a value, so its operands
// (often a wrapped command) can be found.
type optSpec struct {
	short string   // short options that take a value (-u root, -uroot)
	long  []string // long options that take a value when not written --name=value
}

type opt struct {
	name   string
	val    field
	hasVal bool
}

// parsedOpts are the options before the first operand.
type parsedOpts struct {
	next int // index of the first operand
	opts []opt
}

// has reports whether any of the named options was given.
func (p parsedOpts) has(names ...string) bool {
	return slices.ContainsFunc(p.opts, func(o opt) bool { return slices.Contains(names, o.name) })
}

// val returns the value of the last of the named options.
func (p parsedOpts) val(names ...string) (field, bool) {
	for i := len(p.opts) - 1; i >= 0; i-- {
		if o := p.opts[i]; o.hasVal && slices.Contains(names, o.name) {
			return o.val, true
		}
	}
	return field{}, false
}

// parseOpts reads getopt-style options from argv[1:], stopping at "--", the
// first operand, or the first word that is not statically known.
func parseOpts(argv []field, spec optSpec) parsedOpts {
	var p parsedOpts
	i := 1
	for i < len(argv) {
		f := argv[i]
		a := f.s
		if !f.known || f.operand || len(a) < 2 || a[0] != '-' {
			break
		}
		if a == "--" {
			i++
			break
		}
		if strings.HasPrefix(a, "--") {
			name, v, eq := strings.Cut(a[2:], "=")
			o := opt{name: name}
			switch {
			case eq:
				o.val, o.hasVal = withText(f, v), true
			case slices.Contains(spec.long, name) && i+1 < len(argv):
				i++
				o.val, o.hasVal = argv[i], true
			}
			p.opts = append(p.opts, o)
			i++
			continue
		}
		for j := 1; j < len(a); j++ {
			o := opt{name: a[j : j+1]}
			if strings.IndexByte(spec.short, a[j]) >= 0 {
				if j+1 < len(a) {
					o.val, o.hasVal = withText(f, a[j+1:]), true
				} else if i+1 < len(argv) {
					i++
					o.val, o.hasVal = argv[i], true
				}
				p.opts = append(p.opts, o)
				break
			}
			p.opts = append(p.opts, o)
		}
		i++
	}
	p.next = i
	return p
}

// shortFlag reports whether a word is a short-option cluster containing any
// of letters (-rf, -vfR), ignoring long options.
func shortFlag(f field, letters string) bool {
	return f.known && len(f.s) > 1 && f.s[0] == '-' && f.s[1] != '-' && strings.ContainsAny(f.s[1:], letters)
}

// longFlag reports whether a word is --name or an unambiguous GNU prefix of
// it (--rec for --recursive), with min characters at least.
func longFlag(f field, name string, min int) bool {
	if !f.known || !strings.HasPrefix(f.s, "--") {
		return false
	}
	n, _, _ := strings.Cut(f.s[2:], "=")
	return len(n) >= min && strings.HasPrefix(name, n)
}

// quoteFields renders fields as shell words again, for re-parsing.
func quoteFields(fs []field) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = f.s
		if f.known {
			if q, err := syntax.Quote(f.s, syntax.LangBash); err == nil {
				parts[i] = q
			}
		}
	}
	return strings.Join(parts, " ")
}

// operands returns the words of argv[from:] that are not options, honouring "--".
func operands(argv []field, from int) []field {
	var out []field
	dd := false
	for _, f := range argv[from:] {
		switch {
		case dd || f.operand || !f.known:
			out = append(out, f)
		case f.s == "--":
			dd = true
		case len(f.s) > 1 && f.s[0] == '-':
		default:
			out = append(out, f)
		}
	}
	return out
}
