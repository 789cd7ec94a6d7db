// The Chat part of the fake WarrenApi (fakeApi.ts spreads it in): search
// over past chats, a provider's models and attachments, like
// sessions.Search, warren.AgentModels and warren.Attach.
import { vi } from 'vitest';
import type { FakeState } from './fakeApi';
import type { Attachment, ModelChoices, SessionSearchHit } from '../src/lib/types';

export function chatFakes(state: FakeState) {
  return {
  searchSessions: vi.fn(async (agent: string, query: string): Promise<SessionSearchHit[]> => {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    return state.sessions
      .filter((s) => !agent || s.agent === agent)
      .flatMap((s) => {
        const hit = [...(state.history[s.id] ?? [])].reverse().find((m) => (m.role === 'user' || m.role === 'assistant') && m.content.toLowerCase().includes(q));
        if (!hit && !s.title.toLowerCase().includes(q)) return [];
        return [{ session: structuredClone(s), snippet: hit?.content ?? '' }];
      });
  }),
  agentModels: vi.fn(async (agent: string): Promise<ModelChoices> => {
    const a = state.agents.find((x) => x.key === agent);
    if (!a) throw `unknown agent "${agent}"`;
    if (!a.provider) return { provider: '', default: a.model, models: [], problem: `agent ${agent} has no model provider` };
    const p = state.providers.find((x) => x.name === a.provider);
    const listed = state.models[a.provider];
    const base = { provider: a.provider, default: a.model || p?.default_model || '' };
    if (listed instanceof Error) return { ...base, models: [], problem: listed.message };
    return { ...base, models: (listed ?? []).map((m) => m.id).sort() };
  }),
  attachFile: vi.fn(async (_agent: string, name: string, dataBase64: string): Promise<Attachment> => {
    const base = name.split(/[\\/]/).pop() || 'attachment';
    let path = `attachments/${base}`;
    for (let i = 2; path in state.attachments; i++) path = `attachments/${base.replace(/(\.[^.]*)?$/, ` (${i})$1`)}`;
    state.attachments[path] = dataBase64;
    return { path, size: atob(dataBase64).length };
  }),
  // Serves what attachFile stored, typed by extension as the Go side types by bytes.
  mediaDataURL: vi.fn(async (_agent: string, path: string): Promise<string> => {
    const data = state.attachments[path];
    if (data === undefined) throw `${path} does not exist`;
    const ext = path.split('.').pop()?.toLowerCase() ?? '';
    const type = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', wav: 'audio/wav', mp3: 'audio/mpeg' }[ext];
    if (!type) throw `${path}: not an image or audio file the chat can show`;
    return `data:${type};base64,${data}`;
  }),
  openURL: vi.fn(async (_url: string) => {}),
  copyText: vi.fn(async (text: string) => {
    state.clipboard = text;
  }),
  };
}
