// Package secrets encrypts values Warren stores (credentialed CLI env,
// custom-tool env, MCP headers, provider keys) with AES-256-GCM. The key
// lives in the OS keychain; on machines without one (headless Linux) it
// falls back to a 0600 file in the data directory.
package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/zalando/go-keyring"
)

// Keyring is the OS keychain (swappable for tests).
type Keyring interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
}

// OSKeyring is the real keychain (macOS Keychain, Windows Credential
// Manager, the Secret Service on Linux).
type OSKeyring struct{}

// Get reads a secret.
func (OSKeyring) Get(service, user string) (string, error) { return keyring.Get(service, user) }

// Set stores a secret.
func (OSKeyring) Set(service, user, password string) error {
	return keyring.Set(service, user, password)
}

// ErrNotFound is what a Keyring returns for a missing entry.
var ErrNotFound = keyring.ErrNotFound

const (
	keyringService = "Warren"
	keyringUser    = "master-key"
	keyFile        = "master.key"
	// markerFile records that the key lives in the keychain, so a keychain
	// that later fails is an error instead of a silently new key.
	markerFile = "master.key.keyring"
	prefix     = "v1:"
)

// Options configures Open.
type Options struct {
	DataDir string
	// Keyring is the keychain; nil means file storage only.
	Keyring Keyring
}

// Box seals and opens values.
type Box struct {
	aead  cipher.AEAD
	where string
}

// Open loads (or creates) the master key.
func Open(opts Options) (*Box, error) {
	if opts.DataDir == "" {
		return nil, errors.New("secrets: no data directory")
	}
	key, where, err := loadKey(opts)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	return &Box{aead: aead, where: where}, nil
}

func loadKey(opts Options) ([]byte, string, error) {
	path := filepath.Join(opts.DataDir, keyFile)
	marker := filepath.Join(opts.DataDir, markerFile)
	if raw, err := os.ReadFile(path); err == nil {
		k, err := decodeKey(strings.TrimSpace(string(raw)))
		if err != nil {
			return nil, "", fmt.Errorf("secrets: key file %s: %w", path, err)
		}
		return k, "file " + path, nil
	}
	_, markerErr := os.Stat(marker)
	if opts.Keyring != nil {
		v, err := opts.Keyring.Get(keyringService, keyringUser)
		switch {
		case err == nil:
			k, err := decodeKey(v)
			if err != nil {
				return nil, "", fmt.Errorf("secrets: keychain entry: %w", err)
			}
			return k, "OS keychain", nil
		case errors.Is(err, ErrNotFound) && markerErr != nil:
			k, err := createKeychainKey(opts, marker)
			if err == nil {
				return k, "OS keychain", nil
			}
			if !errors.Is(err, errKeychainSet) {
				return nil, "", err
			}
			// The keychain refused the new key: the file below holds it.
		}
	}
	if markerErr == nil {
		return nil, "", fmt.Errorf("secrets: the master key is in the OS keychain (marker %s) but the keychain is not available; unlock it and retry", marker)
	}
	if err := os.MkdirAll(opts.DataDir, 0o700); err != nil {
		return nil, "", fmt.Errorf("secrets: %w", err)
	}
	return createKeyFile(path)
}

// errKeychainSet marks a keychain that would not store the new key.
var errKeychainSet = errors.New("secrets: the keychain did not store the key")

// keyLockStale is how old a creation lock may be before it is taken as
// left behind by a crashed process.
const keyLockStale = 30 * time.Second

