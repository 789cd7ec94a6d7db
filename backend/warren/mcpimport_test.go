package warren_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	wmcp "github.com/warren-dev/warren/backend/mcp"
	"github.com/warren-dev/warren/backend/mcp/mcpconfig"
	"github.com/warren-dev/warren/backend/warren"
)

// fakeHome lays the real-looking configs of mcpconfig/testdata where
// Claude Desktop, Cursor and VS Code keep them on Linux.
func fakeHome(t *testing.T) (mcpconfig.PathOptions, map[string]string) {
	t.Helper()
	home := t.TempDir()
	opts := mcpconfig.PathOptions{GOOS: "linux", Home: home, Getenv: func(string) string { return "" }}
	paths := map[string]string{
		"claude_desktop_config.json": filepath.Join(home, ".config", "Claude", "claude_desktop_config.json"),
		"cursor_mcp.json":            filepath.Join(home, ".cursor", "mcp.json"),
		"vscode_mcp.json":            filepath.Join(home, ".config", "Code", "User", "mcp.json"),
	}
	for src, dst := range paths {
		data, err := os.ReadFile(filepath.Join("..", "mcp", "mcpconfig", "testdata", src))
		if err != nil {
			t.Fatal(err)
		}
		writeConfig(t, dst, string(data))
	}
	// A settings.json without MCP servers is not a finding.
	writeConfig(t, filepath.Join(home, ".config", "Code", "User", "settings.json"), `{"editor.fontSize": 14}`)
	return opts, paths
}

