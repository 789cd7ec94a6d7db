package script

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/interp"
)

// xargs runs in the interpreter, not as a program: the system's xargs would
// start the commands it builds itself, with words from its input that the
// guard never sees (`… | xargs rm` with "-rf" on stdin). Here every command
// it builds goes through exec, so each is judged with its real arguments.
//
// It supports the options agents use (GNU and busybox spellings); anything
// else fails with a clear message instead of running differently.

// maxXargsInput bounds what xargs reads from its input.
const maxXargsInput = 16 << 20

type xargsOpts struct {
	delim    byte // 0 with null; '\n' with -d '\n'; quoted words when !split
	split    bool // delim given (-0, -d): items are split on it, no quoting
	maxArgs  int  // -n
	maxLines int  // -L
	replace  string
	noEmpty  bool
	verbose  bool
	eof      string
	argFile  string
	command  []string
}

// parseXargs reads xargs' options; the rest is the command.
func parseXargs(args []string) (xargsOpts, error) {
	o := xargsOpts{}
	num := func(opt, v string) (int, error) {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return 0, fmt.Errorf("xargs: %s needs a positive number, not %q", opt, v)
		}
		return n, nil
	}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			break
		}
		// value returns the option's value: attached (-n2, --max-args=2)
		// or the next word.
		value := func(attached string) (string, error) {
			if attached != "" {
				return attached, nil
			}
			if i+1 >= len(args) {
				return "", fmt.Errorf("xargs: %s needs a value", a)
			}
			i++
			return args[i], nil
		}
		name, attached := a, ""
		if strings.HasPrefix(a, "--") {
			if k, v, ok := strings.Cut(a, "="); ok {
				name, attached = k, v
			}
		} else if len(a) > 2 {
			name, attached = a[:2], a[2:]
		}
		var err error
		switch name {
		case "-0", "--null":
			if attached != "" && !strings.HasPrefix(a, "--") {
				// -0r: flags bundled after -0.
				args[i] = "-" + attached
				i--
			}
			o.delim, o.split = 0, true
		case "-d", "--delimiter":
			var v string
			if v, err = value(attached); err == nil {
				o.delim, err = xargsDelim(v)
				o.split = true
			}
		case "-n", "--max-args":
			var v string
			if v, err = value(attached); err == nil {
				o.maxArgs, err = num(name, v)
			}
		case "-L", "--max-lines":
			var v string
			if v, err = value(attached); err == nil {
				o.maxLines, err = num(name, v)
			}
		case "-l":
			o.maxLines = 1
			if attached != "" {
				o.maxLines, err = num(name, attached)
			}
		case "-I":
			o.replace, err = value(attached)
		case "-i", "--replace":
			o.replace = "{}"
			if attached != "" {
				o.replace = attached
			}
		case "-E", "--eof":
			o.eof, err = value(attached)
		case "-e":
			o.eof = attached
		case "-a", "--arg-file":
			o.argFile, err = value(attached)
		case "-P", "--max-procs", "-s", "--max-chars":
			// Accepted; commands run one after another.
			_, err = value(attached)
		case "-r", "--no-run-if-empty", "-t", "--verbose", "-x", "--exit":
			if name == "-t" || name == "--verbose" {
				o.verbose = true
			}
			if name == "-r" || name == "--no-run-if-empty" {
				o.noEmpty = true
			}
			if attached != "" && !strings.HasPrefix(a, "--") {
				args[i] = "-" + attached // -rt, -r0 …
				i--
			}
		default:
			return o, fmt.Errorf("xargs: option %s is not supported by Warren's xargs (supported: -0 -d -n -L -I -i -r -t -x -E -a -P -s)", a)
		}
		if err != nil {
			return o, err
		}
	}
	o.command = args[i:]
	if len(o.command) == 0 {
		o.command = []string{"echo"}
	}
	if o.replace != "" {
		o.maxLines = 1 // -I implies one input line per command
	}
	return o, nil
}

func xargsDelim(v string) (byte, error) {
	switch v {
	case `\n`:
		return '\n', nil
	case `\t`:
		return '\t', nil
	case `\0`:
		return 0, nil
	}
	if len(v) != 1 {
		return 0, fmt.Errorf("xargs: the delimiter must be one character, not %q", v)
	}
	return v[0], nil
}

// xargsItems splits input into items and groups them into lines (for -L):
// each element of the result is one input line's items.
func xargsItems(o xargsOpts, input []byte) ([][]string, error) {
	if o.split {
		parts := bytes.Split(input, []byte{o.delim})
		if len(parts) > 0 && len(parts[len(parts)-1]) == 0 {
			parts = parts[:len(parts)-1]
		}
		out := make([][]string, 0, len(parts))
		for _, p := range parts {
			out = append(out, []string{string(p)})
		}
		return out, nil
	}
	var lines [][]string
	sc := bufio.NewScanner(bytes.NewReader(input))
	sc.Buffer(make([]byte, 64<<10), maxXargsInput)
	for sc.Scan() {
		line := sc.Text()
		if o.replace != "" {
			// -I: the whole line is one item, leading blanks dropped.
			if t := strings.TrimLeft(line, " \t"); t != "" {
				if o.eof != "" && t == o.eof {
					break
				}
				lines = append(lines, []string{t})
			}
			continue
		}
		words, err := xargsWords(line)
		if err != nil {
			return nil, err
		}
		for j, w := range words {
			if o.eof != "" && w == o.eof {
				if j > 0 {
					lines = append(lines, words[:j])
				}
				return lines, nil
			}
		}
		if len(words) > 0 {
			lines = append(lines, words)
		}
	}
	return lines, sc.Err()
}

