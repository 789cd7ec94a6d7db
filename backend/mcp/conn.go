package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// conn is one live connection to a server. For stdio servers Warren starts
// and owns the process: its death is noticed from cmd.Wait within
// milliseconds, and its whole process group is killed on close.
type conn struct {
	client   *client.Client
	cmd      *exec.Cmd
	init     *mcp.InitializeResult
	protocol string

	dead     chan struct{} // closed when the process exits or the transport is lost
	deadOnce sync.Once
	deadErr  error
	// alive is cancelled with the connection's death, so calls in flight end
	// at once (on SSE a call is not failed by the transport when the server dies).
	alive    context.Context
	stopLife context.CancelFunc
	stderr   *logSink
	// junk is what a stdio server wrote to stdout that was not JSON.
	junk *stdoutJunk
	// url and trace are set for HTTP servers, to say plainly what failed.
	url   string
	trace *httpTrace
	// via is the transport used when it is not the configured one (the SSE
	// fallback); note says why.
	via  Transport
	note string
	// progress routes notifications/progress to the calls that asked (progress.go).
	progress progressRoutes
	// calls are the tool calls in flight, to tell whose a server's request is.
	calls inflight
}

// describe says a transport failure plainly (HTTP servers); other errors
// pass unchanged.
func (c *conn) describe(err error) error {
	if c.trace == nil || err == nil {
		return err
	}
	return describeHTTPError(c.url, err, c.trace)
}

// junkGrace is how long a server that wrote non-JSON to stdout gets to
// answer initialize anyway (some print a banner first, then work).
const junkGrace = 5 * time.Second

// junkNote names a stdio server's non-JSON output for a "no answer" error.
func (c *conn) junkNote() string {
	if d := c.junk.describe(); d != "" {
		return "; " + d
	}
	return ""
}

// junkSeen is closed once the server wrote non-JSON to stdout (nil, so
// never ready, for HTTP servers).
func (c *conn) junkSeen() <-chan struct{} {
	if c.junk == nil {
		return nil
	}
	return c.junk.seen
}

// dialOptions are what a connection needs besides the server config.
type dialOptions struct {
	env, headers map[string]string
	log          *logSink
	logger       *slog.Logger
	// command overrides how a stdio server is started (the sandbox wraps it).
	command func(ctx context.Context, s Server, env map[string]string) (*exec.Cmd, error)
	// notify receives server notifications (tools/list_changed).
	notify func(mcp.JSONRPCNotification)
	// features answer the server's requests (roots, sampling, elicitation).
	features *clientFeatures
}

func (c *conn) markDead(err error) {
	c.deadOnce.Do(func() {
		c.deadErr = err
		close(c.dead)
		c.stopLife()
	})
}

// deathError is why the connection died.
func (c *conn) deathError() error {
	select {
	case <-c.dead:
		return c.deadErr
	default:
		return nil
	}
}

// dial connects and initialises; it fails with a message naming the cause
// (command not found, exited with code N and its last stderr lines, the
// HTTP status or network failure at the URL, timeout). A streamable HTTP
// server that refuses the initialize POST with 400, 404 or 405 is tried
// over the legacy HTTP+SSE transport at the same URL, as the MCP spec's
// backwards-compatibility section describes.
func dial(ctx context.Context, s Server, o dialOptions) (*conn, error) {
	c, err := dialAs(ctx, s, o, s.Transport)
	if err == nil || s.Transport != TransportHTTP || !legacySSECandidate(err) {
		return c, err
	}
	var he, sseErr *httpError
	errors.As(err, &he)
	sc, serr := dialAs(ctx, s, o, TransportSSE)
	if errors.As(serr, &sseErr) && sseErr.Status == he.Status {
		return nil, fmt.Errorf("%w (over streamable HTTP and over the legacy SSE transport)", err)
	}
	if serr != nil {
		return nil, fmt.Errorf("%w; the legacy SSE transport at the same URL failed too: %v", err, serr)
	}
	sc.via = TransportSSE
	sc.note = fmt.Sprintf("connected over the legacy SSE transport: the server refused streamable HTTP (%d %s)", he.Status, http.StatusText(he.Status))
	return sc, nil
}

