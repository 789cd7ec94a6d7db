package system

import (
	"context"
	_ "embed"
	"fmt"
	"time"

	"github.com/warren-dev/warren/tools"
)

//go:embed current_time.md
var currentTimeDoc string

// CurrentTimeParams are the (empty) parameters of current_time.
type CurrentTimeParams struct{}

func newCurrentTime(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "current_time", Group: "automation", LongDescription: currentTimeDoc,
		Description: "Current local date and time in several formats.",
	}, func(_ context.Context, _ CurrentTimeParams) (tools.Result, error) {
		now := d.Now()
		return tools.Text(fmt.Sprintf("rfc3339: %s\nhuman: %s\ndate: %s\nunix: %d",
			now.Format(time.RFC3339), now.Format("Monday, 2 January 2006 15:04:05 MST"),
			now.Format(time.DateOnly), now.Unix())), nil
	})
}
