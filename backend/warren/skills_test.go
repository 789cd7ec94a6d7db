package warren_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/llm/llmtest"
	"github.com/warren-dev/warren/backend/warren"
)

// TestSkillsInSystemPrompt: the agent's skills are listed (name and
// description) in its system prompt.
func TestSkillsInSystemPrompt(t *testing.T) {
	t.Parallel()
	w := open(t, t.TempDir())
	srv := agentServer(t, w, "ada", llmtest.Cassette{Turns: []llmtest.Turn{text("", "ok")}})
	dir := filepath.Join(w.Workspace(), "skills", "trip-planner")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: trip-planner\ndescription: Plan a trip with trains first.\n---\nSteps."), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := w.RunAgent(context.Background(), warren.RunRequest{Agent: "ada", Prompt: "hi"}, nil); err != nil {
		t.Fatal(err)
	}
	body := string(srv.Requests()[0].Body)
	if !strings.Contains(body, "## Skills") || !strings.Contains(body, "trip-planner: Plan a trip with trains first.") {
		t.Fatalf("the system prompt lacks the skills: %.800s", body)
	}
}
