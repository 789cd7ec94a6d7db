//go:build windows

package podman

// The sandbox runs on a Linux host only; nothing to check here.
func checkWorkspace(string, owner) error { return nil }
func checkTun(owner) error               { return nil }
