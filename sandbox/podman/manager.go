// Package podman runs sandboxed commands in rootless Podman containers: one
// container per sandbox key, created on first use, reused, removed when
// idle and on Close. Commands reach the container through warren-runner
// (package sandbox/runner), not Podman's exec API, so a warm exec costs
// about as much as a local fork and leaves nothing behind.
//
// Podman is reached through github.com/containers/podman/v5/pkg/bindings
// (see api.go for why only its connection layer), so a plain `go build`
// needs no build tags and no cgo headers.
package podman

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warren-dev/warren/sandbox"
)

// DefaultImage is the image `warren sandbox image build` makes offline.
const DefaultImage = "localhost/warren-sandbox:latest"

// Options configures a Manager. Zero values pick the defaults.
type Options struct {
	// Endpoint is the Podman service URI; empty discovers it (see
	// candidates) and starts `podman system service` if nothing answers.
	Endpoint string
	// NoAutoStart disables starting the service.
	NoAutoStart bool
	// ServiceIdle is how long a service Warren started lives without API
	// calls (default 10 minutes).
	ServiceIdle time.Duration
	// EnvFile is read by discovery when running as root (DefaultEnvFile).
	EnvFile string
	// Image runs the containers (DefaultImage, built offline if missing).
	Image string
	// Runner is the warren-runner binary; empty uses FindRunner.
	Runner string
	// StateDir holds the runner copy and one socket directory per
	// container; default $XDG_RUNTIME_DIR/warren-sandbox, or
	// $TMPDIR/warren-sandbox-UID for root and users without one.
	StateDir string
	// IdleTimeout removes a container unused this long (default 10 min).
	IdleTimeout time.Duration
	// Timeout is the default per-command timeout (DefaultSandboxTimeout).
	Timeout time.Duration
	// Limits bound each container; nil means DefaultLimits.
	Limits *Limits
	// Inject adds variables to every command's environment.
	Inject map[string]string
	// Logger receives container lifecycle events; nil discards them.
	Logger *slog.Logger
	// OwnWorkspace reports whether Warren created a workspace itself: when
	// the container user cannot use such a one, it is handed to that user
	// (chown) instead of refused. nil: none is.
	OwnWorkspace func(dir string) bool
	// Getenv reads the environment (tests); nil means os.Getenv.
	Getenv func(string) string
}

// Manager implements sandbox.Runner with Podman containers.
type Manager struct {
	opts     Options
	limits   Limits
	instance string
	log      *slog.Logger

	createMu sync.Mutex // serialises keep-id creates (see keepIDMapping)

	connMu  sync.Mutex
	sess    *session
	connErr error
	connAt  time.Time

	mu       sync.Mutex
	boxes    map[boxKey]*box
	warnings map[string]bool
	closed   bool

	stop        chan struct{}
	janitorDone chan struct{}
}

// session is one connection to a service and what was learnt from it.
type session struct {
	api       *api
	endpoint  Endpoint
	info      hostInfo
	enforced  enforcement
	keepID    *keepID
	owner     owner // the service's user; with keep-id also the container user
	binDir    string
	runner    string
	runnerErr error
	imageOK   atomic.Bool
}

// connRetry spaces reconnection attempts so a missing Podman costs one
// failed discovery per interval, not one per command.
const connRetry = 5 * time.Second

// New returns a Manager; it connects lazily, on first use. The janitor
// that removes idle containers runs until ctx is done or Close.
func New(ctx context.Context, opts Options) *Manager {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Image == "" {
		opts.Image = DefaultImage
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = 10 * time.Minute
	}
	if opts.ServiceIdle <= 0 {
		opts.ServiceIdle = 10 * time.Minute
	}
	if opts.Timeout <= 0 {
		opts.Timeout = sandbox.DefaultSandboxTimeout
	}
	if opts.StateDir == "" {
		opts.StateDir = defaultStateDir(opts.Getenv)
	}
	limits := DefaultLimits
	if opts.Limits != nil {
		limits = *opts.Limits
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	m := &Manager{
		opts: opts, limits: limits, instance: randomHex(6), log: log,
		boxes: map[boxKey]*box{}, warnings: map[string]bool{},
		stop: make(chan struct{}), janitorDone: make(chan struct{}),
	}
	go m.janitor(ctx)
	return m
}

// Name implements sandbox.Runner.
func (m *Manager) Name() string { return "podman" }

func defaultStateDir(getenv func(string) string) string {
	// Root's runtime dir is unreachable for an unprivileged service's user
	// namespace, which must traverse to every bind-mount source.
	if d := getenv("XDG_RUNTIME_DIR"); d != "" && os.Getuid() != 0 {
		return filepath.Join(d, "warren-sandbox")
	}
	return filepath.Join(os.TempDir(), "warren-sandbox-"+strconv.Itoa(os.Getuid()))
}

// session returns the live connection, connecting (and starting the
// service) when there is none.
func (m *Manager) session(ctx context.Context) (*session, error) {
	m.connMu.Lock()
	defer m.connMu.Unlock()
	if m.sess != nil {
		return m.sess, nil
	}
	if m.connErr != nil && time.Since(m.connAt) < connRetry {
		return nil, m.connErr
	}
	s, err := m.connect(ctx)
	if err != nil {
		m.connErr, m.connAt = fmt.Errorf("%w: podman: %w", sandbox.ErrUnavailable, err), time.Now()
		return nil, m.connErr
	}
	m.sess, m.connErr = s, nil
	return s, nil
}

// dropSession forgets s after a transport error, so the next call
// rediscovers (and restarts) the service. It reports whether it did.
func (m *Manager) dropSession(s *session, err error) bool {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return false
	}
	m.connMu.Lock()
	if m.sess == s {
		m.sess = nil
	}
	m.connMu.Unlock()
	return true
}

