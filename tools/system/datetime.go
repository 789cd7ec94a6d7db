package system

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"github.com/warren-dev/warren/tools"
)

//go:embed datetime.md
var datetimeDoc string

// DatetimeParams are the parameters of datetime.
type DatetimeParams struct {
	Timezone string `json:"timezone,omitempty" description:"IANA time zone such as Europe/Paris or UTC; the local zone when empty"`
}

func newDatetime(d Deps) (tools.Tool, error) {
	return tools.New(tools.Spec{
		Name: "datetime", Group: "automation", LongDescription: datetimeDoc,
		Description: "Current date and time in any time zone.",
	}, func(_ context.Context, p DatetimeParams) (tools.Result, error) {
		loc := time.Local
		if tz := strings.TrimSpace(p.Timezone); tz != "" {
			l, err := time.LoadLocation(tz)
			if err != nil || strings.EqualFold(tz, "local") {
				return tools.Errorf(tools.CodeValidation, "unknown time zone %q: use an IANA name such as Europe/Paris or UTC", tz), nil
			}
			loc = l
		}
		now := d.Now().In(loc)
		_, week := now.ISOWeek()
		name, offset := now.Zone()
		return tools.Text(fmt.Sprintf(
			"%s\nzone: %s (%s, UTC%s)\nweekday: %s\niso_week: %d\nunix: %d",
			now.Format(time.RFC3339), loc.String(), name, formatOffset(offset),
			now.Weekday(), week, now.Unix())), nil
	})
}

func formatOffset(sec int) string {
	sign := "+"
	if sec < 0 {
		sign, sec = "-", -sec
	}
	return fmt.Sprintf("%s%02d:%02d", sign, sec/3600, (sec%3600)/60)
}
