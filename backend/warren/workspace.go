package warren

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
)

// rootWorkspace is root's default workspace on Linux: root's home is closed
// to every other user, the sandbox's unprivileged Podman user included, so
// Warren run as root keeps its workspace where that user can pass through.
const rootWorkspace = "/var/lib/warren/workspace"

// DefaultWorkspace is the workspace Warren makes itself when none is set.
// It lives outside the data directory, so nothing run in it reaches
// Warren's keys and database by a relative path:
//   - for the OS data directory (~/.config/Warren): ~/Warren, or
//     /var/lib/warren/workspace for root on Linux;
//   - for any other data directory (--data-dir, WARREN_HOME): the folder
//     DIR-workspace beside it.
func DefaultWorkspace(dataDir string) string {
	dataDir = filepath.Clean(dataDir)
	if osDir, err := osDataDir(); err == nil && filepath.Clean(osDir) == dataDir {
		if runtime.GOOS == "linux" && os.Getuid() == 0 {
			return rootWorkspace
		}
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, "Warren")
		}
	}
	if filepath.Dir(dataDir) == dataDir { // a data directory at a root: "/" or "C:\"
		sum := sha256.Sum256([]byte(dataDir))
		return filepath.Join(os.TempDir(), "warren-workspace-"+hex.EncodeToString(sum[:4]))
	}
	return dataDir + "-workspace"
}

// ownWorkspace picks (and creates the parent of) the default workspace.
// A workspace an older Warren kept inside the data directory is moved out
// to it; when it cannot be moved (another file system) it stays where it
// is, with a warning in the log.
func ownWorkspace(dataDir string, log *slog.Logger) (string, error) {
	ws := DefaultWorkspace(dataDir)
	// The parent stays passable for the sandbox's user (a new
	// /var/lib/warren), never listable.
	if err := os.MkdirAll(filepath.Dir(ws), 0o711); err != nil {
		return "", fmt.Errorf("create %s: %w", filepath.Dir(ws), err)
	}
	old := filepath.Join(dataDir, "workspace")
	if fi, err := os.Stat(old); err != nil || !fi.IsDir() {
		return ws, nil
	}
	if _, err := os.Lstat(ws); err == nil {
		log.Warn("two workspaces: the one inside the data directory is no longer used", "old", old, "workspace", ws)
		return ws, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("workspace %s: %w", ws, err)
	}
	if err := os.Rename(old, ws); err != nil {
		log.Warn("the workspace inside the data directory could not be moved out; it stays in use", "old", old, "to", ws, "err", err)
		return old, nil
	}
	log.Info("moved the workspace out of the data directory", "from", old, "to", ws)
	return ws, nil
}

// teamWorkspace creates a team's shared folder on first use. Its parent
// stays passable, never listable, like the default workspace's. When Warren
// runs as root and the agents' workspace belongs to another user (the
// sandbox's: rootless Podman runs as that user), the team's folder is
// handed to that user too, so sandboxed members can work in it.
func (w *Warren) teamWorkspace(dir string) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o711); err != nil {
		return fmt.Errorf("create the team workspace's folder: %w", err)
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil
		}
		return fmt.Errorf("create the team workspace: %w", err)
	}
	if err := ownLike(dir, w.workspace); err != nil {
		return fmt.Errorf("hand the team workspace %s to the agents' user: %w", dir, err)
	}
	return nil
}
