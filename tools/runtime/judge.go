package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/policy/guard"
	"github.com/warren-dev/warren/sandbox/script"
	"github.com/warren-dev/warren/tools"
)

// hostJudge is the guard of a script run on the host: the fail-closed
// policy, with a person (or a stored "always") deciding what it asks.
func (s *Shell) hostJudge(ctx context.Context, tool, ws string) script.Judge {
	cc := tools.CallContextFrom(ctx)
	return script.Judge{
		Policy: guard.New(guard.Options{Mode: guard.Host, Workspace: ws, DataDir: s.d.DataDir}),
		Ask: func(ctx context.Context, q script.Question) error {
			req := questionRequest(tool, q)
			req.Agent, req.Session, req.CallID = cc.Agent, cc.SandboxKey, cc.CallID
			out, err := s.d.Approvals.Decide(ctx, req)
			if err != nil {
				return fmt.Errorf("approval failed: %w", err)
			}
			if !out.Allowed {
				return fmt.Errorf("not approved (%s): %s", out.By, out.Reason)
			}
			return nil
		},
	}
}

// questionRequest turns a question of the policy into an approval request.
// Its one command, which "always" stores, binds everything that changes
// what runs: the variables the script set, the argv, the files on the
// program's streams and the content of every file it names (the script a
// `python3 x.py` runs, a program in the workspace). Anything different
// asks again.
func questionRequest(tool string, q script.Question) approvals.Request {
	reason := q.Verdict.Reason
	if q.Verdict.SandboxRuns {
		reason += ". Run it in the sandbox instead: there it runs without asking (turn the agent's sandbox on)"
	}
	if q.Exec == nil {
		p := q.Path
		if !filepath.IsAbs(p) {
			p = filepath.Join(q.Dir, p)
		}
		verb := "read"
		if q.Write {
			verb = "write"
		}
		return approvals.Request{Tool: tool, Summary: verb + " " + p, Reason: reason, Cwd: q.Dir, Commands: [][]string{{verb, p}}}
	}
	e := q.Exec
	bound := binding(e)
	return approvals.Request{Tool: tool, Summary: strings.Join(display(bound), " "), Reason: reason, Cwd: e.Dir, Commands: [][]string{bound}}
}

// binding is the command as "always" remembers it.
func binding(e *script.Exec) []string {
	var out []string
	keys := make([]string, 0, len(e.Changed))
	for k := range e.Changed {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		out = append(out, k+"="+e.Changed[k])
	}
	out = append(out, e.Argv...)
	for i, op := range []string{"<", ">", "2>"} {
		if e.Redirects[i] != "" {
			out = append(out, op+e.Redirects[i])
		}
	}
	files := []string{e.Path}
	for _, a := range e.Argv[1:] {
		if !strings.HasPrefix(a, "-") {
			files = append(files, a)
		}
	}
	for _, f := range files {
		if f == "" {
			continue
		}
		p := f
		if !filepath.IsAbs(p) {
			p = filepath.Join(e.Dir, p)
		}
		if sum, ok := contentHash(p); ok {
			out = append(out, "#sha256:"+sum+":"+f)
		}
	}
	return out
}

// display drops the content hashes from a binding for people.
func display(bound []string) []string {
	out := make([]string, 0, len(bound))
	for _, w := range bound {
		if !strings.HasPrefix(w, "#sha256:") {
			out = append(out, w)
		}
	}
	return out
}

// maxHashed bounds the files whose content an approval is bound to.
const maxHashed = 256 << 20

// contentHash hashes a regular file (a script, a program) by its content.
func contentHash(p string) (string, bool) {
	f, err := os.Open(p) //nolint:gosec // a file the command names; only hashed
	if err != nil {
		return "", false
	}
	defer func() { _ = f.Close() }()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxHashed {
		return "", false
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", false
	}
	return hex.EncodeToString(h.Sum(nil))[:32], true
}
