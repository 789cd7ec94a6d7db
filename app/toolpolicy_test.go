package app_test

import (
	"strings"
	"testing"
)

// The Tools tab's "Allow for this agent" and its undo, through the bound
// methods.
func TestAllowToolForAgentSurface(t *testing.T) {
	t.Parallel()
	r := newPromptRig(t, nil)
	if err := r.a.SetActiveProfile("minimal"); err != nil {
		t.Fatal(err)
	}
	x, err := r.a.AllowToolForAgent("default", "read_file")
	if err != nil || !x.Allowed || !strings.Contains(x.Summary, "also-allow") {
		t.Fatalf("allow: %+v %v", x, err)
	}
	if x, err = r.a.Explain("read_file", "", "default"); err != nil || !x.Allowed {
		t.Fatalf("explain after allow: %+v %v", x, err)
	}
	if x, err = r.a.StopAllowingToolForAgent("default", "read_file"); err != nil || x.Allowed {
		t.Fatalf("undo: %+v %v", x, err)
	}
	if _, err := r.a.AllowToolForAgent("", "read_file"); err == nil {
		t.Fatal("no agent accepted")
	}
}
