package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// assign analyses an assignment and tracks variables with one known value.
func (s *scope) assign(as *syntax.Assign, bare bool, c ctx) {
	var v field
	if as.Value != nil {
		v = s.one(as.Value, c)
	}
	if as.Array != nil {
		s.substs(as.Array, c)
	}
	if as.Index != nil {
		s.substs(as.Index, c)
	}
	if as.Name == nil {
		return
	}
	name := as.Name.Value
	s.taint(name, v.sub)
	if loaderEnv(name) {
		s.find(Ask, OpaqueCode, []string{name + "=" + v.s}, inv{}, "sets "+name+", which makes programs load other code")
	}
	if !bare || as.Naked {
		return
	}
	if !c.cond && as.Value != nil && v.known && !as.Append && as.Index == nil && as.Array == nil {
		s.vars[name] = v.s
	} else {
		delete(s.vars, name)
	}
}

// taint remembers that a variable may hold downloaded or decoded text.
func (s *scope) taint(name string, f flags) {
	if f&taint == 0 {
		return
	}
	if s.taints == nil {
		s.taints = map[string]flags{}
	}
	s.taints[name] |= f & taint
}

// loaderEnv names variables that make programs run code from elsewhere.
func loaderEnv(name string) bool {
	switch name {
	case "LD_PRELOAD", "LD_AUDIT", "DYLD_INSERT_LIBRARIES", "BASH_ENV", "ENV", "PROMPT_COMMAND", "NODE_OPTIONS", "PERL5OPT":
		return true
	}
	return false
}

func (s *scope) decl(d *syntax.DeclClause, c ctx) {
	plain := true
	for _, as := range d.Args {
		if as.Naked && as.Name == nil && as.Value != nil {
			if o := as.Value.Lit(); strings.HasPrefix(o, "-") || strings.HasPrefix(o, "+") {
				plain = false
				if strings.Contains(o, "n") {
					s.noResolve = true // namerefs make $X mean another variable
				}
			}
		}
	}
	if d.Variant != nil && d.Variant.Value == "nameref" {
		s.noResolve = true
	}
	for _, as := range d.Args {
		s.assign(as, plain, c)
	}
}

// resolve returns the value of $NAME when the script assigns it exactly once,
// to a literal, unconditionally, before this use.
func (s *scope) resolve(p *syntax.ParamExp) (string, bool) {
	if s.noResolve || !simpleParam(p) {
		return "", false
	}
	v, ok := s.vars[p.Param.Value]
	if !ok || s.writeCount(p.Param.Value) != 1 {
		return "", false
	}
	return v, true
}

// writeCount counts mentions of name in the source that could write it:
// name=, read name, for name, eval text, (( name++ ))… Plain reads ($name,
// ${name…}) and parts of paths or options (./x/a, -a, a.txt) do not count,
// so only a count of one is trusted.
func (s *scope) writeCount(name string) int {
	if s.writes == nil {
		s.writes = writeCounts(s.text)
	}
	return s.writes[name]
}

// writeCounts computes writeCount for every name in one pass.
func writeCounts(text string) map[string]int {
	counts := map[string]int{}
	for i := 0; i < len(text); {
		if !isNameByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isNameByte(text[j]) {
			j++
		}
		pre, post := text[:i], text[j:]
		switch {
		case strings.HasSuffix(pre, "${") && (strings.HasPrefix(post, "=") || strings.HasPrefix(post, ":=")):
			counts[text[i:j]]++ // ${X:=default} assigns
		case strings.HasSuffix(pre, "$"), strings.HasSuffix(pre, "${"), strings.HasSuffix(pre, "${#"), strings.HasSuffix(pre, "${!"):
		case i > 0 && strings.IndexByte("/.-:@%,~^", text[i-1]) >= 0:
		case j < len(text) && strings.IndexByte("/.", text[j]) >= 0:
		default:
			counts[text[i:j]]++
		}
		i = j
	}
	return counts
}

func isNameByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}
