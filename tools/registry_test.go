package tools_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/tools"
	"github.com/warren-dev/warren/tools/ratelimit"
	"github.com/warren-dev/warren/tools/scrub"
)

type echoParams struct {
	Text  string   `json:"text" description:"what to echo"`
	Times int      `json:"times,omitempty" description:"repeat count"`
	Mode  string   `json:"mode,omitempty" enum:"upper|lower"`
	Tags  []string `json:"tags,omitempty"`
}

func mustTool(t *testing.T, spec tools.Spec, fn tools.TypedFunc[echoParams]) tools.Tool {
	t.Helper()
	if spec.Group == "" {
		spec.Group = "test"
	}
	if spec.Description == "" {
		spec.Description = "test tool"
	}
	tool, err := tools.New(spec, fn)
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// realScrubber is Warren's scrubber with "hunter2" registered as a run-time
// secret, so these tests see exactly what the registry does in production.
func realScrubber() *scrub.Scrubber {
	s := scrub.New()
	s.AddValues("hunter2")
	return s
}

func newRegistry(t *testing.T, opts tools.Options) *tools.Registry {
	t.Helper()
	r := tools.NewRegistry(opts)
	reg := func(tool tools.Tool) {
		if err := r.Register(tool); err != nil {
			t.Fatal(err)
		}
	}
	reg(mustTool(t, tools.Spec{Name: "echo"}, func(ctx context.Context, p echoParams) (tools.Result, error) {
		return tools.Text(strings.Repeat(p.Text, max(p.Times, 1)) + " agent=" + tools.AgentFrom(ctx)), nil
	}))
	reg(mustTool(t, tools.Spec{Name: "boom"}, func(context.Context, echoParams) (tools.Result, error) {
		panic("kaboom")
	}))
	reg(mustTool(t, tools.Spec{Name: "infra"}, func(context.Context, echoParams) (tools.Result, error) {
		return tools.Result{}, errors.New("disk on fire hunter2")
	}))
	reg(mustTool(t, tools.Spec{Name: "leaky"}, func(_ context.Context, p echoParams) (tools.Result, error) {
		return tools.Errorf(tools.CodeIO, "failed with password hunter2 %s", p.Text), nil
	}))
	return r
}

func call(t *testing.T, r *tools.Registry, name, args string, cc tools.CallContext) (tools.Result, error) {
	t.Helper()
	return r.ExecuteWithContext(context.Background(), tools.Call{Name: name, Args: json.RawMessage(args), Context: cc})
}

func TestExecutePipeline(t *testing.T) {
	t.Parallel()
	r := newRegistry(t, tools.Options{Scrubber: realScrubber()})
	cases := []struct {
		name, tool, args string
		code             tools.ErrorCode
		goErr            bool
		want             string
	}{
		{"ok", "echo", `{"text":"ab","times":2}`, "", false, "abab agent=coder"},
		{"unknown tool", "nope", `{}`, tools.CodeNotFound, false, `unknown tool "nope"`},
		{"missing field", "echo", `{}`, tools.CodeValidation, false, `missing required field "text"`},
		{"wrong type", "echo", `{"text":"a","times":"2"}`, tools.CodeValidation, false, `field "times" must be an integer`},
		{"float for int", "echo", `{"text":"a","times":2.5}`, tools.CodeValidation, false, `field "times" must be an integer`},
		{"enum", "echo", `{"text":"a","mode":"sideways"}`, tools.CodeValidation, false, "must be one of upper, lower"},
		{"unknown field", "echo", `{"text":"a","colour":1}`, tools.CodeValidation, false, `unknown field "colour"`},
		{"array item", "echo", `{"text":"a","tags":["x",3]}`, tools.CodeValidation, false, `field "tags[1]" must be a string`},
		{"not json", "echo", `{"text":`, tools.CodeValidation, false, "not valid JSON"},
		{"not object", "echo", `[1]`, tools.CodeValidation, false, "arguments must be an object"},
		{"panic", "boom", `{"text":"a"}`, tools.CodeExecution, false, "kaboom"},
		{"go error", "infra", `{"text":"a"}`, tools.CodeExecution, true, "disk on fire [REDACTED]"},
		{"scrubbed error result", "leaky", `{"text":"hunter2"}`, tools.CodeIO, false, "password [REDACTED] [REDACTED]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			res, err := call(t, r, c.tool, c.args, tools.CallContext{Agent: "coder"})
			if (err != nil) != c.goErr {
				t.Fatalf("go error = %v, want error %v", err, c.goErr)
			}
			if res.Code() != c.code {
				t.Fatalf("code = %q, want %q (%s)", res.Code(), c.code, res.ForLLM)
			}
			if !strings.Contains(res.ForLLM, c.want) {
				t.Fatalf("ForLLM = %q, want %q", res.ForLLM, c.want)
			}
			if strings.Contains(res.ForLLM+res.ForUser, "hunter2") || (res.Error != nil && strings.Contains(res.Error.Message, "hunter2")) {
				t.Fatalf("secret survived: %+v", res)
			}
			if res.Duration <= 0 {
				t.Fatal("duration not recorded")
			}
		})
	}
}

