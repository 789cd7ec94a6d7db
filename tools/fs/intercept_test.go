package fs

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/warren-dev/warren/tools"
)

// fakeContextStore is an in-memory ContextFileStore; the SQLite one has its
// own suite in backend/store.
type fakeContextStore struct {
	mu         sync.Mutex
	types      map[string]string
	agentFiles map[[2]string]string // agent, name
	userFiles  map[[3]string]string // agent, user, name
	fail       error
}

func newFakeContextStore() *fakeContextStore {
	return &fakeContextStore{
		types:      map[string]string{},
		agentFiles: map[[2]string]string{},
		userFiles:  map[[3]string]string{},
	}
}

func (f *fakeContextStore) AgentType(_ context.Context, agent string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fail != nil {
		return "", f.fail
	}
	if t, ok := f.types[agent]; ok {
		return t, nil
	}
	return AgentTypeOpen, nil
}

func (f *fakeContextStore) GetAgentFile(_ context.Context, agent, name string) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.agentFiles[[2]string{agent, name}]
	return c, ok, nil
}

func (f *fakeContextStore) PutAgentFile(_ context.Context, agent, name, content string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.agentFiles[[2]string{agent, name}] = content
	return nil
}

func (f *fakeContextStore) DeleteAgentFile(_ context.Context, agent, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.agentFiles, [2]string{agent, name})
	return nil
}

func (f *fakeContextStore) GetUserFile(_ context.Context, agent, user, name string) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.userFiles[[3]string{agent, user, name}]
	return c, ok, nil
}

func (f *fakeContextStore) PutUserFile(_ context.Context, agent, user, name, content string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.userFiles[[3]string{agent, user, name}] = content
	return nil
}

func (f *fakeContextStore) DeleteUserFile(_ context.Context, agent, user, name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.userFiles, [3]string{agent, user, name})
	return nil
}

func (f *fakeContextStore) user(agent, user, name string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.userFiles[[3]string{agent, user, name}]
	return c, ok
}

func (f *fakeContextStore) agent(agent, name string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c, ok := f.agentFiles[[2]string{agent, name}]
	return c, ok
}

func TestContextFilesOpenAgent(t *testing.T) {
	store := newFakeContextStore()
	w := newWorld(t, func(d *Deps) { d.ContextFiles = store })
	alice := tools.CallContext{Agent: "helper", User: "alice"}
	bob := tools.CallContext{Agent: "helper", User: "bob"}
	store.agentFiles[[2]string{"helper", "SOUL.md"}] = "template soul"
	// A SOUL.md on disk must never be what the agent sees.
	writeFile(t, filepath.Join(w.ws, "SOUL.md"), "disk soul")

	if got := wantOK(t, w.callAs(t, alice, "read_file", args{"path": "SOUL.md"})); got != "template soul" {
		t.Fatalf("fallback to template: %q", got)
	}
	wantOK(t, w.callAs(t, alice, "write_file", args{"path": "./SOUL.md", "content": "alice soul"}))
	if c, _ := store.user("helper", "alice", "SOUL.md"); c != "alice soul" {
		t.Fatalf("open agent write went to %q", c)
	}
	if c, _ := store.agent("helper", "SOUL.md"); c != "template soul" {
		t.Fatalf("template changed to %q", c)
	}
	if got := wantOK(t, w.callAs(t, alice, "read_file", args{"path": filepath.Join(w.ws, "SOUL.md")})); got != "alice soul" {
		t.Fatalf("alice reads %q", got)
	}
	if got := wantOK(t, w.callAs(t, bob, "read_file", args{"path": "SOUL.md"})); got != "template soul" {
		t.Fatalf("bob reads %q", got)
	}
	if got := readDisk(t, filepath.Join(w.ws, "SOUL.md")); got != "disk soul" {
		t.Fatalf("disk touched: %q", got)
	}
	wantOK(t, w.callAs(t, alice, "write_file", args{"path": "SOUL.md", "content": "\nmore", "mode": "append"}))
	wantOK(t, w.callAs(t, alice, "edit", args{"path": "SOUL.md", "old_text": "more", "new_text": "edited"}))
	if c, _ := store.user("helper", "alice", "SOUL.md"); c != "alice soul\nedited" {
		t.Fatalf("append+edit: %q", c)
	}
	wantCode(t, w.callAs(t, alice, "read_file", args{"path": "TOOLS.md"}), tools.CodeNotFound, "TOOLS.md does not exist")

	// Not routed: nested, other case, other names.
	for _, p := range []string{"sub/SOUL.md", "soul.md", "HEARTBEAT.md"} {
		wantOK(t, w.callAs(t, alice, "write_file", args{"path": p, "content": "on disk"}))
		if got := readDisk(t, filepath.Join(w.ws, p)); got != "on disk" {
			t.Fatalf("%s: %q", p, got)
		}
	}
}

