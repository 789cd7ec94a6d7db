package warren

import (
	"encoding/json"
	"testing"
)

// FuzzElicitForm: a server's schema and a user's answer never crash the
// form reader or the answer check, and an accepted answer holds only
// declared fields of their declared types.
func FuzzElicitForm(f *testing.F) {
	f.Add(`{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"n":{"type":"integer"}}}`, `{"name":"Ada","n":3}`)
	f.Add(`{"type":"object","properties":{"hero":{"type":"string","oneOf":[{"const":"a"},{"const":"b"}]}}}`, `{"hero":"c"}`)
	f.Add(`{"type":"object","properties":{"ok":{"type":"boolean"},"m":{"type":"array","items":{"type":"string"}}}}`, `{"m":["x"]}`)
	f.Add(`{"type":"array"}`, `{}`)
	f.Add(`{"type":"object","properties":{"x":{"type":"object"}}}`, `{"x":{}}`)
	f.Fuzz(func(t *testing.T, schema, answer string) {
		fields, err := parseElicitSchema(json.RawMessage(schema))
		var content map[string]any
		if json.Unmarshal([]byte(answer), &content) != nil {
			return
		}
		cerr := checkElicitAnswer(json.RawMessage(schema), content)
		if err != nil {
			if cerr == nil {
				t.Fatalf("an answer was accepted for a schema that does not read: %v", err)
			}
			return
		}
		if cerr != nil {
			return
		}
		byName := map[string]ElicitField{}
		for _, f := range fields {
			byName[f.Name] = f
		}
		for k, v := range content {
			f, ok := byName[k]
			if !ok {
				t.Fatalf("accepted undeclared field %q", k)
			}
			if checkElicitValue(f, v) != nil {
				t.Fatalf("accepted %q=%v of the wrong type %s", k, v, f.Type)
			}
		}
	})
}
