package policy

import (
	"fmt"
	"strings"
)

// Profile is a preset allow set applied at the start of the pipeline.
type Profile uint8

// The zero Profile is deliberately invalid so "not set" (inherit) can never be
// confused with an explicit "full".
const (
	// ProfileFull allows every registered tool.
	ProfileFull Profile = iota + 1
	// ProfileCoding allows the tools a coding agent needs.
	ProfileCoding
	// ProfileMessaging allows the tools a chat/messaging agent needs.
	ProfileMessaging
	// ProfileMinimal allows session_status only.
	ProfileMinimal
)

var profileNames = [...]string{
	ProfileFull:      "full",
	ProfileCoding:    "coding",
	ProfileMessaging: "messaging",
	ProfileMinimal:   "minimal",
}

// Profiles lists every valid profile in display order.
func Profiles() []Profile {
	return []Profile{ProfileFull, ProfileCoding, ProfileMessaging, ProfileMinimal}
}

// String returns the profile's config name, e.g. "coding".
func (p Profile) String() string {
	if p.valid() {
		return profileNames[p]
	}
	return fmt.Sprintf("Profile(%d)", uint8(p))
}

func (p Profile) valid() bool {
	return p >= ProfileFull && p <= ProfileMinimal
}

// ParseProfile parses a config name; names are exact (lower case) so a stored
// config means the same thing everywhere.
func ParseProfile(s string) (Profile, error) {
	for _, p := range Profiles() {
		if profileNames[p] == s {
			return p, nil
		}
	}
	return 0, errorf(ErrUnknownProfile, "unknown profile %q (want one of %s)", s, profileList())
}

func profileList() string {
	names := make([]string, 0, len(profileNames))
	for _, p := range Profiles() {
		names = append(names, p.String())
	}
	return strings.Join(names, ", ")
}

// MarshalText encodes the profile as its name.
func (p Profile) MarshalText() ([]byte, error) {
	if !p.valid() {
		return nil, errorf(ErrUnknownProfile, "cannot encode %s", p)
	}
	return []byte(p.String()), nil
}

// UnmarshalText decodes a profile name.
func (p *Profile) UnmarshalText(b []byte) error {
	v, err := ParseProfile(string(b))
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// Entries returns the allow entries a profile expands to; nil for full, which
// applies no restriction at all (it also admits MCP and custom tools).
//
// coding goes beyond the seed table on purpose: group:system (get_env,
// workspace_dir) because coding agents need to locate their workspace, and the
// read-only clocks datetime/current_time and the planning tools plan_create and
// todo_update (mistermorph's runtime tools; they only touch the agent's own
// state) from group:automation, and message from group:messaging (on a
// desktop it only reaches the user at the keyboard). cron is left out
// because scheduling outlives the session and should be granted explicitly
// (alsoAllow: ["cron"]).
func (p Profile) Entries() []string {
	switch p {
	case ProfileCoding:
		return []string{
			"group:fs", "group:runtime", "group:sessions", "group:memory", "group:web",
			"group:knowledge", "group:media_gen", "group:media_read", "group:skills",
			"group:system", "datetime", "current_time", "plan_create", "todo_update", "message",
		}
	case ProfileMessaging:
		return []string{"group:messaging", "group:web", "group:sessions", "group:media_read", "skill_search"}
	case ProfileMinimal:
		return []string{"session_status"}
	default:
		return nil
	}
}
