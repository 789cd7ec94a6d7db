package tools

import "context"

// CallContext carries the per-call values the registry injects into ctx, so
// one tool instance can serve concurrent calls without mutable fields.
type CallContext struct {
	// CallID is the id of the tool call being run (the registry sets it),
	// so an approval request can name the call it holds up.
	CallID  string `json:"call_id,omitempty"`
	Channel string `json:"channel,omitempty"`
	ChatID  string `json:"chat_id,omitempty"`
	// PeerKind is "direct" or "group".
	PeerKind string `json:"peer_kind,omitempty"`
	// SandboxKey identifies the session: it keys rate limits and sandboxes.
	SandboxKey string `json:"sandbox_key,omitempty"`
	Workspace  string `json:"workspace,omitempty"`
	Agent      string `json:"agent,omitempty"`
	User       string `json:"user,omitempty"`
	// Sandbox overrides where commands run for this call: "podman", "host",
	// or "" for the configured default.
	Sandbox string `json:"sandbox,omitempty"`
	// Network lets sandboxed commands reach the network (opt-in per agent).
	Network bool `json:"network,omitempty"`
	// Profile is the policy profile of the run ("" = the global one), so
	// the policy gate judges calls the way the tool list was filtered.
	Profile string `json:"profile,omitempty"`
	// Depth is 0 for a top-level agent and n for a subagent n levels down;
	// policy takes tools away from subagents.
	Depth int `json:"depth,omitempty"`
}

type callContextKey struct{}

// WithCallContext returns ctx carrying cc.
func WithCallContext(ctx context.Context, cc CallContext) context.Context {
	return context.WithValue(ctx, callContextKey{}, cc)
}

// CallContextFrom returns the call context in ctx (zero value when absent).
func CallContextFrom(ctx context.Context) CallContext {
	cc, _ := ctx.Value(callContextKey{}).(CallContext)
	return cc
}

// ChannelFrom returns the channel the call came from.
func ChannelFrom(ctx context.Context) string { return CallContextFrom(ctx).Channel }

// ChatIDFrom returns the chat id of the call.
func ChatIDFrom(ctx context.Context) string { return CallContextFrom(ctx).ChatID }

// PeerKindFrom returns the peer kind of the call.
func PeerKindFrom(ctx context.Context) string { return CallContextFrom(ctx).PeerKind }

// SandboxKeyFrom returns the session/sandbox key of the call.
func SandboxKeyFrom(ctx context.Context) string { return CallContextFrom(ctx).SandboxKey }

// WorkspaceFrom returns the workspace directory of the call, or "".
func WorkspaceFrom(ctx context.Context) string { return CallContextFrom(ctx).Workspace }

// AgentFrom returns the agent key of the call.
func AgentFrom(ctx context.Context) string { return CallContextFrom(ctx).Agent }

// UserFrom returns the user id of the call.
func UserFrom(ctx context.Context) string { return CallContextFrom(ctx).User }
