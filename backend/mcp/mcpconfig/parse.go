package mcpconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parse reads the servers of a Claude Desktop or Cursor config
// ({"mcpServers": {name: server}}) or a VS Code one ({"servers": {…}}, JSONC,
// with "inputs"; or its user settings.json, {"mcp": {"servers": {…}}}). Other top-level keys, such as Claude Desktop's preferences,
// are not Parse's business and are ignored silently.
//
// The error is for a file Parse cannot read at all: invalid JSON (with its
// line and column) or no "mcpServers"/"servers" object. A bad server is a
// Warning with Skipped set, so the good ones still import; smaller things Parse
// worked around (unknown fields, a renamed server, ${input:…} references kept
// verbatim) are Warnings too. Every server returned passes Validate, and the
// result is sorted by name.
func Parse(data []byte) ([]Server, []Warning, error) {
	clean := stripJSONC(data)
	var top map[string]json.RawMessage
	err := json.Unmarshal(clean, &top)
	if syn, ok := errors.AsType[*json.SyntaxError](err); ok {
		return nil, nil, syntaxError(data, syn)
	}
	// Valid JSON of another type fails to decode, except null, which decodes to nil.
	if k := kindOf(clean); k != kindObject {
		return nil, nil, fmt.Errorf(`expected a JSON object with "mcpServers" (Claude Desktop, Cursor) or "servers" (VS Code), got %s`, k)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("read config: %w", err)
	}
	entries, warnings, err := serverEntries(top)
	if err != nil {
		return nil, nil, err
	}

	keys := slices.Sorted(maps.Keys(entries))
	// Names that are already valid keep them; renamed ones go around them.
	taken := make(map[string]bool, len(keys))
	for _, k := range keys {
		if ValidateName(k) == nil {
			taken[k] = true
		}
	}
	var servers []Server
	for _, key := range keys {
		s, notes, err := parseServer(entries[key])
		if err != nil {
			warnings = append(warnings, Warning{Server: key, Message: err.Error(), Skipped: true})
			continue
		}
		s.Name = key
		if err := ValidateName(key); err != nil {
			s.Name = uniqueName(key, taken)
			notes = append([]string{fmt.Sprintf("renamed to %q: %v", s.Name, err)}, notes...)
		}
		if err := validate(s); err != nil {
			msg := err.Error()
			if len(inputRefs(s)) > 0 {
				msg += "; the server uses VS Code ${input:…} references, which Warren does not fill in"
			}
			warnings = append(warnings, Warning{Server: key, Message: msg, Skipped: true})
			continue
		}
		for _, n := range notes {
			warnings = append(warnings, Warning{Server: key, Message: n})
		}
		servers = append(servers, s)
	}
	slices.SortFunc(servers, func(a, b Server) int { return strings.Compare(a.Name, b.Name) })
	return servers, warnings, nil
}

// serverEntries merges "mcpServers" and "servers"; a name in both keeps the
// "mcpServers" entry, since that is the format Warren exports.
func serverEntries(top map[string]json.RawMessage) (map[string]json.RawMessage, []Warning, error) {
	entries := map[string]json.RawMessage{}
	var warnings []Warning
	found := false
	for _, key := range []string{"mcpServers", "servers"} {
		raw, ok := top[key]
		if !ok {
			continue
		}
		found = true
		if k := kindOf(raw); k != kindObject {
			return nil, nil, fmt.Errorf("%q must be an object of servers by name, got %s", key, k)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			return nil, nil, fmt.Errorf("%q: %w", key, err)
		}
		for _, name := range slices.Sorted(maps.Keys(m)) {
			if _, dup := entries[name]; dup {
				warnings = append(warnings, Warning{Server: name, Message: `listed in both "mcpServers" and "servers"; kept the "mcpServers" entry`})
				continue
			}
			entries[name] = m[name]
		}
	}
	if !found {
		// VS Code's user settings.json nests them: {"mcp": {"servers": {…}}}.
		if raw, ok := top["mcp"]; ok && kindOf(raw) == kindObject {
			var nested map[string]json.RawMessage
			if err := json.Unmarshal(raw, &nested); err == nil {
				if _, ok := nested["servers"]; ok {
					return serverEntries(map[string]json.RawMessage{"servers": nested["servers"]})
				}
			}
		}
		msg := `expected a top-level "mcpServers" object (Claude Desktop, Cursor) or "servers" object (VS Code)`
		if len(top) == 0 {
			return nil, nil, errors.New(msg + "; the object is empty")
		}
		return nil, nil, fmt.Errorf("%s; found %s (a bare map of servers must be wrapped as {\"mcpServers\": {…}})", msg, quoteList(slices.Sorted(maps.Keys(top)), 5))
	}
	return entries, warnings, nil
}

