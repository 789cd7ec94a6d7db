package mcpconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// fieldReader reads one server's fields, keeping the first type error (so a
// run of reads needs one check) and remembering which keys it looked at, so
// the rest can be reported as unknown. A null field counts as absent.
type fieldReader struct {
	fields map[string]json.RawMessage
	seen   map[string]bool
	err    error
}

// get returns the raw value of key, or nil when it is absent, null, or an
// earlier read already failed.
func (f *fieldReader) get(key string) json.RawMessage {
	if f.seen == nil {
		f.seen = map[string]bool{}
	}
	f.seen[key] = true
	raw, ok := f.fields[key]
	if !ok || f.err != nil || kindOf(raw) == kindNull {
		return nil
	}
	return raw
}

func (f *fieldReader) fail(format string, a ...any) {
	if f.err == nil {
		f.err = fmt.Errorf(format, a...)
	}
}

func (f *fieldReader) str(key string) string {
	raw := f.get(key)
	if raw == nil {
		return ""
	}
	s, ok := decodeString(raw)
	if !ok {
		f.fail("%q must be a string, got %s", key, kindOf(raw))
	}
	return s
}

// decodeString decodes a JSON string; unlike json.Unmarshal it refuses null.
func decodeString(raw json.RawMessage) (string, bool) {
	var s string
	if kindOf(raw) != kindString || json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

func (f *fieldReader) boolean(key string) bool {
	raw := f.get(key)
	if raw == nil {
		return false
	}
	var b bool
	if kindOf(raw) != kindBool || json.Unmarshal(raw, &b) != nil {
		f.fail("%q must be true or false, got %s", key, kindOf(raw))
	}
	return b
}

// strs reads an array of strings; an empty one reads as nil.
func (f *fieldReader) strs(key string) []string {
	raw := f.get(key)
	if raw == nil {
		return nil
	}
	var items []json.RawMessage
	if kindOf(raw) != kindArray || json.Unmarshal(raw, &items) != nil {
		f.fail("%q must be an array of strings, got %s", key, kindOf(raw))
		return nil
	}
	var out []string
	for i, item := range items {
		s, ok := decodeString(item)
		if !ok {
			f.fail("%q must be an array of strings, but item %d is %s", key, i, kindOf(item))
			return nil
		}
		out = append(out, s)
	}
	return out
}

// strMap reads an object of strings; an empty one reads as nil.
func (f *fieldReader) strMap(key string) map[string]string {
	raw := f.get(key)
	if raw == nil {
		return nil
	}
	var obj map[string]json.RawMessage
	if kindOf(raw) != kindObject || json.Unmarshal(raw, &obj) != nil {
		f.fail("%q must be an object of strings, got %s", key, kindOf(raw))
		return nil
	}
	if len(obj) == 0 {
		return nil
	}
	out := make(map[string]string, len(obj))
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		s, ok := decodeString(obj[k])
		if !ok {
			f.fail("%q must be an object of strings, but %q is %s", key, k, kindOf(obj[k]))
			return nil
		}
		out[k] = s
	}
	return out
}

// unknown lists, sorted, the fields no read asked for.
func (f *fieldReader) unknown() []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(f.fields)) {
		if !f.seen[k] {
			out = append(out, k)
		}
	}
	return out
}

// transport decides the transport from "type"/"transport" and from whether
// the server has a command or a url.
func (f *fieldReader) transport(s Server) (string, error) {
	var key, declared string
	for _, k := range []string{"type", "transport"} {
		v := f.str(k)
		if f.err != nil {
			return "", f.err
		}
		if v == "" {
			continue
		}
		t, ok := normalizeTransport(v)
		if !ok {
			return "", fmt.Errorf(`%q %q is unknown; expected "stdio", "sse", "http" or "streamable-http"`, k, v)
		}
		if declared != "" && t != declared {
			return "", fmt.Errorf(`"type" and "transport" disagree (%q and %q)`, f.str("type"), v)
		}
		key, declared = k, t
	}
	switch {
	case s.Command != "" && s.URL != "":
		return "", errors.New(`has both a "command" and a "url"; expected one`)
	case s.Command != "":
		if declared != "" && declared != TransportStdio {
			return "", fmt.Errorf(`%q is %q, which needs a "url", but the server has a "command"`, key, f.str(key))
		}
		return TransportStdio, nil
	case s.URL != "":
		if declared == TransportStdio {
			return "", fmt.Errorf(`%q is "stdio", which needs a "command", but the server has a "url"`, key)
		}
		if declared != "" {
			return declared, nil
		}
		// Without a declared type, an /sse endpoint is the old SSE transport.
		if u, err := url.Parse(s.URL); err == nil && strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/sse") {
			return TransportSSE, nil
		}
		return TransportStreamableHTTP, nil
	default:
		return "", errors.New(`needs a "command" (stdio) or a "url" (sse, streamable-http)`)
	}
}

// normalizeTransport maps the spellings clients use ("http" in VS Code and
// Claude Code, "streamableHttp" in Cline) to Warren's names.
func normalizeTransport(v string) (string, bool) {
	switch strings.NewReplacer("-", "", "_", "").Replace(strings.ToLower(v)) {
	case "stdio":
		return TransportStdio, true
	case "sse":
		return TransportSSE, true
	case "http", "streamablehttp":
		return TransportStreamableHTTP, true
	}
	return "", false
}

// JSON kinds as messages name them.
const (
	kindObject = "an object"
	kindArray  = "an array"
	kindString = "a string"
	kindBool   = "a boolean"
	kindNull   = "null"
)

// kindOf names the JSON type of raw for messages.
func kindOf(raw []byte) string {
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return kindObject
	case '[':
		return kindArray
	case '"':
		return kindString
	case 't', 'f':
		return kindBool
	case 'n':
		return kindNull
	}
	return "a number"
}
