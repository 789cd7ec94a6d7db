// The subagents of every chat session this window has seen, by parent
// session: filled from "subagent:event" events and app.Subagents listings.
import type { WarrenApi } from './api';
import { mergeTask } from './subagents';
import type { SubagentAnnouncement, SubagentTask } from './types';

export class SubagentBoard {
  /** Tasks by parent session, in start order. */
  bySession = $state<Record<string, SubagentTask[]>>({});

  /** onannounce hears finished background subagents handed to their parent. */
  constructor(
    private api: WarrenApi,
    private onannounce?: (a: SubagentAnnouncement, time: string) => void,
  ) {}

  /** Subscribes to the backend; returns the unsubscribe function. */
  start(): () => void {
    return this.api.onSubagentEvent((ev) => {
      if (ev?.topic === 'subagent.announced') {
        const a = ev.payload;
        if (!a?.session) return;
        for (const task of a.tasks ?? []) this.add({ ...task, parent_session: task.parent_session || a.session });
        this.onannounce?.(a, ev.time);
      } else if (ev?.payload?.parent_session) this.add(ev.payload);
    });
  }

  add(task: SubagentTask) {
    this.bySession[task.parent_session] = mergeTask([...(this.bySession[task.parent_session] ?? [])], task);
  }

  forSession(session: string): SubagentTask[] {
    return session ? (this.bySession[session] ?? []) : [];
  }

  /** Catches up on a session's subagents (started before this window saw it). */
  async load(session: string) {
    try {
      for (const task of (await this.api.subagents(session)) ?? []) this.add(task);
    } catch {
      // Live events still fill the strip; a failed listing only loses history.
    }
  }

  /** Stops a running child, then refreshes its session's list. */
  async cancel(task: SubagentTask) {
    await this.api.cancelSubagent(task.parent_session, task.id);
    await this.load(task.parent_session);
  }
}
