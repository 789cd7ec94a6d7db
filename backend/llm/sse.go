package llm

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// sseEvent is one server-sent event: its optional name and its data lines joined by "\n".
type sseEvent struct {
	Name string
	Data []byte
}

// errStopSSE lets a handler end reading early without reporting an error.
var errStopSSE = errors.New("stop reading")

// readSSE calls fn for each event in r. It returns nil at a clean EOF (the caller decides whether
// the stream was complete), a read error wrapped in ErrStreamDropped, or fn's error.
func readSSE(r io.Reader, fn func(sseEvent) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20) // one chunk may carry a large tool argument
	var ev sseEvent
	flush := func() error {
		if ev.Data == nil {
			ev.Name = ""
			return nil
		}
		err := fn(ev)
		ev = sseEvent{}
		return err
	}
	for sc.Scan() {
		line := sc.Bytes()
		var err error
		switch {
		case len(line) == 0:
			err = flush()
		case line[0] == ':': // comment / keep-alive
		default:
			field, value, _ := bytes.Cut(line, []byte(":"))
			value = bytes.TrimPrefix(value, []byte(" "))
			switch string(field) {
			case "data":
				if ev.Data != nil {
					ev.Data = append(ev.Data, '\n')
				}
				if ev.Data == nil {
					ev.Data = make([]byte, 0, len(value)) // non-nil marks "has data", even if empty
				}
				ev.Data = append(ev.Data, value...)
			case "event":
				ev.Name = string(value)
			}
		}
		if errors.Is(err, errStopSSE) {
			return nil
		} else if err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%w: %w", ErrStreamDropped, err)
	}
	if err := flush(); err != nil && !errors.Is(err, errStopSSE) {
		return err
	}
	return nil
}
