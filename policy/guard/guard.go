// Package guard judges each command a script really runs, and each file a
// redirection really opens, at the moment it happens: after expansion, with
// the arguments, working directory and environment the program will get.
// Warren's shell (sandbox/shell) asks it before every exec and open, so
// `$Z/dev/tcp`, eval, source, functions and scripts run with `sh FILE` are
// judged as they run, not guessed at from the text.
//
// It fails closed on the host: known read-only and build tools run, the
// seed's deny categories are refused, and everything else — programs that
// run code they are given, programs with exec hooks in their options,
// namespace, privilege, loader and debugger tools, network tools, writes
// outside the workspace and any program Warren does not know — asks, with
// the reason. In the sandbox the container is the boundary: only the deny
// categories are refused. Warren's data directory is refused on the host.
// The classification is data (programs.go) with tests.
package guard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warren-dev/warren/policy/shell"
)

// Mode says where commands run, which decides what asks.
type Mode uint8

const (
	// Host: commands run on the user's machine; fail closed.
	Host Mode = iota
	// Sandbox: commands run in a container; only deny categories refuse.
	Sandbox
)

// Decision is Allow, Ask or Deny (shell's verdicts).
type Decision = shell.Verdict

// Decisions, re-exported so callers need one import.
const (
	Allow = shell.Allow
	Ask   = shell.Ask
	Deny  = shell.Deny
)

// Options configure a Guard.
type Options struct {
	Mode Mode
	// Workspace is where writes need no approval.
	Workspace string
	// DataDir is Warren's own data directory (keys, database): any command
	// or redirection that names it, or runs in it, is refused on the host.
	DataDir string
	// TempDirs are also free to write (default: os.TempDir(), /tmp, /var/tmp).
	TempDirs []string
}

// Guard judges commands and opens. It is immutable and safe to share.
type Guard struct {
	opts    Options
	dataDir []string // the data directory, as given and resolved
	writeOK []string // workspace and temp dirs, as given and resolved
	twins   *twinIndex
}

// New returns a Guard.
func New(opts Options) *Guard {
	if opts.TempDirs == nil {
		opts.TempDirs = []string{os.TempDir(), "/tmp", "/var/tmp"}
	}
	g := &Guard{opts: opts, twins: &twinIndex{}}
	if opts.DataDir != "" {
		g.dataDir = bothForms(opts.DataDir)
	}
	for _, d := range append([]string{opts.Workspace}, opts.TempDirs...) {
		if d != "" {
			g.writeOK = append(g.writeOK, bothForms(d)...)
		}
	}
	return g
}

// bothForms is a path cleaned and, when it exists, with symlinks resolved.
func bothForms(p string) []string {
	p = filepath.Clean(p)
	out := []string{p}
	if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
		out = append(out, r)
	}
	return out
}

// Command is one program about to run.
type Command struct {
	// Argv is what the program receives, argv[0] as written.
	Argv []string
	// Dir is its working directory.
	Dir string
	// Env holds the variables the script set or changed, not those it
	// inherited.
	Env map[string]string
	// Path is the executable found for Argv[0] ("" when none was).
	Path string
}

// Verdict is the decision on one command or open.
type Verdict struct {
	Decision Decision
	// Class is the program's class (for commands).
	Class Class
	// Reason says why, in one line, for the approval and the refusal.
	Reason string
	// SandboxRuns is true when this asks on the host but would run
	// without asking in the sandbox.
	SandboxRuns bool
}

func allow(c Class) Verdict { return Verdict{Decision: Allow, Class: c} }

// Command judges one program about to run, and what it really is when it
// is disguised (see disguises): the stricter verdict wins.
func (g *Guard) Command(c Command) Verdict {
	v := g.judge(c)
	if v.Decision == Deny || len(c.Argv) == 0 {
		return v
	}
	for _, d := range g.disguises(c) {
		if dv := g.judge(d); dv.Decision > v.Decision {
			v = dv
			v.Reason = c.Argv[0] + " runs as " + QuoteArgv(d.Argv[:min(len(d.Argv), 3)]) + ": " + dv.Reason
		}
	}
	return v
}

// judge is Command for the program as named.
func (g *Guard) judge(c Command) Verdict {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return Verdict{Decision: Deny, Reason: "empty command"}
	}
	if strings.HasPrefix(c.Argv[0], "-") {
		return Verdict{Decision: Deny, Reason: "a command cannot start with an option (" + c.Argv[0] + ")"}
	}
	if v, bad := g.dataDirUse(c); bad {
		return v
	}
	// The static rules, on the concrete words: everything is literal now,
	// so wrappers, inline code and the deny categories are read exactly.
	a := shell.Analyze(QuoteArgv(c.Argv))
	if a.Verdict == shell.Deny {
		return Verdict{Decision: Deny, Class: ClassOf(c.Argv[0]), Reason: strings.TrimPrefix(a.Summary(), "blocked: ")}
	}
	hv := g.hostVerdict(c, a)
	if g.opts.Mode == Sandbox {
		if hv.Decision == Deny {
			return hv
		}
		return allow(hv.Class)
	}
	if hv.Decision == Ask {
		hv.SandboxRuns = true
	}
	return hv
}

