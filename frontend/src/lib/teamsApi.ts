// The real WarrenApi's Teams calls (issue 11), spread into wailsApi by
// api.ts. The user acts on the board as "user".
import * as App from '../../wailsjs/go/app/App';
import { subscribe } from './subscribe';
import type { Team, TeamEvent, TeamSettings, TeamTask, TeamTaskDetail, TeamTaskInput, TeamTalk } from './types';

/** The Teams tab's calls. */
export interface TeamsApi {
  teams(): Promise<Team[]>;
  defaultTeamSettings(): Promise<TeamSettings>;
  /** Rejects with the board's sentence (unknown agent, lead listed as a member…). */
  createTeam(team: Team): Promise<Team>;
  updateTeam(team: Team): Promise<Team>;
  deleteTeam(key: string): Promise<void>;
  /** Every task of a team, in every state. */
  teamTasks(team: string): Promise<TeamTask[]>;
  teamTask(team: string, id: string): Promise<TeamTaskDetail>;
  createTeamTask(team: string, task: TeamTaskInput): Promise<TeamTask>;
  cancelTeamTask(team: string, id: string, reason: string): Promise<TeamTask>;
  /** assignee "" keeps the owner; note becomes a comment the new dispatch carries. */
  retryTeamTask(team: string, id: string, assignee: string, note: string): Promise<TeamTask>;
  approveTeamTask(team: string, id: string): Promise<TeamTask>;
  rejectTeamTask(team: string, id: string, reason: string): Promise<TeamTask>;
  assignTeamTask(team: string, id: string, assignee: string): Promise<TeamTask>;
  commentTeamTask(team: string, id: string, text: string): Promise<TeamTask>;
  /** Answers a member's ask_user question; the task resumes. */
  answerTeamTask(team: string, id: string, answer: string): Promise<TeamTask>;
  /** A team's audit trail after afterId, oldest first. */
  teamEvents(team: string, afterId: number, limit: number): Promise<TeamEvent[]>;
  /** Subscribes to board and mailbox events of every team; returns the unsubscribe function. */
  onTeamEvent(handler: (ev: TeamEvent) => void): () => void;
  /** Sends the user's message to a team's lead (a team request; a plain chat turn when orchestration is off). */
  talkToTeamLead(team: string, session: string, prompt: string): Promise<TeamTalk>;
}

/** The event name app/ emits team board and mailbox events (teams.Event) under. */
export const teamEventName = 'team:event';

/** "team:event" carries the bus event ({topic, time, payload: teams.Event}); the UI wants the teams.Event. */
export function teamEventFromWire(ev: unknown): TeamEvent {
  const w = (ev ?? {}) as { payload?: unknown; team?: unknown };
  return (w.team === undefined && w.payload && typeof w.payload === 'object' ? w.payload : w) as TeamEvent;
}

export function teamsCalls(): TeamsApi {
  return {
    teams: async () => ((await App.Teams()) ?? []) as unknown as Team[],
    defaultTeamSettings: async () => (await App.DefaultTeamSettings()) as unknown as TeamSettings,
    createTeam: async (t) => (await App.CreateTeam(t as never)) as unknown as Team,
    updateTeam: async (t) => (await App.UpdateTeam(t as never)) as unknown as Team,
    deleteTeam: (key) => App.DeleteTeam(key),
    teamTasks: async (team) => ((await App.TeamTasks(team)) ?? []) as unknown as TeamTask[],
    teamTask: async (team, id) => (await App.TeamTask(team, id)) as unknown as TeamTaskDetail,
    createTeamTask: async (team, t) => (await App.CreateTeamTask(team, t as never)) as unknown as TeamTask,
    cancelTeamTask: async (team, id, reason) => (await App.CancelTeamTask(team, id, reason)) as unknown as TeamTask,
    retryTeamTask: async (team, id, assignee, note) => (await App.RetryTeamTask(team, id, assignee, note)) as unknown as TeamTask,
    approveTeamTask: async (team, id) => (await App.ApproveTeamTask(team, id)) as unknown as TeamTask,
    rejectTeamTask: async (team, id, reason) => (await App.RejectTeamTask(team, id, reason)) as unknown as TeamTask,
    assignTeamTask: async (team, id, assignee) => (await App.AssignTeamTask(team, id, assignee)) as unknown as TeamTask,
    commentTeamTask: async (team, id, text) => (await App.CommentTeamTask(team, id, text)) as unknown as TeamTask,
    answerTeamTask: async (team, id, answer) => (await App.AnswerTeamTask(team, id, answer)) as unknown as TeamTask,
    teamEvents: async (team, afterId, limit) => ((await App.TeamEvents(team, afterId, limit)) ?? []) as unknown as TeamEvent[],
    onTeamEvent: (handler) => subscribe(teamEventName, (ev: unknown) => handler(teamEventFromWire(ev))),
    talkToTeamLead: async (team, session, prompt) => (await App.TalkToTeamLead(team, session, prompt)) as unknown as TeamTalk,
  };
}
