package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type memKeyring struct {
	m      map[string]string
	broken bool
}

func (k *memKeyring) Get(s, u string) (string, error) {
	if k.broken {
		return "", errors.New("dbus: no secret service")
	}
	v, ok := k.m[s+"/"+u]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (k *memKeyring) Set(s, u, p string) error {
	if k.broken {
		return errors.New("dbus: no secret service")
	}
	k.m[s+"/"+u] = p
	return nil
}

func TestSealOpenWithFileKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	b, err := Open(Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	sealed, err := b.Seal("ghp_secret")
	if err != nil || strings.Contains(sealed, "ghp_secret") {
		t.Fatalf("seal: %q %v", sealed, err)
	}
	st, err := os.Stat(filepath.Join(dir, keyFile))
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v", st, err)
	}
	b2, err := Open(Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := b2.Open(sealed); err != nil || got != "ghp_secret" {
		t.Fatalf("reopen: %q %v", got, err)
	}
	other, _ := Open(Options{DataDir: t.TempDir()})
	if _, err := other.Open(sealed); err == nil {
		t.Fatal("opened with the wrong key")
	}
	for _, bad := range []string{"", "plain", "v1:!!!", "v1:AAAA"} {
		if _, err := b.Open(bad); err == nil {
			t.Fatalf("opened %q", bad)
		}
	}
}

func TestKeychainAndFallback(t *testing.T) {
	t.Parallel()
	kr := &memKeyring{m: map[string]string{}}
	dir := t.TempDir()
	b, err := Open(Options{DataDir: dir, Keyring: kr})
	if err != nil || b.Where() != "OS keychain" {
		t.Fatalf("keychain: %v %q", err, b.Where())
	}
	sealed, _ := b.Seal("v")
	if _, err := os.Stat(filepath.Join(dir, keyFile)); !os.IsNotExist(err) {
		t.Fatal("key written to a file although the keychain works")
	}
	b2, _ := Open(Options{DataDir: dir, Keyring: kr})
	if got, _ := b2.Open(sealed); got != "v" {
		t.Fatal("keychain key not reused")
	}
	// The keychain breaks later: refuse instead of making a new key.
	kr.broken = true
	if _, err := Open(Options{DataDir: dir, Keyring: kr}); err == nil || !strings.Contains(err.Error(), "keychain") {
		t.Fatalf("broken keychain: %v", err)
	}
	// A machine without a keychain from the start uses the file.
	head := t.TempDir()
	b3, err := Open(Options{DataDir: head, Keyring: &memKeyring{broken: true}})
	if err != nil || !strings.HasPrefix(b3.Where(), "file ") {
		t.Fatalf("headless: %v %q", err, b3.Where())
	}
}

func TestConcurrentFirstOpenAgreesOnOneKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	boxes := make(chan *Box, 8)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			b, err := Open(Options{DataDir: dir})
			errs <- err
			boxes <- b
		}()
	}
	var all []*Box
	for range 8 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		all = append(all, <-boxes)
	}
	sealed, _ := all[0].Seal("same key")
	for _, b := range all[1:] {
		if got, err := b.Open(sealed); err != nil || got != "same key" {
			t.Fatalf("boxes disagree on the key: %v", err)
		}
	}
}