// hostVerdict is the fail-closed decision on the host.
func (g *Guard) hostVerdict(c Command, a shell.Analysis) Verdict {
	worst := allow(ClassOf(c.Argv[0]))
	raise := func(v Verdict) {
		if v.Decision > worst.Decision {
			worst = v
		}
	}
	if a.Verdict == shell.Ask {
		raise(Verdict{Decision: Ask, Class: worst.Class, Reason: strings.TrimPrefix(a.Summary(), "needs approval: ")})
	}
	if len(g.dataDir) > 0 && followsLinks(c.Argv) {
		if link, unsure := g.linkIntoDataDir(c); link != "" {
			return Verdict{Decision: Deny, Class: worst.Class, Reason: c.Argv[0] + " follows the link " + link +
				" into Warren's data directory (keys, database), which commands may not touch"}
		} else if unsure {
			raise(Verdict{Decision: Ask, Class: worst.Class, Reason: c.Argv[0] + " follows links in more than 20000 files; Warren could not check that none leads into its data directory"})
		}
	}
	if w := g.holdsDataDir(c); w != "" {
		raise(Verdict{Decision: Ask, Class: worst.Class, Reason: c.Argv[0] + " reaches " + w + ", a folder that holds Warren's data directory (keys, database)"})
	}
	if name, ok := riskyEnv(c.Env); ok {
		raise(Verdict{Decision: Ask, Class: worst.Class, Reason: "sets " + name + ", which makes programs load or run other code"})
	}
	// The program, and every program it runs through wrappers (env,
	// nice, xargs, find -exec…): wrappers run them directly, not through
	// Warren's shell.
	progs := a.Commands
	if len(progs) == 0 {
		progs = []shell.Command{{Argv: c.Argv, Literal: true}}
	}
	for _, p := range progs {
		raise(g.program(c, p))
	}
	return worst
}

// program judges one program by its class and its options.
func (g *Guard) program(c Command, p shell.Command) Verdict {
	if len(p.Argv) == 0 {
		return allow(Unknown)
	}
	name := p.Argv[0]
	class := ClassOf(name)
	outer := len(p.Via) == 0 && len(p.Argv) == len(c.Argv) && p.Argv[0] == c.Argv[0]
	if slices.Contains(p.Via, "xargs") {
		// Warren's shell runs xargs itself and judges each command it
		// builds; a system xargs (started through env, nice, find -exec…)
		// would run them with words from its input nobody judged.
		return Verdict{Decision: Deny, Class: class, Reason: "the system's xargs would run " + name +
			" with arguments read from its input, unseen by Warren; call xargs directly (not through env, nice, find -exec…) so Warren's shell runs it"}
	}
	for _, via := range p.Via {
		// unshare, chroot, strace… are stripped as wrappers by the
		// static rules; they still change how the program runs.
		if vc := ClassOf(via); vc == Privilege {
			return Verdict{Decision: Ask, Class: vc, Reason: via + " is a " + vc.String()}
		}
	}
	if !outer && strings.ContainsRune(name, '/') {
		// A program a wrapper starts by path: the wrapper execs it
		// directly (a script then runs in the system shell).
		path := name
		if !filepath.IsAbs(path) {
			path = filepath.Join(c.Dir, path)
		}
		if g.writable(path) {
			if isShellScript(path) {
				return Verdict{Decision: Deny, Class: Shell, Reason: "a shell script started through " + strings.Join(p.Via, " ") +
					" runs in the system shell, outside Warren's checks; run it directly (sh " + name + ")"}
			}
			return Verdict{Decision: Ask, Class: Unknown, Reason: name + " is a program in a writable folder, started through " + strings.Join(p.Via, " ")}
		}
	}
	if outer && c.Path != "" && class != Shell && g.writable(c.Path) {
		// A program in the workspace or a temp folder was made by someone
		// who could write there: its name proves nothing.
		return Verdict{Decision: Ask, Class: Unknown, Reason: name + " is a program in a writable folder (" + c.Path + "), not an installed one"}
	}
	if outer && c.Path != "" && class != Shell {
		// A symlink or copy named like a harmless tool: judge the real
		// file's name too, and the stricter class wins.
		if real, err := filepath.EvalSymlinks(c.Path); err == nil {
			// Unknown real names (npm → npm-cli.js) say nothing.
			if rc := ClassOf(real); rc != Unknown && rank(rc) > rank(class) {
				class = rc
			}
		}
	}
	if v, ok := hooks(g, c, p.Argv, class); ok {
		return v
	}
	switch class {
	case ReadOnly, Build:
		// Tools that read or build still write where some options say.
		for _, t := range outputTargets(p.Argv) {
			if !g.writeInside(c.Dir, t) {
				return Verdict{Decision: Ask, Class: class, Reason: name + " writes " + t + ", outside the workspace"}
			}
		}
		return allow(class)
	case Writer:
		for _, t := range writeTargets(p.Argv) {
			t = strings.TrimPrefix(t, "of=")
			for _, f := range resolve(c.Dir, t) {
				if isDiskDevice(f) {
					return Verdict{Decision: Deny, Class: class, Reason: name + " writes the disk device " + f + " (disk destruction)"}
				}
			}
		}
		if out := g.outsideWrite(c.Dir, p.Argv); out != "" {
			return Verdict{Decision: Ask, Class: class, Reason: name + " changes " + out + ", outside the workspace"}
		}
		return allow(class)
	case Shell:
		if len(p.Via) > 0 {
			// The wrapper starts the system shell, which Warren's
			// interpreter never sees: refused in the sandbox too.
			return Verdict{Decision: Deny, Class: class, Reason: "a shell started through " + strings.Join(p.Via, " ") +
				" runs outside Warren's checks; run its commands directly (or `sh FILE` without the wrapper)"}
		}
		return allow(class)
	case CodeRunner:
		if versionOnly(p.Argv) {
			return allow(class)
		}
		return Verdict{Decision: Ask, Class: class, Reason: name + " runs code it is given (" + class.String() + ")"}
	case Network, Privilege:
		return Verdict{Decision: Ask, Class: class, Reason: name + " is a " + class.String()}
	}
	where := ""
	if c.Path != "" {
		where = " (" + c.Path + ")"
	}
	return Verdict{Decision: Ask, Class: Unknown, Reason: name + where + " is not a program Warren knows"}
}

