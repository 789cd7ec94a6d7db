//go:build !linux

// Command warren-runner only runs inside Linux containers; this stub keeps
// `go build ./...` working on other systems.
package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Fprintln(os.Stderr, "warren-runner runs inside Linux containers only (build it with GOOS=linux CGO_ENABLED=0)")
	os.Exit(2)
}