func TestRateLimitAndGate(t *testing.T) {
	t.Parallel()
	// The real limiter on a frozen clock: one call per session, then a
	// token every 2 s.
	frozen := time.Unix(1_700_000_000, 0)
	lim := ratelimit.New(ratelimit.Config{Rate: 0.5, Burst: 1}, ratelimit.WithClock(func() time.Time { return frozen }))
	gate := func(_ context.Context, info tools.Info) (bool, string) {
		return info.Name != "boom", "profile minimal does not include boom"
	}
	r := newRegistry(t, tools.Options{Limiter: lim, Gate: gate})
	if res, _ := call(t, r, "echo", `{"text":"a"}`, tools.CallContext{SandboxKey: "s1"}); res.IsError {
		t.Fatalf("first call: %+v", res)
	}
	res, _ := call(t, r, "echo", `{"text":"a"}`, tools.CallContext{SandboxKey: "s1"})
	if res.Code() != tools.CodeRateLimited || res.Error.RetryAfterMS != 2000 || !strings.Contains(res.ForLLM, "retry in 2s") {
		t.Fatalf("second call: %+v", res.Error)
	}
	res, _ = call(t, r, "boom", `{"text":"a"}`, tools.CallContext{SandboxKey: "s2"})
	if res.Code() != tools.CodePolicyDenied || !strings.Contains(res.ForLLM, "minimal") {
		t.Fatalf("gated call: %+v", res)
	}
}

func TestLifecycleEvents(t *testing.T) {
	t.Parallel()
	bus := events.New()
	ch, cancel := bus.Subscribe(16)
	defer cancel()
	r := newRegistry(t, tools.Options{Bus: bus, Scrubber: realScrubber()})
	_, _ = call(t, r, "echo", `{"text":"hunter2"}`, tools.CallContext{Agent: "a", SandboxKey: "s"})
	_, _ = call(t, r, "boom", `{"text":"x"}`, tools.CallContext{})
	want := []events.Topic{events.TopicToolStart, events.TopicToolComplete, events.TopicToolStart, events.TopicToolError}
	for i, topic := range want {
		ev := <-ch
		if ev.Topic != topic {
			t.Fatalf("event %d topic = %s, want %s", i, ev.Topic, topic)
		}
		te := ev.Payload.(tools.ToolEvent)
		if strings.Contains(te.Args, "hunter2") {
			t.Fatal("arguments in events are not scrubbed")
		}
		if i == 3 && (te.Code != tools.CodeExecution || te.DurationMS <= 0) {
			t.Fatalf("error event: %+v", te)
		}
	}
}

func TestRegisterCloneList(t *testing.T) {
	t.Parallel()
	r := newRegistry(t, tools.Options{})
	dup := mustTool(t, tools.Spec{Name: "echo"}, func(context.Context, echoParams) (tools.Result, error) { return tools.Text(""), nil })
	if err := r.Register(dup); err == nil {
		t.Fatal("duplicate registered")
	}
	c := r.Clone()
	c.Unregister("boom")
	if _, ok := r.Get("boom"); !ok {
		t.Fatal("clone shares its map with the original")
	}
	if got := len(c.List()); got != 3 {
		t.Fatalf("clone has %d tools", got)
	}
	names := []string{}
	for _, tool := range r.List() {
		names = append(names, tool.Info().Name)
	}
	if strings.Join(names, ",") != "boom,echo,infra,leaky" {
		t.Fatalf("List order %v", names)
	}
}

func TestNewRejectsBadSpecs(t *testing.T) {
	t.Parallel()
	fn := func(context.Context, echoParams) (tools.Result, error) { return tools.Result{}, nil }
	for _, spec := range []tools.Spec{
		{Name: "", Group: "g", Description: "d"},
		{Name: "Bad Name", Group: "g", Description: "d"},
		{Name: "ok", Group: "", Description: "d"},
	} {
		if _, err := tools.New(spec, fn); err == nil {
			t.Fatalf("spec %+v accepted", spec)
		}
	}
	if _, err := tools.New[int](tools.Spec{Name: "x", Group: "g", Description: "d"}, func(context.Context, int) (tools.Result, error) { return tools.Result{}, nil }); err == nil {
		t.Fatal("non-struct params accepted")
	}
	tool, _ := tools.New(tools.Spec{Name: "rm", Group: "g", Description: "d", Danger: tools.DangerDangerous}, fn)
	if !tool.Info().RequiresConfirmation {
		t.Fatal("dangerous tool does not require confirmation")
	}
}