// rank orders classes by how much they can do, for "stricter wins".
func rank(c Class) int {
	return [...]int{Unknown: 5, ReadOnly: 0, Build: 1, Writer: 2, Network: 4, CodeRunner: 6, Privilege: 7, Shell: 3}[c]
}

// versionOnly is `python3 --version` and the like.
func versionOnly(argv []string) bool {
	if len(argv) != 2 {
		return false
	}
	return slices.Contains([]string{"--version", "-V", "-v", "--help", "-h", "version"}, argv[1])
}

// QuoteArgv renders argv as one shell command line, each word quoted as
// bash reads it back.
func QuoteArgv(argv []string) string {
	var b strings.Builder
	for i, a := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			// A NUL byte cannot reach a program anyway; keep a placeholder.
			q = "'?'"
		}
		b.WriteString(q)
	}
	return b.String()
}

// riskyEnv reports a variable that makes programs load or run other code.
func riskyEnv(env map[string]string) (string, bool) {
	names := make([]string, 0, len(env))
	for k := range env {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		u := strings.ToUpper(k)
		switch {
		case strings.HasPrefix(u, "LD_"), strings.HasPrefix(u, "DYLD_"), strings.HasPrefix(u, "GIT_"),
			u == "BASH_ENV", u == "ENV", u == "PROMPT_COMMAND", u == "SHELLOPTS", u == "BASHOPTS", u == "PS4",
			u == "NODE_OPTIONS", u == "NODE_PATH", u == "PERL5OPT", u == "PERL5LIB", u == "PERLLIB",
			u == "PYTHONSTARTUP", u == "PYTHONPATH", u == "PYTHONHOME", u == "PYTHONINSPECT",
			u == "RUBYOPT", u == "RUBYLIB", u == "LESSOPEN", u == "LESSCLOSE", u == "PAGER", u == "EDITOR",
			u == "VISUAL", u == "MANPAGER", u == "GIT_PAGER", u == "GCONV_PATH",
			u == "MAKEFLAGS", u == "GOFLAGS", u == "CC", u == "CXX", u == "SSH_ASKPASS", u == "SUDO_ASKPASS",
			u == "TAR_OPTIONS", u == "ZIPOPT", u == "UNZIP", u == "GZIP", u == "COMPILER_PATH", u == "GCC_EXEC_PREFIX",
			u == "HOME", u == "XDG_CONFIG_HOME", u == "GOENV", u == "NPM_CONFIG_USERCONFIG", u == "GOPROXY", u == "GOVCS",
			u == "BROWSER", u == "JAVA_TOOL_OPTIONS", u == "_JAVA_OPTIONS", u == "NPM_CONFIG_SCRIPT_SHELL":
			return k, true
		}
	}
	return "", false
}
