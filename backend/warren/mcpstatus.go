package warren

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/warren-dev/warren/backend/mcp"
)

// MCPServerView is a server's configuration with its status.
type MCPServerView struct {
	Server mcp.Server `json:"server"`
	Status mcp.Status `json:"status"`
	// Source says whose status this is when it comes from another process
	// (the window keeps servers running; the CLI only reads its snapshot).
	Source string `json:"source,omitempty"`
	// WriterGone: the process that ran this server and reported its status
	// is gone (or stopped reporting); Status.Warning says what it last said.
	WriterGone bool `json:"writer_gone,omitempty"`
}

// settingMCPStatus holds the window's latest status snapshot for the CLI.
const settingMCPStatus = "mcp.status_snapshot"

type statusSnapshot struct {
	// At is the writer's heartbeat: refreshed every snapshotEvery.
	At       time.Time    `json:"at"`
	PID      int          `json:"pid"`
	Statuses []mcp.Status `json:"statuses"`
}

// writerGone says why the snapshot's writer no longer speaks for its
// servers ("" while it does).
func (s statusSnapshot) writerGone(now time.Time) string {
	switch {
	case !mcp.ProcessAlive(s.PID):
		return fmt.Sprintf("the Warren process that ran it (pid %d) is gone", s.PID)
	case now.Sub(s.At) > snapshotStale:
		return fmt.Sprintf("the Warren process that ran it (pid %d) has not reported since %s", s.PID, s.At.Format(time.TimeOnly))
	}
	return ""
}

// MCPServerViews lists every server with its live status in this process,
// or — for servers this process does not run — the snapshot the running
// window saved, marked as such. A snapshot whose writer is gone (its
// process ended, or it stopped reporting) shows its servers as not running.
func (w *Warren) MCPServerViews(ctx context.Context) ([]MCPServerView, error) {
	list, err := w.MCP().Store().List(ctx)
	if err != nil {
		return nil, err
	}
	live, err := w.MCP().Statuses(ctx)
	if err != nil {
		return nil, err
	}
	byName := map[string]mcp.Status{}
	for _, st := range live {
		byName[st.Name] = st
	}
	snap := w.statusSnapshot(ctx)
	reported := map[string]mcp.Status{}
	gone := ""
	if snap.PID != 0 && snap.PID != os.Getpid() {
		gone = snap.writerGone(time.Now())
		for _, st := range snap.Statuses {
			reported[st.Name] = st
		}
	}
	out := make([]MCPServerView, 0, len(list))
	for _, s := range list {
		v := MCPServerView{Server: s, Status: byName[s.Name]}
		if st, ok := reported[s.Name]; ok && v.Status.State == mcp.StateStopped {
			switch {
			case gone == "":
				v.Status, v.Source = st, fmt.Sprintf("reported by the Warren window (pid %d) at %s", snap.PID, snap.At.Format(time.TimeOnly))
			case st.State != mcp.StateStopped:
				v.WriterGone = true
				v.Status.Warning = fmt.Sprintf("not running: %s (it last said %s at %s)", gone, st.State, snap.At.Format(time.DateTime))
			}
		}
		v.Status.Enabled = s.Enabled
		out = append(out, v)
	}
	return out, nil
}

// statusSnapshot is the last snapshot saved (zero when none).
func (w *Warren) statusSnapshot(ctx context.Context) statusSnapshot {
	var snap statusSnapshot
	if raw, ok, err := w.db.GetSetting(ctx, settingMCPStatus); err == nil && ok {
		_ = json.Unmarshal([]byte(raw), &snap)
	}
	return snap
}

// MCPRunner is the process id of another live Warren process that runs
// the MCP servers (the window), 0 when there is none.
func (w *Warren) MCPRunner(ctx context.Context) int {
	snap := w.statusSnapshot(ctx)
	if snap.PID == 0 || snap.PID == os.Getpid() || snap.writerGone(time.Now()) != "" {
		return 0
	}
	return snap.PID
}

// saveStatusSnapshot records this process's statuses for other processes:
// at once when they change, else every snapshotEvery as a heartbeat, so
// readers can tell a live window from a gone one.
func (w *Warren) saveStatusSnapshot(ctx context.Context, last *snapshotMark) {
	sts, err := w.MCP().Statuses(ctx)
	if err != nil {
		return
	}
	raw, err := json.Marshal(sts)
	if err != nil || (string(raw) == last.body && time.Since(last.at) < snapshotEvery) {
		return
	}
	snap, err := json.Marshal(statusSnapshot{At: time.Now(), PID: os.Getpid(), Statuses: sts})
	if err == nil && w.db.SetSetting(ctx, settingMCPStatus, string(snap)) == nil {
		*last = snapshotMark{body: string(raw), at: time.Now()}
	}
}

// dropStatusSnapshot removes this process's snapshot when it stops
// running servers, so nobody reads it as a crash.
func (w *Warren) dropStatusSnapshot(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	raw, ok, err := w.db.GetSetting(ctx, settingMCPStatus)
	if err != nil || !ok {
		return
	}
	var snap statusSnapshot
	if json.Unmarshal([]byte(raw), &snap) == nil && snap.PID == os.Getpid() {
		_ = w.db.DeleteSetting(ctx, settingMCPStatus)
	}
}

// snapshotEvery is how often an unchanged snapshot is refreshed (the
// writer's heartbeat); one older than snapshotStale means its writer hangs
// or is gone.
const (
	snapshotEvery = 2 * time.Second
	snapshotStale = 4 * snapshotEvery
)

type snapshotMark struct {
	body string
	at   time.Time
}
