package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// Spec is everything about a tool except its parameters and behaviour.
type Spec struct {
	Name        string
	Group       string
	Description string
	// LongDescription is usually an embedded <name>.md file.
	LongDescription      string
	Danger               DangerLevel
	RequiresConfirmation bool
	// ConfirmsItself marks a dangerous tool that decides per call whether a
	// human must approve (exec analyses each command), so the registry does
	// not ask for every call.
	ConfirmsItself bool
	Class          Class
}

// TypedFunc is a tool body that receives decoded, validated parameters.
type TypedFunc[P any] func(ctx context.Context, p P) (Result, error)

type typedTool[P any] struct {
	info  Info
	fn    TypedFunc[P]
	check func(ctx context.Context, p P) (Result, bool)
}

// Prechecker lets a tool refuse a call before anyone is asked to approve
// it, so nobody approves a call that would fail anyway.
type Prechecker interface {
	Precheck(ctx context.Context, args json.RawMessage) (Result, bool)
}

// NewWithPrecheck is New plus a check run before approval; it returns the
// refusal and false when the call cannot succeed.
func NewWithPrecheck[P any](spec Spec, check func(ctx context.Context, p P) (Result, bool), fn TypedFunc[P]) (Tool, error) {
	t, err := New(spec, fn)
	if err != nil {
		return nil, err
	}
	tt := t.(*typedTool[P])
	tt.check = check
	return tt, nil
}

// Precheck implements Prechecker.
func (t *typedTool[P]) Precheck(ctx context.Context, args json.RawMessage) (Result, bool) {
	if t.check == nil {
		return Result{}, true
	}
	var p P
	if trimmed := strings.TrimSpace(string(args)); trimmed != "" && trimmed != "null" {
		if err := json.Unmarshal(args, &p); err != nil {
			return Errorf(CodeValidation, "invalid arguments for %s: %v", t.info.Name, err), false
		}
	}
	return t.check(ctx, p)
}

// New builds a tool whose schema comes from the params struct P. Dangerous
// and critical tools always require confirmation.
func New[P any](spec Spec, fn TypedFunc[P]) (Tool, error) {
	if !validName(spec.Name) {
		return nil, fmt.Errorf("tool name %q: use lower-case letters, digits and _", spec.Name)
	}
	if spec.Group == "" || spec.Description == "" {
		return nil, fmt.Errorf("tool %s: group and description are required", spec.Name)
	}
	if fn == nil {
		return nil, fmt.Errorf("tool %s: nil function", spec.Name)
	}
	schema, err := SchemaFor[P]()
	if err != nil {
		return nil, fmt.Errorf("tool %s: %w", spec.Name, err)
	}
	return &typedTool[P]{
		info: Info{
			Name:                 spec.Name,
			Group:                spec.Group,
			Description:          spec.Description,
			LongDescription:      strings.TrimSpace(spec.LongDescription),
			Schema:               schema,
			Danger:               spec.Danger,
			RequiresConfirmation: spec.RequiresConfirmation || (spec.Danger >= DangerDangerous && !spec.ConfirmsItself),
			Class:                spec.Class,
		},
		fn: fn,
	}, nil
}

func (t *typedTool[P]) Info() Info { return t.info }

func (t *typedTool[P]) Execute(ctx context.Context, args json.RawMessage) (Result, error) {
	var p P
	if len(strings.TrimSpace(string(args))) > 0 && strings.TrimSpace(string(args)) != "null" {
		if err := json.Unmarshal(args, &p); err != nil {
			return Errorf(CodeValidation, "invalid arguments for %s: %v", t.info.Name, err), nil
		}
	}
	return t.fn(ctx, p)
}

func validName(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' && r != '-' {
			return false
		}
	}
	return true
}
