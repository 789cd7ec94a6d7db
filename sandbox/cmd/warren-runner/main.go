//go:build linux

// Command warren-runner is the exec service inside a Warren sandbox
// container (see package sandbox/runner). Podman starts it under its init;
// it listens on a unix socket in a bind-mounted host directory. Build it
// static (CGO_ENABLED=0): it runs in images that have no libc.
package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/warren-dev/warren/sandbox/runner"
)

func main() {
	socket := flag.String("socket", "/.warren/run/"+runner.SocketName, "unix socket to listen on")
	dataLimit := flag.Uint64("rlimit-data", 0, "cap each command's data (RLIMIT_DATA, bytes) where cgroups cannot cap memory; 0: none")
	flag.Parse()
	if *dataLimit > 0 {
		// Set here, after the container runtime finished its own start-up
		// (a small limit on the container itself stops runc), and
		// inherited by every command.
		if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &syscall.Rlimit{Cur: *dataLimit, Max: *dataLimit}); err != nil {
			fmt.Fprintln(os.Stderr, "warren-runner: rlimit-data:", err)
			os.Exit(1)
		}
	}
	if err := serve(*socket); err != nil {
		fmt.Fprintln(os.Stderr, "warren-runner:", err)
		os.Exit(1)
	}
}

func serve(socket string) error {
	// A socket left by an earlier start of this container blocks Listen.
	_ = os.Remove(socket)
	// Only the owner (the container user, i.e. the host user under keep-id)
	// and root may connect. The umask is restored before any command runs,
	// so files commands create keep the usual 022 modes.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	old := syscall.Umask(0o077)
	ln, err := (&net.ListenConfig{}).Listen(ctx, "unix", socket)
	syscall.Umask(old)
	if err != nil {
		return err
	}
	return runner.Serve(ctx, ln, runner.ServeOptions{
		Logf: func(format string, args ...any) { fmt.Fprintf(os.Stderr, "warren-runner: "+format+"\n", args...) },
	})
}
