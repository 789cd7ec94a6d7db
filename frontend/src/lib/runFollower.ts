// Which agent events belong to the transcript on screen, in what order:
// runs are followed by id, their numbered events re-ordered, and a stopped
// run's late events dropped. (Split from chat.ts, which re-exports it.)
import { applyEvent, finishCalls, markIncomplete, type Transcript } from './chat';
import type { AgentEvent } from './types';

/**
 * Puts one run's events back in order when they carry seq (1, 2, 3…):
 * push returns the events that can be applied now. Events without seq pass
 * straight through.
 */
export class Sequencer {
  private next = 1;
  private held = new Map<number, AgentEvent>();

  push(ev: AgentEvent): AgentEvent[] {
    if (typeof ev.seq !== 'number') return [ev];
    if (ev.seq < this.next) return [];
    this.held.set(ev.seq, ev);
    const out: AgentEvent[] = [];
    for (let e = this.held.get(this.next); e; e = this.held.get(this.next)) {
      this.held.delete(this.next++);
      out.push(e);
    }
    return out;
  }
}

/**
 * Routes agent events to the transcript on screen, in order: those of the
 * run it follows (one sent from here, or one Warren started by itself in the
 * open session), and late ones of the run that ended last (the dev server's
 * WebSocket can deliver "done" before the last text). Events of other runs,
 * and of stopped ones, are ignored.
 */
export class RunFollower {
  /** The run we show. */
  private runId: string | null = null;
  /** The run that ended last: its late events still belong to the transcript. */
  private endedRun: string | null = null;
  private order = new Sequencer();
  /** A send is under way: its run id is not known yet, so events wait in buffer. */
  private sending = false;
  private buffer: AgentEvent[] = [];
  private readonly stopped = new Set<string>();

  /**
   * transcript returns the one on screen (it is replaced, not only changed);
   * onadopt hears that a run Warren started by itself is now followed, onend
   * that the followed run ended.
   */
  constructor(private readonly hooks: { transcript: () => Transcript; onadopt: () => void; onend: () => void }) {}

  /** Handles one event from the backend. */
  receive(ev: AgentEvent) {
    if (this.stopped.has(ev.run_id)) return;
    const t = this.hooks.transcript();
    if ((this.runId && ev.run_id === this.runId) || (!this.runId && !this.sending && ev.run_id === this.endedRun)) this.applyInOrder(ev);
    else if (this.sending) this.buffer.push(ev);
    else if (!this.runId && !t.running && ev.session && ev.session === t.session && ev.kind !== 'done' && ev.kind !== 'error') {
      // A turn Warren started in this session by itself (answering its
      // subagents' results): follow it like one we started.
      this.follow(ev.run_id);
      t.running = true;
      t.error = null;
      t.usage = null;
      t.model = undefined;
      this.hooks.onadopt();
      this.applyInOrder(ev);
    }
  }

  /**
   * text is being sent: it shows as a new turn; events that come before its
   * run id is known wait. replaces is the stored message it replaces (0 = none).
   */
  beginSend(text: string, replaces = 0) {
    const t = this.hooks.transcript();
    t.items.push(replaces ? { kind: 'user', text, replaces } : { kind: 'user', text });
    t.error = null;
    t.usage = null;
    t.model = undefined;
    t.running = true;
    this.sending = true;
    this.buffer = [];
  }

  /** The message sent started run id: follow it, from the events that came early. */
  started(id: string) {
    this.follow(id);
    const early = this.buffer.filter((e) => e.run_id === id);
    this.buffer = [];
    for (const ev of early) for (const e of this.order.push(ev)) if (this.runId === id) this.apply(e);
  }

  /** The send is over, whether or not it started a run. */
  endSend() {
    this.sending = false;
    this.buffer = [];
  }

  /** Ends the followed run on screen and drops it for good; returns its id, or null when none is followed. */
  stop(): string | null {
    const id = this.runId;
    if (!id) return null;
    this.stopped.add(id);
    this.runId = null;
    const t = this.hooks.transcript();
    t.running = false;
    markIncomplete(t, 'stopped');
    finishCalls(t);
    return id;
  }

  /** Another transcript is shown: late events of the last run no longer belong. */
  forgetEnded() {
    this.endedRun = null;
  }

  private follow(id: string) {
    this.runId = id;
    this.endedRun = null;
    this.order = new Sequencer();
  }

  private applyInOrder(ev: AgentEvent) {
    for (const e of this.order.push(ev)) this.apply(e);
  }

  private apply(ev: AgentEvent) {
    if (ev.run_id === this.endedRun && (ev.kind === 'done' || ev.kind === 'error' || ev.kind === 'session')) return;
    const t = this.hooks.transcript();
    const ended = ev.run_id === this.endedRun;
    applyEvent(t, ev);
    if (ended) t.running = false;
    if (ev.kind === 'done' || ev.kind === 'error') {
      this.endedRun = this.runId;
      this.runId = null;
      this.hooks.onend();
    }
  }
}
