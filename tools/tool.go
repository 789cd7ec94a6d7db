// Package tools holds Warren's tool model and registry: what a tool is, how a
// call flows through rate limiting, validation, execution, scrubbing and
// lifecycle events, and the per-call context values tools read.
package tools

import (
	"context"
	"encoding/json"
	"fmt"
)

// DangerLevel classifies how risky a tool is (koopa's levels).
type DangerLevel int

// Danger levels, from read-only to system-destructive.
const (
	DangerSafe DangerLevel = iota
	DangerWarning
	DangerDangerous
	DangerCritical
)

// String returns the lower-case name used in JSON and the UI.
func (d DangerLevel) String() string {
	switch d {
	case DangerSafe:
		return "safe"
	case DangerWarning:
		return "warning"
	case DangerDangerous:
		return "dangerous"
	case DangerCritical:
		return "critical"
	}
	return fmt.Sprintf("danger(%d)", int(d))
}

// MarshalText encodes the level by name.
func (d DangerLevel) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// Class says when a tool can be built (the mistermorph tool classes).
type Class int

// Tool classes.
const (
	// ClassStatic tools are built from configuration alone at start-up.
	ClassStatic Class = iota
	// ClassEngineScoped tools are registered when an agent engine is assembled
	// for a run (they need the run's subtask runner, e.g. spawn).
	ClassEngineScoped
	// ClassRuntime tools are injected per task because they need live runtime
	// dependencies such as the active LLM client (plan_create, todo_update).
	ClassRuntime
)

// String returns the class name used in JSON and the UI.
func (c Class) String() string {
	switch c {
	case ClassStatic:
		return "static"
	case ClassEngineScoped:
		return "engine"
	case ClassRuntime:
		return "runtime"
	}
	return fmt.Sprintf("class(%d)", int(c))
}

// MarshalText encodes the class by name.
func (c Class) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// Info describes a tool to the registry, the policy engine and the UI.
type Info struct {
	Name        string
	Group       string
	Description string
	// LongDescription is the tool's embedded markdown documentation.
	LongDescription string
	Schema          *Schema
	Danger          DangerLevel
	// RequiresConfirmation is true when a human must approve each call.
	RequiresConfirmation bool
	Class                Class
}

// Tool is one capability the model can call.
type Tool interface {
	Info() Info
	// Execute runs the tool with arguments already validated against the
	// schema. Problems the model can fix come back as an error Result with
	// a nil Go error; infrastructure failures are returned as Go errors.
	Execute(ctx context.Context, args json.RawMessage) (Result, error)
}
