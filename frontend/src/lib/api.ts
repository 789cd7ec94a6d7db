// The one place the UI talks to Go. Components receive a WarrenApi, so unit
// tests pass a stub and never touch window.go.
import * as App from '../../wailsjs/go/app/App';
import { EventsOn } from '../../wailsjs/runtime/runtime';
import type { Explanation, ToolEvent, ToolInfo } from './types';

export interface WarrenApi {
  tools(profile: string, agent: string): Promise<ToolInfo[]>;
  profiles(): Promise<string[]>;
  activeProfile(): Promise<string>;
  setActiveProfile(profile: string): Promise<void>;
  explain(tool: string, profile: string, agent: string): Promise<Explanation>;
  version(): Promise<string>;
  /** Subscribes to tool lifecycle events; returns the unsubscribe function. */
  onToolEvent(handler: (ev: ToolEvent) => void): () => void;
}

/** The event name app/ emits tool lifecycle events under. */
export const toolEventName = 'tool:event';

// The generated bindings type Go values as Wails model classes; the JSON on
// the wire is exactly our plain interfaces, so we narrow through unknown.
export const wailsApi: WarrenApi = {
  tools: async (profile, agent) => ((await App.Tools(profile, agent)) ?? []) as unknown as ToolInfo[],
  profiles: async () => (await App.Profiles()) ?? [],
  activeProfile: () => App.ActiveProfile(),
  setActiveProfile: (profile) => App.SetActiveProfile(profile),
  explain: async (tool, profile, agent) =>
    (await App.Explain(tool, profile, agent)) as unknown as Explanation,
  version: () => App.Version(),
  onToolEvent: (handler) => {
    const off = EventsOn(toolEventName, (ev: ToolEvent) => handler(ev));
    return typeof off === 'function' ? off : () => {};
  },
};

/** Turns whatever a rejected Wails call gives (string, Error, object) into a message. */
export function errorMessage(err: unknown): string {
  if (typeof err === 'string') return err || 'unknown error';
  if (err instanceof Error) return err.message || err.name;
  if (err && typeof err === 'object') {
    const msg = (err as { message?: unknown }).message;
    if (typeof msg === 'string' && msg) return msg;
    try {
      return JSON.stringify(err);
    } catch {
      return String(err);
    }
  }
  return String(err);
}