func TestSchemaJSON(t *testing.T) {
	t.Parallel()
	s, err := tools.SchemaFor[echoParams]()
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(s.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	props := doc["properties"].(map[string]any)
	if doc["type"] != "object" || doc["additionalProperties"] != false || len(props) != 4 {
		t.Fatalf("schema %s", s.JSON())
	}
	if req := doc["required"].([]any); len(req) != 1 || req[0] != "text" {
		t.Fatalf("required %v", req)
	}
	if props["mode"].(map[string]any)["enum"].([]any)[1] != "lower" {
		t.Fatalf("enum missing: %s", s.JSON())
	}
	if props["tags"].(map[string]any)["items"].(map[string]any)["type"] != "string" {
		t.Fatalf("items missing: %s", s.JSON())
	}
}

func TestWithToolsInjectsPerTask(t *testing.T) {
	t.Parallel()
	base := newRegistry(t, tools.Options{})
	plan := mustTool(t, tools.Spec{Name: "plan_create", Class: tools.ClassRuntime}, func(context.Context, echoParams) (tools.Result, error) {
		return tools.Text("plan"), nil
	})
	task, err := base.WithTools(plan)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := task.Get("plan_create"); !ok {
		t.Fatal("runtime tool missing from task registry")
	}
	if _, ok := base.Get("plan_create"); ok {
		t.Fatal("runtime tool leaked into the base registry")
	}
	if res, _ := call(t, task, "plan_create", `{"text":"x"}`, tools.CallContext{}); res.ForLLM != "plan" {
		t.Fatalf("%+v", res)
	}
	static := mustTool(t, tools.Spec{Name: "other"}, func(context.Context, echoParams) (tools.Result, error) { return tools.Text(""), nil })
	if _, err := base.WithTools(static); err == nil {
		t.Fatal("static tool injected per task")
	}
	if _, err := task.WithTools(plan); err == nil {
		t.Fatal("duplicate injection accepted")
	}
	if tools.ClassRuntime.String() != "runtime" || tools.ClassEngineScoped.String() != "engine" || tools.DangerCritical.String() != "critical" {
		t.Fatal("enum names")
	}
}

func TestConfirmationNeedsAnApprover(t *testing.T) {
	t.Parallel()
	fn := func(context.Context, echoParams) (tools.Result, error) { return tools.Text("ran"), nil }
	rm := func() tools.Tool {
		tool, err := tools.New(tools.Spec{Name: "rm", Group: "g", Description: "d", Danger: tools.DangerDangerous}, fn)
		if err != nil {
			t.Fatal(err)
		}
		return tool
	}
	self, _ := tools.New(tools.Spec{Name: "sh", Group: "g", Description: "d", Danger: tools.DangerDangerous, ConfirmsItself: true}, fn)
	if self.Info().RequiresConfirmation {
		t.Fatal("a tool that confirms itself is asked about by the registry")
	}
	var asked []string
	cases := []struct {
		approver tools.Approver
		code     tools.ErrorCode
	}{
		{nil, tools.CodePermission},
		{func(_ context.Context, info tools.Info, _ json.RawMessage) (bool, string, error) {
			asked = append(asked, info.Name)
			return false, "denied by the user", nil
		}, tools.CodePermission},
		{func(context.Context, tools.Info, json.RawMessage) (bool, string, error) { return true, "", nil }, ""},
		{func(context.Context, tools.Info, json.RawMessage) (bool, string, error) {
			return false, "", errors.New("store down")
		}, tools.CodeExecution},
	}
	for i, c := range cases {
		r := tools.NewRegistry(tools.Options{Approver: c.approver})
		_ = r.Register(rm())
		res, _ := call(t, r, "rm", `{"text":"x"}`, tools.CallContext{})
		if res.Code() != c.code {
			t.Fatalf("case %d: %+v", i, res)
		}
		// Invalid arguments are refused before anyone is asked.
		if res, _ := call(t, r, "rm", `{}`, tools.CallContext{}); res.Code() != tools.CodeValidation {
			t.Fatalf("case %d: validation after approval: %+v", i, res)
		}
	}
	if len(asked) != 1 {
		t.Fatalf("approver asked %d times", len(asked))
	}
}

// TestCallIDReachesTheTool: the approver and the tool see the call's id in
// their context, so an approval request can name the call it holds up.
func TestCallIDReachesTheTool(t *testing.T) {
	t.Parallel()
	var seen []string
	r := tools.NewRegistry(tools.Options{Approver: func(ctx context.Context, _ tools.Info, _ json.RawMessage) (bool, string, error) {
		seen = append(seen, "approver:"+tools.CallContextFrom(ctx).CallID)
		return true, "", nil
	}})
	tool := mustTool(t, tools.Spec{Name: "rm", RequiresConfirmation: true}, func(ctx context.Context, _ echoParams) (tools.Result, error) {
		seen = append(seen, "tool:"+tools.CallContextFrom(ctx).CallID)
		return tools.Text("ok"), nil
	})
	if err := r.Register(tool); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := r.ExecuteWithContext(ctx, tools.Call{ID: "call_7", Name: "rm", Args: json.RawMessage(`{"text":"x"}`)}); err != nil {
		t.Fatal(err)
	}
	// Without an id the registry makes one, and that one is passed on.
	if _, err := r.ExecuteWithContext(ctx, tools.Call{Name: "rm", Args: json.RawMessage(`{"text":"x"}`)}); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 4 || seen[0] != "approver:call_7" || seen[1] != "tool:call_7" || !strings.HasPrefix(seen[2], "approver:call-") || seen[3] != "tool:"+strings.TrimPrefix(seen[2], "approver:") {
		t.Fatalf("seen %q", seen)
	}
}
