package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/doctext/doctexttest"
)

// The media tools are wired into Warren's start-up: read_document reads a
// real PDF through `warren tool call`, and the media.* settings reach the
// provider chains.
func TestMediaToolsThroughCLI(t *testing.T) {
	t.Parallel()
	dir, ws := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "x.pdf"), doctexttest.PDF(t, "", "First page text", "Second page text"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := warren(t, dir, "tool", "call", "read_document", `{"path":"x.pdf","pages":"2"}`, "--workspace", ws, "--json")
	var o struct {
		Status string `json:"status"`
		ForLLM string `json:"for_llm"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &o); err != nil || r.code != 0 {
		t.Fatalf("exit %d: %v\n%s %s", r.code, err, r.stdout, r.stderr)
	}
	if o.Status != "success" || !strings.Contains(o.ForLLM, "Second page text") || strings.Contains(o.ForLLM, "First page") {
		t.Fatalf("got %+v", o)
	}

	r = warren(t, dir, "tool", "call", "create_image", `{"prompt":"a cat"}`, "--workspace", ws, "--json")
	if r.code != 1 || !strings.Contains(r.stdout, "media.image_providers") {
		t.Fatalf("unconfigured: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	if r := warren(t, dir, "settings", "set", "media.image_providers", "Bad Name"); r.code == 0 {
		t.Fatalf("a bad provider name was accepted: %+v", r)
	}
	if r := warren(t, dir, "settings", "set", "media.image_providers", " nosuch , other:gpt-image-1 "); r.code != 0 {
		t.Fatalf("set: %+v", r)
	}
	r = warren(t, dir, "tool", "call", "create_image", `{"prompt":"a cat"}`, "--workspace", ws, "--json")
	if r.code != 1 || !strings.Contains(r.stdout, `no such provider \"nosuch\"`) || !strings.Contains(r.stdout, `"NotFound"`) {
		t.Fatalf("unknown providers: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
}
