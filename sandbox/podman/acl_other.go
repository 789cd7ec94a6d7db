//go:build unix && !linux

package podman

// hasACL: the sandbox's workspace checks run on Linux hosts only.
func hasACL(string) bool { return false }
