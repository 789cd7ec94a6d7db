package podman

import (
	"context"
	"errors"
	"fmt"
	"github.com/warren-dev/warren/tools"
	"os/user"
	"strconv"
	"strings"
)

// SetupError is a problem with the host's set-up that stops the sandbox
// from doing what was asked (a workspace the sandbox user cannot enter, no
// network device for slirp4netns). It names the cause and the fix in one
// line each, and it does not wrap sandbox.ErrUnavailable: the command is
// refused rather than run on the host behind the user's back.
type SetupError struct {
	// Cause says what is wrong, in one line.
	Cause string
	// Fix says what makes it work, in one line.
	Fix string
}

func (e *SetupError) Error() string { return e.Cause + ". Fix: " + e.Fix }

// tunDevice is the device slirp4netns opens to give a rootless container
// its network.
const tunDevice = "/dev/net/tun"

// tunFix is the standard mode of the device; scripts/podman-setup.sh sets it.
const tunFix = "sudo chmod 0666 " + tunDevice + " (its usual mode; scripts/podman-setup.sh sets it), or turn the agent's network off"

// userLabel names a host user for messages: "warren-sandbox (uid 1001)".
func userLabel(o owner) string {
	id := strconv.Itoa(o.uid)
	if u, err := user.LookupId(id); err == nil {
		return u.Username + " (uid " + id + ")"
	}
	return "uid " + id
}

// explainStartError turns Podman's raw create/start failures whose cause
// is known into a SetupError; others are returned as they are.
func explainStartError(err error, in startCheck) error {
	if err == nil {
		return nil
	}
	var se *SetupError
	if errors.As(err, &se) {
		return err
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, tunDevice) || (in.Network && strings.Contains(msg, "slirp4netns")):
		if c := checkTun(in.User); c != nil {
			return c
		}
		return &SetupError{
			Cause: "the sandbox could not give this agent a network: slirp4netns failed (" + firstLine(msg) + ")",
			Fix:   "run `warren sandbox doctor` to see which part of the network set-up is missing, or turn the agent's network off",
		}
	case in.Workspace != "" && strings.Contains(msg, "permission denied") &&
		(strings.Contains(msg, "statfs") || strings.Contains(msg, "chdir to cwd") || strings.Contains(msg, in.Workspace)):
		if c := checkWorkspace(in.Workspace, in.User); c != nil {
			return c
		}
		return &SetupError{
			Cause: fmt.Sprintf("the sandbox user %s cannot use the workspace %s (%s)", userLabel(in.User), in.Workspace, firstLine(msg)),
			Fix:   "give that user read, write and search access to the workspace and search access to every folder above it, or pick another workspace",
		}
	}
	return err
}

// startCheck is what a container is about to be started with, for the
// checks that run before Podman is asked.
type startCheck struct {
	Workspace string
	Network   bool
	// User is the host user the container's processes (and, rootless,
	// the service and slirp4netns) run as; uid < 0 means unknown.
	User owner
	// Rootless is true when slirp4netns gives the network.
	Rootless bool
}

// preflight refuses a start the host cannot satisfy, naming the cause and
// the fix, instead of letting Podman fail with a raw message.
func preflight(in startCheck) error {
	if in.Workspace != "" {
		if err := checkWorkspace(in.Workspace, in.User); err != nil {
			return err
		}
	}
	if in.Network && in.Rootless {
		if err := checkTun(in.User); err != nil {
			return err
		}
	}
	return nil
}

// firstLine is the first line of a (multi-line) error, for a one-line cause.
func firstLine(s string) string { return tools.FirstLine(strings.TrimSpace(s), 200) }

// preflight runs the checks before a container starts. A workspace Warren
// made itself (Options.OwnWorkspace) that the container user cannot use is
// handed to that user first (Warren running as root with an unprivileged
// user's rootless service).
func (m *Manager) preflight(in startCheck) error {
	if in.Workspace != "" && m.opts.OwnWorkspace != nil && m.opts.OwnWorkspace(in.Workspace) && checkWorkspace(in.Workspace, in.User) != nil {
		if err := handTo(in.Workspace, in.User); err != nil {
			return &SetupError{
				Cause: fmt.Sprintf("Warren's workspace %s could not be given to the sandbox user %s: %v", in.Workspace, userLabel(in.User), err),
				Fix:   "run Warren as the owner of its data directory, or set a workspace that user can write",
			}
		}
	}
	return preflight(in)
}

// CheckWorkspace says, as a SetupError, why sandboxed commands could not
// use dir as their workspace on the connected service (nil when they can,
// or when there is no service to ask). A workspace Warren made itself is
// handed to the container user first, as a command would.
func (m *Manager) CheckWorkspace(ctx context.Context, dir string) error {
	s, err := m.session(ctx)
	if err != nil {
		return nil
	}
	_, cuser := containerUser(s, dir)
	return m.preflight(startCheck{Workspace: dir, User: cuser, Rootless: s.info.Host.Security.Rootless})
}

// CheckNetwork says, as a SetupError, why a container with the network
// opt-in could not start (nil when it can, or there is no service).
func (m *Manager) CheckNetwork(ctx context.Context) error {
	s, err := m.session(ctx)
	if err != nil || !s.info.Host.Security.Rootless {
		return nil
	}
	return checkTun(s.owner)
}

// userName is a host user's login name, or its uid.
func userName(o owner) string {
	if u, err := user.LookupId(strconv.Itoa(o.uid)); err == nil {
		return u.Username
	}
	return strconv.Itoa(o.uid)
}