func TestContextFilesPredefinedAgent(t *testing.T) {
	store := newFakeContextStore()
	store.types["coder"] = AgentTypePredefined
	w := newWorld(t, func(d *Deps) { d.ContextFiles = store })
	cc := tools.CallContext{Agent: "coder", User: "alice"}

	wantOK(t, w.callAs(t, cc, "write_file", args{"path": "IDENTITY.md", "content": "I am coder"}))
	if c, ok := store.agent("coder", "IDENTITY.md"); !ok || c != "I am coder" {
		t.Fatalf("predefined IDENTITY.md is agent-level, got %q %v", c, ok)
	}
	if _, ok := store.user("coder", "alice", "IDENTITY.md"); ok {
		t.Fatal("predefined IDENTITY.md written per user")
	}
	wantOK(t, w.callAs(t, cc, "write_file", args{"path": "USER.md", "content": "alice likes Go"}))
	if c, _ := store.user("coder", "alice", "USER.md"); c != "alice likes Go" {
		t.Fatalf("USER.md per user: %q", c)
	}
	other := tools.CallContext{Agent: "coder", User: "bob"}
	if got := wantOK(t, w.callAs(t, other, "read_file", args{"path": "IDENTITY.md"})); got != "I am coder" {
		t.Fatalf("bob sees agent-level IDENTITY.md: %q", got)
	}
	wantCode(t, w.callAs(t, other, "read_file", args{"path": "USER.md"}), tools.CodeNotFound)
}

func TestContextFilesBootstrap(t *testing.T) {
	store := newFakeContextStore()
	store.types["coder"] = AgentTypePredefined
	w := newWorld(t, func(d *Deps) { d.ContextFiles = store })

	// Defaults: agent "default", user "local".
	store.agentFiles[[2]string{"default", "BOOTSTRAP.md"}] = "template bootstrap"
	store.userFiles[[3]string{"default", "local", "BOOTSTRAP.md"}] = "say hello first"
	if got := wantOK(t, w.call(t, "read_file", args{"path": "BOOTSTRAP.md"})); got != "say hello first" {
		t.Fatalf("bootstrap read: %q", got)
	}
	wantOK(t, w.call(t, "write_file", args{"path": "BOOTSTRAP.md", "content": "  \n\t"}))
	if _, ok := store.user("default", "local", "BOOTSTRAP.md"); ok {
		t.Fatal("empty BOOTSTRAP.md did not delete the user row")
	}
	// The template must not bring the finished first run back.
	wantCode(t, w.call(t, "read_file", args{"path": "BOOTSTRAP.md"}), tools.CodeNotFound)

	store.agentFiles[[2]string{"coder", "BOOTSTRAP.md"}] = "coder bootstrap"
	coder := tools.CallContext{Agent: "coder"}
	wantOK(t, w.callAs(t, coder, "edit", args{"path": "BOOTSTRAP.md", "old_text": "coder bootstrap", "new_text": ""}))
	if _, ok := store.agent("coder", "BOOTSTRAP.md"); ok {
		t.Fatal("predefined agent's emptied BOOTSTRAP.md still stored")
	}
}

