package teams

import (
	"fmt"
	"strings"
)

// role is an actor checked against one team.
type role struct {
	kind ActorKind
	name string
}

// String describes the actor the way refusals end: "you are member 'bob'".
func (r role) String() string {
	switch r.kind {
	case ActorLead:
		return fmt.Sprintf("the lead '%s'", r.name)
	case ActorMember:
		return fmt.Sprintf("member '%s'", r.name)
	case ActorUser:
		return "the user"
	}
	return fmt.Sprintf("system '%s'", r.name)
}

// record is the kind the audit trail stores.
func (r role) record() RecordKind {
	switch r.kind {
	case ActorUser:
		return RecordUser
	case ActorSystem:
		return RecordSystem
	}
	return RecordAgent
}

func (r role) lead() bool   { return r.kind == ActorLead }
func (r role) user() bool   { return r.kind == ActorUser }
func (r role) system() bool { return r.kind == ActorSystem }
func (r role) agent() bool  { return r.kind == ActorLead || r.kind == ActorMember }

// owns reports whether the actor is the task's owner.
func (r role) owns(task Task) bool { return r.agent() && task.Owner != "" && task.Owner == r.name }

// resolve checks an actor against a team: a lead must be the team's lead, a
// member one of its agents. An agent that is the lead acts as the lead even
// when it calls itself a member.
func resolve(team Team, a Actor) (role, error) {
	name := strings.TrimSpace(a.Name)
	switch a.Kind {
	case ActorUser:
		if name == "" {
			name = "user"
		}
		return role{kind: ActorUser, name: name}, nil
	case ActorSystem:
		if name == "" {
			name = "system"
		}
		return role{kind: ActorSystem, name: name}, nil
	case ActorLead, ActorMember:
		if name == "" {
			return role{}, invalidf("an agent actor needs the agent's name")
		}
		if name == team.Lead {
			return role{kind: ActorLead, name: name}, nil
		}
		if !team.HasMember(name) {
			return role{}, &Error{Code: CodeDenied, Msg: fmt.Sprintf(
				"only the lead and members of team '%s' can use its board and mailbox; you are agent '%s', which is not in it",
				team.Key, name)}
		}
		if a.Kind == ActorLead {
			return role{}, denied(fmt.Sprintf("'%s' is a member of team '%s', not its lead ('%s')", name, team.Key, team.Lead),
				role{kind: ActorMember, name: name})
		}
		return role{kind: ActorMember, name: name}, nil
	}
	return role{}, invalidf("unknown actor kind %q: use lead, member, user or system", a.Kind)
}

// require refuses unless ok, naming the rule.
func (t *txn) require(ok bool, rule string, args ...any) error {
	if ok {
		return nil
	}
	return denied(fmt.Sprintf(rule, args...), t.who)
}

// leadOrUser is the rule for the steering actions (approve, reject, cancel,
// assign, update, retry); the system acts for the user.
func (t *txn) leadOrUser() bool { return t.who.lead() || t.who.user() || t.who.system() }

// teamAgent checks that name is the team's lead or one of its members.
func (t *txn) teamAgent(name, what string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", invalidf("%s is empty: name an agent of team '%s' (%s)", what, t.team.Key, t.team.roster())
	}
	if name != t.team.Lead && !t.team.HasMember(name) {
		return "", notFoundf("%s '%s' is not in team '%s'; its agents are %s", what, name, t.team.Key, t.team.roster())
	}
	return name, nil
}
