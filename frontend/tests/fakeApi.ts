// An in-memory WarrenApi for component tests: the same shapes the Go side
// returns, with a vi.fn behind every method so tests can assert the calls.
import { vi } from 'vitest';
import type { WarrenApi } from '../src/lib/api';
import type { Explanation, ToolEvent, ToolInfo } from '../src/lib/types';

type Base = Omit<ToolInfo, 'allowed' | 'reason'>;

export const baseTools: Base[] = [
  {
    name: 'read_file',
    group: 'fs',
    description: 'Read a text file from the workspace',
    long_description: '# Read file\n\nReads a file. Use `offset` and `limit` for large files.\n\n- returns numbered lines',
    danger: 'safe',
    requires_confirmation: false,
    class: 'static',
    schema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Path relative to the workspace' },
        limit: { type: 'integer', description: 'Maximum lines' },
      },
      required: ['path'],
    },
  },
  {
    name: 'write_file',
    group: 'fs',
    description: 'Create or overwrite a file',
    long_description: 'Writes content to a file.',
    danger: 'warning',
    requires_confirmation: true,
    class: 'static',
    schema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'Target path' },
        mode: { type: 'string', description: 'Write mode', enum: ['create', 'overwrite'] },
      },
      required: ['path', 'mode'],
    },
  },
  {
    name: 'exec',
    group: 'runtime',
    description: 'Run a shell command in the sandbox',
    long_description: 'Runs a command.',
    danger: 'critical',
    requires_confirmation: true,
    class: 'runtime',
    schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] },
  },
  {
    name: 'web_fetch',
    group: 'web',
    description: 'Fetch a URL and return its text',
    long_description: '',
    danger: 'dangerous',
    requires_confirmation: false,
    class: 'engine',
    schema: { type: 'object', properties: {} },
  },
  {
    name: 'session_status',
    group: 'sessions',
    description: 'Report the current session status',
    long_description: 'Shows status.',
    danger: 'safe',
    requires_confirmation: false,
    class: 'static',
    schema: null,
  },
];

export const allowedBy: Record<string, string[]> = {
  full: baseTools.map((t) => t.name),
  coding: ['read_file', 'write_file', 'exec', 'session_status'],
  messaging: ['session_status', 'web_fetch'],
  minimal: ['session_status'],
};

export function toolsFor(profile: string): ToolInfo[] {
  const allowed = new Set(allowedBy[profile] ?? []);
  return baseTools.map((t) => ({
    ...t,
    allowed: allowed.has(t.name),
    reason: allowed.has(t.name) ? `allowed by profile ${profile}` : `not in profile ${profile}`,
  }));
}

export interface FakeApi extends WarrenApi {
  emit(ev: ToolEvent): void;
  state: { active: string };
}

export function fakeApi(active = 'coding'): FakeApi & { [K in keyof WarrenApi]: ReturnType<typeof vi.fn> & WarrenApi[K] } {
  const state = { active };
  let listener: ((ev: ToolEvent) => void) | null = null;
  const api = {
    state,
    tools: vi.fn(async (profile: string, _agent: string) => toolsFor(profile || state.active)),
    profiles: vi.fn(async () => ['full', 'coding', 'messaging', 'minimal']),
    activeProfile: vi.fn(async () => state.active),
    setActiveProfile: vi.fn(async (p: string) => {
      state.active = p;
    }),
    explain: vi.fn(
      async (tool: string, profile: string, agent: string): Promise<Explanation> => ({
        tool,
        allowed: (allowedBy[profile] ?? []).includes(tool),
        steps: [
          { step: 'profile', outcome: 'allow', detail: `profile ${profile} for agent ${agent}` },
          { step: 'agent deny list', outcome: 'no match', detail: 'nothing denied' },
        ],
      }),
    ),
    version: vi.fn(async () => 'v0.1.0-test'),
    onToolEvent: vi.fn((handler: (ev: ToolEvent) => void) => {
      listener = handler;
      return () => {
        listener = null;
      };
    }),
    emit(ev: ToolEvent) {
      listener?.(ev);
    },
  };
  return api as never;
}
