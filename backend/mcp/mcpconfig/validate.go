package mcpconfig

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// Validate reports the first problem with s, naming the server and the field.
//
// Its rules are at least as strict as backend/mcp's, so a server that passes
// here can be stored there: a name of 1–40 letters, digits, '_' or '-'; a
// stdio server has a command and no url or headers; an sse or
// streamable-http server has an http(s) url with a host and no command, args,
// env or cwd; env names, header names and every value are well formed.
func Validate(s Server) error {
	if err := validate(s); err != nil {
		return fmt.Errorf("server %q: %w", s.Name, err)
	}
	return nil
}

// validate is Validate without the server prefix, for Parse's warnings, which
// carry the name in the file separately.
func validate(s Server) error {
	if err := ValidateName(s.Name); err != nil {
		return err
	}
	switch s.Transport {
	case TransportStdio:
		return validateStdio(s)
	case TransportSSE, TransportStreamableHTTP:
		return validateRemote(s)
	case "":
		return errors.New(`"transport" is empty; expected "stdio", "sse" or "streamable-http"`)
	default:
		return fmt.Errorf(`"transport" %q is unknown; expected "stdio", "sse" or "streamable-http"`, s.Transport)
	}
}

// ValidateName enforces what model APIs accept in a tool name, since a
// server name (or tool prefix) ends up inside mcp_{name}_{tool}.
func ValidateName(name string) error {
	if name == "" {
		return errors.New("name is empty; use 1 to 40 letters, digits, '_' or '-'")
	}
	pos := 0
	for _, r := range name {
		pos++
		if !isNameRune(r) {
			return fmt.Errorf("name has %q at character %d; only letters, digits, '_' and '-' are allowed, because the name becomes part of tool names (mcp_{name}_{tool})", r, pos)
		}
	}
	if n := utf8.RuneCountInString(name); n > MaxNameLength {
		return fmt.Errorf("name is %d characters long; the limit is %d", n, MaxNameLength)
	}
	return nil
}

func isNameRune(r rune) bool {
	return r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}

func validateStdio(s Server) error {
	if strings.TrimSpace(s.Command) == "" {
		return errors.New(`stdio servers need a "command"`)
	}
	if s.URL != "" || len(s.Headers) > 0 {
		return errors.New(`stdio servers have no "url" or "headers"`)
	}
	// A NUL cannot reach exec: the OS would cut the string or refuse it.
	if strings.ContainsRune(s.Command, 0) {
		return errors.New(`"command" contains a NUL character`)
	}
	for i, a := range s.Args {
		if strings.ContainsRune(a, 0) {
			return fmt.Errorf(`"args" item %d contains a NUL character`, i)
		}
	}
	if strings.ContainsRune(s.Cwd, 0) {
		return errors.New(`"cwd" contains a NUL character`)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Env)) {
		switch {
		case k == "":
			return errors.New(`"env" has a variable with an empty name`)
		case strings.ContainsAny(k, "=\x00"):
			return fmt.Errorf(`"env" variable %q has '=' or NUL in its name`, k)
		case strings.ContainsRune(s.Env[k], 0):
			return fmt.Errorf(`"env" variable %q contains a NUL character`, k)
		}
	}
	return nil
}

func validateRemote(s Server) error {
	if s.Command != "" || len(s.Args) > 0 || len(s.Env) > 0 || s.Cwd != "" {
		return fmt.Errorf(`%s servers have no "command", "args", "env" or "cwd"`, s.Transport)
	}
	if s.URL == "" {
		return fmt.Errorf(`%s servers need a "url"`, s.Transport)
	}
	u, err := url.Parse(s.URL)
	if err != nil {
		return fmt.Errorf(`"url" is not a valid URL: %w`, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf(`"url" %q must start with http:// or https://`, s.URL)
	}
	if u.Hostname() == "" {
		return fmt.Errorf(`"url" %q has no host`, s.URL)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Headers)) {
		if !isToken(k) {
			return fmt.Errorf(`"headers" name %q is not a valid HTTP header name`, k)
		}
		if !isHeaderValue(s.Headers[k]) {
			return fmt.Errorf(`"headers" value for %q contains a control character`, k)
		}
	}
	return nil
}

// isToken reports whether s is an RFC 9110 token, the syntax of a header name.
func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := range len(s) {
		if !isTokenByte(s[i]) {
			return false
		}
	}
	return true
}

func isTokenByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// isHeaderValue rejects the control characters net/http refuses to send
// (CR and LF would also split the header).
func isHeaderValue(v string) bool {
	for i := range len(v) {
		if c := v[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}
