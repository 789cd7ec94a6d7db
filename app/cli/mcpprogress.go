package cli

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"

	"golang.org/x/term"

	"github.com/warren-dev/warren/tools"
)

// progressPrinter shows a tool's progress on w: one line overwritten in
// place on a terminal, plain lines otherwise (logs, pipes). done clears the
// live line.
func progressPrinter(w io.Writer) (fn tools.ProgressFunc, done func()) {
	f, ok := w.(*os.File)
	tty := ok && term.IsTerminal(int(f.Fd()))
	var mu sync.Mutex
	shown := false
	fn = func(progress, total float64, message string) {
		line := progressLine(progress, total, message)
		mu.Lock()
		defer mu.Unlock()
		if tty {
			fmt.Fprintf(w, "\r\033[K%s", line)
			shown = true
			return
		}
		fmt.Fprintf(w, "progress: %s\n", line)
	}
	done = func() {
		mu.Lock()
		defer mu.Unlock()
		if shown {
			fmt.Fprint(w, "\r\033[K")
			shown = false
		}
	}
	return fn, done
}

// progressLine reads "42% message", or "step 3 message" without a total.
func progressLine(progress, total float64, message string) string {
	var b strings.Builder
	if total > 0 {
		fmt.Fprintf(&b, "%d%%", int(math.Round(100*min(progress/total, 1))))
	} else {
		fmt.Fprintf(&b, "%g", progress)
	}
	if m := strings.Join(strings.Fields(message), " "); m != "" {
		b.WriteString(" " + m)
	}
	return b.String()
}
