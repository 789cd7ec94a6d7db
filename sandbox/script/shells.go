package script

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/warren-dev/warren/policy/guard"
)

// isShell reports whether a command name or path names a shell, whose
// scripts Warren runs itself.
func isShell(name string) bool { return guard.ClassOf(name) == guard.Shell }

// shellScript reports whether path is a script a shell would run, and
// which shell (guard.ScriptShell). Installed scripts (ldd, zgrep under
// /usr) are programs like any other: only scripts someone could have
// written since are run here.
func shellScript(path string) (string, bool) {
	if systemProgram(path) {
		return "", false // an installed program, judged by its name like a binary
	}
	return guard.ScriptShell(path)
}

// shellFile runs a shell script file with args as $1…
func (s *session) shellFile(ctx context.Context, hc interp.HandlerContext, path, sh string, args []string, depth int) error {
	if err := s.guard.Open(ctx, hc.Dir, path, os.O_RDONLY); err != nil {
		fmt.Fprintf(hc.Stderr, "warren: refused to read %s: %v\n", path, err)
		return s.refuse(&Refused{What: path, Reason: err.Error()})
	}
	src, err := os.ReadFile(path) //nolint:gosec // judged by the guard above
	if err != nil {
		fmt.Fprintf(hc.Stderr, "%s: %v\n", path, err)
		return interp.ExitStatus(126)
	}
	return s.nestedSource(ctx, hc, sh, src, path, nil, args, depth)
}

// nestedShell runs `sh [options] [-c STRING [NAME [ARGS…]] | FILE [ARGS…]]`
// in this interpreter; with neither, the script is read from stdin.
func (s *session) nestedShell(ctx context.Context, hc interp.HandlerContext, args []string, depth int) error {
	var (
		opts             []string
		command, file    string
		haveCmd, fromStd bool
		rest             []string
	)
	i := 1
	for ; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || a == "-":
			i++
			goto operands
		case a == "-c":
			haveCmd = true
		case a == "-s":
			fromStd = true
		case a == "-o" || a == "+o" || a == "-O" || a == "+O":
			if i+1 >= len(args) {
				return s.badShell(hc, args, "option "+a+" needs a name")
			}
			if a == "-o" || a == "+o" {
				opts = append(opts, a, args[i+1])
			}
			i++
		case strings.HasPrefix(a, "--"):
			switch a {
			case "--norc", "--noprofile", "--posix", "--login", "--noediting", "--restricted":
			default:
				return s.badShell(hc, args, "unsupported option "+a)
			}
		case (strings.HasPrefix(a, "-") || strings.HasPrefix(a, "+")) && len(a) > 1:
			for _, r := range a[1:] {
				switch r {
				case 'c':
					haveCmd = true
				case 's', 'i':
					fromStd = true
				case 'l', 'r', 'p':
				case 'e', 'u', 'x', 'v', 'f', 'n', 'a', 'C', 'b', 'h', 'm', 'B', 'E', 'H', 'T', 'k', 't':
					opts = append(opts, string(a[0])+string(r))
				default:
					return s.badShell(hc, args, "unsupported option "+string(a[0])+string(r))
				}
			}
		default:
			goto operands
		}
	}
operands:
	ops := args[min(i, len(args)):]
	var src []byte
	name := args[0]
	switch {
	case haveCmd:
		if len(ops) == 0 {
			return s.badShell(hc, args, "-c needs a command string")
		}
		command, ops = ops[0], ops[1:]
		if len(ops) > 0 {
			name, ops = ops[0], ops[1:] // $0, then $1…
		}
		src = []byte(command)
		rest = ops
	case len(ops) > 0 && !fromStd:
		file, rest = ops[0], ops[1:]
		p := file
		if !filepath.IsAbs(p) {
			p = filepath.Join(hc.Dir, p)
		}
		if err := s.guard.Open(ctx, hc.Dir, p, os.O_RDONLY); err != nil {
			fmt.Fprintf(hc.Stderr, "warren: refused to read %s: %v\n", p, err)
			return s.refuse(&Refused{What: p, Reason: err.Error()})
		}
		b, err := os.ReadFile(p) //nolint:gosec // judged by the guard above
		if err != nil {
			fmt.Fprintf(hc.Stderr, "%s: %s: %v\n", args[0], file, err)
			return interp.ExitStatus(127)
		}
		src, name = b, file
	default:
		// The script comes from stdin: curl … | sh, sh < x, bash -s.
		b, err := readAll(hc.Stdin, maxStdinScript)
		if err != nil {
			fmt.Fprintf(hc.Stderr, "%s: %v\n", args[0], err)
			return interp.ExitStatus(2)
		}
		src, rest = b, ops
	}
	return s.nestedSource(ctx, hc, args[0], src, name, opts, rest, depth)
}

func (s *session) badShell(hc interp.HandlerContext, args []string, why string) error {
	fmt.Fprintf(hc.Stderr, "warren: %s: %s (Warren runs shell scripts itself)\n", args[0], why)
	return s.refuse(&Refused{What: guard.QuoteArgv(args), Reason: why})
}

// nestedSource parses src as the named shell would and runs it here.
func (s *session) nestedSource(ctx context.Context, hc interp.HandlerContext, sh string, src []byte, name string, opts, args []string, depth int) error {
	variant := syntax.LangBash
	if b := filepath.Base(sh); b == "sh" || b == "dash" || b == "ash" || b == "posh" {
		variant = syntax.LangPOSIX
	}
	if sg, ok := s.guard.(SourceGuard); ok {
		if err := sg.Source(ctx, name, src); err != nil {
			fmt.Fprintf(hc.Stderr, "warren: refused to run %s: %v\n", name, err)
			return s.refuse(&Refused{What: name, Reason: err.Error()})
		}
	}
	// sh and dash reject bash syntax; so does this parse (a script with
	// bash syntax under #!/bin/sh fails the way it would there).
	file, err := syntax.NewParser(syntax.Variant(variant)).Parse(bufio.NewReader(bytes.NewReader(src)), name)
	if err != nil {
		fmt.Fprintf(hc.Stderr, "%s: %v\n", name, err)
		return interp.ExitStatus(2)
	}
	params := append(opts, "--")
	params = append(params, args...)
	code, err := s.run(ctx, file, runIn{
		dir: hc.Dir, env: environ(hc.Env), params: params,
		stdin: hc.Stdin, stdout: hc.Stdout, stderr: hc.Stderr, depth: depth + 1,
	})
	if err != nil {
		return err
	}
	if code == 0 {
		return nil // ExitStatus(0) is an error to the interpreter
	}
	return interp.ExitStatus(uint8(code)) //nolint:gosec // exit codes are 0-255
}
