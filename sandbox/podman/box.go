package podman

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/sandbox/runner"
)

// boxKey identifies a container: commands of one session share it as long
// as they want the same workspace and network.
type boxKey struct {
	key       string
	workspace string
	network   bool
}

// box is one sandbox container.
type box struct {
	key      boxKey
	name, id string
	runDir   string
	client   runner.Client
	created  time.Time
	warnings []string
	warned   atomic.Bool
	ready    chan struct{} // closed when creation finished; err tells how
	err      error

	// Guarded by Manager.mu.
	inflight int
	lastUsed time.Time
}

func (b *box) where() string { return "podman:" + shortID(b.id) }

func shortID(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	return id[:min(12, len(id))]
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// startTimeout bounds create + start + the runner's first answer.
const startTimeout = 30 * time.Second

// acquire returns the key's container, creating it on first use; the
// caller must release it. Concurrent first uses create one container.
func (m *Manager) acquire(ctx context.Context, k boxKey) (*box, error) {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, errors.New("sandbox: manager closed")
	}
	b := m.boxes[k]
	creator := b == nil
	if creator {
		// The name is fixed here, under the lock, because Prune and Status
		// read it while the container is being created.
		name := containerName(k.key, randomHex(4))
		b = &box{key: k, name: name, runDir: filepath.Join(m.opts.StateDir, name), ready: make(chan struct{})}
		m.boxes[k] = b
	}
	b.inflight++
	m.mu.Unlock()

	if creator {
		// Not the caller's ctx: others may be waiting on this container.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), startTimeout)
		b.err = m.create(cctx, b)
		cancel()
		close(b.ready)
	}
	select {
	case <-b.ready:
	case <-ctx.Done():
		m.release(b)
		return nil, ctx.Err()
	}
	if b.err != nil {
		m.release(b)
		m.forget(b)
		return nil, b.err
	}
	return b, nil
}

func (m *Manager) release(b *box) {
	m.mu.Lock()
	b.inflight--
	b.lastUsed = time.Now()
	m.mu.Unlock()
}

// forget drops b from the map if it is still the key's container.
func (m *Manager) forget(b *box) {
	m.mu.Lock()
	if m.boxes[b.key] == b {
		delete(m.boxes, b.key)
	}
	m.mu.Unlock()
}

// discard forgets b and removes its container (it is broken or stuck).
func (m *Manager) discard(ctx context.Context, b *box, why string) {
	m.forget(b)
	m.log.Warn("sandbox: removing container", "name", b.name, "why", why)
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	if err := m.remove(rctx, b); err != nil {
		m.log.Warn("sandbox: remove failed", "name", b.name, "err", err)
	}
}

func (m *Manager) remove(ctx context.Context, b *box) error {
	if b.id == "" {
		return nil
	}
	err := m.withAPI(ctx, func(s *session) error { return s.api.remove(ctx, b.id) })
	if rerr := os.RemoveAll(b.runDir); rerr != nil {
		err = errors.Join(err, rerr)
	}
	m.log.Info("sandbox: removed container", "name", b.name, "key", b.key.key)
	return err
}

// create makes, starts and waits for one container. Its errors wrap
// sandbox.ErrUnavailable (the sandbox could not run anything), except a
// SetupError: the host cannot give this request what it needs.
func (m *Manager) create(ctx context.Context, b *box) error {
	err := m.withAPI(ctx, func(s *session) error { return m.createBox(ctx, s, b) })
	if err != nil && strings.Contains(err.Error(), "OCI runtime error") && ctx.Err() == nil {
		// runc's start-up sometimes fails under load ("can't get final
		// child's PID from pipe: EOF"); the half-made container is gone,
		// so one more try is safe.
		m.log.Warn("sandbox: container start failed, retrying once", "name", b.name, "err", err)
		b.id = ""
		err = m.withAPI(ctx, func(s *session) error { return m.createBox(ctx, s, b) })
	}
	var setup *SetupError
	if errors.As(err, &setup) {
		return err // the request cannot run here; not a reason to use the host
	}
	if err != nil && !errors.Is(err, sandbox.ErrUnavailable) {
		err = fmt.Errorf("%w: %w", sandbox.ErrUnavailable, err)
	}
	return err
}

