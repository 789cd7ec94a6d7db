// Package warren wires Warren's core together: the store, the tool registry
// with its cross-cutting concerns, and the policy engine. The desktop app and
// the CLI are thin layers over it.
package warren

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/warren-dev/warren/backend/agent"
	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/authprofiles"
	"github.com/warren-dev/warren/backend/cron"
	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/memory"
	"github.com/warren-dev/warren/backend/secrets"
	"github.com/warren-dev/warren/backend/skills"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/backend/teams"
	"github.com/warren-dev/warren/policy/netguard"
	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/browser"
	"github.com/warren-dev/warren/tools/builtin"
	"github.com/warren-dev/warren/tools/credexec"
	"github.com/warren-dev/warren/tools/messaging"
	"github.com/warren-dev/warren/tools/ratelimit"
	"github.com/warren-dev/warren/tools/runtime"
	"github.com/warren-dev/warren/tools/scrub"
)

// Options configures Open.
type Options struct {
	// DataDir holds the database and default directories; required.
	DataDir string
	// Workspace is the default workspace; empty means DataDir/workspace.
	Workspace string
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// RateLimit overrides the per-session tool rate limit.
	RateLimit *ratelimit.Config
	// ApprovalTimeout overrides how long approvals wait (default 2 minutes).
	ApprovalTimeout time.Duration
	// AnnounceDebounce overrides how long finished subagents wait for their
	// siblings before being announced to the parent (default 1 s).
	AnnounceDebounce time.Duration
	// URLChecker judges every request the browser tool makes; nil means
	// Warren's network guard (the web tools' one; tests pass their own).
	URLChecker browser.URLChecker
	// Process names this process in the approval requests other Warren
	// processes show ("Warren window", "warren mcp serve"); empty means the
	// program's file name.
	Process string
}

// Warren is the running core.
type Warren struct {
	db        *store.DB
	bus       *events.Bus
	scrubber  *scrub.Scrubber
	registry  *tools.Registry
	policy    *policyState
	approvals *approvals.Service
	sandbox   *sandboxes
	settings  *settingsCache
	processes *runtime.Processes
	custom    *customTools
	mcp       *mcpState
	deferred  *deferredTools
	box       *secrets.Box
	netguard  *netguard.Guard
	creds     *credexec.Store
	// auth holds url_fetch's auth profiles (authprofiles.go).
	auth      *authprofiles.Store
	cronStore *cron.Store
	teams     *teams.SQLStore
	memory    *memory.Store
	skills    *skills.Store
	browser   *browser.Manager
	// systemDone is set once Warren's docs are ready for
	// search_system_knowledge in this process.
	systemMu   sync.Mutex
	systemDone bool
	// memoryDone closes when the memory indexer has stopped (Close waits
	// for it before the database goes).
	memoryDone chan struct{}
	// orch is the running RunTeams loop, nil when none runs.
	orchMu    sync.Mutex
	orch      *teamOrch
	subagents *agent.Subagents
	announcer *announcer
	followUps *followUps
	runs      runs
	scheduler *cron.Scheduler
	// life ends at Close; background work (sandbox janitor) uses it.
	life      context.Context
	stopLife  context.CancelFunc
	workspace string
	// ownWorkspace is true when Warren chose and created the workspace
	// (no Options.Workspace): the sandbox may hand it to its user.
	ownWorkspace bool
	dataDir      string
	log          *slog.Logger
}

// Open opens the data directory and builds the tool registry.
func Open(ctx context.Context, opts Options) (*Warren, error) {
	if opts.DataDir == "" {
		return nil, errors.New("warren: no data directory")
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	ws := opts.Workspace
	if ws == "" {
		var err error
		if ws, err = ownWorkspace(opts.DataDir, opts.Logger); err != nil {
			return nil, err
		}
	}
	ws, err := filepath.Abs(ws)
	if err != nil {
		return nil, fmt.Errorf("workspace %q: %w", opts.Workspace, err)
	}
	for _, dir := range []string{ws, filepath.Join(opts.DataDir, "cache"), filepath.Join(opts.DataDir, "state")} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("create %s: %w", dir, err)
		}
	}
	db, err := store.Open(ctx, opts.DataDir)
	if err != nil {
		return nil, err
	}
	w := &Warren{
		db: db, bus: events.New(), scrubber: scrub.New(),
		workspace: ws, ownWorkspace: opts.Workspace == "", dataDir: opts.DataDir, log: opts.Logger,
	}
	w.life, w.stopLife = context.WithCancel(context.WithoutCancel(ctx))
	if err := w.init(ctx, opts); err != nil {
		w.stopLife()
		_ = db.Close()
		return nil, err
	}
	return w, nil
}

