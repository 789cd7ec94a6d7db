// Package runner is Warren's fast path into a sandbox container: a tiny
// exec service (Serve) that runs inside the container, started by the
// container's init, and its host-side Client. They talk over a unix socket
// in a host directory bind-mounted into the container, so a warm exec costs
// a socket connect and a fork instead of a Podman API exec (~67 ms, plus an
// exec session and conmon left behind for 300 s on Podman 4.x).
//
// The protocol is deliberately tiny. Each exec is one connection; every
// message is a frame: one type byte, a big-endian uint32 payload length,
// the payload. The client sends one request frame (JSON ExecRequest); the
// server answers with stdout and stderr frames (raw bytes) and ends with
// one exit frame (JSON Exit). Closing the connection early cancels the
// command: the server kills its process group.
package runner

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
)

// Version is the protocol version; the host refuses a runner that answers a
// ping with another one (an old binary left in a long-lived container).
const Version = 2

// SocketName is the runner's socket file inside its run directory.
const SocketName = "runner.sock"

// MaxFrame bounds a frame's payload so a misbehaving peer cannot make the
// other side allocate without limit.
const MaxFrame = 1 << 20

// Frame types.
const (
	FrameRequest byte = 'Q'
	FrameStdout  byte = 'O'
	FrameStderr  byte = 'E'
	FrameExit    byte = 'X'
)

// ExecRequest is one command for the runner.
type ExecRequest struct {
	// Ping asks for an Exit carrying Version and runs nothing: the host's
	// readiness and version check.
	Ping bool     `json:"ping,omitempty"`
	Argv []string `json:"argv,omitempty"`
	// Script, instead of Argv, is a shell script the runner runs with
	// Warren's interpreter (sandbox/script), judging each command and
	// redirection with the sandbox policy (policy/guard) as it runs.
	Script string `json:"script,omitempty"`
	// Workspace is the container path agents' files are in (the policy's
	// workspace); default /workspace.
	Workspace string `json:"workspace,omitempty"`
	// Dir is the working directory inside the container.
	Dir string `json:"dir,omitempty"`
	// Env is the complete environment (KEY=value); the runner's own is not
	// inherited. Its PATH is also where Argv[0] is looked up.
	Env []string `json:"env,omitempty"`
	// TimeoutMS kills the process group after this many milliseconds; 0
	// means no timeout (the host always sends one).
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
	// MaxOutput caps each stream; the rest is read and dropped.
	MaxOutput int `json:"max_output,omitempty"`
}

// Exit ends every answer.
type Exit struct {
	Version   int  `json:"version"`
	Code      int  `json:"code"`
	TimedOut  bool `json:"timed_out,omitempty"`
	Truncated bool `json:"truncated,omitempty"`
	// Error says why the command did not start (not found, bad dir);
	// Code is then -1.
	Error string `json:"error,omitempty"`
	// Refused says what the policy stopped a script at, and why.
	Refused string `json:"refused,omitempty"`
}

// WriteFrame writes one frame. Callers serialise concurrent writers.
func WriteFrame(w io.Writer, typ byte, payload []byte) error {
	if len(payload) > MaxFrame {
		return fmt.Errorf("frame of %d bytes exceeds %d", len(payload), MaxFrame)
	}
	var hdr [5]byte
	hdr[0] = typ
	binary.BigEndian.PutUint32(hdr[1:], uint32(len(payload))) //nolint:gosec // at most MaxFrame, checked above
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := w.Write(payload)
	return err
}

// WriteJSON writes v as one frame.
func WriteJSON(w io.Writer, typ byte, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return WriteFrame(w, typ, b)
}

// ReadFrame reads one frame into buf (grown as needed) and returns its type
// and payload, which aliases buf.
func ReadFrame(r *bufio.Reader, buf []byte) (byte, []byte, error) {
	var hdr [5]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return 0, buf, err
	}
	n := binary.BigEndian.Uint32(hdr[1:])
	if n > MaxFrame {
		return 0, buf, fmt.Errorf("frame of %d bytes exceeds %d", n, MaxFrame)
	}
	if cap(buf) < int(n) {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	if _, err := io.ReadFull(r, buf); err != nil {
		return 0, buf, fmt.Errorf("short frame: %w", err)
	}
	return hdr[0], buf, nil
}
