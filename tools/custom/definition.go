// Package custom holds shell-backed tools users define at run time (seed
// §11): a JSON-schema'd parameter object and a command template whose
// {{.key}} placeholders are filled with shell-escaped arguments.
package custom

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/warren-dev/warren/tools"
)

// Definition is one custom tool.
type Definition struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters" ts_type:"any"`
	Command     string          `json:"command"`
	// TimeoutSeconds defaults to 60.
	TimeoutSeconds int  `json:"timeout_seconds,omitempty"`
	Enabled        bool `json:"enabled"`
	// Agent is "" for a global tool, else the only agent that sees it.
	Agent string `json:"agent,omitempty"`
	// Env holds plain values to store (write-only: never read back).
	Env map[string]string `json:"env,omitempty"`
	// EnvKeys names the stored variables.
	EnvKeys []string `json:"env_keys,omitempty"`
}

var (
	nameRE        = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
	envNameRE     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	placeholderRE = regexp.MustCompile(`\{\{\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)
)

// DefaultTimeout is the seed's default for custom tools.
const DefaultTimeout = 60

// Placeholders returns the parameter names a command template uses.
func Placeholders(command string) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range placeholderRE.FindAllStringSubmatch(command, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			out = append(out, m[1])
		}
	}
	return out
}

// Schema parses the parameters into a schema the registry validates with.
func (d Definition) Schema() (*tools.Schema, error) {
	var s tools.Schema
	if err := json.Unmarshal(d.Parameters, &s); err != nil {
		return nil, fmt.Errorf("parameters are not a JSON schema object: %v", err)
	}
	if s.Type != "object" {
		return nil, fmt.Errorf("parameters must have \"type\": \"object\", got %q", s.Type)
	}
	if s.Properties == nil {
		s.Properties = map[string]*tools.Schema{}
	}
	if s.AdditionalProperties == nil {
		s.AdditionalProperties = false
	}
	return &s, nil
}

// Validate reports every problem with a definition, each naming the field.
func (d Definition) Validate() error {
	var errs []string
	if !nameRE.MatchString(d.Name) {
		errs = append(errs, fmt.Sprintf("name %q: use a lower-case letter then up to 63 letters, digits or _", d.Name))
	}
	if strings.TrimSpace(d.Description) == "" {
		errs = append(errs, "description is required")
	}
	if strings.TrimSpace(d.Command) == "" {
		errs = append(errs, "command is required")
	}
	if rest := placeholderRE.ReplaceAllString(d.Command, ""); strings.Contains(rest, "{{") || strings.Contains(rest, "}}") {
		errs = append(errs, "command: only {{.name}} placeholders are allowed (no other template actions)")
	}
	if d.TimeoutSeconds < 0 || d.TimeoutSeconds > 3600 {
		errs = append(errs, "timeout_seconds must be between 0 (default 60) and 3600")
	}
	schema, err := d.Schema()
	if err != nil {
		errs = append(errs, err.Error())
	} else {
		var missing []string
		for _, p := range Placeholders(d.Command) {
			if _, ok := schema.Properties[p]; !ok {
				missing = append(missing, p)
			}
		}
		if len(missing) > 0 {
			errs = append(errs, fmt.Sprintf("command uses {{.%s}} but parameters do not define %s", strings.Join(missing, "}}, {{."), strings.Join(missing, ", ")))
		}
	}
	keys := make([]string, 0, len(d.Env))
	for k := range d.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !envNameRE.MatchString(k) {
			errs = append(errs, fmt.Sprintf("env name %q is not a valid variable name", k))
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("custom tool %q: %s", d.Name, strings.Join(errs, "; "))
	}
	return nil
}
