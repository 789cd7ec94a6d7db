package sandbox

import (
	"context"
	"errors"
	"fmt"
)

// Fallback says what Router does when the sandbox is unavailable.
type Fallback string

const (
	// FallbackDeny fails the command (the default): nothing runs unsandboxed
	// unless the user said so.
	FallbackDeny Fallback = "deny"
	// FallbackHost runs the command on the host and flags the result.
	FallbackHost Fallback = "host"
)

// ParseFallback reads the fallback setting; empty means FallbackDeny.
func ParseFallback(s string) (Fallback, error) {
	switch Fallback(s) {
	case "", FallbackDeny:
		return FallbackDeny, nil
	case FallbackHost:
		return FallbackHost, nil
	}
	return "", fmt.Errorf("sandbox fallback %q: want %q or %q", s, FallbackDeny, FallbackHost)
}

// Router runs commands in Sandbox and applies Fallback when the sandbox
// returns ErrUnavailable. With a nil Sandbox (sandboxing off) every command
// runs on Host, unflagged: that is configuration, not a fallback.
type Router struct {
	Sandbox  Runner
	Host     Runner
	Fallback Fallback
}

// Name implements Runner.
func (r *Router) Name() string {
	if r.Sandbox == nil {
		return r.Host.Name()
	}
	return r.Sandbox.Name()
}

// Run implements Runner.
func (r *Router) Run(ctx context.Context, req Request) (Result, error) {
	if r.Sandbox == nil {
		return r.Host.Run(ctx, req)
	}
	res, err := r.Sandbox.Run(ctx, req)
	if err == nil || !errors.Is(err, ErrUnavailable) {
		return res, err
	}
	if r.Fallback != FallbackHost || r.Host == nil {
		return res, fmt.Errorf("%w (fallback=deny: not running it on the host)", err)
	}
	hres, herr := r.Host.Run(ctx, req)
	hres.Fallback = true
	hres.Warnings = append(hres.Warnings, "ran on the host, not sandboxed (fallback=host): "+err.Error())
	return hres, herr
}
