package guard

import (
	"cmp"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// awkWrites finds print or printf redirected to a file in an awk program.
var awkWrites = regexp.MustCompile(`\bprintf?\b[^;{}]*>`)

// hooks judges programs whose options or files make them run other
// programs (tar --to-command, git -c core.pager=…, find -delete, sed's e
// command). ok is false when the options decide nothing.
func hooks(g *Guard, c Command, argv []string, class Class) (Verdict, bool) {
	name := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	ask := func(why string) (Verdict, bool) {
		return Verdict{Decision: Ask, Class: class, Reason: name + " " + why}, true
	}
	switch name {
	case "tar", "gtar", "bsdtar":
		for i, a := range argv[1:] {
			if opt, ok := longPrefix(a, "--checkpoint-action", "--to-command", "--use-compress-program", "--rsh-command",
				"--info-script", "--new-volume-script", "--rmt-command", "--index-file"); ok {
				return ask("runs a program through " + opt)
			}
			short := strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--")
			if (short || i == 0 && !strings.HasPrefix(a, "-")) && strings.ContainsAny(a, "IF") {
				// -I PROG, -F SCRIPT; the first word may be old-style (cIf).
				return ask("runs a program through -I or -F")
			}
		}
	case "zip":
		for _, a := range argv[1:] {
			if a == "-TT" || a == "--unzip-command" || strings.HasPrefix(a, "--unzip-command=") {
				return ask("runs a program through -TT (--unzip-command)")
			}
		}
	case "gcc", "g++", "cc", "c++", "clang", "clang++":
		for _, a := range argv[1:] {
			if a == "-wrapper" || strings.HasPrefix(a, "-B") || strings.HasPrefix(a, "-fplugin") || strings.HasPrefix(a, "-specs") ||
				strings.HasPrefix(a, "--specs") || strings.HasPrefix(a, "-wrapper") {
				return ask("runs programs it is pointed at (" + a + ")")
			}
		}
	case "sqlite3":
		sql := 0
		for _, a := range argv[1:] {
			l := strings.ToLower(a)
			if strings.HasPrefix(l, "-cmd") || strings.HasPrefix(l, "-init") || strings.HasPrefix(l, "--cmd") || strings.HasPrefix(l, "--init") {
				return ask("runs commands given with " + a)
			}
			for _, bad := range []string{".shell", ".system", ".load", ".output", ".once", ".import", ".read", ".backup", ".save",
				"readfile(", "writefile(", "load_extension", "edit(", "fts3_tokenizer"} {
				if strings.Contains(l, bad) {
					return ask("runs a program or reaches files from its SQL (" + bad + ")")
				}
			}
			if !strings.HasPrefix(a, "-") {
				sql++
			}
		}
		if sql < 2 {
			// No SQL on the command line: it comes from stdin, dot-commands
			// (.shell) included.
			return ask("reads SQL and dot-commands (.shell) from its input")
		}
	case "find", "fd", "fdfind":
		return findHooks(g, c, argv, class)
	case "sed", "gsed":
		return sedHooks(g, c, argv, class)
	case "git":
		return gitHooks(c, argv, class)
	case "go":
		if len(argv) > 2 && argv[1] == "env" && slices.Contains(argv[2:], "-w") {
			return ask("env -w changes settings every later go command obeys")
		}
		for i, a := range argv[1:] {
			if i == 0 && a == "generate" {
				return ask("generate runs the commands written in //go:generate comments")
			}
			for _, opt := range []string{"-exec", "-toolexec", "-vettool", "--exec", "--toolexec", "--vettool"} {
				if a == opt || strings.HasPrefix(a, opt+"=") {
					return ask("runs a program through " + opt)
				}
			}
		}
	case "npm", "pnpm", "yarn", "pip", "pip3", "uv", "poetry":
		if len(argv) > 1 && (argv[1] == "exec" || argv[1] == "x" || argv[1] == "dlx") {
			return ask(argv[1] + " downloads and runs a package")
		}
		if len(argv) > 2 && (argv[1] == "config" || argv[1] == "set") {
			return ask("changes its configuration, which later runs read (script-shell, registry)")
		}
		for _, a := range argv[1:] {
			if opt, ok := longPrefix(a, "--registry", "--index-url", "--extra-index-url", "--find-links", "--userconfig", "--globalconfig"); ok || a == "-i" || a == "-f" {
				return ask("is pointed at another server or configuration (" + cmp.Or(opt, a) + ")")
			}
		}
	case "rsync":
		for _, a := range argv[1:] {
			if a == "-e" || strings.HasPrefix(a, "--rsh") || strings.HasPrefix(a, "--rsync-path") {
				return ask("runs a program through " + a)
			}
		}
	case "awk", "gawk", "mawk", "nawk":
		fromFile := false
		for i := 1; i < len(argv); i++ {
			a := argv[i]
			if a == "-f" || strings.HasPrefix(a, "--file") || a == "-E" || strings.HasPrefix(a, "--exec") || strings.HasPrefix(a, "-l") {
				// The program file is read and judged like inline text
				// (a #! awk script lands here too); on the host it asks.
				fromFile = true
				if a == "-f" && i+1 < len(argv) {
					i++
					if v, bad := judgeAwk(name, class, readProgram(c.Dir, argv[i])); bad {
						return v, true
					}
				}
				continue
			}
			if v, bad := judgeAwk(name, class, a); bad {
				return v, true
			}
		}
		if fromFile {
			return ask("reads its program from a file, which may run commands")
		}
	case "less", "more", "man":
		for _, a := range argv[1:] {
			if strings.HasPrefix(a, "+") || a == "-P" || strings.HasPrefix(a, "--pager") || strings.HasPrefix(a, "-H") {
				return ask("takes commands from its options")
			}
		}
	}
	return Verdict{}, false
}

// findHooks: -exec and friends are judged as their own commands (the
// static rules unwrap them); -delete without any test that narrows what
// is found deletes a whole tree (rm -rf by another name).
func findHooks(g *Guard, c Command, argv []string, class Class) (Verdict, bool) {
	narrowed, deletes := false, false
	var writes []string
	for i, a := range argv[1:] {
		next := ""
		if i+2 < len(argv) {
			next = argv[i+2]
		}
		switch a {
		case "-delete", "--exec-batch", "-X":
			deletes = deletes || a == "-delete"
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-lname", "-ilname":
			narrowed = narrowed || strings.Trim(next, "*?/") != ""
		case "-regex", "-iregex":
			narrowed = narrowed || strings.Trim(next, ".*^$") != ""
		case "-newer", "-empty", "-size", "-mtime", "-mmin", "-user", "-group", "-perm", "-links", "-inum", "-samefile":
			narrowed = true
		case "-fprint", "-fprint0", "-fprintf", "-fls":
			if i+2 < len(argv) {
				writes = append(writes, argv[i+2])
			}
		}
	}
	if deletes && !narrowed {
		return Verdict{Decision: Deny, Class: class, Reason: "find -delete without a test that narrows what it finds deletes the whole tree (destructive file op)"}, true
	}
	if deletes {
		if out := g.outsideWrite(c.Dir, append([]string{"find"}, findRoots(argv)...)); out != "" {
			return Verdict{Decision: Ask, Class: class, Reason: "find -delete removes files under " + out + ", outside the workspace"}, true
		}
	}
	for _, w := range writes {
		if out := g.outsideWrite(c.Dir, []string{"find", w}); out != "" {
			return Verdict{Decision: Ask, Class: class, Reason: "find writes " + out + ", outside the workspace"}, true
		}
	}
	return Verdict{}, false
}

// findRoots are find's starting points: the words before the first test.
func findRoots(argv []string) []string {
	var out []string
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		out = append(out, a)
	}
	if len(out) == 0 {
		out = []string{"."}
	}
	return out
}

