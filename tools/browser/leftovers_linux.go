//go:build linux

package browser

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// killLeftovers kills every process that still runs with dir as its
// user-data-dir. Chromium's helpers (zygote, renderers, GPU, network
// service) get the flag too and can outlive the main process when it is
// killed; chromedp only sweeps its own temporary profiles, not a
// persistent per-agent one. A helper may fork just as the main process
// dies, so the sweep repeats until it finds nothing a few times in a row.
func killLeftovers(dir string) {
	deadline := time.Now().Add(3 * time.Second)
	for quiet := 0; quiet < 3 && time.Now().Before(deadline); {
		if len(processesUsing(dir, true)) == 0 {
			quiet++
		} else {
			quiet = 0
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// processesUsing returns the pids whose command line holds
// --user-data-dir=dir, killing them first when kill is set.
func processesUsing(dir string, kill bool) []int {
	want := []byte("--user-data-dir=" + dir)
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	self := os.Getpid()
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
			continue
		}
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		if hasArg(cmdline, want) {
			if kill {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
			out = append(out, pid)
		}
	}
	return out
}

// hasArg reports whether cmdline holds arg as a whole argument. Chromium's
// helpers rewrite their process title, so their arguments may be joined
// by spaces instead of NULs.
func hasArg(cmdline, arg []byte) bool {
	for rest := cmdline; ; {
		i := bytes.Index(rest, arg)
		if i < 0 {
			return false
		}
		before := i == 0 || rest[i-1] == 0 || rest[i-1] == ' '
		end := i + len(arg)
		after := end == len(rest) || rest[end] == 0 || rest[end] == ' '
		if before && after {
			return true
		}
		rest = rest[i+1:]
	}
}

// processAlive reports whether pid runs (zombies count as gone).
func processAlive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	if i := bytes.LastIndexByte(stat, ')'); i >= 0 && i+2 < len(stat) {
		return stat[i+2] != 'Z'
	}
	return true
}
