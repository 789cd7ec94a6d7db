package tools

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Schema is the JSON schema of a tool's parameters, derived from a typed
// params struct. Struct tags are its only source:
//
//	json:"name,omitempty"  name; omitempty (or a pointer) makes it optional
//	description:"…"        the field's description
//	enum:"a|b|c"           allowed string values
type Schema struct {
	Type                 string             `json:"type"`
	Description          string             `json:"description,omitempty"`
	Enum                 []string           `json:"enum,omitempty"`
	Properties           map[string]*Schema `json:"properties,omitempty"`
	Required             []string           `json:"required,omitempty"`
	Items                *Schema            `json:"items,omitempty"`
	AdditionalProperties any                `json:"additionalProperties,omitempty"`
	// order keeps declaration order for stable, readable output.
	order []string
	// raw, when set, is a schema written elsewhere (RawSchema) that JSON
	// returns verbatim.
	raw json.RawMessage
}

// SchemaFor derives the schema of params type P, which must be a struct.
func SchemaFor[P any]() (*Schema, error) {
	t := reflect.TypeFor[P]()
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("params type %s must be a struct", t)
	}
	return schemaOf(t)
}

func schemaOf(t reflect.Type) (*Schema, error) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return &Schema{Type: "string"}, nil
	case reflect.Bool:
		return &Schema{Type: "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return &Schema{Type: "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return &Schema{Type: "number"}, nil
	case reflect.Slice, reflect.Array:
		items, err := schemaOf(t.Elem())
		if err != nil {
			return nil, err
		}
		return &Schema{Type: "array", Items: items}, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map key of %s must be string", t)
		}
		val, err := schemaOf(t.Elem())
		if err != nil {
			return nil, err
		}
		return &Schema{Type: "object", AdditionalProperties: val}, nil
	case reflect.Struct:
		return structSchema(t)
	case reflect.Interface:
		return &Schema{}, nil
	}
	return nil, fmt.Errorf("unsupported parameter type %s", t)
}

func structSchema(t reflect.Type) (*Schema, error) {
	s := &Schema{Type: "object", Properties: map[string]*Schema{}, AdditionalProperties: false}
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		ps, err := schemaOf(f.Type)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		ps.Description = f.Tag.Get("description")
		if e := f.Tag.Get("enum"); e != "" {
			ps.Enum = strings.Split(e, "|")
		}
		s.Properties[name] = ps
		s.order = append(s.order, name)
		if !strings.Contains(opts, "omitempty") && f.Type.Kind() != reflect.Pointer {
			s.Required = append(s.Required, name)
		}
	}
	return s, nil
}

// JSON returns the schema as a JSON document.
func (s *Schema) JSON() json.RawMessage {
	if s.raw != nil {
		return s.raw
	}
	b, err := json.Marshal(s)
	if err != nil {
		return json.RawMessage(`{"type":"object"}`)
	}
	return b
}

// Validate checks raw arguments against the schema and returns an error that
// names the offending field, so the model can correct its call.
func (s *Schema) Validate(args json.RawMessage) error {
	if s.raw != nil {
		return s.validateRaw(args)
	}
	var v any
	if len(strings.TrimSpace(string(args))) == 0 {
		v = map[string]any{}
	} else {
		dec := json.NewDecoder(strings.NewReader(string(args)))
		dec.UseNumber()
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("arguments are not valid JSON: %v", err)
		}
		if dec.More() {
			return fmt.Errorf("arguments contain more than one JSON value")
		}
		if v == nil {
			v = map[string]any{}
		}
	}
	return s.check("", v)
}

func (s *Schema) check(path string, v any) error {
	where := "arguments"
	if path != "" {
		where = fmt.Sprintf("field %q", path)
	}
	switch s.Type {
	case "":
		return nil
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s must be an object, got %s", where, jsonKind(v))
		}
		return s.checkObject(path, obj)
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s must be an array, got %s", where, jsonKind(v))
		}
		for i, item := range arr {
			if err := s.Items.check(fmt.Sprintf("%s[%d]", path, i), item); err != nil {
				return err
			}
		}
		return nil
	case "string":
		str, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s must be a string, got %s", where, jsonKind(v))
		}
		if len(s.Enum) > 0 && !contains(s.Enum, str) {
			return fmt.Errorf("%s must be one of %s, got %q", where, strings.Join(s.Enum, ", "), str)
		}
		return nil
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s must be a boolean, got %s", where, jsonKind(v))
		}
		return nil
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return fmt.Errorf("%s must be an integer, got %s", where, jsonKind(v))
		}
		if _, err := n.Int64(); err != nil {
			return fmt.Errorf("%s must be an integer, got %s", where, n)
		}
		return nil
	case "number":
		if _, ok := v.(json.Number); !ok {
			return fmt.Errorf("%s must be a number, got %s", where, jsonKind(v))
		}
		return nil
	}
	return nil
}

func (s *Schema) checkObject(path string, obj map[string]any) error {
	join := func(k string) string {
		if path == "" {
			return k
		}
		return path + "." + k
	}
	for _, r := range s.Required {
		if val, ok := obj[r]; !ok || val == nil {
			return fmt.Errorf("missing required field %q", join(r))
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		val := obj[k]
		if s.Properties != nil {
			ps, ok := s.Properties[k]
			if !ok {
				if extra, isSchema := s.AdditionalProperties.(*Schema); isSchema {
					if err := extra.check(join(k), val); err != nil {
						return err
					}
					continue
				}
				return fmt.Errorf("unknown field %q (expected one of: %s)", join(k), strings.Join(s.order, ", "))
			}
			if val == nil {
				continue // null for an optional field means "not given"
			}
			if err := ps.check(join(k), val); err != nil {
				return err
			}
			continue
		}
		if extra, isSchema := s.AdditionalProperties.(*Schema); isSchema && val != nil {
			if err := extra.check(join(k), val); err != nil {
				return err
			}
		}
	}
	return nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
