// Package mcptest helps tests that run real MCP server processes check
// that none outlives what started it.
package mcptest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// PIDsWithEnv lists the processes whose environment holds entry (K=V):
// give a server a unique variable and find its processes by it (Linux).
func PIDsWithEnv(t testing.TB, entry string) []string {
	t.Helper()
	dirs, err := filepath.Glob("/proc/[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range dirs {
		env, err := os.ReadFile(filepath.Join(d, "environ")) //nolint:gosec // G304: /proc entries
		if err == nil && strings.Contains(string(env), entry+"\x00") {
			out = append(out, filepath.Base(d))
		}
	}
	return out
}

// WaitNoPIDsWithEnv polls until no process holds entry, or fails the test
// after 15 s naming what the processes outlived.
func WaitNoPIDsWithEnv(t testing.TB, entry, what string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		pids := PIDsWithEnv(t, entry)
		if len(pids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("server processes outlived %s: %v", what, pids)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
