package fs

import (
	"bytes"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path"
	"path/filepath"

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

// readText loads a text file from disk for res, refusing directories,
// devices and FIFOs (which could block), files over MaxReadBytes and binaries.
func readText(res paths.Resolved) (string, tools.Result, bool) {
	name := res.Display()
	fi, err := os.Stat(res.Real)
	if err != nil {
		return "", failure(name, "read", err), false
	}
	if fi.IsDir() {
		return "", tools.Errorf(tools.CodeValidation, "%s is a directory; use list_files to see its contents", name), false
	}
	if !fi.Mode().IsRegular() {
		return "", tools.Errorf(tools.CodeValidation, "%s is not a regular file (%s)", name, fi.Mode().Type()), false
	}
	if fi.Size() > MaxReadBytes {
		return "", tooBig(name, fi.Size()), false
	}
	f, err := os.Open(res.Real)
	if err != nil {
		return "", failure(name, "read", err), false
	}
	defer func() { _ = f.Close() }() // read-only: nothing to lose
	// Read one byte past the cap in case the file grew since Stat.
	data, err := io.ReadAll(io.LimitReader(f, MaxReadBytes+1))
	if err != nil {
		return "", failure(name, "read", err), false
	}
	if len(data) > MaxReadBytes {
		return "", tooBig(name, int64(len(data))), false
	}
	if isBinary(data) {
		return "", tools.Errorf(tools.CodeValidation, "%s looks like a binary file (NUL byte in the first 8 KB); only text files can be read", name), false
	}
	return string(data), tools.Result{}, true
}

func tooBig(name string, size int64) tools.Result {
	return tools.Errorf(tools.CodeValidation, "%s is %s, over the %s read limit; use search to find the part you need",
		name, humanBytes(size), humanBytes(MaxReadBytes))
}

// writeAtomic replaces file with data through a temp file in the same
// directory and a rename, so readers never see a half-written file. An
// existing file keeps its permissions.
func writeAtomic(file string, data []byte) error {
	mode := iofs.FileMode(0o644)
	if fi, err := os.Stat(file); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%w: is a directory", iofs.ErrInvalid)
		}
		mode = fi.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), ".warren-write-*.tmp")
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), file); err != nil {
		return err
	}
	done = true
	return nil
}

// appendFile appends data, creating the file when needed.
func appendFile(file string, data []byte) error {
	f, err := os.OpenFile(file, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// entryName joins a path below res into the form the agent would pass back.
func entryName(res paths.Resolved, sub string) string {
	if d := res.Display(); d != "." {
		return path.Join(d, sub)
	}
	return sub
}

// cutUTF8 shortens s to at most n bytes without splitting a rune.

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
