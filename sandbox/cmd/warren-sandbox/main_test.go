package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/warren-dev/warren/sandbox/podman"
)

func TestUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"image"}, {"image", "pull"}, {"bogus"}, {"status", "-nope"}} {
		if err := run(context.Background(), args, &bytes.Buffer{}); err == nil {
			t.Errorf("%q accepted", args)
		}
	}
}

// TestStatusJSON runs against whatever Podman this machine has; without
// one, status still answers (connected=false) rather than failing.
func TestStatusJSON(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"status", "-json"}, &out); err != nil {
		t.Fatal(err)
	}
	var st podman.Status
	if err := json.Unmarshal(out.Bytes(), &st); err != nil || st.Image != podman.DefaultImage {
		t.Fatalf("%v: %s", err, out.String())
	}
}
