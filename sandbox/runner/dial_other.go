//go:build !linux

package runner

import (
	"context"
	"net"
)

// dialSocket: the runner runs in Linux containers only; elsewhere (tests
// of the client on other systems) a plain dial.
func dialSocket(ctx context.Context, path string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "unix", path)
}
