package tools

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// RawSchema wraps a JSON schema written by someone else (an MCP server's
// inputSchema). JSON returns it verbatim, so the model sees every keyword;
// Validate checks only what any JSON schema dialect agrees on — arguments are
// an object and the top-level required fields are present — and leaves the
// rest to the schema's owner, which reports its own validation errors.
func RawSchema(raw json.RawMessage) (*Schema, error) {
	var top struct {
		Type     any      `json:"type"`
		Required []string `json:"required"`
	}
	if len(raw) == 0 {
		raw = json.RawMessage(`{"type":"object"}`)
	}
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("input schema is not a JSON object: %w", err)
	}
	if t, ok := top.Type.(string); ok && t != "object" {
		return nil, fmt.Errorf("input schema type is %q, want \"object\"", t)
	}
	return &Schema{Type: "object", Required: top.Required, raw: append(json.RawMessage(nil), raw...)}, nil
}

// validateRaw checks what RawSchema promises: a JSON object (or nothing)
// holding every required top-level field. Field values stay unparsed.
func (s *Schema) validateRaw(args json.RawMessage) error {
	if len(bytes.TrimSpace(args)) == 0 || bytes.Equal(bytes.TrimSpace(args), []byte("null")) {
		args = json.RawMessage(`{}`)
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(args, &obj); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return fmt.Errorf("arguments must be an object, got %s", typeErr.Value)
		}
		return fmt.Errorf("arguments are not valid JSON: %v", err)
	}
	for _, r := range s.Required {
		if v, ok := obj[r]; !ok || bytes.Equal(v, []byte("null")) {
			return fmt.Errorf("missing required field %q", r)
		}
	}
	return nil
}
