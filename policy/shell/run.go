package shell

import (
	"path"
	"strings"
)

// inv is how a command is invoked.
type inv struct {
	c         ctx
	r         redirs
	via       []string // wrappers stripped so far, outermost first
	stdinArgs bool     // xargs appends words read from stdin
}

func (in inv) wrapped(name string) inv {
	in.via = append(in.via[:len(in.via):len(in.via)], name)
	return in
}

// run judges one simple command: unwrap wrappers, call functions, apply rules.
func (s *scope) run(argv []field, in inv) stage {
	if len(argv) == 0 || !s.a.step() {
		return stage{}
	}
	name := argv[0]
	if !name.known || name.glob {
		s.record(argv, in)
		s.dynamicName(argv, in)
		return stage{out: name.sub & taint, argv: texts(argv)}
	}
	base := commandBase(name.s)
	if v, ok := s.aliases[name.s]; ok && len(in.via) == 0 && !s.expanding[name.s] {
		s.record(argv, in)
		return s.alias(v, argv, in)
	}
	var st stage
	recorded := false
	// Functions shadow commands, but only for direct calls: env, sudo,
	// xargs… exec a program. The command rules still apply below, which is
	// stricter when a definition might not be in effect.
	if fi := s.funcs[name.s]; fi != nil && len(in.via) == 0 {
		s.record(argv, in)
		recorded = true
		st = s.callFunc(name.s, fi, in.c)
	}
	if wst, ok := s.unwrap(base, argv, in); ok {
		return st.then(wst)
	}
	if !recorded {
		s.record(argv, in)
	}
	cmd := stage{argv: texts(argv)}
	for _, f := range argv[1:] {
		cmd.out |= f.sub & taint
		if f.sub&fSinkCode != 0 { // tee >(sh): stdin ends up executed
			cmd.in |= fStdinCode
			cmd.runner = "a >(…) process substitution"
		}
	}
	s.rules(base, argv, in, &cmd)
	if n := len(argv); in.stdinArgs && n > 2 && argv[n-1].operand && strings.HasPrefix(argv[n-2].s, "-") &&
		(isShell(base) || interpFamily(base) != "") {
		// xargs sh -c / xargs python -c: the code itself comes from stdin.
		cmd.in |= fStdinCode
		cmd.runner, cmd.argv = "xargs "+base, texts(argv)
	}
	if strings.ContainsRune(name.s, '/') {
		s.ranFile(name, "", true, false, cmd.argv, in) // ./install.sh after curl -o install.sh
	}
	if recorded {
		return st.then(cmd)
	}
	return cmd
}

// dynamicName judges a command whose name is only known at run time.
func (s *scope) dynamicName(argv []field, in inv) {
	a, name := texts(argv), argv[0]
	switch {
	case name.sub&(fDownload|fNetwork) != 0:
		s.find(Deny, RemoteCodeExec, a, in, "command comes from downloaded content")
	case name.sub&fDecode != 0:
		s.find(Deny, EvalInjection, a, in, "command comes from decoded text")
	case name.known:
		s.find(Ask, Unanalysable, a, in, "command name is a glob pattern ("+name.s+")")
	default:
		s.find(Ask, Unanalysable, a, in, "command name is only known at run time ("+name.s+")")
	}
}

// commandBase is the program name as matched by rules: no directory, lower
// case (macOS file systems are case-insensitive, so RM is rm), no .exe.
func commandBase(name string) string {
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	return strings.TrimSuffix(strings.ToLower(name), ".exe")
}

// code judges text that a shell parses and runs: same is true when it runs
// in the current shell (eval, trap, alias) rather than a new one (sh -c).
// The result says whether the code reads commands from its stdin.
func (s *scope) code(f field, what string, same bool, argv []string, in inv) stage {
	var st stage
	switch {
	case f.known && same:
		st = s.same(f.s, what, in.c)
	case f.known:
		st = s.a.child(f.s, what, ctx{})
	case s.taintedCode(f, what, argv, in):
	default:
		s.find(Ask, Unanalysable, argv, in, what+" runs text only known at run time ("+short(f.s)+")")
		// Best effort: judge the text with its expansions left in place,
		// so sh -c "rm -rf $DIR" is still denied.
		st = s.a.child(s.source(f), what, ctx{})
	}
	return stdinOf(st)
}

// stdinOf keeps what a nested script does with the stdin it inherits.
func stdinOf(st stage) stage {
	return stage{in: st.in & (fStdinCode | fStdinShell | fNetSink), runner: st.runner, argv: st.argv}
}

