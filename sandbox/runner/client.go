package runner

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
)

// ErrNoRunner wraps dial failures: the runner (or its container) is gone,
// so the caller may recreate the container and retry.
var ErrNoRunner = errors.New("runner not reachable")

// Client talks to one runner over its socket. It holds no connection, so
// one Client serves any number of concurrent Execs.
type Client struct {
	// Socket is the host path of the runner's unix socket.
	Socket string
}

// Exec runs req and copies its output to stdout and stderr. Cancelling ctx
// (or its deadline) closes the connection, which makes the runner kill the
// command's process group; Exec then returns ctx's error.
func (c *Client) Exec(ctx context.Context, req ExecRequest, stdout, stderr io.Writer) (Exit, error) {
	conn, err := dialSocket(ctx, c.Socket)
	if err != nil {
		if ctx.Err() != nil {
			return Exit{}, ctx.Err()
		}
		return Exit{}, fmt.Errorf("%w: %w", ErrNoRunner, err)
	}
	defer func() { _ = conn.Close() }()
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()

	exit, err := exchange(conn, req, stdout, stderr)
	if err != nil && ctx.Err() != nil {
		return exit, ctx.Err()
	}
	return exit, err
}

// Ping checks that the runner answers and speaks this protocol version.
func (c *Client) Ping(ctx context.Context) error {
	exit, err := c.Exec(ctx, ExecRequest{Ping: true}, io.Discard, io.Discard)
	if err != nil {
		return err
	}
	if exit.Version != Version {
		return fmt.Errorf("runner speaks protocol %d, want %d (stale warren-runner binary?)", exit.Version, Version)
	}
	return nil
}

func exchange(conn net.Conn, req ExecRequest, stdout, stderr io.Writer) (Exit, error) {
	if err := WriteJSON(conn, FrameRequest, req); err != nil {
		return Exit{}, fmt.Errorf("send request: %w", err)
	}
	r := bufio.NewReaderSize(conn, 64<<10)
	buf := make([]byte, 0, 32<<10)
	for {
		typ, payload, err := ReadFrame(r, buf)
		buf = payload[:0]
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = io.ErrUnexpectedEOF
			}
			return Exit{}, fmt.Errorf("read from runner: %w", err)
		}
		switch typ {
		case FrameStdout:
			_, _ = stdout.Write(payload)
		case FrameStderr:
			_, _ = stderr.Write(payload)
		case FrameExit:
			var exit Exit
			if err := json.Unmarshal(payload, &exit); err != nil {
				return Exit{}, fmt.Errorf("bad exit frame: %w", err)
			}
			return exit, nil
		default:
			return Exit{}, fmt.Errorf("unexpected frame %q from runner", typ)
		}
	}
}
