package agent

import (
	"strings"
	"testing"
)

func TestTitle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ prompt, want string }{
		{"  What do my\nnotes say?  ", "What do my notes say?"},
		{"What do my notes say?\n\nAttached file (in the workspace; read with read_file):\n- attachments/notes.txt (15 B)", "What do my notes say?"},
		{strings.Repeat("é", 70), strings.Repeat("é", 60) + "…"},
	} {
		if got := title(tc.prompt); got != tc.want {
			t.Errorf("title(%q) = %q, want %q", tc.prompt, got, tc.want)
		}
	}
}