func (m *Manager) createBox(ctx context.Context, s *session, b *box) error {
	if s.runnerErr != nil {
		return s.runnerErr
	}
	rootless := s.info.Host.Security.Rootless
	user, cuser := containerUser(s, b.key.workspace)
	check := startCheck{Workspace: b.key.workspace, Network: b.key.network, User: cuser, Rootless: rootless}
	if err := m.preflight(check); err != nil {
		return err
	}
	if err := m.ensureImage(ctx, s); err != nil {
		return err
	}
	if err := os.Mkdir(b.runDir, 0o700); err != nil {
		return err
	}
	if err := handTo(b.runDir, cuser); err != nil {
		return err
	}
	b.client = runner.Client{Socket: filepath.Join(b.runDir, runner.SocketName)}
	spec, warnings := buildSpec(specInput{
		Name: b.name, Image: m.opts.Image, Labels: m.labels(b.key),
		Workspace: b.key.workspace, RunDir: b.runDir, BinDir: s.binDir, Network: b.key.network,
		Rootless: rootless, User: user, Limits: m.limits, Enforced: s.enforced, KeepID: s.keepID,
	})
	id, created, err := m.createContainer(ctx, s, spec)
	if err != nil {
		_ = os.RemoveAll(b.runDir)
		return explainStartError(fmt.Errorf("create container: %w", err), check)
	}
	b.id, b.created = id, time.Now()
	warnings = withServiceWarnings(warnings, created)
	b.warnings = warnings
	m.noteWarnings(warnings)
	if err := m.startBox(ctx, s, b); err != nil {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		_ = m.remove(rctx, b)
		return explainStartError(err, check)
	}
	m.log.Info("sandbox: created container", "name", b.name, "id", shortID(id), "key", b.key.key, "warnings", warnings)
	return nil
}

// startBox starts the container and waits for its runner to answer.
func (m *Manager) startBox(ctx context.Context, s *session, b *box) error {
	if err := s.api.start(ctx, b.id); err != nil {
		return fmt.Errorf("start container: %w", err)
	}
	for i := 0; ; i++ {
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		err := b.client.Ping(pctx)
		cancel()
		if err == nil {
			return nil
		}
		if !errors.Is(err, runner.ErrNoRunner) {
			return err // e.g. a stale runner protocol
		}
		if i%100 == 99 { // every ~0.3 s, make sure it is still worth waiting
			if st, err := s.api.inspect(ctx, b.id); err == nil && st.Status != "running" {
				return fmt.Errorf("container %s exited (code %d) before warren-runner listened", b.name, st.ExitCode)
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("warren-runner did not listen in container %s: %w", b.name, ctx.Err())
		case <-time.After(3 * time.Millisecond):
		}
	}
}

// containerUser is who a container runs as: rootless, the service's user
// through keep-id (user ""); rootful, the workspace's owner, so files stay
// theirs. cuser is that user on the host.
func containerUser(s *session, workspace string) (user string, cuser owner) {
	if s.info.Host.Security.Rootless {
		return "", s.owner
	}
	cuser = owner{os.Getuid(), os.Getgid()}
	if workspace != "" {
		cuser = pathOwner(workspace)
	}
	return strconv.Itoa(cuser.uid) + ":" + strconv.Itoa(cuser.gid), cuser
}

// withServiceWarnings adds the create response's warnings to ours, less
// Podman's own note about limits on cgroup v1, which repeats ours.
func withServiceWarnings(ours, service []string) []string {
	for _, w := range service {
		if len(ours) == 0 || w != "Resource limits are not supported and ignored on cgroups V1 rootless systems" {
			ours = append(ours, w)
		}
	}
	return ours
}

// createContainer sends a create request; keep-id creates are serialised
// (see keepIDMapping).
func (m *Manager) createContainer(ctx context.Context, s *session, spec *containerSpec) (string, []string, error) {
	if spec.UserNS.NSMode == "keep-id" {
		m.createMu.Lock()
		defer m.createMu.Unlock()
	}
	return s.api.create(ctx, spec)
}

func (m *Manager) labels(k boxKey) map[string]string {
	return map[string]string{
		labelSandbox: "1", labelKey: k.key, labelWork: k.workspace, labelNetwork: strconv.FormatBool(k.network),
		labelOwnerPID: strconv.Itoa(os.Getpid()), labelInstance: m.instance,
	}
}

// noteWarnings keeps what Status reports.
func (m *Manager) noteWarnings(ws []string) {
	m.mu.Lock()
	for _, w := range ws {
		m.warnings[w] = true
	}
	m.mu.Unlock()
}

// ensureImage builds the default image offline when it is missing; any
// other image must already be there.
func (m *Manager) ensureImage(ctx context.Context, s *session) error {
	if s.imageOK.Load() {
		return nil
	}
	ok, err := s.api.imageExists(ctx, m.opts.Image)
	if err != nil {
		return fmt.Errorf("check image %s: %w", m.opts.Image, err)
	}
	if !ok && m.opts.Image != DefaultImage {
		return fmt.Errorf("image %s not found: pull it (`warren sandbox image build --from %s`) or use the default image", m.opts.Image, m.opts.Image)
	}
	if !ok {
		if _, err := m.buildImage(ctx, s, ImageOptions{}); err != nil {
			return err
		}
	}
	s.imageOK.Store(true)
	return nil
}
