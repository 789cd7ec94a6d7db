package mcpconfig

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Inspection is what an import preview tells a person about one server
// before anything is stored or started.
type Inspection struct {
	// Downloads says why starting the server fetches code from a package
	// registry first (`npx -y …`, `uvx …`); "" when it runs what is here.
	Downloads string
	// Notes are problems the server will meet as written: placeholders
	// only its original client fills in, a command this machine lacks.
	Notes []string
}

// InspectOptions describe the machine Inspect looks at; the zero value
// means this one.
type InspectOptions struct {
	// LookPath finds a command on PATH; exec.LookPath-like. Nil skips the
	// missing-command check.
	LookPath func(string) (string, error)
	// Stat checks a file; os.Stat when nil.
	Stat func(string) (os.FileInfo, error)
}

// Inspect reports whether starting s downloads code and what in s will not
// work as written. It runs nothing.
func Inspect(s Server, opts InspectOptions) Inspection {
	stat := opts.Stat
	if stat == nil {
		stat = os.Stat
	}
	var in Inspection
	if s.Transport == TransportStdio {
		in.Downloads = downloadsOnStart(s.Command, s.Args, s.Cwd, stat)
		if note := missingCommand(s.Command, s.Cwd, opts.LookPath, stat); note != "" {
			in.Notes = append(in.Notes, note)
		}
	}
	in.Notes = append(in.Notes, placeholderNotes(s)...)
	return in
}

// launcherReasons are commands that always fetch the package they run.
var launcherReasons = map[string]string{
	"uvx":  "uvx downloads the Python package %s when it starts",
	"bunx": "bunx downloads the package %s when it starts",
	"pnpx": "pnpx downloads the package %s when it starts",
}

// downloadsOnStart says why command+args fetch code before running, or "".
// It knows the launchers MCP configs use; a wrapper such as `cmd /c npx …`
// is looked through.
func downloadsOnStart(command string, args []string, cwd string, stat func(string) (os.FileInfo, error)) string {
	base := commandBase(command)
	switch base {
	case "cmd":
		// Windows configs wrap launchers: cmd /c npx -y pkg.
		for i, a := range args {
			if strings.EqualFold(a, "/c") && i+1 < len(args) {
				return downloadsOnStart(args[i+1], args[i+2:], cwd, stat)
			}
		}
		return ""
	case "npx":
		return npxDownloads(args, cwd, stat)
	case "npm", "pnpm", "yarn", "bun":
		// npm exec, pnpm dlx, yarn dlx, bun x: the launchers behind npx-style use.
		sub, rest := firstWord(args)
		switch {
		case base == "npm" && (sub == "exec" || sub == "x"):
			return npxDownloads(rest, cwd, stat)
		case (base == "pnpm" || base == "yarn") && sub == "dlx", base == "bun" && sub == "x":
			return fmt.Sprintf("%s %s downloads the package %s when it starts", base, sub, packageArg(rest))
		}
	case "uv":
		if sub, rest := firstWord(args); sub == "tool" {
			if sub2, rest2 := firstWord(rest); sub2 == "run" {
				return fmt.Sprintf("uv tool run downloads the Python package %s when it starts", packageArg(rest2))
			}
		}
	case "pipx":
		if sub, rest := firstWord(args); sub == "run" {
			return fmt.Sprintf("pipx run downloads the Python package %s when it starts", packageArg(rest))
		}
	case "deno":
		for _, a := range args {
			if strings.HasPrefix(a, "https://") || strings.HasPrefix(a, "http://") || strings.HasPrefix(a, "npm:") || strings.HasPrefix(a, "jsr:") {
				return fmt.Sprintf("deno downloads %s when it starts", a)
			}
		}
	default:
		if reason, ok := launcherReasons[base]; ok {
			return fmt.Sprintf(reason, packageArg(args))
		}
	}
	return ""
}

