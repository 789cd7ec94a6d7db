package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/warren-dev/warren/backend/approvals"
	"github.com/warren-dev/warren/backend/mcp/gateway"
)

// A call through `warren mcp serve` that needs approval is listed by
// `warren approvals pending` and settled by `warren approvals answer`.
func TestGatewayApprovalAnsweredFromTheCLI(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir, _ := prepareDataDir(t)
	url, stderr, _ := serveInProcess(t, dir, "--http", "127.0.0.1:0", "--approval-timeout", "40s")
	token, _, _, err := gateway.LoadOrCreateToken(dir)
	check(t, err)
	c, err := client.NewStreamableHttpClient(url, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + token}))
	check(t, err)
	defer c.Close()
	check(t, c.Start(ctx))
	initClient(t, c, "claude-code")

	type outcome struct {
		text  string
		isErr bool
	}
	done := make(chan outcome, 1)
	go func() {
		text, isErr := callText(t, c, "delete_file", map[string]any{"path": "notes.txt"})
		done <- outcome{text, isErr}
	}()

	cli := func(args ...string) (string, error) {
		var out bytes.Buffer
		if Run(ctx, Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out, DataDir: dir}, args) == 0 {
			return out.String(), nil
		}
		return out.String(), errors.New(out.String())
	}
	var pending []approvals.Request
	deadline := time.Now().Add(20 * time.Second)
	for len(pending) == 0 {
		out, err := cli("approvals", "pending", "--json")
		check(t, err)
		check(t, json.Unmarshal([]byte(out), &pending))
		if time.Now().After(deadline) {
			t.Fatalf("no pending request listed\n%s", stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
	req := pending[0]
	if req.Tool != "delete_file" || req.Origin == nil || req.Origin.PID != os.Getpid() {
		t.Fatalf("pending: %+v", req)
	}
	if !strings.Contains(stderr.String(), "warren approvals answer "+req.ID) {
		t.Fatalf("the gateway did not say how to answer:\n%s", stderr.String())
	}
	if out, _ := cli("approvals", "pending"); !strings.Contains(out, req.ID) || !strings.Contains(out, "delete_file") {
		t.Fatalf("table: %s", out)
	}
	if out, err := cli("approvals", "answer", req.ID, "maybe"); err == nil || !strings.Contains(out, "unknown decision") {
		t.Fatalf("a bad answer: %s", out)
	}
	if out, err := cli("approvals", "answer", req.ID, "yes"); err != nil || !strings.Contains(out, "answered") {
		t.Fatalf("answer: %s %v", out, err)
	}
	select {
	case o := <-done:
		if o.isErr {
			t.Fatalf("delete_file after yes: %s", o.text)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the call did not end after the answer")
	}
	if _, err := os.Stat(filepath.Join(dir, "workspace", "notes.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("notes.txt not deleted: %v", err)
	}
	if out, err := cli("approvals", "answer", req.ID, "no"); err == nil || !strings.Contains(out, "not waiting") {
		t.Fatalf("answering twice: %s", out)
	}
}
