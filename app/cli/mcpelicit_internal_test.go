package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/warren-dev/warren/backend/warren"
)

func TestAskElicitationOnTerminal(t *testing.T) {
	t.Parallel()
	schema := json.RawMessage(`{"type":"object","required":["name"],"properties":{
		"name":{"type":"string","title":"Name"},
		"age":{"type":"integer"},
		"ok":{"type":"boolean"},
		"hero":{"type":"string","oneOf":[{"const":"hero-1","title":"Superman"},{"const":"hero-2"}],"default":"hero-1"}}}`)
	req := warren.ElicitationRequest{ID: "e1", Server: "ev", Message: "who are you?", Schema: schema}
	feed := func(lines ...string) func() (string, bool) {
		return func() (string, bool) {
			if len(lines) == 0 {
				return "", false
			}
			l := lines[0]
			lines = lines[1:]
			return l, true
		}
	}
	var out strings.Builder
	// Required fields first, then by name: name, age, hero, ok. Bad input is asked again.
	ans, ok := askElicitation(&out, req, feed("y", "", "Ada", "4.5", "40", "", "maybe", "yes"))
	if !ok || ans.Action != "accept" {
		t.Fatalf("answer = %+v, %v\n%s", ans, ok, out.String())
	}
	if ans.Content["age"] != 40.0 || ans.Content["hero"] != "hero-1" || ans.Content["name"] != "Ada" || ans.Content["ok"] != true {
		t.Fatalf("content = %v", ans.Content)
	}
	if !strings.Contains(out.String(), "want a whole number") || !strings.Contains(out.String(), "required") {
		t.Fatalf("the prompts did not explain bad input:\n%s", out.String())
	}
	if ans, _ := askElicitation(&out, req, feed("d")); ans.Action != "decline" {
		t.Fatalf("d = %+v", ans)
	}
	if ans, _ := askElicitation(&out, req, feed("c")); ans.Action != "cancel" {
		t.Fatalf("c = %+v", ans)
	}
	if _, ok := askElicitation(&out, req, feed("y")); ok {
		t.Fatal("input that ended mid-form was taken as an answer")
	}
}
