package mcpconfig

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// PathOptions describes the machine ClaudeDesktopConfigPath looks at. The
// zero value means this machine; tests set the fields to a temporary home.
type PathOptions struct {
	// GOOS is the operating system; runtime.GOOS when empty.
	GOOS string
	// Home is the user's home directory; os.UserHomeDir() when empty.
	Home string
	// Getenv looks up APPDATA and XDG_CONFIG_HOME; os.Getenv when nil.
	Getenv func(string) string
}

// ClaudeDesktopConfigPath returns where Claude Desktop keeps its config:
//
//	macOS    ~/Library/Application Support/Claude/claude_desktop_config.json
//	Windows  %APPDATA%\Claude\claude_desktop_config.json
//	others   $XDG_CONFIG_HOME/Claude/claude_desktop_config.json (~/.config by default)
//
// It does not check that the file exists: a missing file (fs.ErrNotExist
// from os.ReadFile) means there is nothing to offer to import.
func ClaudeDesktopConfigPath(opts PathOptions) (string, error) {
	goos := opts.GOOS
	if goos == "" {
		goos = runtime.GOOS
	}
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	home := func() (string, error) {
		if opts.Home != "" {
			return opts.Home, nil
		}
		h, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("find Claude Desktop's config: %w", err)
		}
		return h, nil
	}

	var dir string
	switch goos {
	case "darwin":
		h, err := home()
		if err != nil {
			return "", err
		}
		dir = filepath.Join(h, "Library", "Application Support")
	case "windows":
		if dir = getenv("APPDATA"); dir == "" {
			// APPDATA is missing only in stripped environments; this is its usual value.
			h, err := home()
			if err != nil {
				return "", errors.New("find Claude Desktop's config: %APPDATA% is not set and there is no home directory")
			}
			dir = filepath.Join(h, "AppData", "Roaming")
		}
	default:
		// The XDG spec says to ignore a relative XDG_CONFIG_HOME.
		if dir = getenv("XDG_CONFIG_HOME"); !filepath.IsAbs(dir) {
			h, err := home()
			if err != nil {
				return "", err
			}
			dir = filepath.Join(h, ".config")
		}
	}
	return filepath.Join(dir, "Claude", "claude_desktop_config.json"), nil
}

// Clients whose MCP configs KnownConfigs finds.
const (
	ClientClaudeDesktop = "Claude Desktop"
	ClientCursor        = "Cursor"
	ClientVSCode        = "VS Code"
)

// KnownConfig is one place a client keeps its MCP servers.
type KnownConfig struct {
	// Client is ClientClaudeDesktop, ClientCursor or ClientVSCode.
	Client string
	Path   string
}

// KnownConfigs lists where Claude Desktop, Cursor and VS Code keep their
// user-wide MCP servers on this operating system, existing or not:
//
//	Claude Desktop  see ClaudeDesktopConfigPath
//	Cursor          ~/.cursor/mcp.json
//	VS Code         <user dir>/mcp.json and <user dir>/settings.json ("mcp": {"servers"}),
//	                the user dir being ~/.config/Code/User (XDG_CONFIG_HOME),
//	                ~/Library/Application Support/Code/User or %APPDATA%\Code\User
//
// Project files (.vscode/mcp.json, .cursor/mcp.json in a repository) are
// not looked for: they belong to a project, not to the user.
func KnownConfigs(opts PathOptions) ([]KnownConfig, error) {
	claude, err := ClaudeDesktopConfigPath(opts)
	if err != nil {
		return nil, err
	}
	// Claude's config dir is <app data>/Claude: VS Code's sits beside it.
	appData := filepath.Dir(filepath.Dir(claude))
	home := opts.Home
	if home == "" {
		if home, err = os.UserHomeDir(); err != nil {
			return nil, fmt.Errorf("find MCP configs: %w", err)
		}
	}
	vscode := filepath.Join(appData, "Code", "User")
	return []KnownConfig{
		{Client: ClientClaudeDesktop, Path: claude},
		{Client: ClientCursor, Path: filepath.Join(home, ".cursor", "mcp.json")},
		{Client: ClientVSCode, Path: filepath.Join(vscode, "mcp.json")},
		{Client: ClientVSCode, Path: filepath.Join(vscode, "settings.json")},
	}, nil
}
