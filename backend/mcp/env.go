package mcp

import (
	"os"
	"runtime"
	"strings"

	"github.com/warren-dev/warren/sandbox"
)

// inheritedEnv is what a stdio server gets from Warren's own environment:
// what Claude Desktop's MCP SDK passes (HOME, LOGNAME, PATH, SHELL, TERM,
// USER) plus the locale and temp directory. Everything else Warren was
// started with (API keys, cloud credentials) stays out of third-party
// processes; a server that needs a variable gets it from its configured env.
var inheritedEnv = []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "LANG", "LC_ALL", "TMPDIR"}

// inheritedEnvWindows is what a process needs to start and find its
// files on Windows.
var inheritedEnvWindows = []string{
	"APPDATA", "COMSPEC", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "NUMBER_OF_PROCESSORS", "OS", "PATH", "PATHEXT",
	"PROCESSOR_ARCHITECTURE", "PROGRAMDATA", "PROGRAMFILES", "PROGRAMFILES(X86)", "PROGRAMW6432", "PUBLIC",
	"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP", "USERDOMAIN", "USERNAME", "USERPROFILE", "WINDIR",
}

// InheritedEnvNames lists the variables a stdio server inherits from
// Warren's environment on this system (when set).
func InheritedEnvNames() []string {
	if runtime.GOOS == "windows" {
		return append([]string(nil), inheritedEnvWindows...)
	}
	return append([]string(nil), inheritedEnv...)
}

// serverEnv is a stdio server's environment: the inherited variables of
// environ that are set, then the server's configured env, which wins.
// Windows variable names are matched without regard to case.
func serverEnv(environ []string, configured map[string]string) []string {
	fold := runtime.GOOS == "windows"
	keep := map[string]bool{}
	for _, k := range InheritedEnvNames() {
		keep[k] = true
	}
	vars := map[string]string{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		if fold {
			k = strings.ToUpper(k)
		}
		if keep[k] {
			vars[k] = v
		}
	}
	for k, v := range configured {
		if fold {
			for have := range vars {
				if strings.EqualFold(have, k) {
					delete(vars, have)
				}
			}
		}
		vars[k] = v
	}
	return sandbox.Environ(vars)
}

// processEnv is serverEnv over Warren's own environment.
func processEnv(configured map[string]string) []string { return serverEnv(os.Environ(), configured) }
