package mcp

import (
	"context"
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestServerEnvKeepsOnlyTheBasics(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the Unix list")
	}
	environ := []string{"HOME=/home/u", "PATH=/usr/bin", "OPENAI_API_KEY=sk-x", "LANG=C.UTF-8", "AWS_SECRET_ACCESS_KEY=a",
		"USER=u", "TMPDIR=/tmp/u", "malformed", "=empty"}
	cases := []struct {
		name       string
		configured map[string]string
		want       []string
	}{
		{"inherited only", nil, []string{"HOME=/home/u", "LANG=C.UTF-8", "PATH=/usr/bin", "TMPDIR=/tmp/u", "USER=u"}},
		{"configured wins and adds", map[string]string{"PATH": "/opt/bin", "OPENAI_API_KEY": "own"},
			[]string{"HOME=/home/u", "LANG=C.UTF-8", "OPENAI_API_KEY=own", "PATH=/opt/bin", "TMPDIR=/tmp/u", "USER=u"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := serverEnv(environ, c.configured); !slices.Equal(got, c.want) {
				t.Fatalf("serverEnv = %v, want %v", got, c.want)
			}
		})
	}
}

// A real server sees the basics and its configured env, never the rest of
// Warren's environment. Not parallel: it sets a variable in this process.
func TestStdioServerGetsMinimalEnv(t *testing.T) {
	t.Setenv("WARREN_PROBE_SECRET", "must-not-leak")
	f := newFixture(t)
	f.save(t, Server{Name: "envprobe", Transport: TransportStdio, Command: serverBin(t, "mcp-server-everything"),
		Args: []string{"stdio"}, Env: map[string]string{"WARREN_PROBE_CONFIGURED": "configured-value"}, Enabled: true})
	m := f.manager(t, Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := m.Start(ctx, "envprobe"); err != nil {
		t.Fatal(err)
	}
	m.WaitReady(ctx, "envprobe")
	res, err := m.Call(ctx, "envprobe", "get-env", nil)
	if err != nil {
		st, _ := m.status("envprobe")
		t.Fatalf("get-env: %v (status %+v)", err, st)
	}
	var env map[string]string
	if err := json.Unmarshal([]byte(ResultText(res)), &env); err != nil {
		t.Fatalf("get-env did not return a JSON object: %v: %s", err, ResultText(res))
	}
	if _, ok := env["WARREN_PROBE_SECRET"]; ok {
		t.Fatal("the server saw WARREN_PROBE_SECRET from Warren's environment")
	}
	if env["WARREN_PROBE_CONFIGURED"] != "configured-value" {
		t.Fatalf("configured env did not reach the server: %v", env)
	}
	if env["PATH"] == "" {
		t.Fatalf("the server has no PATH: %v", env)
	}
	allowed := append(InheritedEnvNames(), "WARREN_PROBE_CONFIGURED")
	for k := range env {
		// macOS gives every process __CF_USER_TEXT_ENCODING.
		if !slices.Contains(allowed, k) && !strings.HasPrefix(k, "__CF") {
			t.Errorf("the server saw %s, which Warren does not pass on", k)
		}
	}
}
