package warren_test

import (
	"context"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/warren"
)

func TestSandboxSettingsAndHostExec(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	w := open(t, dir)
	if s := w.SandboxSettings(); s.Mode != "podman" || s.Fallback != "deny" {
		t.Fatalf("defaults %+v", s)
	}
	for _, bad := range []warren.SandboxSettings{{Mode: "docker"}, {Fallback: "maybe"}, {InjectEnv: map[string]string{"A=B": "x"}}} {
		if err := w.SetSandboxSettings(ctx, bad); err == nil {
			t.Fatalf("%+v accepted", bad)
		}
	}
	if err := w.SetSandboxSettings(ctx, warren.SandboxSettings{Mode: "host", InjectEnv: map[string]string{"WARREN_INJECTED": "yes"}}); err != nil {
		t.Fatal(err)
	}
	res, err := w.CallTool(ctx, warren.CallRequest{Name: "exec", Args: []byte(`{"command":"echo inj=$WARREN_INJECTED home=${HOME:+set}"}`)})
	if err != nil || res.IsError || !strings.Contains(res.ForLLM, "inj=yes home=set") || !strings.Contains(res.ForLLM, "ran in: host") {
		t.Fatalf("host exec: %v %+v", err, res)
	}
	if st := w.SandboxStatus(ctx); len(st.Warnings) == 0 || !strings.Contains(st.Warnings[0], "Sandboxing is off") {
		t.Fatalf("host mode not flagged: %+v", st.Warnings)
	}
	// Settings survive a restart.
	_ = w.Close()
	w2 := open(t, dir)
	if s := w2.SandboxSettings(); s.Mode != "host" || s.InjectEnv["WARREN_INJECTED"] != "yes" {
		t.Fatalf("after restart %+v", s)
	}
	// An explicit per-call choice wins over the setting.
	res, _ = w2.CallTool(ctx, warren.CallRequest{Name: "exec", Args: []byte(`{"command":"true"}`), Sandbox: "docker"})
	if !res.IsError {
		t.Fatalf("unknown sandbox accepted: %+v", res)
	}
}
