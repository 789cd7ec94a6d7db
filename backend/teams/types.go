// Package teams is the data layer of agent teams (issue 11): teams and their
// members, the task board with its dependency graph and board rules, the
// audit trail and the mailbox, all in Warren's SQLite database.
//
// Every action takes an Actor and checks who may do it; a refusal is an
// *Error whose text names the rule, so a model can act on it. Orchestration
// (starting members' turns) lives elsewhere: actions return the tasks that
// became ready so the orchestrator can start them in the same step.
package teams

import (
	"encoding/json"
	"time"
)

// State is where a task is on the board.
type State string

// Task states (the board's eight columns).
const (
	StatePending    State = "pending"
	StateBlocked    State = "blocked"
	StateInProgress State = "in_progress"
	StateInReview   State = "in_review"
	StateCompleted  State = "completed"
	StateFailed     State = "failed"
	StateCancelled  State = "cancelled"
	StateStale      State = "stale"
)

// AllStates lists every state in board order.
func AllStates() []State {
	return []State{StatePending, StateBlocked, StateInProgress, StateInReview,
		StateCompleted, StateFailed, StateCancelled, StateStale}
}

// Valid reports whether s is one of the eight states.
func (s State) Valid() bool {
	for _, v := range AllStates() {
		if s == v {
			return true
		}
	}
	return false
}

// Finished reports whether the task will not move again without a retry.
func (s State) Finished() bool {
	return s == StateCompleted || s == StateFailed || s == StateCancelled
}

// Hold says why a task is paused whatever its blockers say.
type Hold string

// Holds.
const (
	HoldNone    Hold = ""
	HoldBlocker Hold = "blocker"  // a blocker comment; lifted by retry or assign
	HoldAskUser Hold = "ask_user" // an open question; lifted by answer or clear_ask_user
)

// ActorKind says who acts: an agent in its team role, the user, or Warren.
type ActorKind string

// Actor kinds.
const (
	ActorLead   ActorKind = "lead"
	ActorMember ActorKind = "member"
	ActorUser   ActorKind = "user"
	ActorSystem ActorKind = "system"
)

// Actor is who performs an action. Lead and member actors name an agent and
// are checked against the team; user and system names are informative.
type Actor struct {
	Kind ActorKind `json:"kind"`
	Name string    `json:"name"`
}

// User is the human at the keyboard (UI or CLI).
func User() Actor { return Actor{Kind: ActorUser, Name: "user"} }

// System is Warren itself (the orchestrator, recovery, stale detection).
func System() Actor { return Actor{Kind: ActorSystem, Name: "system"} }

// RecordKind is how the audit trail, comments and messages record an actor:
// the issue asks for agent, user or system.
type RecordKind string

// Recorded actor kinds.
const (
	RecordAgent  RecordKind = "agent"
	RecordUser   RecordKind = "user"
	RecordSystem RecordKind = "system"
)

// CommentType is a note or a blocker (which pauses the task).
type CommentType string

// Comment types.
const (
	CommentNote    CommentType = "note"
	CommentBlocker CommentType = "blocker"
)

// Order is how list sorts tasks.
type Order string

// List orders.
const (
	OrderPriority Order = "priority" // highest priority first, then oldest
	OrderNewest   Order = "newest"
)

// Escalation says who must resolve a blocker or answer a question.
type Escalation string

// Escalation targets.
const (
	EscalateNone Escalation = ""
	EscalateLead Escalation = "lead"
	EscalateUser Escalation = "user"
)

// Call says which team (and task) an action is about and who performs it.
type Call struct {
	Team string
	// Task is a human id such as "T-3" (or "3"); empty for team-level calls.
	Task string
	By   Actor
}

