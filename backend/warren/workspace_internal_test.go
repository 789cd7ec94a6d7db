//go:build unix

package warren

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestTeamWorkspaceFollowsTheAgentsUser: Warren run as root with agents
// whose workspace belongs to the sandbox's user makes each team's folder
// for that user too, under a parent that user can pass but not list.
func TestTeamWorkspaceFollowsTheAgentsUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root: the case is Warren run as root handing folders to the sandbox user (CI runs as root)")
	}
	dir := t.TempDir()
	ws := filepath.Join(dir, "workspace")
	if err := os.Mkdir(ws, 0o700); err != nil {
		t.Fatal(err)
	}
	const uid, gid = 54321, 54321
	if err := os.Chown(ws, uid, gid); err != nil {
		t.Fatal(err)
	}
	w := &Warren{workspace: ws}
	team := filepath.Join(dir, "workspace-teams", "crew")
	for range 2 { // the second call finds it made
		if err := w.teamWorkspace(team); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(team)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != uid || st.Gid != gid || fi.Mode().Perm() != 0o700 {
		t.Fatalf("team workspace is %v owned by %d:%d, want drwx------ owned by %d:%d", fi.Mode(), st.Uid, st.Gid, uid, gid)
	}
	pfi, err := os.Stat(filepath.Dir(team))
	if err != nil || pfi.Mode().Perm() != 0o711 {
		t.Fatalf("the teams folder is %v (%v), want drwx--x--x", pfi.Mode(), err)
	}
	// A root-owned agents' workspace (no sandbox user to follow) leaves
	// the team's folder root's.
	if err := os.Chown(ws, 0, 0); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(dir, "workspace-teams", "solo")
	if err := w.teamWorkspace(other); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(other); fi.Sys().(*syscall.Stat_t).Uid != 0 {
		t.Fatalf("solo team workspace handed away")
	}
}