// npxDownloads: npx runs a package installed in the working directory's
// node_modules as is; anything else it fetches (and with no terminal to
// ask, it does not ask). --no-install and --offline forbid fetching.
func npxDownloads(args []string, cwd string, stat func(string) (os.FileInfo, error)) string {
	pkg := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--no-install" || a == "--offline" || a == "--no":
			return ""
		case a == "-p" || a == "--package":
			if i+1 < len(args) && pkg == "" {
				pkg = args[i+1]
			}
			i++
		case strings.HasPrefix(a, "--package="):
			if pkg == "" {
				pkg = strings.TrimPrefix(a, "--package=")
			}
		case a == "--":
			if pkg == "" && i+1 < len(args) {
				pkg = args[i+1]
			}
			i = len(args)
		case strings.HasPrefix(a, "-"):
		default:
			if pkg == "" {
				pkg = a
			}
			i = len(args) // the rest are the package's own arguments
		}
	}
	if pkg == "" {
		return ""
	}
	if cwd != "" {
		if _, err := stat(filepath.Join(cwd, "node_modules", packageName(pkg), "package.json")); err == nil {
			return ""
		}
	}
	return fmt.Sprintf("npx downloads the package %s when it starts", pkg)
}

// packageName strips a version from an npm package spec: @scope/pkg@1.2 → @scope/pkg.
func packageName(spec string) string {
	at := strings.LastIndexByte(spec, '@')
	if at > 0 {
		return spec[:at]
	}
	return spec
}

// packageArg is the first argument that is not a flag: the package a
// launcher runs.
func packageArg(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return "it names"
}

func firstWord(args []string) (string, []string) {
	if len(args) == 0 {
		return "", nil
	}
	return args[0], args[1:]
}

// commandBase is a command's program name without directory or Windows
// suffix: /usr/bin/npx, npx.cmd and C:\nodejs\npx.exe are all "npx".
func commandBase(command string) string {
	b := strings.ToLower(filepath.Base(strings.ReplaceAll(command, `\`, "/")))
	for _, ext := range []string{".cmd", ".exe", ".bat", ".ps1"} {
		b = strings.TrimSuffix(b, ext)
	}
	return b
}

// missingCommand says when the command is not on this machine, or "".
func missingCommand(command, cwd string, lookPath func(string) (string, error), stat func(string) (os.FileInfo, error)) string {
	if lookPath == nil || command == "" || strings.Contains(command, "${") {
		return "" // placeholders are reported on their own
	}
	if strings.ContainsAny(command, `/\`) {
		path := command
		if !filepath.IsAbs(path) && cwd != "" {
			path = filepath.Join(cwd, path)
		}
		if _, err := stat(path); err != nil {
			return fmt.Sprintf("the command %s does not exist on this machine", command)
		}
		return ""
	}
	if _, err := lookPath(command); err != nil {
		return fmt.Sprintf("the command %s is not installed here (not found on PATH)", command)
	}
	return ""
}

// clientPlaceholder matches what Claude Desktop, Cursor and VS Code fill in
// before starting a server, and Warren does not: ${HOME}, ${env:HOME},
// ${workspaceFolder}, ${userHome}… (${input:…} has its own note in Parse).
var clientPlaceholder = regexp.MustCompile(`\$\{(env:[A-Za-z_][A-Za-z0-9_]*|[A-Za-z_][A-Za-z0-9_]*)\}`)

// placeholderNotes lists the fields with client placeholders, one note each.
func placeholderNotes(s Server) []string {
	var notes []string
	check := func(field, v string) {
		var found []string
		for _, m := range clientPlaceholder.FindAllString(v, -1) {
			if !slices.Contains(found, m) {
				found = append(found, m)
			}
		}
		if len(found) > 0 {
			notes = append(notes, fmt.Sprintf("%s has %s, which Warren keeps as written (it does not fill in placeholders): replace it with the real value after import", field, strings.Join(found, ", ")))
		}
	}
	eachField(s, check)
	return notes
}
