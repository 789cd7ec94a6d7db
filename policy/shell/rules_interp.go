package shell

import (
	"slices"
	"strings"
)

// interpSpec describes an interpreter's options.
type interpSpec struct {
	code     string   // short options whose value is inline code (python -c)
	arg      string   // short options that take a value
	rest     string   // short options whose value is the rest of the word only (perl -i.bak)
	stop     string   // options after which no script or stdin is read (python -m, -V)
	codeLong []string // long options whose value is inline code (node --eval)
	argLong  []string // long options that take a value
}

// interpFamily maps an interpreter name (python3.12, nodejs) to its family.
func interpFamily(base string) string {
	switch strings.TrimRight(base, "0123456789.-") {
	case "python", "pypy":
		return "python"
	case "perl":
		return "perl"
	case "ruby", "jruby", "truffleruby":
		return "ruby"
	case "node", "nodejs", "bun":
		return "node"
	case "php":
		return "php"
	case "lua", "luajit":
		return "lua"
	case "rscript", "r":
		return "r"
	case "osascript":
		return "osascript"
	case "pwsh", "powershell":
		return "pwsh"
	case "awk", "gawk", "mawk", "nawk":
		return "awk"
	}
	return ""
}

func specFor(fam string) interpSpec {
	switch fam {
	case "python":
		return interpSpec{code: "c", arg: "mWX", stop: "mVh", argLong: []string{"check-hash-based-pycs"}}
	case "perl":
		return interpSpec{code: "eE", rest: "iIMmxl0FCdD", stop: "vV"}
	case "ruby":
		return interpSpec{code: "e", arg: "rICEF", stop: "vh"}
	case "node":
		return interpSpec{code: "ep", arg: "r", stop: "vhc", codeLong: []string{"eval", "print"},
			argLong: []string{"require", "import", "loader", "conditions"}}
	case "php":
		return interpSpec{code: "rBRE", arg: "cdzft", stop: "vhilmSs"}
	case "lua":
		return interpSpec{code: "e", arg: "l", stop: "v"}
	case "r":
		return interpSpec{code: "e"}
	case "osascript":
		return interpSpec{code: "e", arg: "ls"}
	}
	return interpSpec{}
}

