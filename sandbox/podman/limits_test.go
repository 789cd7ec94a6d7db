package podman

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/warren-dev/warren/sandbox"
)

// The memory limit holds even where cgroups cannot enforce it: each
// process's data is capped (RLIMIT_DATA), and the result says which applies.
func TestMemoryLimitFallback(t *testing.T) {
	t.Parallel()
	lim := DefaultLimits
	lim.Memory = 300 << 20
	m := newManager(t, Options{Limits: &lim})
	ctx := context.Background()
	big, err := m.Run(ctx, sandbox.Request{Argv: []string{"dd", "if=/dev/zero", "of=/dev/null", "bs=600M", "count=1"}, Key: "memlimit"})
	if err != nil {
		t.Fatal(err)
	}
	if big.ExitCode == 0 {
		t.Fatalf("a 600 MB buffer under a 300 MB limit: %+v", big)
	}
	small, err := m.Run(ctx, sandbox.Request{Argv: []string{"dd", "if=/dev/zero", "of=/dev/null", "bs=1M", "count=1"}, Key: "memlimit"})
	if err != nil || small.ExitCode != 0 {
		t.Fatalf("a 1 MB buffer: %+v %v", small, err)
	}
	// Where the cgroup caps memory the status has nothing to say; where
	// it cannot, the status names the fallback.
	s, err := m.session(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st := m.Status(ctx)
	said := slices.ContainsFunc(st.Warnings, func(w string) bool {
		return strings.Contains(w, "RLIMIT_DATA") && strings.Contains(w, "300 MiB")
	})
	if said == s.enforced.memory {
		t.Fatalf("cgroup memory enforced %v, warnings %v", s.enforced.memory, st.Warnings)
	}
}
