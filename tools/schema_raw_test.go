package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestRawSchema(t *testing.T) {
	t.Parallel()
	raw := json.RawMessage(`{"type":"object","properties":{"a":{"type":["string","null"]},"n":{"anyOf":[{"type":"integer"}]}},"required":["a"],"$defs":{}}`)
	s, err := RawSchema(raw)
	if err != nil {
		t.Fatal(err)
	}
	if string(s.JSON()) != string(raw) {
		t.Fatalf("JSON() = %s, want the schema verbatim", s.JSON())
	}
	for _, tc := range []struct {
		args, wantErr string
	}{
		{`{"a":"x","n":1,"extra":true}`, ""},
		{`{"n":1}`, `missing required field "a"`},
		{`[1]`, "must be an object"},
		{`{`, "not valid JSON"},
	} {
		err := s.Validate(json.RawMessage(tc.args))
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("Validate(%s) = %v, want nil", tc.args, err)
		case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
			t.Errorf("Validate(%s) = %v, want %q", tc.args, err, tc.wantErr)
		}
	}
	if _, err := RawSchema(json.RawMessage(`{"type":"string"}`)); err == nil {
		t.Error("a non-object schema was accepted")
	}
	if _, err := RawSchema(json.RawMessage(`nope`)); err == nil {
		t.Error("invalid JSON was accepted")
	}
	if s, err := RawSchema(nil); err != nil || string(s.JSON()) != `{"type":"object"}` {
		t.Errorf("RawSchema(nil) = %v, %v", s, err)
	}
}
