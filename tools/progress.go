package tools

import "context"

// ProgressFunc receives a running tool's progress: progress out of total
// (total 0 when unknown) and an optional message. MCP servers report it
// with notifications/progress; the agent loop turns it into events.
type ProgressFunc func(progress, total float64, message string)

type progressKey struct{}

// WithProgress asks the tool run with ctx to report its progress to fn.
func WithProgress(ctx context.Context, fn ProgressFunc) context.Context {
	return context.WithValue(ctx, progressKey{}, fn)
}

// ProgressFrom is the progress receiver of ctx, nil when nobody listens.
func ProgressFrom(ctx context.Context) ProgressFunc {
	fn, _ := ctx.Value(progressKey{}).(ProgressFunc)
	return fn
}
