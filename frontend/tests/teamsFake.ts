// The Teams part of the fake WarrenApi (fakeApi.ts spreads it in): teams and
// a board in memory with the backend's main rules (T-n ids, blocked_by,
// which states allow which action), publishing a "team:event" per change.
import { vi } from 'vitest';
import type { Team, TeamComment, TeamEvent, TeamSettings, TeamTask, TeamTaskDetail, TeamTaskInput, TeamTalk, TaskState } from '../src/lib/types';

export interface TeamsFakeState {
  teams: Team[];
  tasks: Record<string, TeamTask[]>;
  comments: Record<string, TeamComment[]>;
  events: TeamEvent[];
  /** When set, the next board action rejects with it. */
  failNext: string | null;
  /** Messages sent to a lead, in order. */
  talks: { team: string; session: string; prompt: string }[];
}

export const TEAM_DEFAULTS: TeamSettings = {
  blocker_escalation: true,
  task_timeout_sec: 1800,
  stale_pending_sec: 86400,
  stale_review_sec: 86400,
  max_dispatches: 3,
  max_working: 0,
  ask_reminder_sec: 3600,
  paused: false,
  allow_member_requests: false,
};

const NOW = '2026-01-02T03:04:05Z';

export function makeTeam(over: Partial<Team> = {}): Team {
  return {
    key: 'crew',
    name: 'Crew',
    lead: 'default',
    lead_role: 'Plans the work',
    workspace: '/tmp/crew',
    members: [{ agent: 'reviewer', role: 'Checks every result' }],
    settings: { ...TEAM_DEFAULTS },
    ...over,
  };
}

export function makeTask(over: Partial<TeamTask> = {}): TeamTask {
  return {
    id: 'T-1',
    team: 'crew',
    subject: 'A task',
    priority: 0,
    state: 'pending',
    progress: 0,
    dispatch_count: 0,
    created_by_kind: 'user',
    created_by: 'user',
    created: NOW,
    updated: NOW,
    state_changed: NOW,
    comments: 0,
    attachments: 0,
    ...over,
  };
}