// xargsWords splits a line as xargs does: blanks separate, quotes and
// backslashes protect.
func xargsWords(line string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\' && i+1 < len(line):
			i++
			cur.WriteByte(line[i])
			inWord = true
		case c == '\'' || c == '"':
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				return nil, fmt.Errorf("xargs: unmatched %c quote; by default quotes are special to xargs unless you use -0 or -d", c)
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == ' ' || c == '\t':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out, nil
}

// xargsCommands builds the command lines to run.
func xargsCommands(o xargsOpts, lines [][]string) [][]string {
	var out [][]string
	if o.replace != "" {
		for _, l := range lines {
			argv := make([]string, len(o.command))
			for k, w := range o.command {
				argv[k] = strings.ReplaceAll(w, o.replace, l[0])
			}
			out = append(out, argv)
		}
		return out
	}
	var batch []string
	nLines := 0
	flush := func() {
		if len(batch) > 0 {
			out = append(out, append(append([]string(nil), o.command...), batch...))
			batch, nLines = nil, 0
		}
	}
	for _, l := range lines {
		for _, w := range l {
			batch = append(batch, w)
			if o.maxArgs > 0 && len(batch) == o.maxArgs {
				flush()
			}
		}
		nLines++
		if o.maxLines > 0 && nLines >= o.maxLines {
			flush()
		}
	}
	flush()
	if len(out) == 0 && !o.noEmpty && o.replace == "" {
		// GNU xargs runs the command once with no input words.
		out = append(out, append([]string(nil), o.command...))
	}
	return out
}

// xargs runs `xargs …` (args[0] is xargs): every command it builds goes
// through execIn and the guard.
func (s *session) xargs(ctx context.Context, hc interp.HandlerContext, args []string, depth int) error {
	o, err := parseXargs(append([]string(nil), args[1:]...))
	if err != nil {
		fmt.Fprintln(hc.Stderr, err)
		return interp.ExitStatus(1)
	}
	in := hc.Stdin
	if o.argFile != "" {
		if err := s.guard.Open(ctx, hc.Dir, o.argFile, os.O_RDONLY); err != nil {
			fmt.Fprintf(hc.Stderr, "warren: refused to open %s: %v\n", o.argFile, err)
			return s.refuse(&Refused{What: o.argFile, Reason: err.Error()})
		}
		p := o.argFile
		if !filepath.IsAbs(p) {
			p = filepath.Join(hc.Dir, p)
		}
		f, err := os.Open(p) //nolint:gosec // judged by the guard just above
		if err != nil {
			fmt.Fprintf(hc.Stderr, "xargs: %v\n", err)
			return interp.ExitStatus(1)
		}
		defer func() { _ = f.Close() }()
		in = f
	}
	input, err := readAll(in, maxXargsInput)
	if err != nil {
		fmt.Fprintf(hc.Stderr, "xargs: reading the input: %v\n", err)
		return interp.ExitStatus(1)
	}
	lines, err := xargsItems(o, input)
	if err != nil {
		fmt.Fprintln(hc.Stderr, err)
		return interp.ExitStatus(1)
	}
	// The commands get an empty stdin, as with GNU xargs.
	null, err := os.Open(os.DevNull)
	if err != nil {
		return err
	}
	defer func() { _ = null.Close() }()
	sub := hc
	sub.Stdin = null
	status := 0
	for _, argv := range xargsCommands(o, lines) {
		if o.verbose {
			fmt.Fprintln(hc.Stderr, strings.Join(argv, " "))
		}
		err := s.execIn(ctx, sub, argv, depth)
		var st interp.ExitStatus
		switch {
		case err == nil:
		case errors.As(err, &st):
			switch {
			case st == 255:
				fmt.Fprintf(hc.Stderr, "xargs: %s: exited with status 255; aborting\n", argv[0])
				return interp.ExitStatus(124)
			case st == 126 || st == 127:
				return st
			case st > 128:
				return interp.ExitStatus(125)
			default:
				status = 123
			}
		default:
			return err // refused, or the context ended
		}
	}
	if status != 0 {
		return interp.ExitStatus(uint8(status)) //nolint:gosec // 123
	}
	return nil
}

// isXargs reports whether argv runs xargs (also as busybox's applet).
func isXargs(argv []string) (rest []string, ok bool) {
	switch filepath.Base(argv[0]) {
	case "xargs":
		return argv, true
	case "busybox":
		if len(argv) > 1 && argv[1] == "xargs" {
			return argv[1:], true
		}
	}
	return nil, false
}
