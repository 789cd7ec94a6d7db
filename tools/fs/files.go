package fs

import (
	"bytes"
	"fmt"
	"path"

	"github.com/warren-dev/warren/policy/paths"
	"github.com/warren-dev/warren/tools"
)

// binarySniffLen is how much of a file is checked for NUL bytes; text files
// practically never contain one, most binary formats do early on.
const binarySniffLen = 8 << 10

// isBinary reports a NUL byte in the first binarySniffLen bytes.
func isBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binarySniffLen)], 0) >= 0
}

func tooBig(name string, size int64) tools.Result {
	return tools.Errorf(tools.CodeValidation, "%s is %s, over the %s read limit; use search to find the part you need",
		name, humanBytes(size), humanBytes(MaxReadBytes))
}

// entryName joins a path below res into the form the agent would pass back.
func entryName(res paths.Resolved, sub string) string {
	if d := res.Display(); d != "." {
		return path.Join(d, sub)
	}
	return sub
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
