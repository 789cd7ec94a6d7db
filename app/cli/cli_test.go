package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/app/cli"
)

type run struct {
	code           int
	stdout, stderr string
}

func warren(t *testing.T, dataDir string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	code := cli.Run(context.Background(), cli.Env{Stdout: &out, Stderr: &errb, DataDir: dataDir}, args)
	return run{code, out.String(), errb.String()}
}

type toolRow struct {
	Name, Group, Description, Danger string
	Allowed                          bool
	Reason                           string
}

func inventory(t *testing.T, dataDir string, args ...string) map[string]toolRow {
	t.Helper()
	r := warren(t, dataDir, append([]string{"tools", "--json"}, args...)...)
	if r.code != 0 {
		t.Fatalf("tools --json: %d %s", r.code, r.stderr)
	}
	var rows []toolRow
	if err := json.Unmarshal([]byte(r.stdout), &rows); err != nil {
		t.Fatalf("tools --json output: %v\n%s", err, r.stdout)
	}
	m := map[string]toolRow{}
	for _, row := range rows {
		m[row.Name] = row
	}
	return m
}

func TestToolsInventory(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	inv := inventory(t, dir)
	want := []string{"read_file", "write_file", "edit", "list_files", "search", "glob", "delete_file",
		"get_file_info", "datetime", "current_time", "get_env", "session_status", "workspace_dir", "exec", "process", "credentialed_exec", "cron", "sessions_list", "sessions_history", "sessions_send", "message", "tool_search", "team_tasks", "team_message", "memory_search", "memory_get", "search_documents", "search_history", "search_system_knowledge", "skill_search", "use_skill", "publish_skill", "knowledge_graph_search", "web_fetch", "web_search", "url_fetch", "browser",
		"read_document", "read_image", "read_audio", "read_video", "create_image", "create_audio", "create_video", "tts", "openai_compat_call"}
	for _, name := range want {
		row, ok := inv[name]
		if !ok {
			t.Fatalf("inventory lacks %s", name)
		}
		if row.Group == "" || row.Description == "" || row.Danger == "" {
			t.Fatalf("incomplete row %+v", row)
		}
	}
	if len(inv) != len(want) {
		t.Fatalf("inventory has %d tools, want exactly the %d that work", len(inv), len(want))
	}
	if inv["delete_file"].Danger != "dangerous" || inv["read_file"].Danger != "safe" {
		t.Fatalf("danger levels: %+v %+v", inv["delete_file"], inv["read_file"])
	}
	min := inventory(t, dir, "--profile", "minimal")
	if min["read_file"].Allowed || !min["session_status"].Allowed || !strings.Contains(min["read_file"].Reason, "minimal") {
		t.Fatalf("minimal profile: read_file=%+v session_status=%+v", min["read_file"], min["session_status"])
	}
	text := warren(t, dir, "tools")
	if text.code != 0 || !strings.Contains(text.stdout, "read_file") || !strings.Contains(text.stdout, "allowed under profile coding") {
		t.Fatalf("tools text output: %+v", text)
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cases := [][]string{
		{"tools", "--profile", "bogus"},
		{"tools", "--agent", "nobody"},
		{"tools", "extra"},
		{"tools", "--nope"},
		{"tool"},
		{"tool", "run", "x"},
		{"tool", "call"},
		{"tool", "call", "read_file", "{not json"},
		{"policy"},
		{"policy", "explain"},
		{"policy", "explain", "no_such_tool"},
		{"policy", "profile", "bogus"},
		{"frobnicate"},
		{"version", "x"},
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			r := warren(t, dir, args...)
			if r.code != cli.ExitUsage || r.stderr == "" {
				t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
			}
		})
	}
}