// withAPI runs f on the session, and once more on a new one when the
// service went away in between (restarted, or a service Warren started
// exited when idle: warm execs never call it).
func (m *Manager) withAPI(ctx context.Context, f func(*session) error) error {
	for attempt := 0; ; attempt++ {
		s, err := m.session(ctx)
		if err != nil {
			return err
		}
		err = f(s)
		if !m.dropSession(s, err) || attempt > 0 {
			return err
		}
	}
}

func (m *Manager) connect(ctx context.Context) (*session, error) {
	env := systemEnv(m.opts.Getenv, m.opts.EnvFile)
	var (
		a   *api
		ep  Endpoint
		err error
	)
	if m.opts.Endpoint != "" {
		ep = Endpoint{URI: m.opts.Endpoint, Source: "option"}
		a, err = dial(ctx, ep)
	} else if a, ep, err = discover(ctx, env); err != nil && !m.opts.NoAutoStart {
		var serr error
		if a, ep, serr = startService(ctx, env, m.opts.ServiceIdle); serr != nil {
			err = fmt.Errorf("%w; starting a service: %w", err, serr)
		} else {
			err = nil
		}
	}
	if err != nil {
		return nil, err
	}
	s := &session{api: a, endpoint: ep, owner: owner{-1, -1}}
	if s.info, err = a.info(ctx); err != nil {
		return nil, fmt.Errorf("podman info: %w", err)
	}
	s.enforced = enforced(s.info)
	if s.info.Host.Security.Rootless {
		s.keepID = keepIDMapping(s.info)
	}
	if p := ep.SocketPath(); p != "" {
		s.owner = pathOwner(p)
	}
	s.runner, s.runnerErr = FindRunner(m.opts.Runner, m.opts.Getenv)
	if runtime.GOOS != "linux" || ep.Machine {
		s.runnerErr = errors.New("commands reach containers through a socket on a shared host directory, which needs Podman on this Linux host (podman machine is not supported yet)")
	}
	if s.runnerErr == nil {
		s.runnerErr = m.prepareState(s)
	}
	m.log.Info("sandbox: connected to podman", "uri", ep.URI, "source", ep.Source, "rootless", s.info.Host.Security.Rootless, "version", a.version)
	if _, err := m.prune(ctx, s, false); err != nil {
		m.log.Warn("sandbox: prune of stale containers failed", "err", err)
	}
	return s, nil
}

// prepareState makes the state directory and installs the runner copy.
func (m *Manager) prepareState(s *session) error {
	s.binDir = filepath.Join(m.opts.StateDir, "bin")
	for _, d := range []string{m.opts.StateDir, s.binDir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return err
		}
		// Refuse a directory someone else planted (a /tmp default).
		if o := pathOwner(d); o.uid >= 0 && o.uid != os.Getuid() && o.uid != s.owner.uid {
			return fmt.Errorf("state directory %s belongs to uid %d", d, o.uid)
		}
		if err := handTo(d, s.owner); err != nil {
			return err
		}
	}
	return installRunner(s.runner, s.binDir, s.owner)
}

// Close removes every container this manager made (stdio programs'
// included) and stops its janitor.
func (m *Manager) Close(ctx context.Context) error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	boxes := make([]*box, 0, len(m.boxes))
	for _, b := range m.boxes {
		boxes = append(boxes, b)
	}
	m.boxes = map[boxKey]*box{}
	m.mu.Unlock()
	close(m.stop)
	err := errors.Join(m.removeAll(ctx, boxes), m.removeStdio(ctx))
	<-m.janitorDone
	return err
}

func (m *Manager) removeAll(ctx context.Context, boxes []*box) error {
	var wg sync.WaitGroup
	errs := make([]error, len(boxes))
	for i, b := range boxes {
		wg.Go(func() {
			select {
			case <-b.ready:
			case <-ctx.Done():
				errs[i] = ctx.Err()
				return
			}
			errs[i] = m.remove(ctx, b)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
