package credexec

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/secrets"
	"github.com/warren-dev/warren/backend/store"
	"github.com/warren-dev/warren/sandbox"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/scrub"
)

func TestCredentialedExec(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := store.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	box, err := secrets.Open(secrets.Options{DataDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	st := NewStore(db.SQL(), box)
	// A fake "gh" that prints its arguments and the injected token.
	bin := t.TempDir()
	gh := filepath.Join(bin, "gh")
	if err := os.WriteFile(gh, []byte("#!/bin/sh\necho \"args=$*\"\necho \"token=$GH_TOKEN\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	spoof := filepath.Join(ws, "gh")
	if err := os.WriteFile(spoof, []byte("#!/bin/sh\necho pwned\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	preset := Presets["gh"]
	preset.Path, preset.Env = gh, map[string]string{"GH_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"}
	if err := st.Save(ctx, preset); err != nil {
		t.Fatal(err)
	}
	var raw string
	_ = db.SQL().QueryRowContext(ctx, "SELECT encrypted_env FROM secure_cli_binaries").Scan(&raw)
	if strings.Contains(raw, "ghp_") {
		t.Fatal("credential stored in plain text")
	}
	sc := scrub.New()
	lookups := map[string]string{"gh": gh}
	mk := func() *tools.Registry {
		tool, err := New(Deps{Store: st, Workspace: ws, Host: &sandbox.Host{}, Secret: sc.AddValues,
			LookPath: func(n string) (string, error) {
				if p, ok := lookups[n]; ok {
					return p, nil
				}
				return "", os.ErrNotExist
			}})
		if err != nil {
			t.Fatal(err)
		}
		r := tools.NewRegistry(tools.Options{Scrubber: sc})
		_ = r.Register(tool)
		return r
	}
	r := mk()
	call := func(cmd string) tools.Result {
		args, _ := json.Marshal(map[string]string{"command": cmd})
		res, err := r.ExecuteWithContext(ctx, tools.Call{Name: "credentialed_exec", Args: args})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := call(`gh issue list --repo "owner/my repo"`)
	if res.IsError || !strings.Contains(res.ForLLM, "args=issue list --repo owner/my repo") {
		t.Fatalf("run: %+v", res)
	}
	if strings.Contains(res.ForLLM, "ghp_abc") || !strings.Contains(res.ForLLM, "token=[REDACTED]") {
		t.Fatalf("credential not injected or not scrubbed:\n%s", res.ForLLM)
	}
	for cmd, code := range map[string]tools.ErrorCode{
		"gh issue list; rm x":       tools.CodeSecurity,
		"gh api $(cat /etc/passwd)": tools.CodeSecurity,
		"gh api x | sh":             tools.CodeSecurity,
		"gh api x > out":            tools.CodeSecurity,
		"gh api `id`":               tools.CodeSecurity,
		"gh api $HOME":              tools.CodeValidation,
		"gh auth token":             tools.CodeSecurity,
		"gh api x --verbose":        tools.CodeSecurity,
		"./gh issue list":           tools.CodeSecurity,
		"aws s3 ls":                 tools.CodeNotFound,
		"GH_TOKEN=x gh api":         tools.CodeValidation,
		"gh 'unterminated":          tools.CodeValidation,
	} {
		if res := call(cmd); res.Code() != code {
			t.Errorf("%q: code %q, want %q (%s)", cmd, res.Code(), code, res.ForLLM)
		}
	}
	// The name now resolves to a look-alike: refused as spoofing.
	lookups["gh"] = spoof
	if res := call("gh issue list"); res.Code() != tools.CodeSecurity || !strings.Contains(res.ForLLM, "spoofed") {
		t.Fatalf("spoof: %+v", res)
	}
	list, err := st.List(ctx)
	if err != nil || len(list) != 1 || list[0].Env != nil || list[0].EnvKeys[0] != "GH_TOKEN" {
		t.Fatalf("list: %+v %v", list, err)
	}
	if err := st.Save(ctx, Binary{Name: "../gh", Path: gh}); err == nil {
		t.Fatal("bad name accepted")
	}
	if err := st.Save(ctx, Binary{Name: "gh", Path: "gh"}); err == nil {
		t.Fatal("relative path accepted")
	}
	if err := st.Delete(ctx, "gh"); err != nil {
		t.Fatal(err)
	}
}