func TestToolCall(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("hello\nworld\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	type out struct {
		Status  string `json:"status"`
		ForLLM  string `json:"for_llm"`
		ForUser string `json:"for_user"`
		Error   *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	cases := []struct {
		name string
		args []string
		code int
		want string // substring of for_llm, or the error code
	}{
		{"read", []string{"read_file", `{"path":"notes.txt"}`}, 0, "world"},
		{"traversal", []string{"read_file", `{"path":"../../etc/passwd"}`}, 1, "SecurityError"},
		{"absolute outside", []string{"read_file", `{"path":"/etc/passwd"}`}, 1, "SecurityError"},
		{"missing", []string{"read_file", `{"path":"nope.txt"}`}, 1, "NotFound"},
		{"validation", []string{"read_file", `{}`}, 1, "ValidationError"},
		{"unknown tool", []string{"frob", `{}`}, 1, "NotFound"},
		{"secret scrubbed", []string{"write_file", `{"path":"k.txt","content":"OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwxyz123456"}`}, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"tool", "call"}, c.args...)
			args = append(args, "--workspace", ws, "--json")
			r := warren(t, dir, args...)
			if r.code != c.code {
				t.Fatalf("exit %d, want %d: %s %s", r.code, c.code, r.stdout, r.stderr)
			}
			var o out
			if err := json.Unmarshal([]byte(r.stdout), &o); err != nil {
				t.Fatalf("json: %v\n%s", err, r.stdout)
			}
			if c.code == 0 && (o.Status != "success" || !strings.Contains(o.ForLLM, c.want)) {
				t.Fatalf("got %+v", o)
			}
			if c.code == 1 && (o.Status != "error" || o.Error == nil || o.Error.Code != c.want) {
				t.Fatalf("got %+v", o)
			}
		})
	}
	// The secret written above comes back redacted through read_file.
	r := warren(t, dir, "tool", "call", "read_file", `{"path":"k.txt"}`, "--workspace", ws)
	if r.code != 0 || strings.Contains(r.stdout, "sk-abcdefghij") || !strings.Contains(r.stdout, "[REDACTED]") {
		t.Fatalf("secret not scrubbed: %+v", r)
	}
	// Policy is enforced on calls: under minimal, read_file is denied.
	if r := warren(t, dir, "policy", "profile", "minimal"); r.code != 0 {
		t.Fatalf("set profile: %+v", r)
	}
	r = warren(t, dir, "tool", "call", "read_file", `{"path":"notes.txt"}`, "--workspace", ws)
	if r.code != 1 || !strings.Contains(r.stderr, "PolicyDenied") {
		t.Fatalf("minimal profile call: %+v", r)
	}
}

func TestExplainAndVersion(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := warren(t, dir, "policy", "explain", "read_file", "--profile", "minimal")
	if r.code != 0 || !strings.Contains(r.stdout, "read_file") || !strings.Contains(r.stdout, "minimal") {
		t.Fatalf("explain: %+v", r)
	}
	r = warren(t, dir, "policy", "explain", "read_file", "--json")
	var x struct {
		Tool    string
		Allowed bool
		Steps   []struct{ Step, Outcome, Detail string }
	}
	if err := json.Unmarshal([]byte(r.stdout), &x); err != nil || !x.Allowed || len(x.Steps) == 0 {
		t.Fatalf("explain json: %v %+v", err, x)
	}
	if r := warren(t, dir, "version"); r.code != 0 || !strings.HasPrefix(r.stdout, "warren ") {
		t.Fatalf("version: %+v", r)
	}
	if r := warren(t, dir, "--help"); r.code != 0 || !strings.Contains(r.stdout, "Commands:") {
		t.Fatalf("help: %+v", r)
	}
}

