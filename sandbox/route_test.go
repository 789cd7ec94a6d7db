package sandbox

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// fixedRunner answers every request the same way; it stands in for Podman
// only where the test is about routing, not about containers.
type fixedRunner struct {
	name string
	res  Result
	err  error
	runs int
}

func (f *fixedRunner) Name() string { return f.name }
func (f *fixedRunner) Run(context.Context, Request) (Result, error) {
	f.runs++
	return f.res, f.err
}

func TestRouterFallback(t *testing.T) {
	t.Parallel()
	unavailable := fmt.Errorf("podman: no socket: %w", ErrUnavailable)
	tests := []struct {
		name       string
		sandbox    *fixedRunner
		fallback   Fallback
		wantWhere  string
		wantErr    bool
		wantFlag   bool
		wantOnHost bool
	}{
		{"sandbox ok", &fixedRunner{res: Result{Where: "podman:abc"}}, FallbackDeny, "podman:abc", false, false, false},
		{"unavailable deny", &fixedRunner{err: unavailable}, FallbackDeny, "", true, false, false},
		{"unavailable host", &fixedRunner{err: unavailable}, FallbackHost, "host", false, true, true},
		{"bad request not retried on host", &fixedRunner{err: errors.New("dir outside workspace")}, FallbackHost, "", true, false, false},
		{"sandboxing off", nil, FallbackDeny, "host", false, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			host := &fixedRunner{name: "host", res: Result{Where: "host"}}
			r := &Router{Host: host, Fallback: tc.fallback}
			if tc.sandbox != nil {
				r.Sandbox = tc.sandbox
			}
			res, err := r.Run(context.Background(), Request{Argv: []string{"true"}})
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v", err)
			}
			if tc.wantErr && errors.Is(tc.sandbox.err, ErrUnavailable) && !errors.Is(err, ErrUnavailable) {
				t.Fatalf("deny error lost ErrUnavailable: %v", err)
			}
			if res.Where != tc.wantWhere || res.Fallback != tc.wantFlag || (host.runs > 0) != tc.wantOnHost {
				t.Fatalf("res %+v, host runs %d", res, host.runs)
			}
			if tc.wantFlag && len(res.Warnings) == 0 {
				t.Fatal("fallback result carries no warning")
			}
		})
	}
}

func TestParseFallback(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]Fallback{"": FallbackDeny, "deny": FallbackDeny, "host": FallbackHost} {
		if got, err := ParseFallback(in); err != nil || got != want {
			t.Fatalf("%q: %v %v", in, got, err)
		}
	}
	if _, err := ParseFallback("maybe"); err == nil {
		t.Fatal("bad value accepted")
	}
}
