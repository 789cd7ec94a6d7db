package mcp

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// maxLogBytes is where a server log rotates to name.log.1.
const maxLogBytes = 1 << 20

// serverLog is a server's stderr log: a file under the log directory plus
// the recent lines in memory.
type serverLog struct {
	file *os.File
	sink *logSink
}

// openServerLog opens (appending) the server's log file; without a log
// directory, or when the file cannot be opened, lines stay in memory only.
func openServerLog(dir, name string) *serverLog {
	l := &serverLog{}
	if dir != "" {
		if f, err := openLogFile(dir, name); err == nil {
			l.file = f
		}
	}
	if l.file != nil {
		l.sink = newLogSink(l.file)
		fmt.Fprintf(l.file, "--- %s warren: starting %s\n", time.Now().Format(time.RFC3339), name)
	} else {
		l.sink = newLogSink(nil)
	}
	return l
}

func openLogFile(dir, name string) (*os.File, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := logPath(dir, name)
	if fi, err := os.Stat(path); err == nil && fi.Size() > maxLogBytes {
		_ = os.Rename(path, path+".1")
	}
	return os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600) //nolint:gosec // name is validated ([A-Za-z0-9_-])
}

func logPath(dir, name string) string { return filepath.Join(dir, name+".log") }

func (l *serverLog) close() {
	if l.file != nil {
		_ = l.file.Close()
	}
}

// ReadLog returns up to n last lines of a server's log file.
func ReadLog(dir, name string, n int) ([]string, error) {
	if err := ValidateName("server name", name); err != nil {
		return nil, err
	}
	f, err := os.Open(logPath(dir, name)) //nolint:gosec // name is validated above
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	const window = 256 << 10
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	off := max(fi.Size()-window, 0)
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	if off > 0 {
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			data = data[i+1:]
		}
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) == 1 && lines[0] == "" {
		return nil, nil
	}
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return lines, nil
}