// dialAs connects to s over transport t.
func dialAs(ctx context.Context, s Server, o dialOptions, t Transport) (*conn, error) {
	c := &conn{dead: make(chan struct{}), stderr: o.log}
	c.alive, c.stopLife = context.WithCancel(context.Background())
	var err error
	switch t {
	case TransportStdio:
		err = c.startProcess(ctx, s, o)
	case TransportSSE:
		c.url, c.trace = s.URL, newHTTPTrace()
		var cl *client.Client
		cl, err = client.NewSSEMCPClient(s.URL, client.WithHeaders(o.headers), transport.WithSSELogger(o.logger),
			transport.WithHTTPClient(&http.Client{Transport: c.trace}))
		if err == nil {
			c.client = cl
			cl.OnConnectionLost(func(e error) { c.markDead(fmt.Errorf("connection lost: %w", c.describe(e))) })
		}
	case TransportHTTP:
		c.url, c.trace = s.URL, newHTTPTrace()
		var tr *transport.StreamableHTTP
		// Continuous listening keeps the connection on the 2025-11-25 protocol,
		// where only the standalone GET stream delivers tools/list_changed;
		// the Node servers users run today speak nothing newer.
		tr, err = transport.NewStreamableHTTP(s.URL, transport.WithHTTPHeaders(o.headers),
			transport.WithContinuousListening(), //nolint:staticcheck // see above
			transport.WithHTTPLogger(o.logger), transport.WithHTTPBasicClient(&http.Client{Transport: c.trace}))
		if err == nil {
			c.client = client.NewClient(tr)
		}
	default:
		err = fmt.Errorf("unknown transport %q", t)
	}
	if err != nil {
		return nil, err
	}
	if o.features != nil {
		f := *o.features
		f.calls = &c.calls
		for _, opt := range f.options() {
			opt(c.client) // before Start: the capabilities are declared at initialize
		}
	}
	if o.notify != nil {
		c.client.OnNotification(o.notify)
	}
	c.client.OnNotification(c.progress.route)
	if err := c.initialize(ctx, s); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

func (c *conn) initialize(ctx context.Context, s Server) error {
	type outcome struct {
		res *mcp.InitializeResult
		err error
	}
	// The transport keeps the context given to Start for the connection's
	// life (the SSE stream, stdio request handling): only the handshake is
	// bounded by the connect timeout.
	life := ctx
	ctx, cancel := context.WithTimeout(ctx, s.connectTimeout())
	defer cancel()
	done := make(chan outcome, 1)
	go func() {
		if err := c.client.Start(life); err != nil {
			done <- outcome{err: err}
			return
		}
		req := mcp.InitializeRequest{}
		req.Params.ClientInfo = mcp.Implementation{Name: "warren", Version: "1"}
		res, err := c.client.Initialize(ctx, req)
		done <- outcome{res, err}
	}()
	noAnswer := func() error {
		if c.url != "" {
			return fmt.Errorf("no answer from %s to initialize within %s", c.url, s.connectTimeout())
		}
		return fmt.Errorf("no answer to initialize within %s%s", s.connectTimeout(), c.junkNote())
	}
	junk := c.junkSeen()
	var grace <-chan time.Time
	for {
		select {
		case o := <-done:
			if o.err != nil {
				if derr := c.preferDeath(nil); derr != nil {
					return derr
				}
				if ctx.Err() != nil {
					return noAnswer()
				}
				if c.trace != nil {
					return c.describe(o.err)
				}
				return fmt.Errorf("initialize: %w%s", o.err, c.junkNote())
			}
			c.init, c.protocol = o.res, o.res.ProtocolVersion
			return nil
		case <-c.dead:
			return c.deadErr
		case <-junk:
			junk, grace = nil, time.After(junkGrace)
		case <-grace:
			return fmt.Errorf("%s and no answer to initialize (an MCP server may write only JSON-RPC messages to stdout; logs belong on stderr)",
				c.junk.describe())
		case <-ctx.Done():
			if derr := c.deathError(); derr != nil {
				return derr
			}
			return noAnswer()
		}
	}
}

func (c *conn) startProcess(ctx context.Context, s Server, o dialOptions) error {
	var cmd *exec.Cmd
	if o.command != nil {
		var err error
		if cmd, err = o.command(ctx, s, o.env); err != nil {
			return err
		}
	} else {
		path, err := exec.LookPath(s.Command)
		if err != nil {
			return fmt.Errorf("command not found: %s", s.Command)
		}
		// Not CommandContext: the process outlives the dial context; close kills it.
		cmd = exec.Command(path, s.Args...) //nolint:gosec,noctx // the user configured this command; it outlives any request context
		cmd.Env = processEnv(o.env)
		cmd.Dir = s.Cwd
	}
	ownProcess(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("stdin pipe: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("stdout pipe: %w", err)
	}
	cmd.Stderr = o.log
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("command not found: %s", cmd.Path)
		}
		if cmd.Dir != "" {
			if _, serr := os.Stat(cmd.Dir); serr != nil {
				return fmt.Errorf("working directory %s: %w", cmd.Dir, serr)
			}
		}
		return fmt.Errorf("start %s: %w", s.Command, err)
	}
	c.cmd = cmd
	go func() {
		err := cmd.Wait()
		c.markDead(c.exitError(err))
	}()
	c.junk = newStdoutJunk()
	filtered := newStdoutFilter(stdout, func(line []byte) {
		c.junk.add(line)
		if o.log != nil {
			_, _ = fmt.Fprintf(o.log, "warren: the server wrote non-JSON to stdout: %s\n", junkPreview(line, 200))
		}
	})
	c.client = client.NewClient(transport.NewIO(filtered, stdin, nil))
	return nil
}

// exitError describes how a stdio server ended, with its last stderr lines.
func (c *conn) exitError(err error) error {
	msg := "exited"
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		msg = fmt.Sprintf("exited with code %d", ee.ExitCode())
	case errors.As(err, &ee):
		msg = fmt.Sprintf("was killed (%s)", ee.String())
	case err == nil:
		msg = "exited with code 0"
	}
	if tail := c.stderr.Tail(5); len(tail) > 0 {
		msg += ": " + strings.Join(tail, " | ")
	}
	return errors.New("server process " + msg)
}