func (w *Warren) init(ctx context.Context, opts Options) error {
	rl := ratelimit.DefaultConfig()
	if opts.RateLimit != nil {
		rl = *opts.RateLimit
	}
	ps, err := loadPolicy(ctx, w.db)
	if err != nil {
		return err
	}
	if w.settings, err = loadSettings(ctx, w); err != nil {
		return err
	}
	w.policy = ps
	if w.approvals, err = newApprovals(ctx, w.db, opts, w); err != nil {
		return err
	}
	if w.sandbox, err = loadSandbox(ctx, w); err != nil {
		return err
	}
	w.processes = runtime.NewProcesses()
	if w.box, err = secrets.Open(secrets.Options{DataDir: w.dataDir, Keyring: secrets.DefaultKeyring()}); err != nil {
		return err
	}
	w.creds = credexec.NewStore(w.db.SQL(), w.box)
	w.auth = authprofiles.NewStore(w.db.SQL(), w.box)
	if err := w.newNetGuard(); err != nil {
		return err
	}
	w.newMemory(ctx)
	w.registry = tools.NewRegistry(tools.Options{
		Scrubber: w.scrubber,
		Limiter:  ratelimit.New(rl),
		Bus:      w.bus,
		Logger:   w.log,
		Gate:     w.gate,
		Approver: w.approveTool,
		Unknown:  w.unknownTool,
	})
	shellDeps := runtime.Deps{Workspace: w.workspace, Runner: w.runnerFor, Approvals: w.approvals, Processes: w.processes, DataDir: w.dataDir}
	err = builtin.Register(w.registry, builtin.Deps{
		Workspace:    w.workspace,
		CacheDir:     filepath.Join(w.dataDir, "cache"),
		StateDir:     filepath.Join(w.dataDir, "state"),
		ContextFiles: w.db,
		Memory:       memoryFiles{w.memory, w},
		HardLinks:    func() bool { return w.settings.bool(SettingAllowHardLinks) },
		SkillDirs:    w.skillDirs,
		Started:      time.Now(),
		Runtime:      shellDeps,
		Credentialed: credexec.Deps{Store: w.creds, Workspace: w.workspace, Host: hostFunc(w.hostRunner), Secret: w.scrubber.AddValues},
		Messaging:    messaging.Deps{Sessions: w.Sessions(), Bus: w.bus, Notifier: messaging.NewDesktopNotifier(messaging.DesktopOptions{})},
		Media:        w.mediaDeps(),
	})
	if err != nil {
		return err
	}
	w.initSubagents(opts.AnnounceDebounce)
	if err := w.initAutomation(); err != nil {
		return err
	}
	if err := w.initTeams(); err != nil {
		return err
	}
	if err := w.initMemory(ctx); err != nil {
		return err
	}
	if err := w.initWeb(); err != nil {
		return err
	}
	if err := w.initSkills(); err != nil {
		return err
	}
	checker := opts.URLChecker
	if checker == nil {
		checker = w.netguard // the one guard every web request goes through
	}
	if err := w.initBrowser(checker); err != nil {
		return err
	}
	if err := w.initCustomTools(ctx, runtime.NewShell(shellDeps)); err != nil {
		return err
	}
	return w.initMCP(ctx)
}

// Close stops background commands, removes sandbox containers and
// releases the database.
func (w *Warren) Close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// Subagents first: a finished one may still start its parent's turn.
	w.subagents.Close(ctx)
	w.stopRuns(ctx)
	w.mcp.manager.Close()
	if w.browser != nil {
		w.browser.Close()
	}
	w.closeSandbox(ctx)
	w.stopLife()
	if w.memoryDone != nil {
		select {
		case <-w.memoryDone:
		case <-ctx.Done():
		}
	}
	return w.db.Close()
}

