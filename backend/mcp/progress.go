package mcp

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/warren-dev/warren/tools"
)

// ProgressFunc receives the progress notifications of one tool call.
type ProgressFunc = tools.ProgressFunc

// WithProgress asks the tool calls made with ctx to report progress to fn:
// the call then carries a progress token, and the server's
// notifications/progress for it reach fn.
func WithProgress(ctx context.Context, fn ProgressFunc) context.Context {
	return tools.WithProgress(ctx, fn)
}

func progressFrom(ctx context.Context) ProgressFunc { return tools.ProgressFrom(ctx) }

// progressRoutes maps the progress tokens of one connection's calls in
// flight to their receivers.
type progressRoutes struct {
	mu   sync.Mutex
	next uint64
	m    map[string]ProgressFunc
}

// add gives fn a token; remove forgets it when the call ends.
func (r *progressRoutes) add(fn ProgressFunc) (token string, remove func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.m == nil {
		r.m = map[string]ProgressFunc{}
	}
	r.next++
	token = "warren-" + strconv.FormatUint(r.next, 10)
	r.m[token] = fn
	return token, func() {
		r.mu.Lock()
		delete(r.m, token)
		r.mu.Unlock()
	}
}

// route hands a notifications/progress to its call's receiver; other
// notifications and unknown tokens are ignored.
func (r *progressRoutes) route(n mcp.JSONRPCNotification) {
	if n.Method != string(mcp.MethodNotificationProgress) {
		return
	}
	f := n.Params.AdditionalFields
	token := fmt.Sprint(f["progressToken"])
	r.mu.Lock()
	fn := r.m[token]
	r.mu.Unlock()
	if fn == nil {
		return
	}
	progress, _ := f["progress"].(float64)
	total, _ := f["total"].(float64)
	msg, _ := f["message"].(string)
	fn(progress, total, msg)
}

// withProgressToken sets a progress token on req when ctx asks for
// progress; call the returned function when the call ends.
func (c *conn) withProgressToken(ctx context.Context, req *mcp.CallToolRequest) (done func()) {
	fn := progressFrom(ctx)
	if fn == nil {
		return func() {}
	}
	token, remove := c.progress.add(fn)
	req.Params.Meta = &mcp.Meta{ProgressToken: token}
	return remove
}