// preferDeath explains a failed request by the process's death when the
// process is dying: a closed pipe is seen a moment before cmd.Wait returns.
func (c *conn) preferDeath(err error) error {
	if c.cmd != nil {
		select {
		case <-c.dead:
		case <-time.After(250 * time.Millisecond):
		}
	}
	if derr := c.deathError(); derr != nil {
		return derr
	}
	return err
}

// pid is the stdio server's process id, 0 otherwise.
func (c *conn) pid() int {
	if c.cmd != nil && c.cmd.Process != nil {
		return c.cmd.Process.Pid
	}
	return 0
}

// close ends the connection; for stdio it kills the process group and
// waits for the process to be gone.
func (c *conn) close() {
	if c.client != nil {
		done := make(chan struct{})
		go func() { _ = c.client.Close(); close(done) }()
		select {
		case <-done:
		case <-time.After(2 * time.Second):
		}
	}
	if c.cmd != nil && c.cmd.Process != nil {
		killGroup(c.cmd)
		select {
		case <-c.dead:
		case <-time.After(5 * time.Second):
		}
	}
	c.markDead(errors.New("closed"))
}

// listTools lists every tool, following pagination.
func (c *conn) listTools(ctx context.Context) ([]mcp.Tool, error) {
	res, err := c.client.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		return nil, c.preferDeath(c.describe(err))
	}
	return res.Tools, nil
}

// catalog lists the server's resources and prompts when it declares them;
// a server that fails to list them still works (tools are what Warren
// bridges), so failures come back as a note instead of an error.
func (c *conn) catalog(ctx context.Context) (resources, prompts []string, note string) {
	if c.init == nil {
		return nil, nil, ""
	}
	var notes []string
	if c.init.Capabilities.Resources != nil {
		res, err := c.client.ListResources(ctx, mcp.ListResourcesRequest{})
		if err != nil {
			notes = append(notes, "resources/list: "+err.Error())
		} else {
			for _, r := range res.Resources {
				resources = append(resources, r.URI)
			}
		}
	}
	if c.init.Capabilities.Prompts != nil {
		res, err := c.client.ListPrompts(ctx, mcp.ListPromptsRequest{})
		if err != nil {
			notes = append(notes, "prompts/list: "+err.Error())
		} else {
			for _, p := range res.Prompts {
				prompts = append(prompts, p.Name)
			}
		}
	}
	return resources, prompts, strings.Join(notes, "; ")
}

// callTool calls a tool; a transport failure is a Go error. It runs on the
// caller's goroutine (no hand-off per call: the bridge's overhead budget is
// 10 % of a round trip); the connection's death cancels it.
func (c *conn) callTool(ctx context.Context, tool string, args json.RawMessage, timeout time.Duration) (*mcp.CallToolResult, error) {
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	stop := context.AfterFunc(c.alive, cancel)
	defer stop()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	defer c.withProgressToken(parent, &req)()
	defer c.calls.add(parent)()
	res, err := c.client.CallTool(ctx, req)
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil && c.deathError() == nil:
		if parent.Err() != nil {
			return nil, parent.Err() // the caller gave up
		}
		return nil, ctx.Err() // the call timed out
	}
	return nil, c.preferDeath(c.describe(err))
}

// logSink is a server's stderr: appended to its log file and kept as a ring
// of recent lines for error messages and the UI.
type logSink struct {
	mu      sync.Mutex
	file    io.Writer
	lines   []string
	partial string
}

const keepLines = 200

func newLogSink(file io.Writer) *logSink { return &logSink{file: file} }

// Write implements io.Writer.
func (l *logSink) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file != nil {
		_, _ = l.file.Write(p)
	}
	text := l.partial + string(p)
	parts := strings.Split(text, "\n")
	l.partial = parts[len(parts)-1]
	if len(l.partial) > 4096 {
		l.partial = l.partial[:4096]
	}
	for _, line := range parts[:len(parts)-1] {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		l.lines = append(l.lines, line)
	}
	if over := len(l.lines) - keepLines; over > 0 {
		l.lines = append([]string(nil), l.lines[over:]...)
	}
	return len(p), nil
}

// Tail returns up to n recent lines, a run of identical lines as one
// ("<line> (repeated 5 times)": a server restarted five times says the
// same thing five times).
func (l *logSink) Tail(n int) []string {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	lines := l.lines
	if l.partial != "" {
		lines = append(append([]string(nil), lines...), l.partial)
	}
	lines = collapseRepeats(lines)
	l.mu.Unlock()
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines
}

// collapseRepeats returns lines with each run of identical lines as one.
func collapseRepeats(lines []string) []string {
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); {
		j := i + 1
		for j < len(lines) && lines[j] == lines[i] {
			j++
		}
		if j-i > 1 {
			out = append(out, fmt.Sprintf("%s (repeated %d times)", lines[i], j-i))
		} else {
			out = append(out, lines[i])
		}
		i = j
	}
	return out
}
