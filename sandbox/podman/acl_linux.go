package podman

import "syscall"

// hasACL reports whether path carries a POSIX access ACL, which mode bits
// do not describe.
func hasACL(path string) bool {
	n, err := syscall.Getxattr(path, "system.posix_acl_access", nil)
	return err == nil && n > 0
}
