package mcpconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
)

// managedKeys are the server fields Export writes and Parse reads; every
// other key of a server entry belongs to the client and is kept.
var managedKeys = []string{"command", "args", "env", "cwd", "type", "url", "headers", "disabled", "transport"}

// ExportInto writes servers into an existing config file's text and keeps
// everything Warren does not manage: other top-level keys (Claude
// Desktop's "globalShortcut"…), servers the file has and Warren lacks, the
// keys of a server entry Warren does not write ("autoApprove",
// "timeout"…), and the bytes around what changed, JSONC comments included
// (comments inside a rewritten server entry are lost). The servers go
// where the file keeps them ("mcpServers", VS Code's "servers", or
// settings.json's "mcp"."servers"); a file with none gets "mcpServers".
// An empty file gets Export's output.
func ExportInto(existing []byte, servers []Server) ([]byte, error) {
	fresh, err := Export(servers)
	if err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(stripJSONC(existing))) == 0 {
		return fresh, nil
	}
	clean := stripJSONC(existing)
	if k := kindOf(clean); k != kindObject {
		return nil, fmt.Errorf("the existing file is not a JSON object (it is %s): not overwriting it", k)
	}
	if err := json.Unmarshal(clean, new(map[string]json.RawMessage)); err != nil {
		if syn, ok := errors.AsType[*json.SyntaxError](err); ok {
			return nil, fmt.Errorf("the existing file: %w (not overwriting it)", syntaxError(existing, syn))
		}
		return nil, fmt.Errorf("the existing file: %w (not overwriting it)", err)
	}
	var doc struct {
		MCPServers map[string]json.RawMessage `json:"mcpServers"`
	}
	if err := json.Unmarshal(fresh, &doc); err != nil {
		return nil, err
	}
	freshTop, err := objectMembers(fresh, 0)
	if err != nil {
		return nil, err
	}
	freshServers := freshTop.list[0].value
	top, err := objectMembers(clean, firstNonSpace(clean, 0))
	if err != nil {
		return nil, err
	}
	for _, key := range []string{"mcpServers", "servers"} {
		if i := lastIndex(top.list, key); i >= 0 {
			if k := kindOf(clean[top.list[i].value.start:top.list[i].value.end]); k != kindObject {
				return nil, fmt.Errorf("the existing file's %q is %s, not an object of servers: not overwriting it", key, k)
			}
		}
	}
	var edits []edit
	holder := serversObject(clean, top)
	if holder == nil {
		edits = append(edits, insertMembers(existing, top, []kv{{"mcpServers", fresh[freshServers.start:freshServers.end]}}))
	} else {
		serversAt := holder.value.start
		members, err := objectMembers(clean, serversAt)
		if err != nil {
			return nil, err
		}
		var added []kv
		for _, name := range slices.Sorted(maps.Keys(doc.MCPServers)) {
			want := doc.MCPServers[name]
			// A key given twice counts once, as its last value, as in Parse.
			i := lastIndex(members.list, name)
			if i < 0 {
				added = append(added, kv{name, want})
				continue
			}
			m := members.list[i]
			merged, err := mergeServer(clean[m.value.start:m.value.end], want)
			if err != nil {
				return nil, fmt.Errorf("server %q in the existing file: %w", name, err)
			}
			edits = append(edits, edit{at: m.value.start, end: m.value.end, text: indentLike(existing, m.keyAt, merged)})
		}
		if len(added) > 0 {
			edits = append(edits, insertMembers(existing, members, added))
		}
	}
	return applyEdits(existing, edits), nil
}

// span is a byte range [start, end) of the file.
type span struct{ start, end int }

// member is one "key": value of an object; keyAt is where the key's quote is.
type member struct {
	key   string
	keyAt int
	value span
}

// object is an object's members in file order and where it closes.
type object struct {
	open, close int
	list        []member
}

// objectMembers reads the object that starts at clean[at] ('{'), with
// byte offsets into clean (comments are blanked, so offsets match the file).
func objectMembers(clean []byte, at int) (object, error) {
	obj := object{open: at}
	dec := json.NewDecoder(bytes.NewReader(clean[at:]))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return obj, fmt.Errorf("expected an object at byte %d", at)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return obj, err
		}
		key, _ := tok.(string)
		keyEnd := at + int(dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return obj, err
		}
		end := at + int(dec.InputOffset())
		keyAt := bytes.LastIndexByte(clean[:keyEnd-1], '"')
		obj.list = append(obj.list, member{key: key, keyAt: keyAt, value: span{end - len(raw), end}})
	}
	if _, err := dec.Token(); err != nil {
		return obj, err
	}
	obj.close = at + int(dec.InputOffset()) - 1
	return obj, nil
}

// lastIndex is the index of the last member named key, -1 when none.
func lastIndex(list []member, key string) int {
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].key == key {
			return i
		}
	}
	return -1
}

