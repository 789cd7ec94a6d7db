package warren_test

import (
	"context"
	"strings"
	"testing"

	"github.com/warren-dev/warren/tools"
)

// An agent's own allow/deny lists (Agents editor, `warren agents`) apply to
// its tool list and to every call.
func TestAgentListsApply(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	w := open(t, t.TempDir())
	a := storeAgent("reader")
	a.Deny = []string{"write_file", "group:runtime"}
	if _, err := w.SaveAgent(ctx, a); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"write_file", "exec"} {
		row, ok := inventoryRow(t, w, "reader", name)
		if !ok || row.Allowed || !strings.Contains(row.Reason, "reader") {
			t.Fatalf("%s for reader: %+v", name, row)
		}
		if row, _ := inventoryRow(t, w, "default", name); !row.Allowed {
			t.Fatalf("reader's deny leaked to default: %+v", row)
		}
	}
	res := call(t, w, "reader", "write_file", `{"path":"x.txt","content":"x"}`)
	if res.Code() != tools.CodePolicyDenied {
		t.Fatalf("write_file as reader = %+v", res)
	}
	if res := call(t, w, "reader", "read_file", `{"path":"missing.txt"}`); res.Code() == tools.CodePolicyDenied {
		t.Fatalf("read_file as reader = %+v", res)
	}
	// An allow list narrows.
	a.Deny, a.Allow = nil, []string{"read_file"}
	if _, err := w.SaveAgent(ctx, a); err != nil {
		t.Fatal(err)
	}
	if row, _ := inventoryRow(t, w, "reader", "list_files"); row.Allowed {
		t.Fatalf("allow list did not narrow: %+v", row)
	}
	if row, _ := inventoryRow(t, w, "reader", "read_file"); !row.Allowed {
		t.Fatalf("allow list removed its own tool: %+v", row)
	}
}
