package gateway

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/warren-dev/warren/backend/secrets"
)

// EnvToken holds the HTTP bearer token when --token is not given.
const EnvToken = "WARREN_MCP_TOKEN" //nolint:gosec // G101: the variable's name, not a credential

// TokenFile is the file in the data directory that keeps the generated token.
const TokenFile = "mcp-token"

// MinTokenLen is the shortest token accepted; generated ones are 43 characters.
const MinTokenLen = 16

// CheckToken rejects tokens too short to resist guessing.
func CheckToken(token string) error {
	if len(strings.TrimSpace(token)) < MinTokenLen {
		return fmt.Errorf("the bearer token must be at least %d characters", MinTokenLen)
	}
	return nil
}

// LoadOrCreateToken returns the token kept in dataDir/TokenFile, creating
// a random one (mode 0600) on first use so clients configured once keep
// working across restarts. created reports a new token.
func LoadOrCreateToken(dataDir string) (token, path string, created bool, err error) {
	path = filepath.Join(dataDir, TokenFile)
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", path, false, fmt.Errorf("create %s: %w", dataDir, err)
	}
	b, rerr := os.ReadFile(path)
	if errors.Is(rerr, fs.ErrNotExist) {
		b, created, rerr = secrets.CreateFileOnce(path, []byte(newToken()+"\n"))
	}
	if rerr != nil {
		return "", path, false, fmt.Errorf("token file %s: %w", path, rerr)
	}
	if token = strings.TrimSpace(string(b)); CheckToken(token) != nil {
		return "", path, false, fmt.Errorf("%s holds no usable token: delete it to get a new one", path)
	}
	// Keep it private even if someone loosened the mode.
	if err := os.Chmod(path, 0o600); err != nil {
		return "", path, false, fmt.Errorf("protect %s: %w", path, err)
	}
	return token, path, created, nil
}

func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (it panics on a broken OS source)
	return base64.RawURLEncoding.EncodeToString(b)
}
