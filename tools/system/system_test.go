package system

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/tools"
)

func registry(t *testing.T, d Deps) *tools.Registry {
	t.Helper()
	ts, err := Tools(d)
	if err != nil {
		t.Fatal(err)
	}
	r := tools.NewRegistry(tools.Options{})
	for _, tool := range ts {
		if err := r.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func TestSystemTools(t *testing.T) {
	t.Parallel()
	fixed := time.Date(2026, 3, 23, 13, 51, 28, 0, time.UTC)
	env := map[string]string{"LANG": "C.UTF-8", "GITHUB_TOKEN": "ghp_x", "my_api_key": "k"}
	ws := t.TempDir()
	r := registry(t, Deps{
		Workspace: ws, Now: func() time.Time { return fixed }, Started: fixed.Add(-time.Hour),
		LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok },
	})
	cases := []struct {
		tool, args string
		cc         tools.CallContext
		code       tools.ErrorCode
		want       string
	}{
		{"datetime", `{"timezone":"Asia/Ho_Chi_Minh"}`, tools.CallContext{}, "", "2026-03-23T20:51:28+07:00"},
		{"datetime", `{"timezone":"America/New_York"}`, tools.CallContext{}, "", "UTC-04:00"},
		{"datetime", `{"timezone":"Mars/Olympus"}`, tools.CallContext{}, tools.CodeValidation, "Mars/Olympus"},
		{"datetime", `{"timezone":5}`, tools.CallContext{}, tools.CodeValidation, `"timezone" must be a string`},
		{"current_time", `{}`, tools.CallContext{}, "", "unix: 1774273888"},
		{"get_env", `{"name":"LANG"}`, tools.CallContext{}, "", "C.UTF-8"},
		{"get_env", `{"name":"GITHUB_TOKEN"}`, tools.CallContext{}, tools.CodeSecurity, "looks like a secret"},
		{"get_env", `{"name":"my_api_key"}`, tools.CallContext{}, tools.CodeSecurity, "looks like a secret"},
		{"get_env", `{"name":"db_password"}`, tools.CallContext{}, tools.CodeSecurity, "looks like a secret"},
		{"get_env", `{"name":"AWS_CREDENTIALS_FILE"}`, tools.CallContext{}, tools.CodeSecurity, "looks like a secret"},
		{"get_env", `{"name":"NOPE"}`, tools.CallContext{}, tools.CodeNotFound, "not set"},
		{"get_env", `{}`, tools.CallContext{}, tools.CodeValidation, `missing required field "name"`},
		{"session_status", `{}`, tools.CallContext{SandboxKey: "s1", Agent: "coder", User: "alice", Channel: "cli"}, "", `"agent": "coder"`},
		{"session_status", `{}`, tools.CallContext{}, "", `"warren_uptime": "1h0m0s"`},
		{"workspace_dir", `{}`, tools.CallContext{}, "", ws},
		{"workspace_dir", `{}`, tools.CallContext{Workspace: ws + "/sub"}, "", "does not exist yet"},
	}
	for _, c := range cases {
		t.Run(c.tool+c.args, func(t *testing.T) {
			t.Parallel()
			res, err := r.ExecuteWithContext(context.Background(), tools.Call{Name: c.tool, Args: json.RawMessage(c.args), Context: c.cc})
			if err != nil {
				t.Fatal(err)
			}
			if res.Code() != c.code {
				t.Fatalf("code = %q, want %q (%s)", res.Code(), c.code, res.ForLLM)
			}
			if !strings.Contains(res.ForLLM, c.want) {
				t.Fatalf("ForLLM = %q, want it to contain %q", res.ForLLM, c.want)
			}
		})
	}
}

func TestNoWorkspace(t *testing.T) {
	t.Parallel()
	r := registry(t, Deps{})
	res, _ := r.ExecuteWithContext(context.Background(), tools.Call{Name: "workspace_dir"})
	if res.Code() != tools.CodeNotFound {
		t.Fatalf("got %+v", res)
	}
}

func TestGetEnvRefusesSecretNames(t *testing.T) {
	t.Parallel()
	const secret = "hunter2-value"
	refused := map[string]string{ // name: the marker the refusal must name
		"MYAPP_PASS": "PASS", "DB_PASSWORD": "PASS", "GITHUB_TOKEN": "TOKEN", "SLACK_WEBHOOK_URL": "WEBHOOK",
		"AWS_SECRET_ACCESS_KEY": "SECRET", "my_api_key": "KEY", "SESSION_COOKIE": "COOKIE", "NPM_AUTH": "AUTH",
		"GOOGLE_APPLICATION_CREDENTIALS": "CREDENTIAL", "SSH_PRIVATE_PATH": "PRIVATE",
		"DB_PWD": "PWD", "pwd": "PWD", "OLDPWD_BACKUP": "PWD", " GITHUB_TOKEN ": "TOKEN",
	}
	allowed := map[string]string{"HOME": "/home/me", "PATH": "/usr/bin:/bin", "PWD": "/work", "OLDPWD": "/tmp", "LANG": "C.UTF-8"}
	env := map[string]string{}
	for name := range refused {
		env[strings.TrimSpace(name)] = secret
	}
	for name, v := range allowed {
		env[name] = v
	}
	r := registry(t, Deps{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	get := func(t *testing.T, name string) tools.Result {
		t.Helper()
		args, _ := json.Marshal(GetEnvParams{Name: name})
		res, err := r.ExecuteWithContext(context.Background(), tools.Call{Name: "get_env", Args: args})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	for name, marker := range refused {
		t.Run("refuses "+name, func(t *testing.T) {
			t.Parallel()
			res := get(t, name)
			if res.Code() != tools.CodeSecurity {
				t.Fatalf("code = %q, want %q (%s)", res.Code(), tools.CodeSecurity, res.ForLLM)
			}
			if want := "contains " + marker + ", and get_env refuses names containing any of PASS, PWD"; !strings.Contains(res.ForLLM, want) {
				t.Errorf("ForLLM = %q, want it to name the rule: %q", res.ForLLM, want)
			}
			if strings.Contains(res.ForLLM, secret) || strings.Contains(res.ForUser, secret) {
				t.Errorf("refusal leaks the value: %q", res.ForLLM)
			}
		})
	}
	for name, want := range allowed {
		t.Run("allows "+name, func(t *testing.T) {
			t.Parallel()
			if res := get(t, name); res.IsError || res.ForLLM != want {
				t.Fatalf("got %+v, want %q", res, want)
			}
		})
	}
}
