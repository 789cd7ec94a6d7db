package shell

import (
	"slices"
	"strings"
)

// wrapSpec describes a program that runs another command given as its
// operands (nice, timeout, …).
type wrapSpec struct {
	opts   optSpec
	skip   int      // operands before the command (timeout's duration, taskset's mask)
	noExec []string // options after which nothing is run (a pid is given instead)
	shell  bool     // with no command it starts an interactive shell
}

// simpleWrapper returns the spec of wrappers that need no special handling.
func simpleWrapper(base string) (wrapSpec, bool) {
	switch base {
	case "nice":
		return wrapSpec{opts: optSpec{short: "n", long: []string{"adjustment"}}}, true
	case "nohup", "setsid", "unbuffer", "builtin", "firejail":
		return wrapSpec{}, true
	case "timeout":
		return wrapSpec{opts: optSpec{short: "sk", long: []string{"signal", "kill-after"}}, skip: 1}, true
	case "stdbuf":
		return wrapSpec{opts: optSpec{short: "ioe", long: []string{"input", "output", "error"}}}, true
	case "ionice":
		return wrapSpec{opts: optSpec{short: "cnpPu", long: []string{"class", "classdata", "pid", "pgid", "uid"}},
			noExec: []string{"p", "P", "u", "pid", "pgid", "uid"}}, true
	case "chrt":
		return wrapSpec{opts: optSpec{short: "TPD"}, skip: 1, noExec: []string{"p", "pid"}}, true
	case "taskset":
		return wrapSpec{skip: 1, noExec: []string{"p", "pid"}}, true
	case "time":
		return wrapSpec{opts: optSpec{short: "fo", long: []string{"format", "output"}}}, true
	case "command":
		return wrapSpec{noExec: []string{"v", "V"}}, true
	case "strace", "ltrace":
		return wrapSpec{opts: optSpec{short: "eopsuEaIOPSXnlFxb"}, noExec: []string{"p"}}, true
	case "caffeinate":
		return wrapSpec{opts: optSpec{short: "tw"}}, true
	case "chroot":
		return wrapSpec{skip: 1, shell: true}, true
	case "unshare":
		return wrapSpec{opts: optSpec{short: "SGRwt"}, shell: true}, true
	case "pkexec":
		return wrapSpec{opts: optSpec{long: []string{"user"}}}, true
	case "run0":
		return wrapSpec{opts: optSpec{short: "ugD", long: []string{"user", "group", "nice", "chdir", "setenv", "unit",
			"property", "slice", "description", "machine"}}, shell: true}, true
	case "gosu", "su-exec":
		return wrapSpec{skip: 1}, true
	}
	return wrapSpec{}, false
}

// privileged names wrappers that run the command as another user.
func privileged(base string) bool {
	switch base {
	case "sudo", "doas", "su", "runuser", "pkexec", "run0", "gosu", "su-exec":
		return true
	}
	return false
}

