package shell

import (
	"fmt"
	"strings"
)

// Verdict is the decision on a script; later values are stricter, so the
// overall verdict is the maximum over all findings.
type Verdict uint8

const (
	// Allow lets the script run without asking.
	Allow Verdict = iota
	// Ask needs a human (or a stored approval) before the script runs.
	Ask
	// Deny blocks the script; no approval can override it.
	Deny
)

// String returns "allow", "ask" or "deny".
func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

// Category says why a finding was raised. The first seven are the seed's deny
// categories; the rest explain Ask verdicts.
type Category uint8

const (
	// DestructiveFileOp is a forced recursive delete (rm -rf, del /f, rd /s).
	DestructiveFileOp Category = iota + 1
	// DiskDestruction writes to or formats a block device (mkfs, dd of=/dev/sda).
	DiskDestruction
	// SystemControl shuts down, reboots or halts the machine.
	SystemControl
	// ForkBomb is a function that recursively spawns itself in the background.
	ForkBomb
	// RemoteCodeExec runs code fetched from the network (curl | sh).
	RemoteCodeExec
	// ReverseShell hands a shell to a network peer (/dev/tcp, nc -e).
	ReverseShell
	// EvalInjection runs text the analyser cannot see: decoded, or built at run time.
	EvalInjection
	// PrivilegeEscalation runs a command as another user (sudo, doas, su); Ask.
	PrivilegeEscalation
	// OpaqueCode runs code in a form the analyser cannot read (python -c, source FILE); Ask.
	OpaqueCode
	// Unanalysable means the analyser cannot tell what would run; Ask.
	Unanalysable
)

// String returns a short lower-case label for dialogs and logs.
func (c Category) String() string {
	switch c {
	case DestructiveFileOp:
		return "destructive file op"
	case DiskDestruction:
		return "disk destruction"
	case SystemControl:
		return "system control"
	case ForkBomb:
		return "fork bomb"
	case RemoteCodeExec:
		return "remote code exec"
	case ReverseShell:
		return "reverse shell"
	case EvalInjection:
		return "eval injection"
	case PrivilegeEscalation:
		return "privilege escalation"
	case OpaqueCode:
		return "opaque code"
	case Unanalysable:
		return "unanalysable"
	}
	return fmt.Sprintf("Category(%d)", uint8(c))
}

// Finding is one reason for an Ask or Deny verdict.
type Finding struct {
	Category Category
	Verdict  Verdict
	Argv     []string // the normalised command concerned, when there is one
	Reason   string   // readable, e.g. "rm with -r and -f (recursive forced delete) via env"
}

// Command is one simple command that would run, after unwrapping wrappers.
type Command struct {
	// Argv is normalised: quotes removed, wrappers stripped, unknown parts
	// shown as stable placeholders ($VAR, $(…), $((…)), <(…), $(stdin)).
	Argv []string
	// Literal is true when every word was written literally (no expansion),
	// so Argv is exactly what the program receives.
	Literal bool
	// Via lists the wrappers stripped to reach Argv, outermost first
	// (e.g. ["sudo", "env"]); approvals must not ignore them.
	Via []string
}

// Analysis is the result of Analyze.
type Analysis struct {
	Verdict  Verdict   // the maximum of the findings' verdicts; Allow when none
	Findings []Finding // in the order they were found
	Commands []Command // every simple command that would run, in order
}

// Summary is a one-line explanation for UIs and approval dialogs, e.g.
// "blocked: destructive file op: rm with -r and -f (recursive forced delete): rm -rf /tmp/x".
func (a Analysis) Summary() string {
	if a.Verdict == Allow {
		if len(a.Commands) == 0 {
			return "allowed: no commands"
		}
		parts := make([]string, 0, 3)
		for i, c := range a.Commands {
			if i == 3 {
				parts = append(parts, fmt.Sprintf("+%d more", len(a.Commands)-3))
				break
			}
			parts = append(parts, DisplayArgv(c.Argv))
		}
		return "allowed: " + strings.Join(parts, "; ")
	}
	word := "needs approval"
	if a.Verdict == Deny {
		word = "blocked"
	}
	var first *Finding
	more := 0
	for i := range a.Findings {
		if a.Findings[i].Verdict != a.Verdict {
			continue
		}
		if first == nil {
			first = &a.Findings[i]
		} else {
			more++
		}
	}
	if first == nil {
		return word
	}
	s := word + ": " + first.Category.String() + ": " + first.Reason
	if len(first.Argv) > 0 {
		s += ": " + DisplayArgv(first.Argv)
	}
	if more > 0 {
		s += fmt.Sprintf(" (+%d more)", more)
	}
	return s
}

// DisplayArgv joins argv for display, quoting words with blanks and
// shortening long results so dialogs stay readable.
func DisplayArgv(argv []string) string {
	const limit = 160
	var b strings.Builder
	for i, w := range argv {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w == "" || strings.ContainsAny(w, " \t\n'\"") {
			b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
		} else {
			b.WriteString(w)
		}
		if b.Len() > limit {
			break
		}
	}
	s := b.String()
	if len(s) > limit {
		s = strings.ToValidUTF8(s[:limit], "") + "…"
	}
	return s
}