// sedHooks: sed runs commands with its e command and the e flag of s, and
// writes files with w; -i edits the files named. Scripts that cannot be
// read ask.
func sedHooks(g *Guard, c Command, argv []string, class Class) (Verdict, bool) {
	var scripts, files []string
	inPlace := false
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-e" || a == "--expression":
			if i+1 < len(argv) {
				scripts = append(scripts, argv[i+1])
				i++
			}
		case strings.HasPrefix(a, "--expression="):
			scripts = append(scripts, strings.TrimPrefix(a, "--expression="))
		case a == "-f" || a == "--file" || strings.HasPrefix(a, "--file="):
			return Verdict{Decision: Ask, Class: class, Reason: "sed reads its script from a file, which may run commands (e)"}, true
		case a == "-i" || strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--in-place"):
			inPlace = true
		case strings.HasPrefix(a, "-") && len(a) > 1 && !strings.HasPrefix(a, "--"):
			// A cluster: -ni, -ne SCRIPT, -e'SCRIPT', -ne'SCRIPT'.
			flags, glued, hasE := a[1:], "", false
			if j := strings.IndexAny(flags, "ef"); j >= 0 {
				if flags[j] == 'f' {
					return Verdict{Decision: Ask, Class: class, Reason: "sed reads its script from a file, which may run commands (e)"}, true
				}
				flags, glued, hasE = flags[:j], flags[j+1:], true
			}
			if strings.Contains(flags, "i") {
				inPlace = true
			}
			switch {
			case hasE && glued != "":
				scripts = append(scripts, glued)
			case hasE && i+1 < len(argv):
				scripts = append(scripts, argv[i+1])
				i++
			}
		case strings.HasPrefix(a, "--"):
		default:
			if len(scripts) == 0 {
				scripts = append(scripts, a)
			} else {
				files = append(files, a)
			}
		}
	}
	for _, s := range scripts {
		if why := sedRuns(s); why != "" {
			return Verdict{Decision: Ask, Class: class, Reason: "sed " + why}, true
		}
	}
	if inPlace {
		if out := g.outsideWrite(c.Dir, append([]string{"sed"}, files...)); out != "" {
			return Verdict{Decision: Ask, Class: class, Reason: "sed -i changes " + out + ", outside the workspace"}, true
		}
	}
	return Verdict{}, false
}