// Task is one card on the board.
type Task struct {
	ID          string `json:"id"` // T-<n>
	Team        string `json:"team"`
	Subject     string `json:"subject"`
	Description string `json:"description,omitempty"`
	// Priority runs from 0 (normal) to 3 (most urgent).
	Priority        int        `json:"priority"`
	State           State      `json:"state"`
	Owner           string     `json:"owner,omitempty"`
	RequireApproval bool       `json:"require_approval,omitempty"`
	Result          string     `json:"result,omitempty"`
	Progress        int        `json:"progress"`
	Step            string     `json:"step,omitempty"`
	BlockedBy       []string   `json:"blocked_by,omitempty"`
	Hold            Hold       `json:"hold,omitempty"`
	Reason          string     `json:"reason,omitempty"`
	EscalateTo      Escalation `json:"escalate_to,omitempty"`
	Question        string     `json:"question,omitempty"`
	Answer          string     `json:"answer,omitempty"`
	DispatchCount   int        `json:"dispatch_count"`
	DispatchedAt    time.Time  `json:"dispatched_at,omitzero"`
	HeartbeatAt     time.Time  `json:"heartbeat_at,omitzero"`
	CreatedByKind   RecordKind `json:"created_by_kind"`
	CreatedBy       string     `json:"created_by"`
	Created         time.Time  `json:"created"`
	Updated         time.Time  `json:"updated"`
	StateChanged    time.Time  `json:"state_changed"`
	Finished        time.Time  `json:"finished,omitzero"`
	Comments        int        `json:"comments"`
	Attachments     int        `json:"attachments"`

	rowID int64
	num   int
}

// Comment is a note or blocker on a task.
type Comment struct {
	ID         int64       `json:"id"`
	Type       CommentType `json:"type"`
	AuthorKind RecordKind  `json:"author_kind"`
	Author     string      `json:"author"`
	Text       string      `json:"text"`
	Created    time.Time   `json:"created"`
}

// Attachment is a file in the team workspace attached to a task.
type Attachment struct {
	// Path is relative to the team workspace, slash-separated.
	Path      string     `json:"path"`
	AddedKind RecordKind `json:"added_by_kind"`
	AddedBy   string     `json:"added_by"`
	Created   time.Time  `json:"created"`
}

// EventType names an audited action or transition.
type EventType string

// Event types.
const (
	EventTeamCreated  EventType = "team_created"
	EventTeamUpdated  EventType = "team_updated"
	EventTeamDeleted  EventType = "team_deleted" // published only: the team's rows are gone
	EventCreated      EventType = "created"
	EventUpdated      EventType = "updated"
	EventClaimed      EventType = "claimed"
	EventAssigned     EventType = "assigned"
	EventReviewAsked  EventType = "review_requested"
	EventCompleted    EventType = "completed"
	EventApproved     EventType = "approved"
	EventRejected     EventType = "rejected"
	EventCancelled    EventType = "cancelled"
	EventFailed       EventType = "failed"
	EventRetried      EventType = "retried"
	EventCommented    EventType = "commented"
	EventBlockerRaise EventType = "blocker"
	EventProgress     EventType = "progress"
	EventAttached     EventType = "attached"
	EventAsked        EventType = "ask_user"
	EventAskCleared   EventType = "ask_user_cleared"
	EventAskReminder  EventType = "ask_user_reminder" // the question is still open after the team's reminder interval
	EventAnswered     EventType = "answered"
	EventReady        EventType = "ready"   // a blocked task's blockers all completed
	EventBlocked      EventType = "blocked" // a task now waits on its blockers
	EventDispatched   EventType = "dispatched"
	EventStale        EventType = "stale"
	EventMessage      EventType = "message"
)

// Event is one audit record; the same value is handed to Config.Publish
// after its transaction commits.
type Event struct {
	ID        int64           `json:"id"`
	Team      string          `json:"team"`
	Task      string          `json:"task,omitempty"`
	Type      EventType       `json:"type"`
	ActorKind RecordKind      `json:"actor_kind"`
	Actor     string          `json:"actor"`
	Data      json.RawMessage `json:"data"`
	Time      time.Time       `json:"time"`
}

// Outcome is what a board action leaves behind.
type Outcome struct {
	Task Task `json:"task"`
	// Ready are tasks now pending with every blocker completed (possibly
	// Task itself): the orchestrator starts them in the same step.
	Ready []Task `json:"ready,omitempty"`
	// Stuck are dependents left blocked behind a failed or cancelled task:
	// the lead is told it can retry that task, change blocked_by or cancel.
	Stuck []Task `json:"stuck,omitempty"`
	// EndTurn names the agent whose running turn on Task must end (cancel,
	// reassignment, a blocker, a question to the user); "" when none.
	EndTurn string `json:"end_turn,omitempty"`
}

// TaskDetail is a task with everything attached to it.
type TaskDetail struct {
	Task        Task         `json:"task"`
	Dependents  []string     `json:"dependents,omitempty"`
	Comments    []Comment    `json:"comments"`
	Attachments []Attachment `json:"attachments"`
	Events      []Event      `json:"events"`
}
