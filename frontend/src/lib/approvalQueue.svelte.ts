// The live approval queue shared by the whole window: the Approvals tab and
// its badge, the toast on every screen, and the Try-it forms that wait for
// an answer. One instance per App; state is Svelte 5 runes.
import { errorMessage, type WarrenApi } from './api';
import { applyApprovalEvent, removeRequest } from './approvals';
import type { ApprovalDecision, ApprovalEvent, ApprovalRequest, ApprovalResolution } from './types';

/** The context key under which App shares its one ApprovalQueue (getContext(APPROVAL_QUEUE)). */
export const APPROVAL_QUEUE = Symbol('approval-queue');

export class ApprovalQueue {
  /** Requests waiting for an answer, oldest first. */
  pending = $state<ApprovalRequest[]>([]);
  /** Ticks every second while something is pending (countdowns). */
  now = $state(Date.now());
  /** Bumped on every resolution so views of patterns and audit reload. */
  resolutions = $state(0);
  /** The newest request that arrived while the window was open. */
  latest = $state<ApprovalRequest | null>(null);
  lastResolution = $state<ApprovalResolution | null>(null);
  error = $state<string | null>(null);

  private api: WarrenApi;
  // Events that arrive while PendingApprovals() is in flight are replayed on
  // top of its answer, so a request resolved meanwhile does not come back.
  private buffered: ApprovalEvent[] | null = null;

  constructor(api: WarrenApi) {
    this.api = api;
  }

  /** Subscribes to events, loads the queue and starts the clock; returns stop. */
  start(): () => void {
    const off = this.api.onApprovalEvent((ev) => this.apply(ev));
    void this.load();
    const timer = setInterval(() => {
      if (this.pending.length) this.now = Date.now();
    }, 1000);
    return () => {
      off();
      clearInterval(timer);
    };
  }

  async load(): Promise<void> {
    this.buffered = [];
    try {
      let list = (await this.api.pendingApprovals()) ?? [];
      for (const ev of this.buffered) list = applyApprovalEvent(list, ev);
      this.pending = list;
      this.now = Date.now();
      this.error = null;
    } catch (err) {
      this.error = `PendingApprovals(): ${errorMessage(err)}`;
    } finally {
      this.buffered = null;
    }
  }

  apply(ev: ApprovalEvent): void {
    this.buffered?.push(ev);
    this.pending = applyApprovalEvent(this.pending, ev);
    this.now = Date.now();
    if (ev?.topic === 'approval.requested' && ev.payload?.id) {
      this.latest = ev.payload;
    } else if (ev?.topic === 'approval.resolved' && ev.payload?.request) {
      this.lastResolution = ev.payload;
      this.resolutions++;
      if (this.latest?.id === ev.payload.request.id) this.latest = null;
    }
  }

  /** The newest pending request, or null. */
  get newest(): ApprovalRequest | null {
    return this.pending.length ? this.pending[this.pending.length - 1] : null;
  }

  /**
   * Answers one request. Resolves to false when someone else answered first
   * (the native dialog, the CLI, a timeout); the queue is then reloaded.
   */
  async answer(id: string, decision: ApprovalDecision): Promise<boolean> {
    const won = await this.api.answerApproval(id, decision);
    this.pending = removeRequest(this.pending, id);
    if (this.latest?.id === id) this.latest = null;
    if (!won) await this.load();
    return won;
  }
}
