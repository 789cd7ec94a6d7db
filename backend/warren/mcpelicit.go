package warren

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/backend/events"
	"github.com/warren-dev/warren/backend/mcp"
)

// Elicitation: an MCP server asks the user for structured input
// (elicitation/create). The request is published on the bus; a window or
// terminal that can show it (Attach) answers with AnswerElicitation. With
// nobody to ask, the request is declined at once, with the reason logged
// and sent in the result's _meta.

// Elicitation topics.
const (
	TopicElicitation         events.Topic = "mcp.elicitation"
	TopicElicitationResolved events.Topic = "mcp.elicitation.resolved"
)

// ElicitationRequest is a server's question to the user.
type ElicitationRequest struct {
	ID      string `json:"id"`
	Server  string `json:"server"`
	Agent   string `json:"agent,omitempty"`
	Session string `json:"session,omitempty"`
	CallID  string `json:"call_id,omitempty"`
	Message string `json:"message"`
	// Schema is the requested JSON schema: an object of flat string,
	// number, integer, boolean and enum properties.
	Schema json.RawMessage `json:"schema"`
	// Fields are Schema read as a form.
	Fields  []ElicitField `json:"fields"`
	Created time.Time     `json:"created"`
}

// ElicitationAnswer is the user's answer: accept (with Content), decline or cancel.
type ElicitationAnswer struct {
	ID      string         `json:"id"`
	Action  string         `json:"action"`
	Content map[string]any `json:"content,omitempty"`
}

type elicitations struct {
	bus *events.Bus

	mu      sync.Mutex
	seq     int
	ui      int
	pending map[string]pendingElicitation
	forward ElicitationForwarder
}

// ElicitationForwarder passes a server's question on before Warren asks
// itself (the gateway: to its own MCP client's user); handled false leaves
// it to the window or terminal.
type ElicitationForwarder func(ctx context.Context, from mcp.Requester, p mcpgo.ElicitationParams) (res *mcpgo.ElicitationResult, handled bool, err error)

// ForwardElicitation sets the forwarder (nil removes it).
func (w *Warren) ForwardElicitation(fn ElicitationForwarder) {
	e := w.elicit()
	e.mu.Lock()
	e.forward = fn
	e.mu.Unlock()
}

type pendingElicitation struct {
	req ElicitationRequest
	ch  chan ElicitationAnswer
}

// AttachElicitationUI says a window or terminal shows elicitation requests
// until detach is called.
func (w *Warren) AttachElicitationUI() (detach func()) {
	e := w.elicit()
	e.mu.Lock()
	e.ui++
	e.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			e.mu.Lock()
			e.ui--
			e.mu.Unlock()
		})
	}
}

// PendingElicitations are the requests waiting for the user.
func (w *Warren) PendingElicitations() []ElicitationRequest {
	e := w.elicit()
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]ElicitationRequest, 0, len(e.pending))
	for _, p := range e.pending {
		out = append(out, p.req)
	}
	slices.SortFunc(out, func(a, b ElicitationRequest) int { return a.Created.Compare(b.Created) })
	return out
}

// AnswerElicitation answers a pending request; an accepted answer must fit
// the requested schema. It reports false when the request is gone.
func (w *Warren) AnswerElicitation(a ElicitationAnswer) (bool, error) {
	e := w.elicit()
	e.mu.Lock()
	p, ok := e.pending[a.ID]
	e.mu.Unlock()
	if !ok {
		return false, nil
	}
	switch mcpgo.ElicitationResponseAction(a.Action) {
	case mcpgo.ElicitationResponseActionAccept:
		if err := checkElicitAnswer(p.req.Schema, a.Content); err != nil {
			return false, err
		}
	case mcpgo.ElicitationResponseActionDecline, mcpgo.ElicitationResponseActionCancel:
		a.Content = nil
	default:
		return false, fmt.Errorf("unknown action %q (want accept, decline or cancel)", a.Action)
	}
	select {
	case p.ch <- a:
		return true, nil
	default:
		return false, nil // answered already
	}
}

func (w *Warren) elicit() *elicitations { return w.mcp.elicit }

