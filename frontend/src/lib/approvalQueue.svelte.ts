// The live approval queue shared by the whole window: the Approvals tab and
// its badge, the toast on every screen, the chat's tool cards and the Try-it
// forms that wait for an answer. One instance per App; state is Svelte 5 runes.
import { errorMessage, type WarrenApi } from './api';
import { applyApprovalEvent, removeRequest, requestForCall } from './approvals';
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
  /** Requests a chat tool card shows on screen right now, with how many cards do. */
  private onScreen = $state<Record<string, number>>({});

  private api: WarrenApi;
  // Events that arrive while PendingApprovals() is in flight are replayed on
  // top of its answer, so a request resolved meanwhile does not come back.
  private buffered: ApprovalEvent[] | null = null;

  constructor(api: WarrenApi) {
    this.api = api;
  }

  /**
   * Subscribes to events, loads the queue, starts the clock and tells the
   * backend whether the window has the focus (only a window in the
   * background gets a native dialog or notification); returns stop.
   */
  start(): () => void {
    const off = this.api.onApprovalEvent((ev) => this.apply(ev));
    void this.load();
    const timer = setInterval(() => {
      if (this.pending.length) this.now = Date.now();
    }, 1000);
    const stopFocus = this.reportFocus();
    return () => {
      off();
      clearInterval(timer);
      stopFocus();
    };
  }

  // Wails v2 cannot ask the window whether it has the focus on Linux, so
  // the page reports every change; the backend assumes "not focused" until
  // the first report, so a request never goes unnoticed.
  private reportFocus(): () => void {
    let last: boolean | null = null;
    const report = (focused: boolean) => {
      if (focused === last) return;
      last = focused;
      this.api.setWindowFocused(focused).catch(() => {
        last = null; // try again at the next change
      });
    };
    const now = () => report(document.visibilityState !== 'hidden' && document.hasFocus());
    const onFocus = () => report(true);
    const onBlur = () => report(false);
    window.addEventListener('focus', onFocus);
    window.addEventListener('blur', onBlur);
    document.addEventListener('visibilitychange', now);
    now();
    return () => {
      window.removeEventListener('focus', onFocus);
      window.removeEventListener('blur', onBlur);
      document.removeEventListener('visibilitychange', now);
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

  /**
   * Marks a request as asked on a card the user can see (the toast for it
   * is then redundant); returns the function that unmarks it.
   */
  showing(id: string): () => void {
    this.onScreen[id] = (this.onScreen[id] ?? 0) + 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const n = (this.onScreen[id] ?? 1) - 1;
      if (n > 0) this.onScreen[id] = n;
      else delete this.onScreen[id];
    };
  }

  /** A chat tool card asking id is on screen. */
  shownOnCard(id: string): boolean {
    return (this.onScreen[id] ?? 0) > 0;
  }

  /** The request holding up a tool call in the chat, or null (see requestForCall). */
  forCall(callId: string, tool: string): ApprovalRequest | null {
    return requestForCall(this.pending, callId, tool);
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
