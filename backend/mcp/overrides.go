package mcp

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/warren-dev/warren/backend/secrets"
)

// Overrides are an agent grant's config_overrides (seed §10): how that
// agent's own connection to the server differs from everyone else's — a
// token of its own, other arguments, a longer timeout. An agent with
// overrides gets a connection of its own; the server's tool list still
// comes from the shared one.
//
// Env and header values are secrets: stored sealed and never read back.
// Reads list their names in EnvKeys and HeaderKeys. On save a value
// replaces the stored one, an empty value deletes it, and a stored name
// the save does not mention is kept — unless EnvKeys (HeaderKeys) is
// given, which then lists every stored name to keep.
type Overrides struct {
	// Env is merged over a stdio server's env.
	Env map[string]string `json:"env,omitempty"`
	// Headers are merged over an SSE or streamable HTTP server's headers.
	Headers map[string]string `json:"headers,omitempty"`
	// Args replaces a stdio server's arguments when not empty.
	Args []string `json:"args,omitempty"`
	// CallTimeoutSeconds replaces the server's per-call timeout when positive.
	CallTimeoutSeconds int `json:"call_timeout_seconds,omitempty"`

	EnvKeys    []string `json:"env_keys,omitempty"`
	HeaderKeys []string `json:"header_keys,omitempty"`
}

// Empty reports whether o changes nothing.
func (o Overrides) Empty() bool {
	return len(o.Env) == 0 && len(o.Headers) == 0 && len(o.Args) == 0 && o.CallTimeoutSeconds == 0 &&
		len(o.EnvKeys) == 0 && len(o.HeaderKeys) == 0
}

// maxOverrideTimeout bounds call_timeout_seconds (one day).
const maxOverrideTimeout = 24 * 60 * 60

func (o Overrides) validate(g Grant) error {
	if o.Empty() {
		return nil
	}
	where := fmt.Sprintf("grant for %s %q on %q: config_overrides", g.Scope, g.Subject, g.Server)
	if g.Scope != ScopeAgent {
		return fmt.Errorf("%s: only agent grants can override the server's configuration", where)
	}
	for k := range o.Env {
		if err := validEnvName(k); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	for k := range o.Headers {
		if err := validHeaderName(k); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
	}
	if o.CallTimeoutSeconds < 0 || o.CallTimeoutSeconds > maxOverrideTimeout {
		return fmt.Errorf("%s: call_timeout_seconds %d must be between 1 and %d", where, o.CallTimeoutSeconds, maxOverrideTimeout)
	}
	return nil
}

// fits checks the overrides against the server they apply to.
func (o Overrides) fits(srv Server) error {
	stdio := srv.Transport == TransportStdio
	switch {
	case stdio && (len(o.Headers) > 0 || len(o.HeaderKeys) > 0):
		return fmt.Errorf("MCP server %s runs over stdio: override env, not headers", srv.Name)
	case !stdio && (len(o.Env) > 0 || len(o.EnvKeys) > 0):
		return fmt.Errorf("MCP server %s is reached over %s: override headers, not env", srv.Name, srv.Transport)
	case !stdio && len(o.Args) > 0:
		return fmt.Errorf("MCP server %s is reached over %s: it has no args to override", srv.Name, srv.Transport)
	}
	return nil
}

// storedOverrides is the column's form: the same fields, values sealed.
type storedOverrides struct {
	Env                map[string]string `json:"env,omitempty"`
	Headers            map[string]string `json:"headers,omitempty"`
	Args               []string          `json:"args,omitempty"`
	CallTimeoutSeconds int               `json:"call_timeout_seconds,omitempty"`
}

func parseStoredOverrides(raw string) (storedOverrides, error) {
	var so storedOverrides
	if raw == "" {
		return so, nil
	}
	err := json.Unmarshal([]byte(raw), &so)
	return so, err
}

// seal merges o into what is stored (see Overrides for the rules).
func (so storedOverrides) seal(box secrets.Sealer, o Overrides) (storedOverrides, error) {
	env, err := mergeSealed(box, so.Env, o.Env, o.EnvKeys)
	if err != nil {
		return so, err
	}
	headers, err := mergeSealed(box, so.Headers, o.Headers, o.HeaderKeys)
	if err != nil {
		return so, err
	}
	return storedOverrides{Env: env, Headers: headers, Args: o.Args, CallTimeoutSeconds: o.CallTimeoutSeconds}, nil
}

func mergeSealed(box secrets.Sealer, stored, updates map[string]string, keep []string) (map[string]string, error) {
	out, err := secrets.MergeEnv(box, stored, updates)
	if keep != nil {
		maps.DeleteFunc(out, func(k, _ string) bool { return !slices.Contains(keep, k) && updates[k] == "" })
	}
	if err != nil || len(out) == 0 {
		return nil, err
	}
	return out, nil
}

// public is what reads return: names of the sealed values, never values.
func (so storedOverrides) public() Overrides {
	return Overrides{Args: so.Args, CallTimeoutSeconds: so.CallTimeoutSeconds, EnvKeys: sortedKeys(so.Env), HeaderKeys: sortedKeys(so.Headers)}
}

// open decrypts the values for connecting.
func (so storedOverrides) open(box secrets.Sealer) (Overrides, error) {
	env, err := secrets.OpenEnv(box, so.Env)
	if err != nil {
		return Overrides{}, fmt.Errorf("env: %w", err)
	}
	headers, err := secrets.OpenEnv(box, so.Headers)
	if err != nil {
		return Overrides{}, fmt.Errorf("header: %w", err)
	}
	return Overrides{Env: env, Headers: headers, Args: so.Args, CallTimeoutSeconds: so.CallTimeoutSeconds}, nil
}

// apply returns the server as the agent's connection sees it. env and
// headers are the server's own (decrypted) values and are not modified.
func (o Overrides) apply(srv Server, env, headers map[string]string) (Server, map[string]string, map[string]string) {
	if len(o.Args) > 0 {
		srv.Args = slices.Clone(o.Args)
	}
	if o.CallTimeoutSeconds > 0 {
		srv.CallTimeout = time.Duration(o.CallTimeoutSeconds) * time.Second
	}
	env, headers = maps.Clone(env), maps.Clone(headers)
	if env == nil {
		env = map[string]string{}
	}
	if headers == nil {
		headers = map[string]string{}
	}
	maps.Copy(env, o.Env)
	maps.Copy(headers, o.Headers)
	return srv, env, headers
}

// same compares two opened overrides.
func (o Overrides) same(p Overrides) bool {
	return maps.Equal(o.Env, p.Env) && maps.Equal(o.Headers, p.Headers) && slices.Equal(o.Args, p.Args) &&
		o.CallTimeoutSeconds == p.CallTimeoutSeconds
}
