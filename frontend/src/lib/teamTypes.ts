// Team board shapes (issue 11, "team:event", app/teams.go → backend/teams),
// split from types.ts, which re-exports them.
// ---- Teams (issue 11, "team:event", app/teams.go → backend/teams) ----

/** The eight places a task can be on the board, in board order. */
export type TaskState = 'pending' | 'blocked' | 'in_progress' | 'in_review' | 'completed' | 'failed' | 'cancelled' | 'stale';

/** teams.Settings: a team's knobs (seconds; 0 turns a limit off). */
export interface TeamSettings {
  blocker_escalation: boolean;
  task_timeout_sec: number;
  stale_pending_sec: number;
  stale_review_sec: number;
  max_dispatches: number;
  max_working: number;
  ask_reminder_sec: number;
  paused: boolean;
  allow_member_requests: boolean;
}

/** teams.Member: an agent on a team with its one-line role. */
export interface TeamMember {
  agent: string;
  role: string;
}

/** teams.Team. Times are RFC 3339. */
export interface Team {
  key: string;
  name: string;
  lead: string;
  lead_role: string;
  workspace: string;
  members: TeamMember[];
  settings: TeamSettings;
  created?: string;
  updated?: string;
}

/** teams.Task: one card on the board. Untrusted text: never render as HTML. */
export interface TeamTask {
  id: string;
  team: string;
  subject: string;
  description?: string;
  /** 0 (normal) to 3 (most urgent). */
  priority: number;
  state: TaskState;
  owner?: string;
  require_approval?: boolean;
  result?: string;
  progress: number;
  step?: string;
  blocked_by?: string[];
  hold?: '' | 'blocker' | 'ask_user';
  reason?: string;
  escalate_to?: '' | 'lead' | 'user';
  question?: string;
  answer?: string;
  dispatch_count: number;
  created_by_kind: string;
  created_by: string;
  created: string;
  updated: string;
  state_changed: string;
  finished?: string;
  comments: number;
  attachments: number;
}

export interface TeamComment {
  id: number;
  type: 'note' | 'blocker';
  author_kind: string;
  author: string;
  text: string;
  created: string;
}

export interface TeamAttachment {
  path: string;
  added_by_kind: string;
  added_by: string;
  created: string;
}

/** teams.Event: one audit record, also what "team:event" carries. */
export interface TeamEvent {
  id: number;
  team: string;
  task?: string;
  type: string;
  actor_kind: string;
  actor: string;
  data: Record<string, unknown> | null;
  time: string;
}

export interface TeamTaskDetail {
  task: TeamTask;
  dependents?: string[];
  comments: TeamComment[];
  attachments: TeamAttachment[];
  events: TeamEvent[];
}

/** app.TeamTaskInput: the "new task" form. */
export interface TeamTaskInput {
  subject: string;
  description: string;
  priority: number;
  assignee: string;
  blocked_by: string[];
  require_approval: boolean;
}

/** app.TeamTalk: where a message to a team's lead went. */
export interface TeamTalk {
  session: string;
  run_id: string;
  /** True for a team request; false when it went as a plain chat turn. */
  request: boolean;
}
