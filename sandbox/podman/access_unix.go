//go:build unix

package podman

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// checkWorkspace reports, as a SetupError, why host user u cannot use dir
// as the sandbox's workspace: it must search every folder from / down and
// read, write and search dir itself. The answer comes from mode bits; a
// folder with an access control list is left to Podman to judge (its
// failure is then explained by explainStartError).
func checkWorkspace(dir string, u owner) error {
	if u.uid < 0 || u.uid == 0 {
		return nil // unknown, or root: nothing to check
	}
	groups := userGroups(u)
	dir = filepath.Clean(dir)
	path := string(filepath.Separator)
	parts := strings.Split(strings.TrimPrefix(dir, path), string(filepath.Separator))
	for i, part := range parts {
		if part != "" {
			path = filepath.Join(path, part)
		}
		fi, err := os.Stat(path)
		if err != nil {
			return &SetupError{Cause: fmt.Sprintf("the sandbox workspace %s cannot be checked: %v", dir, err), Fix: "create the folder or pick another workspace"}
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return nil
		}
		last := i == len(parts)-1
		need := fs.FileMode(0o1) // search
		if last {
			need = 0o7
		}
		if allowed(fi.Mode().Perm(), st, u, groups)&need == need || hasACL(path) {
			continue
		}
		who := userLabel(u)
		if last {
			return &SetupError{
				Cause: fmt.Sprintf("the sandbox user %s cannot use the workspace %s: it is %s, owned by %s", who, dir, lsMode(fi), ownerName(st)),
				Fix:   fmt.Sprintf("sudo chown -R %s %s (the sandbox user then owns the files agents make), or pick a workspace that user can write", userName(u), dir),
			}
		}
		return &SetupError{
			Cause: fmt.Sprintf("the sandbox user %s cannot reach the workspace %s: it may not enter %s (%s, owned by %s)", who, dir, path, lsMode(fi), ownerName(st)),
			Fix:   fmt.Sprintf("pick a workspace outside %s (e.g. under /var/lib/warren or /srv), or let it pass: chmod o+x %s", path, path),
		}
	}
	return nil
}

// allowed returns the rwx bits (0-7) u gets on a file with mode perm.
func allowed(perm fs.FileMode, st *syscall.Stat_t, u owner, groups map[int]bool) fs.FileMode {
	switch {
	case int(st.Uid) == u.uid:
		return (perm >> 6) & 7
	case groups[int(st.Gid)]:
		return (perm >> 3) & 7
	}
	return perm & 7
}

// userGroups lists u's primary and supplementary groups.
func userGroups(u owner) map[int]bool {
	out := map[int]bool{u.gid: true}
	if usr, err := user.LookupId(strconv.Itoa(u.uid)); err == nil {
		if ids, err := usr.GroupIds(); err == nil {
			for _, id := range ids {
				if n, err := strconv.Atoi(id); err == nil {
					out[n] = true
				}
			}
		}
	}
	return out
}

// checkTun reports, as a SetupError, why slirp4netns running as u cannot
// open /dev/net/tun (a rootless container's network).
func checkTun(u owner) error {
	fi, err := os.Stat(tunDevice)
	if errors.Is(err, fs.ErrNotExist) {
		return &SetupError{
			Cause: "the sandbox cannot give this agent a network: " + tunDevice + " does not exist (the tun kernel module is not loaded)",
			Fix:   "sudo modprobe tun, then sudo chmod 0666 " + tunDevice + ", or turn the agent's network off",
		}
	}
	if err != nil {
		return &SetupError{Cause: "the sandbox cannot give this agent a network: " + err.Error(), Fix: tunFix}
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || u.uid <= 0 {
		return nil
	}
	if allowed(fi.Mode().Perm(), st, u, userGroups(u))&0o6 == 0o6 || hasACL(tunDevice) {
		return nil
	}
	return &SetupError{
		Cause: fmt.Sprintf("the sandbox cannot give this agent a network: %s is %s, owned by %s, so slirp4netns (run as %s) cannot open it",
			tunDevice, lsMode(fi), ownerName(st), userLabel(u)),
		Fix: tunFix,
	}
}

func ownerName(st *syscall.Stat_t) string { return userName(owner{int(st.Uid), int(st.Gid)}) }

// lsMode spells a mode the way ls does: drwx------, crw-------.
func lsMode(fi fs.FileInfo) string {
	kind := "-"
	switch m := fi.Mode(); {
	case m.IsDir():
		kind = "d"
	case m&fs.ModeCharDevice != 0:
		kind = "c"
	case m&fs.ModeDevice != 0:
		kind = "b"
	}
	return kind + fi.Mode().Perm().String()[1:]
}