// interp handles other languages: inline code is Ask, a script file runs,
// and with no script the code comes from stdin.
func (s *scope) interp(fam, base string, argv []field, in inv, st *stage) {
	spec, a := specFor(fam), texts(argv)
	stopped, inlined := false, false
	i := 1
	for ; i < len(argv); i++ {
		f := argv[i]
		v := f.s
		if !f.known || f.operand || len(v) < 2 || v[0] != '-' {
			break
		}
		if v == "--" {
			i++
			break
		}
		if name, val, eq := strings.Cut(strings.TrimPrefix(v, "--"), "="); strings.HasPrefix(v, "--") {
			isCode := slices.Contains(spec.codeLong, name)
			stopped = stopped || name == "version" || name == "help" || name == "check"
			if !eq && (isCode || slices.Contains(spec.argLong, name)) && i+1 < len(argv) {
				i++
				val, f = argv[i].s, argv[i]
			}
			if isCode {
				inlined = true
				s.inline(withText(f, val), base+" --"+name, a, in)
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			c := v[j]
			stopped = stopped || strings.IndexByte(spec.stop, c) >= 0
			code := strings.IndexByte(spec.code, c) >= 0
			if !code && strings.IndexByte(spec.arg, c) < 0 {
				if strings.IndexByte(spec.rest, c) >= 0 {
					break
				}
				continue
			}
			val := withText(f, v[j+1:])
			if j+1 == len(v) && i+1 < len(argv) {
				i++
				val = argv[i]
			}
			if code {
				inlined = true
				s.inline(val, base+" -"+string(c), a, in)
			} else if fam == "php" && c == 'f' {
				s.script(val, base, false, false, a, in)
				stopped = true
			}
			break
		}
	}
	switch {
	case inlined || stopped:
	case i >= len(argv) || isStdinPath(argv[i].s):
		st.in |= fStdinCode
		st.runner, st.argv = base, a
	default:
		s.script(argv[i], base, false, false, a, in)
	}
}

// deno runs remote modules directly: deno run https://… is remote code execution.
func (s *scope) deno(argv []field, in inv) {
	ops := operands(argv, 1)
	if len(ops) < 2 {
		return
	}
	a := texts(argv)
	switch ops[0].s {
	case "eval":
		s.inline(ops[1], "deno eval", a, in)
	case "run", "install", "x":
		for _, f := range ops[1:] {
			if strings.HasPrefix(f.s, "http://") || strings.HasPrefix(f.s, "https://") {
				s.find(Deny, RemoteCodeExec, a, in, "deno "+ops[0].s+" executes a remote script")
				return
			}
		}
	}
}

// awk programs are usually harmless text processing; they are Ask only when
// they run commands, and Deny when they open gawk network sockets.
func (s *scope) awk(base string, argv []field, in inv) {
	p := parseOpts(argv, optSpec{short: "fvFeilE", long: []string{"file", "assign", "field-separator", "source", "include", "load", "exec"}})
	var progs []field
	if v, ok := p.val("e", "source"); ok {
		progs = append(progs, v)
	}
	if !p.has("f", "file", "E", "exec") && len(progs) == 0 && p.next < len(argv) {
		progs = append(progs, argv[p.next])
	}
	a := texts(argv)
	for _, prog := range progs {
		switch {
		case s.taintedCode(prog, base, a, in):
		case strings.Contains(prog.s, "/inet/"):
			s.find(Deny, ReverseShell, a, in, base+" program opens a network connection (/inet/)")
		case !prog.known:
			s.find(Ask, OpaqueCode, a, in, base+" program is only known at run time")
		case awkRunsCommands(prog.s):
			s.find(Ask, OpaqueCode, a, in, base+" program runs commands (system or pipes)")
		}
	}
}

func awkRunsCommands(p string) bool {
	if strings.Contains(p, "system") {
		return true
	}
	p = strings.ReplaceAll(p, "||", "")
	return strings.Contains(p, "|")
}

// pwsh: -EncodedCommand hides code (Deny); -Command is inline code (Ask).
func (s *scope) pwsh(base string, argv []field, in inv, st *stage) {
	a := texts(argv)
	for i := 1; i < len(argv); i++ {
		l := strings.ToLower(argv[i].s)
		name := strings.TrimLeft(l, "-/")
		switch {
		case !strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "/"):
			if !strings.HasSuffix(l, ".ps1") {
				s.inline(joinFields(argv[i:]), base, a, in)
			}
			return
		case name == "e" || name == "ec" || (len(name) > 1 && strings.HasPrefix("encodedcommand", name)):
			s.find(Deny, EvalInjection, a, in, base+" "+argv[i].s+" runs base64-encoded code")
			return
		case name != "" && strings.HasPrefix("command", name):
			if code := joinFields(argv[min(i+1, len(argv)):]); code.s == "-" {
				st.in |= fStdinCode
				st.runner, st.argv = base, a
			} else {
				s.inline(code, base+" "+argv[i].s, a, in)
			}
			return
		case name != "" && strings.HasPrefix("file", name):
			return
		case strings.HasPrefix("executionpolicy", name) && len(name) > 1, name == "w" || strings.HasPrefix("windowstyle", name),
			strings.HasPrefix("workingdirectory", name) || name == "wd", name == "v" || strings.HasPrefix("version", name),
			strings.HasPrefix("outputformat", name) && len(name) > 0 && name[0] == 'o',
			strings.HasPrefix("inputformat", name) && len(name) > 0 && name[0] == 'i',
			strings.HasPrefix("configurationname", name) && len(name) > 2,
			strings.HasPrefix("settingsfile", name) && len(name) > 1:
			i++
		}
	}
}

// reverseShellCode spots the classic one-line reverse shells in inline
// code: a socket plus a way to run a shell or duplicate descriptors.
func reverseShellCode(code string) bool {
	c := strings.ToLower(code)
	net := false
	for _, k := range []string{"socket", "fsockopen", "/dev/tcp/", "/dev/udp/", "/inet/", "net.connect",
		"createconnection", "require('net')", `require("net")`, "tcpclient", "io::socket"} {
		net = net || strings.Contains(c, k)
	}
	if !net {
		return false
	}
	for _, k := range []string{"/bin/sh", "/bin/bash", "cmd.exe", "pty", "dup2", "subprocess", "child_process",
		"proc_open", "popen", "exec", "spawn", "system(", "shell_exec", "passthru"} {
		if strings.Contains(c, k) {
			return true
		}
	}
	return false
}