export function teamsFake() {
  const state: TeamsFakeState = { teams: [], tasks: {}, comments: {}, events: [], failNext: null, talks: [] };
  let listener: ((ev: TeamEvent) => void) | null = null;
  let eventId = 0;

  function emit(ev: Partial<TeamEvent> & Pick<TeamEvent, 'team' | 'type'>): TeamEvent {
    const full: TeamEvent = { id: ++eventId, actor_kind: 'user', actor: 'user', data: {}, time: NOW, ...ev };
    state.events.push(full);
    listener?.(full);
    return full;
  }

  function check() {
    if (state.failNext) {
      const e = state.failNext;
      state.failNext = null;
      throw e;
    }
  }

  function find(team: string, id: string): TeamTask {
    const t = (state.tasks[team] ?? []).find((x) => x.id === id);
    if (!t) throw `task ${id} not found in team ${team}`;
    return t;
  }

  function move(team: string, id: string, to: TaskState, type: string, data: Record<string, unknown> = {}): TeamTask {
    check();
    const t = find(team, id);
    t.state = to;
    emit({ team, task: id, type, data });
    return structuredClone(t);
  }

  const methods = {
    teams: vi.fn(async () => structuredClone(state.teams)),
    defaultTeamSettings: vi.fn(async () => ({ ...TEAM_DEFAULTS })),
    createTeam: vi.fn(async (t: Team) => {
      check();
      if (state.teams.some((x) => x.key === t.key)) throw `team '${t.key}' already exists`;
      state.teams.push(structuredClone(t));
      emit({ team: t.key, type: 'team_created' });
      return structuredClone(t);
    }),
    updateTeam: vi.fn(async (t: Team) => {
      check();
      state.teams = state.teams.map((x) => (x.key === t.key ? structuredClone(t) : x));
      emit({ team: t.key, type: 'team_updated' });
      return structuredClone(t);
    }),
    deleteTeam: vi.fn(async (key: string) => {
      state.teams = state.teams.filter((x) => x.key !== key);
      emit({ team: key, type: 'team_deleted' });
    }),
    teamTasks: vi.fn(async (team: string) => structuredClone(state.tasks[team] ?? [])),
    teamTask: vi.fn(async (team: string, id: string): Promise<TeamTaskDetail> => {
      const task = find(team, id);
      return {
        task: structuredClone(task),
        comments: structuredClone(state.comments[`${team}/${id}`] ?? []),
        attachments: [],
        events: structuredClone(state.events.filter((e) => e.team === team && e.task === id)),
      };
    }),
    createTeamTask: vi.fn(async (team: string, in_: TeamTaskInput) => {
      check();
      const list = (state.tasks[team] ??= []);
      const blocked = in_.blocked_by.some((b) => find(team, b).state !== 'completed');
      const t = makeTask({
        id: `T-${list.length + 1}`,
        team,
        subject: in_.subject,
        description: in_.description,
        priority: in_.priority,
        owner: in_.assignee || undefined,
        blocked_by: in_.blocked_by.length ? in_.blocked_by : undefined,
        state: blocked ? 'blocked' : 'pending',
        require_approval: in_.require_approval,
      });
      list.push(t);
      emit({ team, task: t.id, type: 'created', data: { subject: t.subject } });
      return structuredClone(t);
    }),
    cancelTeamTask: vi.fn(async (team: string, id: string, reason: string) => move(team, id, 'cancelled', 'cancelled', { reason })),
    retryTeamTask: vi.fn(async (team: string, id: string, assignee: string, _note: string) => {
      const t = move(team, id, 'pending', 'retried', { assignee });
      if (assignee) find(team, id).owner = assignee;
      return t;
    }),
    approveTeamTask: vi.fn(async (team: string, id: string) => move(team, id, 'completed', 'approved')),
    rejectTeamTask: vi.fn(async (team: string, id: string, reason: string) => move(team, id, 'in_progress', 'rejected', { reason })),
    assignTeamTask: vi.fn(async (team: string, id: string, assignee: string) => {
      check();
      const t = find(team, id);
      t.owner = assignee;
      emit({ team, task: id, type: 'assigned', data: { to: assignee } });
      return structuredClone(t);
    }),
    commentTeamTask: vi.fn(async (team: string, id: string, text: string) => {
      check();
      const t = find(team, id);
      const list = (state.comments[`${team}/${id}`] ??= []);
      list.push({ id: list.length + 1, type: 'note', author_kind: 'user', author: 'user', text, created: NOW });
      t.comments = list.length;
      emit({ team, task: id, type: 'commented', data: { text } });
      return structuredClone(t);
    }),
    answerTeamTask: vi.fn(async (team: string, id: string, answer: string) => {
      check();
      const t = find(team, id);
      t.hold = '';
      t.answer = answer;
      t.state = 'pending';
      emit({ team, task: id, type: 'answered' });
      return structuredClone(t);
    }),
    teamEvents: vi.fn(async (team: string, afterId: number, _limit: number) =>
      structuredClone(state.events.filter((e) => e.team === team && e.id > afterId)),
    ),
    onTeamEvent: vi.fn((handler: (ev: TeamEvent) => void) => {
      listener = handler;
      return () => {
        listener = null;
      };
    }),
    talkToTeamLead: vi.fn(async (team: string, session: string, prompt: string): Promise<TeamTalk> => {
      state.talks.push({ team, session, prompt });
      return { session: session || 'lead-session', run_id: '', request: true };
    }),
  };

  /** Puts a team with tasks on the fake board without events. */
  function seed(team: Team, tasks: TeamTask[] = []) {
    state.teams.push(structuredClone(team));
    state.tasks[team.key] = structuredClone(tasks);
  }

  /** Changes a task the way an agent would and publishes the event. */
  function agentMoves(team: string, id: string, patch: Partial<TeamTask>, type: string) {
    Object.assign(find(team, id), patch);
    return emit({ team, task: id, type, actor_kind: 'agent', actor: 'reviewer' });
  }

  return { state, methods, emit, seed, agentMoves };
}