// mcpElicit asks the user; it is mcp.ClientHandlers.Elicit.
func (w *Warren) mcpElicit(ctx context.Context, from mcp.Requester, p mcpgo.ElicitationParams) (*mcpgo.ElicitationResult, error) {
	decline := func(reason string) *mcpgo.ElicitationResult {
		w.log.Info("mcp elicitation declined", "server", from.Server, "reason", reason)
		r := &mcpgo.ElicitationResult{ElicitationResponse: mcpgo.ElicitationResponse{Action: mcpgo.ElicitationResponseActionDecline}}
		r.Meta = &mcpgo.Meta{AdditionalFields: map[string]any{"reason": reason}}
		return r
	}
	e := w.elicit()
	e.mu.Lock()
	forward := e.forward
	e.mu.Unlock()
	if forward != nil {
		if res, handled, err := forward(ctx, from, p); handled {
			return res, err
		}
	}
	if p.Mode != "" && p.Mode != mcpgo.ElicitationModeForm {
		return decline(fmt.Sprintf("Warren answers form elicitations only, not %q", p.Mode)), nil
	}
	schema, err := json.Marshal(p.RequestedSchema)
	if err != nil {
		return nil, fmt.Errorf("requestedSchema: %w", err)
	}
	fields, err := parseElicitSchema(schema)
	if err != nil {
		return decline("the requested schema is not a flat form: " + err.Error()), nil
	}
	cc := from.CallContext()
	e.mu.Lock()
	if e.ui == 0 {
		e.mu.Unlock()
		return decline("no window or terminal is there to ask the user"), nil
	}
	e.seq++
	req := ElicitationRequest{ID: fmt.Sprintf("eli-%d-%d", time.Now().UnixMilli(), e.seq), Server: from.Server, Agent: from.Agent,
		Session: cc.SandboxKey, CallID: cc.CallID, Message: p.Message, Schema: schema, Fields: fields, Created: time.Now().UTC()}
	ch := make(chan ElicitationAnswer, 1)
	e.pending[req.ID] = pendingElicitation{req: req, ch: ch}
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		delete(e.pending, req.ID)
		e.mu.Unlock()
	}()
	e.bus.Publish(events.Event{Topic: TopicElicitation, Payload: req})
	var ans ElicitationAnswer
	select {
	case ans = <-ch:
	case <-ctx.Done():
		ans = ElicitationAnswer{ID: req.ID, Action: string(mcpgo.ElicitationResponseActionCancel)}
	}
	e.bus.Publish(events.Event{Topic: TopicElicitationResolved, Payload: ans})
	res := &mcpgo.ElicitationResult{ElicitationResponse: mcpgo.ElicitationResponse{Action: mcpgo.ElicitationResponseAction(ans.Action)}}
	if ans.Content != nil {
		res.Content = ans.Content
	}
	return res, nil
}

// ElicitField is one field of an elicitation form.
type ElicitField struct {
	Name        string   `json:"name"`
	Title       string   `json:"title,omitempty"`
	Description string   `json:"description,omitempty"`
	Type        string   `json:"type"` // string, number, integer, boolean
	Enum        []string `json:"enum,omitempty"`
	Required    bool     `json:"required,omitempty"`
	Default     any      `json:"default,omitempty"`
}

// ParseElicitSchema reads a requested schema into form fields, in a stable order.
func ParseElicitSchema(schema json.RawMessage) ([]ElicitField, error) {
	return parseElicitSchema(schema)
}

func parseElicitSchema(schema json.RawMessage) ([]ElicitField, error) {
	var s struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	if s.Type != "object" {
		return nil, fmt.Errorf("schema type is %q, want object", s.Type)
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	out := make([]ElicitField, 0, len(names))
	for _, n := range names {
		var p struct {
			Type        string   `json:"type"`
			Title       string   `json:"title"`
			Description string   `json:"description"`
			Enum        []string `json:"enum"`
			OneOf       []struct {
				Const string `json:"const"`
			} `json:"oneOf"`
			Default any `json:"default"`
		}
		if err := json.Unmarshal(s.Properties[n], &p); err != nil {
			return nil, fmt.Errorf("property %s: %w", n, err)
		}
		f := ElicitField{Name: n, Title: p.Title, Description: p.Description, Type: p.Type, Enum: p.Enum,
			Required: slices.Contains(s.Required, n), Default: p.Default}
		for _, o := range p.OneOf {
			f.Enum = append(f.Enum, o.Const)
		}
		switch p.Type {
		case "string", "number", "integer", "boolean":
		case "array":
			// Multi-select enums are offered as free text lists nowhere:
			// the form shows them as not supported, so they stay unset.
			f.Type = "unsupported"
		default:
			return nil, fmt.Errorf("property %s has type %q (want string, number, integer or boolean)", n, p.Type)
		}
		out = append(out, f)
	}
	// Required fields first (the schema's own order is lost in decoding).
	slices.SortStableFunc(out, func(a, b ElicitField) int {
		switch {
		case a.Required == b.Required:
			return 0
		case a.Required:
			return -1
		}
		return 1
	})
	return out, nil
}

// checkElicitAnswer fails closed: every value must be a declared property
// of its type (and one of its enum values); required ones must be there.
func checkElicitAnswer(schema json.RawMessage, content map[string]any) error {
	fields, err := parseElicitSchema(schema)
	if err != nil {
		return err
	}
	byName := map[string]ElicitField{}
	for _, f := range fields {
		byName[f.Name] = f
		if _, ok := content[f.Name]; f.Required && !ok {
			return fmt.Errorf("%s is required", f.Name)
		}
	}
	for k, v := range content {
		f, ok := byName[k]
		if !ok {
			return fmt.Errorf("%s is not a field of the form", k)
		}
		if err := checkElicitValue(f, v); err != nil {
			return err
		}
	}
	return nil
}

func checkElicitValue(f ElicitField, v any) error {
	switch f.Type {
	case "string":
		s, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s must be text", f.Name)
		}
		if len(f.Enum) > 0 && !slices.Contains(f.Enum, s) {
			return fmt.Errorf("%s must be one of %v", f.Name, f.Enum)
		}
	case "number", "integer":
		n, ok := v.(float64)
		if !ok {
			return fmt.Errorf("%s must be a number", f.Name)
		}
		if f.Type == "integer" && n != float64(int64(n)) {
			return fmt.Errorf("%s must be a whole number", f.Name)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s must be true or false", f.Name)
		}
	default:
		return errors.New(f.Name + " cannot be answered in Warren's form")
	}
	return nil
}
