package cli

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/warren-dev/warren/backend/teams"
)

// settingPairs lists settings as KEY=VALUE by key, the form --set takes.
func settingPairs(s teams.Settings) []string {
	raw, _ := json.Marshal(s)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	out := make([]string, 0, len(m))
	for k, v := range m {
		out = append(out, fmt.Sprintf("%s=%v", k, v))
	}
	sort.Strings(out)
	return out
}

// applySettings sets KEY=VALUE pairs on settings by their JSON names.
func applySettings(s teams.Settings, pairs []string) (teams.Settings, error) {
	raw, _ := json.Marshal(s)
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	known := make([]string, 0, len(m))
	for k := range m {
		known = append(known, k)
	}
	sort.Strings(known)
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return s, usagef("--set %q: use KEY=VALUE, e.g. --set max_working=2", p)
		}
		cur, found := m[k]
		if !found {
			return s, usagef("--set: unknown setting %q: use one of %s", k, strings.Join(known, ", "))
		}
		switch cur.(type) {
		case bool:
			b, err := strconv.ParseBool(v)
			if err != nil {
				return s, usagef("--set %s: %q is not true or false", k, v)
			}
			m[k] = b
		default:
			n, err := strconv.Atoi(v)
			if err != nil {
				return s, usagef("--set %s: %q is not a whole number", k, v)
			}
			m[k] = n
		}
	}
	raw, _ = json.Marshal(m)
	var out teams.Settings
	err := json.Unmarshal(raw, &out)
	return out, err
}

// parseMembers reads --member AGENT[=ROLE] flags.
func parseMembers(flags []string) ([]teams.Member, error) {
	out := make([]teams.Member, 0, len(flags))
	for _, f := range flags {
		agent, role, _ := strings.Cut(f, "=")
		if strings.TrimSpace(agent) == "" {
			return nil, usagef("--member %q: name an agent, e.g. --member coder=\"writes the code\"", f)
		}
		out = append(out, teams.Member{Agent: strings.TrimSpace(agent), Role: role})
	}
	return out, nil
}
