package policy

import (
	"fmt"
	"slices"
	"strings"
)

// Entry syntax, shared by every list (allow, deny, alsoAllow, subagent lists,
// per-request allow):
//
//	*            every registered tool
//	group:NAME   every tool in group NAME (static, declared, mcp, mcp:SERVER, custom, warren)
//	NAME         one tool by exact name
//
// Names are exact and case-sensitive; glob patterns are rejected rather than
// silently matching nothing.

// entryProblem explains why an entry is malformed, or returns "" when it is fine.
func entryProblem(e string) string {
	switch {
	case e == "":
		return "empty entry"
	case e == "*":
		return ""
	case strings.TrimSpace(e) != e:
		return "leading or trailing whitespace"
	}
	if group, ok := strings.CutPrefix(e, groupPrefix); ok {
		return groupProblem(group)
	}
	for _, r := range e {
		switch {
		case r == '*':
			return "wildcards other than a lone \"*\" are not supported"
		case r == ':':
			return fmt.Sprintf("':' is only allowed in group references (did you mean \"group:%s\"?)", e)
		case !nameRune(r):
			return fmt.Sprintf("invalid character %q in tool name", r)
		}
	}
	return ""
}

// groupProblem validates a group name; ':' separates "mcp:SERVER" segments.
func groupProblem(group string) string {
	if group == "" {
		return "empty group name after \"group:\""
	}
	for seg := range strings.SplitSeq(group, ":") {
		if seg == "" {
			return fmt.Sprintf("empty segment in group name %q", group)
		}
		for _, r := range seg {
			if r == '*' {
				return "wildcards are not supported in group names"
			}
			if !nameRune(r) {
				return fmt.Sprintf("invalid character %q in group name", r)
			}
		}
	}
	return ""
}

// nameRune is the character set of MCP tool names (A-Z a-z 0-9 _ - .), which
// also covers every native and custom tool name.
func nameRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
		r == '_' || r == '-' || r == '.'
}

// matcher is a compiled entry list. Filter resolves it against a toolSet
// (toolSet.selectInto); match is only used to explain one tool.
type matcher struct {
	label  string // human name for traces, e.g. `agent "coder" deny`
	all    bool
	names  []string // tool names
	groups []string // group names, without the "group:" prefix
}

// compileEntries parses a list; path names the list in error messages
// (e.g. `agents["coder"].deny`) and label in traces. An empty list compiles
// to nil, which every step treats as "not configured".
func compileEntries(path, label string, entries []string) (*matcher, error) {
	if len(entries) == 0 {
		return nil, nil
	}
	m := &matcher{label: label}
	var errs []error
	for i, e := range entries {
		if problem := entryProblem(e); problem != "" {
			errs = append(errs, errorf(ErrInvalidEntry, "%s[%d]: malformed entry %q: %s", path, i, e, problem))
			continue
		}
		switch group, isGroup := strings.CutPrefix(e, groupPrefix); {
		case e == "*":
			m.all = true
		case isGroup:
			m.groups = append(m.groups, group)
		default:
			m.names = append(m.names, e)
		}
	}
	if len(errs) > 0 {
		return nil, joinErrors(errs)
	}
	return m, nil
}

// match reports whether the tool is selected and by which entry, as written
// in the config, for traces.
func (m *matcher) match(t *toolInfo) (string, bool) {
	if m.all {
		return "*", true
	}
	if slices.Contains(m.names, t.name) {
		return t.name, true
	}
	for _, g := range m.groups {
		if slices.Contains(t.groups, g) {
			return groupPrefix + g, true
		}
	}
	return "", false
}

// Expand returns the registered tools that the entries select. It errors on
// malformed entries or a bad tool list; entries naming unknown tools or groups
// select nothing, because MCP tools may register later.
func Expand(entries []string, tools []ToolRef) (map[string]bool, error) {
	m, err := compileEntries("entries", "entries", entries)
	if err != nil {
		return nil, err
	}
	set, err := resolveTools(tools)
	if err != nil {
		return nil, err
	}
	out := make(map[string]bool)
	if m == nil {
		return out, nil
	}
	sel := newBitset(len(set.tools))
	set.selectInto(sel, m)
	for i, t := range set.tools {
		if sel.has(i) {
			out[t.name] = true
		}
	}
	return out, nil
}