// sedRuns reads a sed script command by command and says why it may run a
// program or write a file ("" when it does neither).
func sedRuns(script string) string {
	i := 0
	for i < len(script) {
		ch := script[i]
		switch {
		case ch == ';' || ch == '\n' || ch == ' ' || ch == '\t' || ch == '{' || ch == '}' || ch == '!':
			i++
			continue
		case ch >= '0' && ch <= '9' || ch == '$' || ch == ',' || ch == '~' || ch == '+':
			i++
			continue
		case ch == '/' || ch == '\\':
			// An address regex: /re/ or \cREc.
			delim := byte('/')
			if ch == '\\' {
				if i+1 >= len(script) {
					return "has a script it cannot read"
				}
				delim = script[i+1]
				i++
			}
			j, ok := skipDelimited(script, i+1, delim)
			if !ok {
				return "has a script it cannot read"
			}
			i = j
			for i < len(script) && (script[i] == 'I' || script[i] == 'M') {
				i++
			}
			continue
		}
		switch ch {
		case 'e':
			return "runs a command (the e command)"
		case 'w', 'W':
			return "writes a file from its script (the w command)"
		case 's', 'y':
			if i+1 >= len(script) {
				return "has a script it cannot read"
			}
			delim := script[i+1]
			j, ok := skipDelimited(script, i+2, delim)
			if !ok {
				return "has a script it cannot read"
			}
			j, ok = skipDelimited(script, j, delim)
			if !ok {
				return "has a script it cannot read"
			}
			for j < len(script) && !strings.ContainsRune(";\n}", rune(script[j])) {
				if ch == 's' && (script[j] == 'e') {
					return "runs a command (the e flag of s)"
				}
				if ch == 's' && (script[j] == 'w' || script[j] == 'W') {
					return "writes a file from its script (the w flag of s)"
				}
				j++
			}
			i = j
		case 'r', 'R':
			return "reads a file named in its script (the r command)"
		case 'a', 'i', 'c', 'b', 't', 'T', ':', 'l', 'L', 'q', 'Q', 'v':
			// The rest of the line is text, a file to read or a label.
			textual := ch == 'a' || ch == 'i' || ch == 'c' // text runs to the end of the line, ';' included
			for i < len(script) && script[i] != '\n' && (textual || script[i] != ';') {
				i++
			}
		case 'p', 'P', 'd', 'D', 'n', 'N', 'g', 'G', 'h', 'H', 'x', '=', 'z', 'F':
			i++
		default:
			return "has a command it does not know (" + string(ch) + ")"
		}
	}
	return ""
}