func writeConfig(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

func previewServer(t *testing.T, p warren.MCPImportPreview, name string) warren.MCPPreviewServer {
	t.Helper()
	i := slices.IndexFunc(p.Servers, func(s warren.MCPPreviewServer) bool { return s.Name == name })
	if i < 0 {
		t.Fatalf("%s: no server %q in %+v", p.Path, name, p.Servers)
	}
	return p.Servers[i]
}

func TestFindMCPConfigsPreviewsWithoutStoring(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	opts, paths := fakeHome(t)
	found, err := w.FindMCPConfigs(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range found {
		got = append(got, p.Client+" "+p.Path)
	}
	want := []string{
		"Claude Desktop " + paths["claude_desktop_config.json"],
		"Cursor " + paths["cursor_mcp.json"],
		"VS Code " + paths["vscode_mcp.json"],
	}
	if !slices.Equal(got, want) {
		t.Fatalf("found\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	claude := found[0]
	fs := previewServer(t, claude, "filesystem")
	if !strings.Contains(fs.Downloads, "npx downloads the package @modelcontextprotocol/server-filesystem") || fs.Enable {
		t.Fatalf("npx -y server: %+v", fs)
	}
	gh := previewServer(t, claude, "github")
	if gh.Downloads != "" || !gh.Enable || !slices.Equal(gh.EnvKeys, []string{"GITHUB_PERSONAL_ACCESS_TOKEN"}) {
		t.Fatalf("docker server: %+v", gh)
	}
	if sq := previewServer(t, claude, "sqlite"); !strings.Contains(sq.Downloads, "uvx") || sq.Enable {
		t.Fatalf("uvx server: %+v", sq)
	}
	if pp := previewServer(t, claude, "puppeteer"); !pp.DisabledInFile || pp.Enable {
		t.Fatalf("disabled server: %+v", pp)
	}
	ob := previewServer(t, claude, "obsidian")
	if !slices.ContainsFunc(ob.Notes, func(n string) bool { return strings.Contains(n, "/Users/alice/.local/bin/uv does not exist") }) {
		t.Fatalf("missing command not noted: %+v", ob)
	}
	if !slices.ContainsFunc(claude.Warnings, func(w string) bool { return strings.Contains(w, `renamed to "Sequential_Thinking"`) }) {
		t.Fatalf("file warnings: %v", claude.Warnings)
	}
	// Secrets stay out of the preview.
	for _, p := range found {
		for _, s := range p.Servers {
			for _, v := range []string{"<YOUR_TOKEN>", "<YOUR_API_KEY>", "<YOUR_KEY>"} {
				if strings.Contains(strings.Join(append(s.Args, s.Command, s.URL), " "), v) {
					t.Fatalf("%s shows a secret value", s.Name)
				}
			}
		}
	}
	notion := previewServer(t, found[1], "notion")
	if notion.Transport != "streamable-http" || !slices.Equal(notion.HeaderKeys, []string{"Authorization"}) || !notion.Enable {
		t.Fatalf("remote server: %+v", notion)
	}
	if px := previewServer(t, found[2], "Perplexity"); !slices.ContainsFunc(px.Notes, func(n string) bool { return strings.Contains(n, "${input:") }) {
		t.Fatalf("VS Code input note: %+v", px)
	}
	if list, _ := w.MCP().Store().List(ctx); len(list) != 0 {
		t.Fatalf("a preview stored servers: %+v", list)
	}
}

func TestImportMCPSelection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	opts, paths := fakeHome(t)
	req := warren.MCPImportRequest{Path: paths["claude_desktop_config.json"], Offer: true, Servers: []warren.MCPImportChoice{
		{Name: "filesystem", Enabled: false}, {Name: "github", Enabled: true}, {Name: "nope", Enabled: true},
	}}
	rep, err := w.ImportMCPSelection(ctx, req, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rep.Added, []string{"filesystem", "github"}) || !slices.Equal(rep.Disabled, []string{"filesystem"}) ||
		!slices.ContainsFunc(rep.Warnings, func(w string) bool { return strings.Contains(w, `"nope" is not in the file`) }) {
		t.Fatalf("report %+v", rep)
	}
	list, err := w.MCP().Store().List(ctx)
	if err != nil || len(list) != 2 || list[0].Name != "filesystem" || list[0].Enabled || !list[1].Enabled {
		t.Fatalf("stored %+v, %v", list, err)
	}
	env, _, err := w.MCP().Store().Secrets(ctx, "github")
	if err != nil || env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "<YOUR_TOKEN>" {
		t.Fatalf("github env %v, %v", env, err)
	}
	if !w.MCPOffered("filesystem") || !w.MCPOffered("github") {
		t.Fatal("Offer did not offer the imported servers' tools")
	}
	// Importing Claude Desktop's config answers the first-run offer.
	if offer, err := w.ClaudeDesktopImportOffer(ctx, opts); err != nil || offer != nil {
		t.Fatalf("offer after importing: %+v, %v", offer, err)
	}
	// A chosen name Warren has is replaced, with the new switch.
	rep, err = w.ImportMCPSelection(ctx, warren.MCPImportRequest{Path: paths["claude_desktop_config.json"],
		Servers: []warren.MCPImportChoice{{Name: "github", Enabled: false}}}, opts)
	if err != nil || !slices.Equal(rep.Replaced, []string{"github"}) {
		t.Fatalf("replace: %+v, %v", rep, err)
	}
	if gh, _ := w.MCP().Store().Get(ctx, "github"); gh.Enabled {
		t.Fatal("replaced server kept its old switch")
	}
	// Pasted text works the same way.
	rep, err = w.ImportMCPSelection(ctx, warren.MCPImportRequest{Text: `{"mcpServers": {"t": {"command": "true"}}}`,
		Servers: []warren.MCPImportChoice{{Name: "t", Enabled: true}}}, opts)
	if err != nil || !slices.Equal(rep.Added, []string{"t"}) {
		t.Fatalf("pasted: %+v, %v", rep, err)
	}
	// Only the known config locations can be read by path.
	secret := filepath.Join(t.TempDir(), "other.json")
	writeConfig(t, secret, `{"mcpServers": {"x": {"command": "true"}}}`)
	for _, bad := range []warren.MCPImportRequest{
		{Path: secret, Servers: []warren.MCPImportChoice{{Name: "x"}}},
		{Path: "/etc/passwd"},
		{Path: paths["cursor_mcp.json"], Text: "{}"},
	} {
		if _, err := w.ImportMCPSelection(ctx, bad, opts); err == nil {
			t.Fatalf("import %+v succeeded", bad)
		}
	}
	if _, err := w.MCP().Store().Get(ctx, "x"); err == nil {
		t.Fatal("a file outside the known configs was imported")
	}
}

// A config with a local server and an `npx -y` one: with the window's
// servers running, the import starts the local one and leaves the other
// stopped — no process, so nothing is downloaded.
func TestImportedDownloadingServerStaysStopped(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	w := open(t, t.TempDir())
	go func() { _ = w.RunMCP(ctx) }()
	doc := `{"mcpServers": {
		"local": {"command": "` + everythingBin(t) + `", "args": ["stdio"]},
		"fetched": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}
	}}`
	p, err := w.PreviewMCPImport(ctx, []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := w.MCP().Statuses(ctx); len(st) != 0 {
		t.Fatalf("the preview started servers: %+v", st)
	}
	var choices []warren.MCPImportChoice
	for _, s := range p.Servers {
		choices = append(choices, warren.MCPImportChoice{Name: s.Name, Enabled: s.Enable})
	}
	rep, err := w.ImportMCPSelection(ctx, warren.MCPImportRequest{Text: doc, Servers: choices}, mcpconfig.PathOptions{})
	if err != nil || !slices.Equal(rep.Disabled, []string{"fetched"}) {
		t.Fatalf("import %+v, %v", rep, err)
	}
	// RunMCP may take the import in on its next reload: wait for it.
	var views []warren.MCPServerView
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if views, err = w.MCPServerViews(ctx); err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(views, func(v warren.MCPServerView) bool { return v.Server.Name == "local" })
		if i >= 0 && views[i].Status.State == wmcp.StateConnected {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("local never connected: %+v", views)
		}
	}
	for _, v := range views {
		if v.Server.Name == "fetched" && (v.Server.Enabled || v.Status.State != wmcp.StateStopped || v.Status.PID != 0) {
			t.Fatalf("fetched started: %+v %+v", v.Server, v.Status)
		}
	}
}

// `warren mcp import` (ImportMCPServers) shares the preview's defaults: a
// server that downloads on start is stored disabled.
func TestImportMCPServersStoresDownloadersDisabled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	rep, err := w.ImportMCPServers(ctx, []byte(`{"mcpServers": {"a": {"command": "uvx", "args": ["x"]}, "b": {"command": "true"}}}`), false)
	if err != nil || !slices.Equal(rep.Added, []string{"a", "b"}) || !slices.Equal(rep.Disabled, []string{"a"}) {
		t.Fatalf("%+v, %v", rep, err)
	}
	if a, _ := w.MCP().Store().Get(ctx, "a"); a.Enabled {
		t.Fatal("uvx server stored enabled")
	}
}

// A server whose name differs from a stored one only in case is not
// imported, with a warning naming the stored server.
func TestMCPImportNameCase(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	if _, err := w.ImportMCPServers(ctx, []byte(`{"mcpServers":{"ok1":{"command":"true"}}}`), false); err != nil {
		t.Fatal(err)
	}
	rep, err := w.ImportMCPServers(ctx, []byte(`{"mcpServers":{"OK1":{"command":"true"}}}`), true)
	if err != nil || len(rep.Added)+len(rep.Replaced) != 0 || len(rep.Warnings) != 1 || !strings.Contains(rep.Warnings[0], `name taken by server "ok1"`) {
		t.Fatalf("import = %+v, %v", rep, err)
	}
}