// Bus returns the event bus the UI subscribes to.
func (w *Warren) Bus() *events.Bus { return w.bus }

// Registry returns the base tool registry.
func (w *Warren) Registry() *tools.Registry { return w.registry }

// Store returns the database.
func (w *Warren) Store() *store.DB { return w.db }

// Workspace returns the default workspace directory.
func (w *Warren) Workspace() string { return w.workspace }

// DataDirPath returns the data directory.
func (w *Warren) DataDirPath() string { return w.dataDir }

// CallRequest is one tool call from a UI or the CLI.
type CallRequest struct {
	Name      string
	Args      []byte
	Workspace string
	Agent     string
	User      string
	Session   string
	Channel   string
	// Sandbox overrides where commands run: "podman", "host" or "".
	Sandbox string
	// Profile is the policy profile the call is judged by ("" = the active one).
	Profile string
	// CallID names the call in its events and approval requests ("" = one is made).
	CallID string
}

// CallTool runs one call through the full registry pipeline.
func (w *Warren) CallTool(ctx context.Context, req CallRequest) (tools.Result, error) {
	if req.Agent == "" {
		req.Agent = "default"
	}
	if req.User == "" {
		req.User = "local"
	}
	if req.Session == "" {
		req.Session = "local:" + req.Agent
	}
	// A call made for an agent runs the way the agent's own calls do: its
	// workspace, sandbox switch, network and profile, unless the request
	// says otherwise.
	network := false
	switch a, err := w.db.GetAgent(ctx, req.Agent); {
	case err == nil:
		req.Workspace = firstNonEmpty(req.Workspace, a.Workspace)
		if req.Sandbox == "" && !a.Sandbox {
			req.Sandbox = SandboxHost
		}
		req.Profile = firstNonEmpty(req.Profile, a.Profile)
		network = a.Network
	case errors.Is(err, store.ErrNotFound):
		// Unknown agents get the global policy; callers check names.
	default:
		return tools.Result{}, err
	}
	if req.Workspace != "" {
		abs, err := filepath.Abs(req.Workspace)
		if err != nil {
			return tools.Result{}, fmt.Errorf("workspace %q: %w", req.Workspace, err)
		}
		req.Workspace = abs
	}
	reg, err := w.registryFor(ctx, req.Agent)
	if err != nil {
		return tools.Result{}, err
	}
	return reg.ExecuteWithContext(ctx, tools.Call{
		ID: req.CallID, Name: req.Name, Args: req.Args,
		Context: tools.CallContext{
			Channel: req.Channel, SandboxKey: req.Session, Workspace: req.Workspace,
			Agent: req.Agent, User: req.User, PeerKind: "direct", Sandbox: req.Sandbox, Profile: req.Profile,
			Network: network,
		},
	})
}

// AddScrubValues registers run-time secrets (server addresses, injected
// credentials) that every tool result is scrubbed of from now on.
func (w *Warren) AddScrubValues(values ...string) { w.scrubber.AddValues(values...) }

// Scrub removes credentials from text that leaves Warren, with the values
// added at run time (AddScrubValues, credentialed_exec secrets) included.
func (w *Warren) Scrub(text string) string { return w.scrubber.Scrub(text) }

// Credentials returns the credentialed_exec configuration store.
func (w *Warren) Credentials() *credexec.Store { return w.creds }

// hostFunc adapts the current-host-runner getter to sandbox.Runner so
// credentialed_exec picks up changed injected variables.
type hostFunc func() *sandbox.Host

func (f hostFunc) Name() string { return "host" }

func (f hostFunc) Run(ctx context.Context, req sandbox.Request) (sandbox.Result, error) {
	return f().Run(ctx, req)
}

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
	d, err := osDataDir()
	if err != nil {
		return "", fmt.Errorf("find the user config directory (set --data-dir or %s): %w", EnvHome, err)
	}
	return d, nil
}

// osDataDir is the data directory in the OS user config directory.
func osDataDir() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "Warren"), nil
}