// skipDelimited returns the index after the next unescaped delim from i.
func skipDelimited(s string, i int, delim byte) (int, bool) {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case delim:
			return i + 1, true
		case '\n':
			return 0, false
		}
	}
	return 0, false
}

// gitHooks: options that make git run programs, subcommands that run
// commands they are given, and a repository whose hooks or config would
// run programs.
func gitHooks(c Command, argv []string, class Class) (Verdict, bool) {
	ask := func(why string) (Verdict, bool) {
		return Verdict{Decision: Ask, Class: class, Reason: "git " + why}, true
	}
	sub := ""
	repoDirs := []string{c.Dir}
	at := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(c.Dir, p)
	}
	for i := 1; i < len(argv); i++ {
		if i+1 < len(argv) && (argv[i] == "-C" || argv[i] == "--git-dir" || argv[i] == "--work-tree") {
			repoDirs = append(repoDirs, at(argv[i+1]))
		}
		if v, ok := strings.CutPrefix(argv[i], "--git-dir="); ok {
			repoDirs = append(repoDirs, at(v))
		}
		if v, ok := strings.CutPrefix(argv[i], "--work-tree="); ok {
			repoDirs = append(repoDirs, at(v))
		}
	}
	for i := 1; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-c" || a == "--config-env" || strings.HasPrefix(a, "--config-env=") || strings.HasPrefix(a, "-c"):
			return ask("-c changes its configuration for this run, which can make it run programs")
		case a == "--exec-path" || strings.HasPrefix(a, "--exec-path="):
			return ask("--exec-path makes it run other programs")
		case a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			sub = a
			i = len(argv)
		}
	}
	rest := argv[1:]
	for i, a := range rest {
		if a == sub {
			rest = rest[i+1:]
			break
		}
	}
	for _, a := range rest {
		for _, opt := range []string{"--upload-pack", "--receive-pack", "--exec", "-x", "--extcmd", "--tool", "--config", "--template", "--ext-diff", "--textconv"} {
			if a == opt || strings.HasPrefix(a, opt+"=") {
				return ask(sub + " " + opt + " runs a program")
			}
		}
		if strings.HasPrefix(a, "ext::") || strings.Contains(a, "::") && strings.HasPrefix(a, "fd::") {
			return ask("uses a transport that runs a program (" + a + ")")
		}
	}
	switch sub {
	case "config":
		for _, a := range rest {
			if a == "--global" || a == "--system" || a == "--file" || a == "-f" || strings.HasPrefix(a, "--file=") {
				return ask("config " + a + " changes settings outside this repository")
			}
			l := strings.ToLower(a)
			if strings.HasPrefix(l, "alias.") || strings.HasPrefix(l, "core.") || strings.HasPrefix(l, "filter.") ||
				strings.HasPrefix(l, "diff.") || strings.HasPrefix(l, "credential.") || strings.HasPrefix(l, "gpg.") ||
				strings.HasPrefix(l, "sequence.") || strings.HasPrefix(l, "merge.") || strings.HasPrefix(l, "include") ||
				strings.HasPrefix(l, "url.") || strings.HasPrefix(l, "protocol.") || strings.HasPrefix(l, "uploadpack.") ||
				strings.HasPrefix(l, "receive.") || strings.HasPrefix(l, "remote.") && strings.HasSuffix(l, "uploadpack") {
				return ask("config " + a + " can make git run programs later")
			}
		}
	case "submodule":
		if len(rest) > 0 && rest[0] == "foreach" {
			return ask("submodule foreach runs a command in every submodule")
		}
	case "bisect":
		if len(rest) > 0 && rest[0] == "run" {
			return ask("bisect run runs a command")
		}
	case "filter-branch", "difftool", "mergetool", "daemon", "instaweb", "web--browse", "send-email", "p4", "svn", "cvsimport":
		return ask(sub + " runs other programs")
	}
	switch sub {
	case "clone", "fetch", "pull", "push", "ls-remote", "archive", "request-pull":
		return ask(sub + " talks to other machines")
	case "remote":
		if len(rest) > 0 && (rest[0] == "update" || rest[0] == "prune" || rest[0] == "show") {
			return ask("remote " + rest[0] + " talks to other machines")
		}
	}
	for _, d := range repoDirs {
		if why := repoRunsPrograms(d); why != "" {
			return ask(why)
		}
	}
	return Verdict{}, false
}