func TestApprovalsFlow(t *testing.T) {
	t.Parallel()
	dir, ws := t.TempDir(), t.TempDir()
	write := func(name string) {
		if err := os.WriteFile(filepath.Join(ws, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	del := func(name, approve string) run {
		args := []string{"tool", "call", "delete_file", `{"path":"` + name + `"}`, "--workspace", ws}
		if approve != "" {
			args = append(args, "--approve", approve)
		}
		return warren(t, dir, args...)
	}
	write("a.txt")
	if r := del("a.txt", "no"); r.code != 1 || !strings.Contains(r.stderr, "PermissionDenied") {
		t.Fatalf("--approve no: %+v", r)
	}
	if r := del("a.txt", ""); r.code != 1 || !strings.Contains(r.stderr, "no terminal") {
		t.Fatalf("no terminal: %+v", r)
	}
	if r := del("a.txt", "yes"); r.code != 0 {
		t.Fatalf("--approve yes: %+v", r)
	}
	write("b.txt")
	if r := del("b.txt", "always"); r.code != 0 {
		t.Fatalf("--approve always: %+v", r)
	}
	write("b.txt")
	if r := del("b.txt", ""); r.code != 0 {
		t.Fatalf("stored pattern not used: %+v", r)
	}
	list := warren(t, dir, "approvals", "list", "--json")
	var pats []struct{ ID int64 }
	if err := json.Unmarshal([]byte(list.stdout), &pats); err != nil || len(pats) != 1 {
		t.Fatalf("list: %v %s", err, list.stdout)
	}
	if r := warren(t, dir, "approvals", "revoke", "1"); r.code != 0 {
		t.Fatalf("revoke: %+v", r)
	}
	if r := warren(t, dir, "approvals", "revoke", "1"); r.code != 1 {
		t.Fatalf("second revoke: %+v", r)
	}
	if r := warren(t, dir, "approvals", "mode", "deny"); r.code != 0 {
		t.Fatalf("mode: %+v", r)
	}
	write("c.txt")
	if r := del("c.txt", "yes"); r.code != 1 || !strings.Contains(r.stderr, "mode is deny") {
		t.Fatalf("deny mode: %+v", r)
	}
	audit := warren(t, dir, "approvals", "audit")
	if audit.code != 0 || strings.Count(audit.stdout, "\n") != 7 {
		t.Fatalf("audit: %+v", audit)
	}
	for _, bad := range [][]string{{"approvals"}, {"approvals", "mode", "yolo"}, {"approvals", "revoke", "x"}, {"tool", "call", "read_file", "{}", "--approve", "maybe"}} {
		if r := warren(t, dir, bad...); r.code != 2 {
			t.Fatalf("%v: %+v", bad, r)
		}
	}
}

// TestRefusedDeleteIsNotOfferedForApproval: a path that would be refused
// anyway (outside the workspace, missing, a directory) is refused before
// anyone is asked.
func TestRefusedDeleteIsNotOfferedForApproval(t *testing.T) {
	t.Parallel()
	dir, ws := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for path, code := range map[string]string{"../outside.txt": "SecurityError", "missing.txt": "NotFound", "sub": "ValidationError"} {
		r := warren(t, dir, "tool", "call", "delete_file", `{"path":"`+path+`"}`, "--workspace", ws)
		if r.code != 1 || !strings.Contains(r.stderr, code) || strings.Contains(r.stderr, "approval needed") {
			t.Fatalf("%s: %+v", path, r)
		}
	}
	if a := warren(t, dir, "approvals", "audit"); strings.Count(a.stdout, "\n") != 1 {
		t.Fatalf("approval requests were made: %s", a.stdout)
	}
}

// A hard link in the workspace is refused until the setting allows it.
func TestHardLinkSetting(t *testing.T) {
	t.Parallel()
	dir, ws, outside := t.TempDir(), t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	if err := os.WriteFile(secret, []byte("outside secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(secret, filepath.Join(ws, "link.txt")); err != nil {
		t.Fatal(err)
	}
	read := func() run {
		return warren(t, dir, "tool", "call", "read_file", `{"path":"link.txt"}`, "--workspace", ws)
	}
	if r := read(); r.code != 1 || !strings.Contains(r.stderr+r.stdout, "hard link") || strings.Contains(r.stdout, "outside secret") {
		t.Fatalf("hard link read: %+v", r)
	}
	if r := warren(t, dir, "settings", "set", "fs.allow_hard_links", "maybe"); r.code != 2 || !strings.Contains(r.stderr, "not true or false") {
		t.Fatalf("bad value: %+v", r)
	}
	if r := warren(t, dir, "settings", "set", "fs.allow_hard_links", "true"); r.code != 0 {
		t.Fatalf("set: %+v", r)
	}
	if r := read(); r.code != 0 || !strings.Contains(r.stdout, "outside secret") {
		t.Fatalf("allowed hard link read: %+v", r)
	}
	if r := warren(t, dir, "settings", "get", "fs.allow_hard_links"); strings.TrimSpace(r.stdout) != "true" {
		t.Fatalf("get: %+v", r)
	}
	if r := warren(t, dir, "settings", "set", "nope", "1"); r.code != 2 || !strings.Contains(r.stderr, "unknown setting") {
		t.Fatalf("unknown: %+v", r)
	}
}