func TestContextFilesStoreFailureIsGoError(t *testing.T) {
	store := newFakeContextStore()
	store.fail = errors.New("database is locked")
	w := newWorld(t, func(d *Deps) { d.ContextFiles = store })
	raw := []byte(`{"path":"SOUL.md"}`)
	res, err := w.reg.ExecuteWithContext(context.Background(), tools.Call{Name: "read_file", Args: raw})
	if err == nil || !errors.Is(err, store.fail) || res.Code() != tools.CodeExecution {
		t.Fatalf("store failure: %+v, %v", res, err)
	}
	// Other files are unaffected by the broken store.
	wantOK(t, w.call(t, "read_file", args{"path": "a.txt"}))
}

func TestAliasPathsSkipInterceptors(t *testing.T) {
	store := newFakeContextStore()
	w := newWorld(t, func(d *Deps) { d.ContextFiles = store })
	wantOK(t, w.call(t, "write_file", args{"path": "file_state_dir/SOUL.md", "content": "state soul"}))
	if got := readDisk(t, filepath.Join(w.state, "SOUL.md")); got != "state soul" {
		t.Fatalf("alias SOUL.md: %q", got)
	}
	if len(store.userFiles)+len(store.agentFiles) != 0 {
		t.Fatal("alias path reached the context store")
	}
}

// fakeMemory is an in-memory MemoryStore.
type fakeMemory struct {
	mu   sync.Mutex
	docs map[[3]string]string
}

func (m *fakeMemory) GetMemory(_ context.Context, agent, user, rel string) (string, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.docs[[3]string{agent, user, rel}]
	return c, ok, nil
}

func (m *fakeMemory) PutMemory(_ context.Context, agent, user, rel, content string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.docs[[3]string{agent, user, rel}] = content
	return nil
}

func TestMemoryInterceptor(t *testing.T) {
	mem := &fakeMemory{docs: map[[3]string]string{}}
	w := newWorld(t, func(d *Deps) { d.Interceptors = []Interceptor{NewMemoryInterceptor(mem)} })
	cc := tools.CallContext{Agent: "helper", User: "alice"}
	for _, p := range []string{"MEMORY.md", "memory.md", "memory/2024-05-06.md"} {
		wantOK(t, w.callAs(t, cc, "write_file", args{"path": p, "content": "fact"}))
		wantOK(t, w.callAs(t, cc, "write_file", args{"path": p, "content": " more", "mode": "append"}))
		if got := wantOK(t, w.callAs(t, cc, "read_file", args{"path": p})); got != "fact more" {
			t.Errorf("%s: %q", p, got)
		}
		if _, err := os.Stat(filepath.Join(w.ws, p)); !os.IsNotExist(err) {
			t.Errorf("%s reached the disk: %v", p, err)
		}
	}
	wantCode(t, w.callAs(t, cc, "read_file", args{"path": "memory/none.md"}), tools.CodeNotFound)
	wantOK(t, w.callAs(t, cc, "write_file", args{"path": "memoryx.md", "content": "disk"}))
	if got := readDisk(t, filepath.Join(w.ws, "memoryx.md")); got != "disk" {
		t.Fatalf("unrouted: %q", got)
	}
}

func TestMemoryInterceptorNilStorePassesThrough(t *testing.T) {
	in := NewMemoryInterceptor(nil)
	if _, handled, err := in.Read(context.Background(), "MEMORY.md"); handled || err != nil {
		t.Fatalf("read handled=%v err=%v", handled, err)
	}
	if handled, err := in.Write(context.Background(), "memory/x.md", "x", false); handled || err != nil {
		t.Fatalf("write handled=%v err=%v", handled, err)
	}
	w := newWorld(t, func(d *Deps) { d.Interceptors = []Interceptor{in} })
	wantOK(t, w.call(t, "write_file", args{"path": "MEMORY.md", "content": "on disk"}))
	if got := readDisk(t, filepath.Join(w.ws, "MEMORY.md")); got != "on disk" {
		t.Fatalf("pass-through: %q", got)
	}
}
