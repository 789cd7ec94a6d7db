// The Agents tab's part of the fake WarrenApi (fakeApi.ts spreads it in):
// agents, their context files and model providers, like warren's bindings.
import { vi } from 'vitest';
import type { FakeState } from './fakeApi';
import { CONTEXT_FILES } from './fixtures';
import type { Agent, ContextFileView, ModelProvider } from '../src/lib/types';

/** Like Go: rejects an agent key that is not stored. */
export function knownAgent(state: FakeState, agent: string) {
  if (!state.agents.some((a) => a.key === agent)) throw `unknown agent ${JSON.stringify(agent)}`;
}

export function agentFakes(state: FakeState) {
  // Like fs.RouteContextFile: where a file lives and whether a template shows through.
  function contextRoute(agent: string, name: string) {
    const predefined = state.agents.find((a) => a.key === agent)?.type === 'predefined';
    const scope: ContextFileView['scope'] = predefined && name !== 'USER.md' ? 'agent' : 'user';
    return { scope, fallback: !predefined && name !== 'BOOTSTRAP.md' };
  }

  return {
    agents: vi.fn(async () => structuredClone(state.agents)),
    saveAgent: vi.fn(async (a: Agent) => {
      state.agents = [...state.agents.filter((x) => x.key !== a.key), structuredClone(a)];
    }),
    deleteAgent: vi.fn(async (key: string) => {
      if (key === 'default') throw 'the default agent cannot be removed';
      state.agents = state.agents.filter((a) => a.key !== key);
    }),
    agentContextFiles: vi.fn(async (agent: string): Promise<ContextFileView[]> => {
      knownAgent(state, agent);
      return CONTEXT_FILES.map(([name, purpose]) => {
        const { scope, fallback } = contextRoute(agent, name);
        const own = state.contextFiles[agent]?.[name];
        const template = fallback ? state.contextTemplates[agent]?.[name] : undefined;
        const content = own ?? template;
        return {
          name,
          purpose,
          scope,
          content: content ?? '',
          exists: content !== undefined,
          template: own === undefined && template !== undefined,
          in_prompt: !!content?.trim(),
        };
      });
    }),
    // Like warren.SaveAgentContextFile: blank removes, unless a template would show through.
    saveAgentContextFile: vi.fn(async (agent: string, name: string, content: string) => {
      if (state.contextSaveError) throw state.contextSaveError;
      knownAgent(state, agent);
      if (!CONTEXT_FILES.some(([n]) => n === name)) throw `invalid context file: ${JSON.stringify(name)} is not one of ${CONTEXT_FILES.map(([n]) => n).join(', ')}`;
      const files = (state.contextFiles[agent] ??= {});
      if (content.trim()) files[name] = content;
      else if (contextRoute(agent, name).fallback && state.contextTemplates[agent]?.[name] !== undefined) files[name] = '';
      else delete files[name];
    }),
    modelProviders: vi.fn(async () => structuredClone(state.providers)),
    // Like Go: "" keeps the stored key, "-" removes it; has_key is computed.
    saveModelProvider: vi.fn(async (p: ModelProvider) => {
      if (!/^https?:\/\//.test(p.base_url)) throw `provider ${p.name}: base URL ${JSON.stringify(p.base_url)} must be an http(s) URL`;
      if (p.api_key === '-') delete state.providerKeys[p.name];
      else if (p.api_key) state.providerKeys[p.name] = p.api_key;
      const { api_key: _k, ...rest } = p;
      state.providers = [
        ...state.providers.filter((x) => x.name !== p.name),
        { ...rest, has_key: p.name in state.providerKeys },
      ];
    }),
    deleteModelProvider: vi.fn(async (name: string) => {
      state.providers = state.providers.filter((p) => p.name !== name);
    }),
    testModelProvider: vi.fn(async (name: string) => {
      const m = state.models[name];
      if (m instanceof Error) throw m.message;
      return structuredClone(m ?? []);
    }),
  };
}
