package secrets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
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

// slowKeyring is a keychain shared by several processes, slow to store.
type slowKeyring struct {
	mu   sync.Mutex
	m    map[string]string
	sets int
}

func (k *slowKeyring) Get(s, u string) (string, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	v, ok := k.m[s+"/"+u]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (k *slowKeyring) Set(s, u, p string) error {
	time.Sleep(30 * time.Millisecond) // a D-Bus round trip, widened
	k.mu.Lock()
	defer k.mu.Unlock()
	k.m[s+"/"+u] = p
	k.sets++
	return nil
}

// Warren processes starting together on a machine with a keychain store
// exactly one master key, and all of them use it.
func TestConcurrentFirstOpenWithKeychainAgreesOnOneKey(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	kr := &slowKeyring{m: map[string]string{}}
	var wg sync.WaitGroup
	boxes := make([]*Box, 8)
	errs := make([]error, 8)
	for i := range boxes {
		wg.Go(func() { boxes[i], errs[i] = Open(Options{DataDir: dir, Keyring: kr}) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if kr.sets != 1 {
		t.Fatalf("the keychain was written %d times", kr.sets)
	}
	sealed, _ := boxes[0].Seal("same key")
	for _, b := range boxes[1:] {
		if got, err := b.Open(sealed); err != nil || got != "same key" {
			t.Fatalf("boxes disagree on the key: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, markerFile+".lock")); !os.IsNotExist(err) {
		t.Fatalf("the creation lock was left behind: %v", err)
	}
}

// A lock left by a crashed process is taken over once it is stale.
func TestStaleKeyLockIsTakenOver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	lock := filepath.Join(dir, markerFile+".lock")
	if err := os.WriteFile(lock, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * keyLockStale)
	if err := os.Chtimes(lock, old, old); err != nil {
		t.Fatal(err)
	}
	kr := &slowKeyring{m: map[string]string{}}
	if _, err := Open(Options{DataDir: dir, Keyring: kr}); err != nil || kr.sets != 1 {
		t.Fatalf("open with a stale lock: %v (sets %d)", err, kr.sets)
	}
}
