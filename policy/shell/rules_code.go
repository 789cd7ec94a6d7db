package shell

import (
	"strings"
)

// rules applies the per-program rules to an unwrapped command.
func (s *scope) rules(base string, argv []field, in inv, st *stage) {
	a := texts(argv)
	switch base {
	case "rm":
		s.rm(argv, in)
	case "del", "erase", "rmdir", "rd", "remove-item", "ri":
		s.winDelete(base, argv, in)
	case "find":
		s.findCmd(argv, in)
	case "shutdown", "reboot", "poweroff", "halt", "init", "telinit", "systemctl", "loginctl", "kill", "killall5":
		s.system(base, argv, in)
	case "eval":
		st.absorb(s.evalCode(joinFields(argv[1:]), a, in))
	case "source", ".":
		s.sourceCmd(argv, in, st)
	case "trap":
		ops := operands(argv, 1)
		if len(ops) >= 2 { // trap CODE SIGNAL…; one operand resets a signal
			s.code(ops[0], "trap", true, a, in)
		}
	case "alias":
		for _, f := range argv[1:] {
			if name, val, ok := strings.Cut(f.s, "="); ok && !strings.HasPrefix(f.s, "-") {
				s.code(withText(f, val), "alias "+name, true, a, in)
				if s.aliases == nil {
					s.aliases = map[string]field{}
				}
				s.aliases[name] = withText(f, val)
			}
		}
	case "echo", "printf", "cat":
		s.output(base, argv, in, st)
	case "base64", "base32", "basenc", "xxd", "uudecode", "openssl":
		s.decoder(base, argv, st)
	case "nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "socat", "telnet":
		s.network(base, argv, in, st)
	case "tee":
		for _, f := range operands(argv, 1) {
			s.wrote(f, false, "", false, in.c.up)
		}
	case "deno":
		s.deno(argv, in)
	}
	s.disk(base, argv, in)
	switch fam := interpFamily(base); {
	case isShell(base):
		s.shell(base, argv, in, st)
	case fam == "awk":
		s.awk(base, argv, in)
	case fam == "pwsh":
		s.pwsh(base, argv, in, st)
	case fam != "":
		s.interp(fam, base, argv, in, st)
	case isDownloader(base):
		st.out |= fDownload
		s.downloads(base, argv)
	}
}

// isShell matches POSIX-like shells whose code this package can analyse.
func isShell(base string) bool {
	switch strings.TrimRight(base, "0123456789.") {
	case "sh", "bash", "zsh", "dash", "ksh", "mksh", "pdksh", "oksh", "loksh", "ash", "hush", "fish",
		"csh", "tcsh", "yash", "posh", "rbash", "busybox-sh":
		return true
	}
	return false
}

// shell handles sh -c CODE, sh FILE and a shell reading stdin.
func (s *scope) shell(base string, argv []field, in inv, st *stage) {
	a := texts(argv)
	hasC, stdin := false, false
	i := 1
	for ; i < len(argv); i++ {
		f := argv[i]
		v := f.s
		if !f.known || f.operand || len(v) < 2 || (v[0] != '-' && v[0] != '+') {
			break
		}
		if v == "--" {
			i++
			break
		}
		if strings.HasPrefix(v, "--") {
			name, val, eq := strings.Cut(v[2:], "=")
			switch {
			case name == "command": // fish
				code := withText(f, val)
				if !eq && i+1 < len(argv) {
					i++
					code = argv[i]
				}
				st.absorb(s.code(code, base+" --command", false, a, in))
				return
			case (name == "rcfile" || name == "init-file") && !eq:
				i++
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			switch v[j] {
			case 'c':
				hasC = true
			case 's':
				stdin = true
			case 'o', 'O':
				if j == len(v)-1 {
					i++ // -o pipefail
				}
				j = len(v)
			}
		}
	}
	switch {
	case hasC:
		if i < len(argv) {
			st.absorb(s.code(argv[i], base+" -c", false, a, in))
		}
	case stdin || i >= len(argv) || isStdinPath(argv[i].s):
		st.in |= fStdinCode | fStdinShell
		st.runner, st.argv = base, a
	default:
		s.script(argv[i], base, true, false, a, in)
	}
}

func isStdinPath(p string) bool {
	switch cleanPath(p) {
	case "-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0":
		return true
	}
	return false
}

// sourceCmd judges `source FILE` / `. FILE`: the file runs in this shell
// and is not read here, so it is Ask unless the script wrote it.
func (s *scope) sourceCmd(argv []field, in inv, st *stage) {
	ops := operands(argv, 1)
	if len(ops) == 0 {
		return
	}
	a, f, runner := texts(argv), ops[0], argv[0].s
	switch {
	case isStdinPath(f.s):
		st.in |= fStdinCode | fStdinShell
		st.runner, st.argv = runner, a
	case s.script(f, runner, true, true, a, in):
	default:
		s.find(Ask, OpaqueCode, a, in, runner+" runs "+f.s+" in this shell; its content is not analysed")
	}
}
