package tools

import (
	"encoding/json"
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
