// Messages agents send the user ("message:event"), kept for the window's
// lifetime: the chat shows those of the open session as notices, the app
// shows the others as toasts. One subscription for the whole window.
import type { WarrenApi } from './api';
import type { UserMessage } from './types';

/** How many messages the window keeps (oldest dropped first). */
const KEEP = 200;

export type InboxListener = (m: UserMessage) => void;

export class Inbox {
  /** Every message received, oldest first. */
  messages = $state<UserMessage[]>([]);
  private listeners = new Set<InboxListener>();
  private seen = new Set<string>();

  constructor(private api: WarrenApi) {}

  /** Subscribes to the backend; returns the unsubscribe function. */
  start(): () => void {
    return this.api.onMessageEvent((ev) => {
      if (ev?.payload) this.add(ev.payload);
    });
  }

  /** Records a message and tells the listeners; a repeated id is ignored. */
  add(m: UserMessage) {
    const id = m.id || `${m.at}|${m.session}|${m.text}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    const msg: UserMessage = { ...m, id, level: normaliseLevel(m.level), at: m.at || new Date().toISOString() };
    this.messages = [...this.messages, msg].slice(-KEEP);
    for (const fn of this.listeners) fn(msg);
  }

  /** Calls fn for each new message; returns the function that stops it. */
  listen(fn: InboxListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** The messages of one session, oldest first. */
  forSession(session: string): UserMessage[] {
    return session ? this.messages.filter((m) => m.session === session) : [];
  }
}

export function normaliseLevel(level: string | undefined): UserMessage['level'] {
  return level === 'success' || level === 'warning' || level === 'error' ? level : 'info';
}
