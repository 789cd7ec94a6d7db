// The first-run part of the fake WarrenApi (fakeApi.ts spreads it in): model
// servers found, a provider draft tested, the setup finished, like
// app/onboarding.go.
import { vi } from 'vitest';
import type { FakeState } from './fakeApi';
import { makeAgent } from './fixtures';
import type { ModelProvider } from '../src/lib/types';

export function firstRunFakes(state: FakeState) {
  return {
  detectModelServers: vi.fn(async () => structuredClone(state.servers)),
  testModelProviderDraft: vi.fn(async (p: ModelProvider) => {
    if (!/^https?:\/\//.test(p.base_url)) throw `base URL ${JSON.stringify(p.base_url)} must be an http(s) URL`;
    const m = state.draftModels[p.base_url] ?? state.models[p.name];
    if (m instanceof Error) throw m.message;
    return structuredClone(m ?? []);
  }),
  firstRunPending: vi.fn(async () => !state.firstRunDone && !state.agents.find((a) => a.key === 'default')?.provider),
  finishFirstRun: vi.fn(async () => {
    state.firstRunDone = true;
  }),
  completeFirstRun: vi.fn(async (p: ModelProvider, model: string) => {
    if (!model.trim()) throw 'choose a model for the default agent';
    if (p.api_key && p.api_key !== '-') state.providerKeys[p.name] = p.api_key;
    const { api_key: _k, ...rest } = p;
    state.providers = [
      ...state.providers.filter((x) => x.name !== p.name),
      { ...rest, default_model: model, has_key: p.name in state.providerKeys },
    ];
    const def = state.agents.find((a) => a.key === 'default');
    if (def) Object.assign(def, { provider: p.name, model });
  }),
  // The real one copies the default agent's sandbox setting, on in a real data dir.
  newAgentDefaults: vi.fn(async () => makeAgent({ key: '', name: '', sandbox: true })),
  buildSandboxImage: vi.fn(async () => {
    if (state.imageError) throw state.imageError;
    state.doctor = state.doctor.map((c) => (c.name === 'image' ? { ...c, ok: true, fix: '', detail: 'warren-sandbox:latest present' } : c));
    return { image: 'warren-sandbox:latest', id: 'abc123', source: 'busybox-static' };
  }),
  };
}