// serversObject finds the member holding the servers object, as Parse does.
func serversObject(clean []byte, top object) *member {
	isObject := func(m member) bool { return kindOf(clean[m.value.start:m.value.end]) == kindObject }
	for _, key := range []string{"mcpServers", "servers"} {
		if i := lastIndex(top.list, key); i >= 0 && isObject(top.list[i]) {
			return &top.list[i]
		}
	}
	i := lastIndex(top.list, "mcp")
	if i < 0 || !isObject(top.list[i]) {
		return nil
	}
	inner, err := objectMembers(clean, top.list[i].value.start)
	if err != nil {
		return nil
	}
	if j := lastIndex(inner.list, "servers"); j >= 0 && isObject(inner.list[j]) {
		return &inner.list[j]
	}
	return nil
}

// mergeServer is the file's server entry with Warren's fields written over
// it: managed keys Warren does not set are dropped, unless they agree with
// it ("type": "stdio" for a stdio server), and the client's keys stay, in
// the file's order, with Warren's new keys after them.
func mergeServer(old, want json.RawMessage) ([]byte, error) {
	if kindOf(old) != kindObject {
		return want, nil
	}
	oldObj, err := objectMembers(old, 0)
	if err != nil {
		return nil, err
	}
	wantObj, err := objectMembers(want, 0)
	if err != nil {
		return nil, err
	}
	wantRaw := map[string][]byte{}
	for _, m := range wantObj.list {
		wantRaw[m.key] = want[m.value.start:m.value.end]
	}
	transport := TransportStdio
	if t, ok := wantRaw["type"]; ok {
		var s string
		_ = json.Unmarshal(t, &s)
		transport, _ = normalizeTransport(s)
	}
	var out bytes.Buffer
	out.WriteByte('{')
	written := map[string]bool{}
	add := func(k string, v []byte) {
		if written[k] {
			return
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		out.Write(kb)
		out.WriteByte(':')
		out.Write(v)
		written[k] = true
	}
	for _, m := range oldObj.list {
		v := old[m.value.start:m.value.end]
		switch w, set := wantRaw[m.key]; {
		case set:
			add(m.key, w)
		case !slices.Contains(managedKeys, m.key):
			add(m.key, v)
		case m.key == "type" || m.key == "transport":
			var s string
			if json.Unmarshal(v, &s) == nil {
				if t, ok := normalizeTransport(s); ok && t == transport {
					add(m.key, v)
				}
			}
		}
	}
	for _, m := range wantObj.list {
		add(m.key, want[m.value.start:m.value.end])
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// edit replaces file[at:end] with text (an insertion when end == at).
type edit struct {
	at, end int
	text    []byte
}

func applyEdits(file []byte, edits []edit) []byte {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].at > edits[j].at })
	out := bytes.Clone(file)
	for _, e := range edits {
		out = slices.Concat(out[:e.at], e.text, out[e.end:])
	}
	return out
}

// kv is a member to add.
type kv struct {
	key   string
	value []byte
}

// insertMembers adds members at the end of obj, indented like its other
// members (or one step deeper than the object's line).
func insertMembers(file []byte, obj object, add []kv) edit {
	var text strings.Builder
	if len(obj.list) == 0 {
		ind := lineIndent(file, obj.open)
		text.WriteString("{")
		for i, m := range add {
			if i > 0 {
				text.WriteString(",")
			}
			kb, _ := json.Marshal(m.key)
			body := indentAfterFirstLine(indentLike(file, obj.open, m.value), "  ")
			fmt.Fprintf(&text, "\n%s  %s: %s", ind, kb, body)
		}
		fmt.Fprintf(&text, "\n%s}", ind)
		return edit{at: obj.open, end: obj.close + 1, text: []byte(text.String())}
	}
	last := obj.list[len(obj.list)-1]
	ind := lineIndent(file, last.keyAt)
	for _, m := range add {
		kb, _ := json.Marshal(m.key)
		fmt.Fprintf(&text, ",\n%s%s: %s", ind, kb, indentLike(file, last.keyAt, m.value))
	}
	return edit{at: last.value.end, end: last.value.end, text: []byte(text.String())}
}

// indentLike renders a JSON value indented two spaces a level, its lines
// after the first starting with the indentation of the line at offset at.
func indentLike(file []byte, at int, value []byte) []byte {
	var buf bytes.Buffer
	if err := json.Indent(&buf, value, lineIndent(file, at), "  "); err != nil {
		return value
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

func indentAfterFirstLine(b []byte, extra string) string {
	return strings.ReplaceAll(string(b), "\n", "\n"+extra)
}

// lineIndent is the leading whitespace of the line holding offset at.
func lineIndent(file []byte, at int) string {
	start := bytes.LastIndexByte(file[:at], '\n') + 1
	end := start
	for end < len(file) && (file[end] == ' ' || file[end] == '\t') {
		end++
	}
	return string(file[start:end])
}

func firstNonSpace(b []byte, from int) int {
	for i := from; i < len(b); i++ {
		switch b[i] {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return i
	}
	return len(b)
}
