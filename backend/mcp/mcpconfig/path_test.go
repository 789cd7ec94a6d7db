package mcpconfig

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestClaudeDesktopConfigPath(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	xdg := filepath.Join(t.TempDir(), "xdg")
	appData := filepath.Join(home, "Roaming Custom")
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	const file = "claude_desktop_config.json"
	tests := []struct {
		name string
		opts PathOptions
		want string
	}{
		{"macOS", PathOptions{GOOS: "darwin", Home: home, Getenv: env(nil)},
			filepath.Join(home, "Library", "Application Support", "Claude", file)},
		{"macOS ignores XDG_CONFIG_HOME", PathOptions{GOOS: "darwin", Home: home, Getenv: env(map[string]string{"XDG_CONFIG_HOME": xdg})},
			filepath.Join(home, "Library", "Application Support", "Claude", file)},
		{"Windows", PathOptions{GOOS: "windows", Home: home, Getenv: env(map[string]string{"APPDATA": appData})},
			filepath.Join(appData, "Claude", file)},
		{"Windows without APPDATA", PathOptions{GOOS: "windows", Home: home, Getenv: env(nil)},
			filepath.Join(home, "AppData", "Roaming", "Claude", file)},
		{"Linux default", PathOptions{GOOS: "linux", Home: home, Getenv: env(nil)},
			filepath.Join(home, ".config", "Claude", file)},
		{"Linux XDG_CONFIG_HOME", PathOptions{GOOS: "linux", Home: home, Getenv: env(map[string]string{"XDG_CONFIG_HOME": xdg})},
			filepath.Join(xdg, "Claude", file)},
		{"Linux relative XDG_CONFIG_HOME is ignored", PathOptions{GOOS: "linux", Home: home, Getenv: env(map[string]string{"XDG_CONFIG_HOME": "rel/config"})},
			filepath.Join(home, ".config", "Claude", file)},
		{"FreeBSD follows XDG", PathOptions{GOOS: "freebsd", Home: home, Getenv: env(nil)},
			filepath.Join(home, ".config", "Claude", file)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ClaudeDesktopConfigPath(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("got %s, want %s", got, tt.want)
			}
		})
	}
}

// The path found is where a real config is read from: the first-run import.
func TestClaudeDesktopConfigPathReadsConfig(t *testing.T) {
	t.Parallel()
	opts := PathOptions{GOOS: "linux", Home: t.TempDir(), Getenv: func(string) string { return "" }}
	path, err := ClaudeDesktopConfigPath(opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.ReadFile(path); !os.IsNotExist(err) {
		t.Fatalf("before the file exists: %v, want not-exist", err)
	}
	src, err := os.ReadFile(filepath.Join("testdata", "claude_desktop_config.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, src, 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	servers, _, err := Parse(data)
	if err != nil || len(servers) != 8 {
		t.Fatalf("Parse: %d servers, %v", len(servers), err)
	}
}

// The zero value describes this machine.
func TestClaudeDesktopConfigPathDefaults(t *testing.T) {
	t.Parallel()
	if _, err := os.UserHomeDir(); err != nil {
		t.Skip("no home directory here:", err)
	}
	got, err := ClaudeDesktopConfigPath(PathOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(got) || !strings.HasSuffix(got, filepath.Join("Claude", "claude_desktop_config.json")) {
		t.Fatalf("got %s", got)
	}
}

// Without a home directory, the platforms that need one say so.
func TestClaudeDesktopConfigPathNoHome(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("os.UserHomeDir does not read $HOME here")
	}
	t.Setenv("HOME", "") // not parallel: changes the process environment
	noEnv := func(string) string { return "" }
	for _, goos := range []string{"darwin", "windows", "linux"} {
		t.Run(goos, func(t *testing.T) {
			got, err := ClaudeDesktopConfigPath(PathOptions{GOOS: goos, Getenv: noEnv})
			if err == nil {
				t.Fatalf("got %s, want an error", got)
			}
		})
	}
	// Windows with APPDATA and Linux with XDG_CONFIG_HOME need no home.
	for goos, env := range map[string]string{"windows": "APPDATA", "linux": "XDG_CONFIG_HOME"} {
		dir := t.TempDir()
		got, err := ClaudeDesktopConfigPath(PathOptions{GOOS: goos, Getenv: func(k string) string {
			if k == env {
				return dir
			}
			return ""
		}})
		if want := filepath.Join(dir, "Claude", "claude_desktop_config.json"); err != nil || got != want {
			t.Fatalf("%s: got %s, %v; want %s", goos, got, err, want)
		}
	}
}