// parseServer reads one server entry. The error skips the server; notes are
// warnings that do not.
func parseServer(raw json.RawMessage) (Server, []string, error) {
	if k := kindOf(raw); k != kindObject {
		return Server{}, nil, fmt.Errorf(`must be an object with a "command" or a "url", got %s`, k)
	}
	f := fieldReader{}
	if err := json.Unmarshal(raw, &f.fields); err != nil {
		return Server{}, nil, err
	}
	s := Server{
		Command:  f.str("command"),
		Args:     f.strs("args"),
		Env:      f.strMap("env"),
		Cwd:      f.str("cwd"),
		URL:      f.str("url"),
		Headers:  f.strMap("headers"),
		Disabled: f.boolean("disabled"),
	}
	if f.err != nil {
		return Server{}, nil, f.err
	}
	transport, err := f.transport(s)
	if err != nil {
		return Server{}, nil, err
	}
	s.Transport = transport

	var notes []string
	if unknown := f.unknown(); len(unknown) > 0 {
		notes = append(notes, fmt.Sprintf("ignored unknown %s %s", plural(len(unknown), "field"), quoteList(unknown, len(unknown))))
	}
	if s.Transport == TransportStdio {
		if s.Headers != nil {
			notes = append(notes, `ignored "headers": only sse and streamable-http servers use them`)
			s.Headers = nil
		}
	} else {
		var dropped []string
		if s.Args != nil {
			dropped, s.Args = append(dropped, "args"), nil
		}
		if s.Env != nil {
			dropped, s.Env = append(dropped, "env"), nil
		}
		if s.Cwd != "" {
			dropped, s.Cwd = append(dropped, "cwd"), ""
		}
		if len(dropped) > 0 {
			notes = append(notes, fmt.Sprintf("ignored %s: only stdio servers use them", quoteList(dropped, len(dropped))))
		}
	}
	if where := inputRefs(s); len(where) > 0 {
		notes = append(notes, fmt.Sprintf("kept VS Code input references (${input:…}) as written in %s; Warren does not prompt for them, so set the real values after import", strings.Join(where, ", ")))
	}
	return s, notes, nil
}

// inputRefs lists the fields holding VS Code ${input:…} prompts.
func inputRefs(s Server) []string {
	var where []string
	check := func(field, v string) {
		if strings.Contains(v, "${input:") {
			where = append(where, field)
		}
	}
	eachField(s, check)
	return where
}

// uniqueName turns key into a valid name no other server has: each character
// outside [A-Za-z0-9_-] becomes '_', the length is capped, and _2, _3… break ties.
func uniqueName(key string, taken map[string]bool) string {
	var b strings.Builder
	for _, r := range key {
		if isNameRune(r) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	base := b.String() // ASCII from here on, so slicing bytes slices characters
	if base == "" {
		base = "server"
	}
	base = base[:min(len(base), MaxNameLength)]
	name := base
	for i := 2; taken[name]; i++ {
		suffix := "_" + strconv.Itoa(i)
		name = base[:min(len(base), MaxNameLength-len(suffix))] + suffix
	}
	taken[name] = true
	return name
}

// syntaxError locates a JSON syntax error as an editor would show it.
func syntaxError(data []byte, err *json.SyntaxError) error {
	// Offset counts the bytes read, the offending one included.
	pos := min(max(int(err.Offset)-1, 0), len(data))
	line := 1 + bytes.Count(data[:pos], []byte{'\n'})
	lineStart := bytes.LastIndexByte(data[:pos], '\n') + 1
	col := utf8.RuneCount(data[lineStart:pos]) + 1
	return fmt.Errorf("invalid JSON at line %d, column %d (byte %d): %w", line, col, pos, err)
}

func quoteList(items []string, limit int) string {
	q := make([]string, 0, min(len(items), limit))
	for _, it := range items[:min(len(items), limit)] {
		q = append(q, strconv.Quote(it))
	}
	s := strings.Join(q, ", ")
	if len(items) > limit {
		s += fmt.Sprintf(" and %d more", len(items)-limit)
	}
	return s
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// eachField calls fn with every text field of s a person may have written
// placeholders into, named as in the configuration (args[0], env.KEY…), in
// a stable order.
func eachField(s Server, fn func(field, value string)) {
	fn("command", s.Command)
	for i, a := range s.Args {
		fn("args["+strconv.Itoa(i)+"]", a)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		fn("env."+k, s.Env[k])
	}
	fn("cwd", s.Cwd)
	fn("url", s.URL)
	for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
		fn("headers."+k, s.Headers[k])
	}
}
