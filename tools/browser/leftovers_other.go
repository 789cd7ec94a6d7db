//go:build !linux

package browser

// killLeftovers only sweeps on Linux (it reads /proc); elsewhere the
// browser process chromedp kills is all Warren ends.
func killLeftovers(string) {}

// processesUsing is only implemented on Linux.
func processesUsing(string, bool) []int { return nil }

// processAlive cannot tell off Linux; assume the lock is stale and let
// Chromium decide.
func processAlive(int) bool { return false }
