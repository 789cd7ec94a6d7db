package warren

import (
	"fmt"
	"os"
	"path/filepath"
)

// EnvHome overrides the data directory.
const EnvHome = "WARREN_HOME"

// Version is Warren's version, set at build time with -ldflags "-X".
var Version = "0.1.0-dev"

// DataDir picks the data directory: the --data-dir flag, then $WARREN_HOME,
// then the OS user config directory (e.g. ~/.config/Warren on Linux).
func DataDir(flagValue string) (string, error) {
	if flagValue != "" {
		return filepath.Abs(flagValue)
	}
	if env := os.Getenv(EnvHome); env != "" {
		return filepath.Abs(env)
	}
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find the user config directory (set --data-dir or %s): %w", EnvHome, err)
	}
	return filepath.Join(base, "Warren"), nil
}