// repoRunsPrograms looks at the repository around dir: hooks that git runs
// on commit, merge, checkout…, and config keys that make it run programs.
// Agents can write both with ordinary file tools.
func repoRunsPrograms(dir string) string {
	gitDir := ""
	for d := dir; d != ""; {
		p := filepath.Join(d, ".git")
		if fi, err := os.Stat(p); err == nil {
			if !fi.IsDir() {
				// A worktree or submodule: "gitdir: PATH".
				b, err := os.ReadFile(p)
				if err != nil {
					return ""
				}
				gd := strings.TrimSpace(strings.TrimPrefix(string(b), "gitdir:"))
				if !filepath.IsAbs(gd) {
					gd = filepath.Join(d, gd)
				}
				p = gd
			}
			gitDir = p
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if gitDir == "" {
		return ""
	}
	if entries, err := os.ReadDir(filepath.Join(gitDir, "hooks")); err == nil {
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".sample") || e.IsDir() {
				continue
			}
			if fi, err := e.Info(); err == nil && fi.Mode()&0o111 != 0 {
				return "repository has a hook that git runs: " + filepath.Join(gitDir, "hooks", e.Name())
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(gitDir, "config")) //nolint:gosec // read only, to judge what git would do
	if err != nil {
		return ""
	}
	section := ""
	for _, line := range strings.Split(string(b), "\n") {
		l := strings.ToLower(strings.TrimSpace(line))
		if strings.HasPrefix(l, "[") {
			section = l
			continue
		}
		key, val, _ := strings.Cut(l, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch {
		case strings.HasPrefix(section, "[alias") && strings.HasPrefix(val, "!"),
			strings.HasPrefix(section, "[core") && (key == "fsmonitor" || key == "sshcommand" || key == "pager" || key == "editor" ||
				key == "hookspath" || key == "gitproxy" || key == "askpass"),
			strings.HasPrefix(section, "[filter"), strings.HasPrefix(section, "[include"),
			key == "textconv" || key == "external" || key == "program" || key == "helper" || key == "command" ||
				key == "uploadpack" || key == "receivepack" || key == "driver" || key == "cmd" || key == "tool":
			return "repository's config makes git run programs (" + strings.TrimSpace(line) + " in " + section + ")"
		}
	}
	return ""
}

// longPrefix reports a GNU long option (a, maybe with =VALUE) that is an
// abbreviation (six characters at least) of one of opts.
func longPrefix(a string, opts ...string) (string, bool) {
	if !strings.HasPrefix(a, "--") {
		return "", false
	}
	name, _, _ := strings.Cut(a, "=")
	for _, o := range opts {
		if name == o || (len(name) >= 6 && strings.HasPrefix(o, name)) {
			return o, true
		}
	}
	return "", false
}

// awkGetline finds getline reading a file (getline < FILE, getline x < FILE).
var awkGetline = regexp.MustCompile(`\bgetline\b[^;{}|]*<`)

// judgeAwk reads an awk program's text: a command it runs is refused (it
// would run in the system shell), files it reads or writes ask.
func judgeAwk(name string, class Class, prog string) (Verdict, bool) {
	if strings.Contains(prog, "system(") || strings.Contains(prog, "| getline") || strings.Contains(prog, "|&") ||
		strings.Contains(prog, "\"|") || strings.Contains(prog, "| \"") {
		// The command runs in the system shell, which Warren never
		// sees: refused in the sandbox too.
		return Verdict{Decision: Deny, Class: class, Reason: name + " runs a command from its program (system, pipes) in the system shell, " +
			"outside Warren's checks; run the command directly"}, true
	}
	if awkGetline.MatchString(prog) {
		return Verdict{Decision: Ask, Class: class, Reason: name + " reads files named in its program (getline <)"}, true
	}
	if awkWrites.MatchString(prog) {
		return Verdict{Decision: Ask, Class: class, Reason: name + " writes files from its program (print > FILE)"}, true
	}
	return Verdict{}, false
}

// readProgram reads a program file an interpreter is given (at most 1 MiB;
// "" when it cannot be read: the caller asks anyway).
func readProgram(dir, path string) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	f, err := os.Open(path) //nolint:gosec // read to be judged
	if err != nil {
		return ""
	}
	defer func() { _ = f.Close() }()
	b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
	return string(b)
}