// unwrap handles wrappers; ok is false when base is not one.
func (s *scope) unwrap(base string, argv []field, in inv) (stage, bool) {
	a := texts(argv)
	if privileged(base) {
		s.find(Ask, PrivilegeEscalation, a, in, "runs a command as another user with "+base)
	}
	if spec, ok := simpleWrapper(base); ok {
		p := parseOpts(argv, spec.opts)
		if p.has(spec.noExec...) {
			s.record(argv, in)
			return stage{}, true
		}
		i := p.next
		if i < len(argv) && spec.skip > 0 && (base != "chrt" || isNumber(argv[i].s)) {
			i += spec.skip
		}
		if i >= len(argv) && spec.shell {
			return s.interactive(base, argv, in), true
		}
		return s.inner(base, argv, i, in), true
	}
	switch base {
	case "env":
		p := parseOpts(argv, optSpec{short: "uCSP", long: []string{"unset", "chdir", "split-string"}})
		i := s.envAssigns(argv, p.next, in)
		if v, ok := p.val("S", "split-string"); ok {
			s.record(argv, in)
			code := joinFields(append([]field{v}, argv[i:]...))
			code.s = v.s + " " + quoteFields(argv[i:])
			s.code(code, "env -S", false, a, in)
			return stage{}, true
		}
		return s.inner(base, argv, i, in), true
	case "sudo":
		p := parseOpts(argv, optSpec{short: "ugCDhprtTUR", long: []string{"user", "group", "close-from", "chdir",
			"host", "prompt", "role", "type", "command-timeout", "other-user", "chroot"}})
		i := s.envAssigns(argv, p.next, in)
		if p.has("e", "edit", "l", "list", "v", "validate", "k", "K") {
			s.record(argv, in)
			return stage{}, true
		}
		if i >= len(argv) && p.has("s", "shell", "i", "login") {
			return s.interactive(base, argv, in), true
		}
		return s.inner(base, argv, i, in), true
	case "doas":
		p := parseOpts(argv, optSpec{short: "uC"})
		if p.has("s") || p.has("C") || p.next >= len(argv) {
			if p.has("C") {
				s.record(argv, in)
				return stage{}, true
			}
			return s.interactive(base, argv, in), true
		}
		return s.inner(base, argv, p.next, in), true
	case "su", "runuser":
		// util-linux permutes options, so -c may follow the user name.
		var cmd *field
		for i := 1; i < len(argv); i++ {
			f := argv[i]
			switch {
			case (f.s == "-c" || f.s == "--command") && i+1 < len(argv):
				cmd = &argv[i+1]
			case strings.HasPrefix(f.s, "--command="):
				v := withText(f, strings.TrimPrefix(f.s, "--command="))
				cmd = &v
			}
		}
		if cmd != nil {
			s.record(argv, in)
			return s.code(*cmd, base+" -c", false, a, in), true
		}
		if p := parseOpts(argv, optSpec{short: "ugGsw"}); base == "runuser" && p.has("u") {
			return s.inner(base, argv, p.next, in), true
		}
		return s.interactive(base, argv, in), true
	case "exec":
		p := parseOpts(argv, optSpec{short: "a"})
		if p.next >= len(argv) {
			return stage{}, true // only redirections: nothing runs
		}
		return s.inner(base, argv, p.next, in), true
	case "busybox", "toybox":
		if len(argv) > 1 && argv[1].known && !strings.HasPrefix(argv[1].s, "-") {
			return s.inner(base, argv, 1, in), true
		}
		s.record(argv, in)
		return stage{}, true
	case "xargs":
		return s.xargs(argv, in), true
	case "watch":
		p := parseOpts(argv, optSpec{short: "nq", long: []string{"interval"}})
		if p.has("x", "exec") || p.next >= len(argv) {
			return s.inner(base, argv, p.next, in), true
		}
		s.record(argv, in)
		return s.code(joinFields(argv[p.next:]), "watch", false, a, in), true
	case "script":
		p := parseOpts(argv, optSpec{short: "cEIOTBm", long: []string{"command", "echo", "log-in", "log-out", "log-io", "log-timing", "logging-format"}})
		if v, ok := p.val("c", "command"); ok {
			s.record(argv, in)
			return s.code(v, "script -c", false, a, in), true
		}
		return s.interactive(base, argv, in), true
	case "flock":
		p := parseOpts(argv, optSpec{short: "wEc", long: []string{"timeout", "conflict-exit-code", "command"}})
		i := p.next + 1 // the lock file
		if v, ok := p.val("c", "command"); ok {
			s.record(argv, in)
			return s.code(v, "flock -c", false, a, in), true
		}
		if i+1 < len(argv) && (argv[i].s == "-c" || argv[i].s == "--command") {
			s.record(argv, in)
			return s.code(argv[i+1], "flock -c", false, a, in), true
		}
		return s.inner(base, argv, i, in), true
	case "cmd":
		for i := 1; i < len(argv); i++ {
			if l := strings.ToLower(argv[i].s); l == "/c" || l == "/k" || l == "/r" {
				// cmd.exe re-splits the rest of its command line.
				var words []field
				for _, f := range argv[i+1:] {
					if !f.known {
						words = append(words, f)
						continue
					}
					for _, w := range strings.Fields(f.s) {
						words = append(words, withText(f, w))
					}
				}
				return s.inner(base, append(argv[:1:1], words...), 1, in), true
			}
		}
		return s.interactive(base, argv, in), true
	}
	return stage{}, false
}

// inner runs argv[i:] as the wrapped command.
func (s *scope) inner(name string, argv []field, i int, in inv) stage {
	if i >= len(argv) {
		s.record(argv, in)
		return stage{argv: texts(argv)}
	}
	return s.run(argv[i:], in.wrapped(name))
}

// interactive is a wrapper that starts a shell reading commands from stdin.
func (s *scope) interactive(name string, argv []field, in inv) stage {
	s.record(argv, in)
	return stage{in: fStdinCode | fStdinShell, runner: name, argv: texts(argv)}
}

// envAssigns skips NAME=VALUE words (env, sudo), flagging loader variables.
func (s *scope) envAssigns(argv []field, i int, in inv) int {
	for ; i < len(argv) && argv[i].known && strings.Contains(argv[i].s, "="); i++ {
		if name, _, _ := strings.Cut(argv[i].s, "="); loaderEnv(name) {
			s.find(Ask, OpaqueCode, texts(argv), in, "sets "+name+", which makes programs load other code")
		}
	}
	return i
}

// xargs runs its command with words from stdin appended (or substituted).
func (s *scope) xargs(argv []field, in inv) stage {
	p := parseOpts(argv, optSpec{short: "adEILnPs", long: []string{"arg-file", "delimiter", "eof", "replace",
		"max-lines", "max-args", "max-procs", "max-chars", "process-slot-var"}})
	cmd := slices.Clone(argv[p.next:])
	if len(cmd) == 0 {
		cmd = []field{lit("echo")}
	}
	if !p.has("I", "i", "replace") {
		cmd = append(cmd, field{s: "$(stdin)", operand: true})
	}
	in = in.wrapped("xargs")
	in.stdinArgs = true
	return s.run(cmd, in)
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
