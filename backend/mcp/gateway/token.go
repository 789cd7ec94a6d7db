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
	for range 2 {
		b, rerr := os.ReadFile(path)
		if rerr == nil {
			if token = strings.TrimSpace(string(b)); CheckToken(token) != nil {
				return "", path, false, fmt.Errorf("%s holds no usable token: delete it to get a new one", path)
			}
			// Keep it private even if someone loosened the mode.
			if err := os.Chmod(path, 0o600); err != nil {
				return "", path, false, fmt.Errorf("protect %s: %w", path, err)
			}
			return token, path, false, nil
		}
		if !errors.Is(rerr, fs.ErrNotExist) {
			return "", path, false, fmt.Errorf("read %s: %w", path, rerr)
		}
		token = newToken()
		f, cerr := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(cerr, fs.ErrExist) {
			continue // another process created it first: use theirs
		}
		if cerr != nil {
			return "", path, false, fmt.Errorf("create %s: %w", path, cerr)
		}
		_, werr := f.WriteString(token + "\n")
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(path)
			return "", path, false, fmt.Errorf("write %s: %w", path, werr)
		}
		return token, path, true, nil
	}
	return "", path, false, fmt.Errorf("create %s: it keeps appearing and disappearing", path)
}

func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (it panics on a broken OS source)
	return base64.RawURLEncoding.EncodeToString(b)
}