// alias expands a call to an alias in the current shell; aliases are also
// judged when defined, but the arguments matter too (alias x=rm; x -rf y).
func (s *scope) alias(v field, argv []field, in inv) stage {
	name := argv[0].s
	if s.expanding == nil {
		s.expanding = map[string]bool{}
	}
	s.expanding[name] = true
	defer delete(s.expanding, name)
	code := joinFields(append([]field{v}, argv[1:]...))
	code.s = v.s + " " + quoteFields(argv[1:])
	return s.code(code, "alias "+name, true, texts(argv), in)
}

// evalCode judges eval's arguments, which run in the current shell.
func (s *scope) evalCode(f field, argv []string, in inv) stage {
	if f.known {
		return stdinOf(s.same(f.s, "eval", in.c))
	}
	switch {
	case s.taintedCode(f, "eval", argv, in):
	case f.partial:
		s.find(Ask, Unanalysable, argv, in, "eval of text too large to analyse")
	default:
		s.find(Deny, EvalInjection, argv, in, "eval of text only known at run time ("+short(f.s)+")")
	}
	return stage{}
}

// taintedCode denies code that comes from a download or a decoder.
func (s *scope) taintedCode(f field, what string, argv []string, in inv) bool {
	switch {
	case f.sub&(fDownload|fNetwork) != 0:
		s.find(Deny, RemoteCodeExec, argv, in, what+" runs downloaded code")
	case f.sub&fDecode != 0:
		s.find(Deny, EvalInjection, argv, in, what+" runs decoded text")
	default:
		return false
	}
	return true
}

// inline judges code for another language (python -c, perl -e): unreadable
// here, so Ask — unless it is plainly a reverse shell or fetched/decoded.
func (s *scope) inline(f field, what string, argv []string, in inv) {
	switch {
	case s.taintedCode(f, what, argv, in):
	case reverseShellCode(f.s):
		s.find(Deny, ReverseShell, argv, in, what+" opens a network socket and runs a shell")
	default:
		s.find(Ask, OpaqueCode, argv, in, what+" runs inline code that is not analysed")
	}
}

// script judges a script file given to an interpreter (bash x.sh, sh < x)
// and reports whether it found something. Running a local script is like
// running ./x.sh: allowed, unless this script wrote or downloaded it, or it
// arrives through a process substitution or a network connection.
func (s *scope) script(f field, runner string, shellCode, same bool, argv []string, in inv) bool {
	switch {
	case f.sub&(fDownload|fNetwork) != 0:
		s.find(Deny, RemoteCodeExec, argv, in, runner+" runs a script that is downloaded as it runs")
	case f.sub&fDecode != 0:
		s.find(Deny, EvalInjection, argv, in, runner+" runs a script made of decoded text")
	case isNetDev(f.s):
		s.find(Deny, ReverseShell, argv, in, runner+" reads a script from a network connection")
	case !f.known && strings.HasPrefix(f.s, "<("):
		s.find(Ask, OpaqueCode, argv, in, runner+" runs a script produced by a process substitution")
	case strings.HasPrefix(cleanPath(f.s), "/dev/fd/") || strings.HasPrefix(cleanPath(f.s), "/proc/"):
		s.find(Ask, OpaqueCode, argv, in, runner+" reads a script from a file descriptor")
	default:
		return f.known && s.ranFile(f, runner, shellCode, same, argv, in)
	}
	return true
}

// ranFile judges running a file this script wrote; false if it did not.
func (s *scope) ranFile(f field, runner string, shellCode, same bool, argv []string, in inv) bool {
	fi, ok := s.files[path.Base(f.s)]
	if !ok {
		return false
	}
	what := strings.TrimPrefix(runner+" "+f.s, " ")
	switch {
	case fi.taint&(fDownload|fNetwork) != 0:
		s.find(Deny, RemoteCodeExec, argv, in, "runs "+f.s+", which this script downloaded")
	case fi.taint&fDecode != 0:
		s.find(Deny, EvalInjection, argv, in, "runs "+f.s+", which this script wrote from decoded text")
	case !shellCode:
	case fi.known && same:
		s.same(fi.text, what, in.c)
	case fi.known:
		s.a.child(fi.text, what, ctx{})
	default:
		s.find(Ask, Unanalysable, argv, in, "runs "+f.s+", which this script wrote with content only known at run time")
	}
	return true
}

// wrote records what a statement wrote to a file.
func (s *scope) wrote(f field, appendTo bool, text string, known bool, t flags) {
	if !f.known {
		return
	}
	base := path.Base(f.s)
	if prev, ok := s.files[base]; ok && appendTo {
		text, known, t = prev.text+text, prev.known && known, prev.taint|t
	}
	s.files[base] = fileInfo{text: text, known: known, taint: t}
}

// short trims text quoted in reasons.
func short(s string) string {
	if len(s) > 60 {
		return strings.ToValidUTF8(s[:60], "") + "…"
	}
	return s
}