// createKeychainKey makes the master key and stores it in the keychain.
// Two Warren processes starting together (the window and a CLI call) must
// not each store a key of their own — the loser's sealed values would be
// lost — so one of them creates it while holding a lock file, and the
// others wait for it to appear in the keychain.
func createKeychainKey(opts Options, marker string) ([]byte, error) {
	if err := os.MkdirAll(opts.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	lock := marker + ".lock"
	deadline := time.Now().Add(2 * keyLockStale)
	for {
		f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if err == nil {
			_ = f.Close()
			defer func() { _ = os.Remove(lock) }()
			return storeKeychainKey(opts.Keyring, marker)
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("secrets: %w", err)
		}
		// Another process is creating the key: use it once it is there.
		if v, err := opts.Keyring.Get(keyringService, keyringUser); err == nil {
			return decodeKey(v)
		}
		if info, err := os.Stat(lock); err == nil && time.Since(info.ModTime()) > keyLockStale {
			_ = os.Remove(lock)
			continue
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("secrets: another Warren process is creating the master key (lock %s); retry, or remove the lock if no Warren is running", lock)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// storeKeychainKey runs under the creation lock.
func storeKeychainKey(kr Keyring, marker string) ([]byte, error) {
	// It may have been stored while this process waited for the lock.
	if v, err := kr.Get(keyringService, keyringUser); err == nil {
		return decodeKey(v)
	}
	k := newKey()
	if err := kr.Set(keyringService, keyringUser, encodeKey(k)); err != nil {
		return nil, fmt.Errorf("%w: %w", errKeychainSet, err)
	}
	if err := os.WriteFile(marker, []byte("the master key is in the OS keychain\n"), 0o600); err != nil {
		return nil, fmt.Errorf("secrets: %w", err)
	}
	return k, nil
}

// createKeyFile writes a new key to a temporary file and links it into
// place, so a process opening the data directory at the same moment sees
// either no key file or a complete one, and exactly one key wins.
func createKeyFile(path string) ([]byte, string, error) {
	raw, _, err := CreateFileOnce(path, []byte(encodeKey(newKey())+"\n"))
	if err != nil {
		return nil, "", fmt.Errorf("secrets: key file: %w", err)
	}
	k, err := decodeKey(strings.TrimSpace(string(raw)))
	if err != nil {
		return nil, "", fmt.Errorf("secrets: key file %s: %w", path, err)
	}
	return k, "file " + path, nil
}

// CreateFileOnce writes content to path (mode 0600) unless the file exists,
// and returns what path holds: content when this call created it, else the
// existing file's. The file appears complete or not at all (a temporary
// file linked into place), so processes racing to create it agree on one.
func CreateFileOnce(path string, content []byte) (stored []byte, created bool, err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-*")
	if err != nil {
		return nil, false, err
	}
	defer func() { _ = os.Remove(tmp.Name()) }()
	_, werr := tmp.Write(content)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return nil, false, werr
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if !errors.Is(err, os.ErrExist) {
			return nil, false, err
		}
		stored, err = os.ReadFile(path) // another process won the race: theirs
		return stored, false, err
	}
	return content, true, nil
}

func newKey() []byte {
	k := make([]byte, 32)
	if _, err := rand.Read(k); err != nil {
		panic(fmt.Sprintf("crypto/rand failed: %v", err)) // never happens on supported OSes
	}
	return k
}

func encodeKey(k []byte) string { return base64.StdEncoding.EncodeToString(k) }

func decodeKey(s string) ([]byte, error) {
	k, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(k) != 32 {
		return nil, errors.New("not a 32-byte base64 key")
	}
	return k, nil
}

// Where says where the master key is kept, for status screens.
func (b *Box) Where() string { return b.where }

// Seal encrypts plaintext into a printable string.
func (b *Box) Seal(plaintext string) (string, error) {
	nonce := make([]byte, b.aead.NonceSize())
	if _, err := rand.Read(nonce); err != nil {
		return "", fmt.Errorf("secrets: nonce: %w", err)
	}
	out := b.aead.Seal(nonce, nonce, []byte(plaintext), nil)
	return prefix + base64.StdEncoding.EncodeToString(out), nil
}

// Open decrypts a value made by Seal.
func (b *Box) Open(sealed string) (string, error) {
	raw, ok := strings.CutPrefix(sealed, prefix)
	if !ok {
		return "", errors.New("secrets: not a sealed value")
	}
	data, err := base64.StdEncoding.DecodeString(raw)
	if err != nil || len(data) < b.aead.NonceSize() {
		return "", errors.New("secrets: sealed value is corrupt")
	}
	n := b.aead.NonceSize()
	plain, err := b.aead.Open(nil, data[:n], data[n:], nil)
	if err != nil {
		return "", errors.New("secrets: cannot decrypt (wrong key or tampered value)")
	}
	return string(plain), nil
}

// DefaultKeyring returns the OS keychain, or nil where none can answer:
// Linux without a D-Bus session (a headless box, CI) would otherwise try to
// autolaunch a bus and stall.
func DefaultKeyring() Keyring {
	if runtime.GOOS == "linux" && os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return nil
	}
	return OSKeyring{}
}
