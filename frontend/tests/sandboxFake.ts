// The sandbox and custom-tools part of the fake WarrenApi (fakeApi.ts
// spreads it in), and the sandbox test as it judges it.
import { vi } from 'vitest';
import type { FakeState } from './fakeApi';
import type { CustomTool, SandboxCheck, SandboxStatus, SandboxTest } from '../src/lib/types';

/** Go's judgeSandbox: ok only when the run check ran; network-only failures are set apart (MCP/Sandbox work). */
export function judgeDoctor(checks: SandboxCheck[], at = new Date()): SandboxTest {
  const networkOnly = ['tun device', 'slirp4netns', 'network run'];
  const res: SandboxTest = { at: at.toISOString(), ok: false, checks: structuredClone(checks), seconds: 1.2 };
  let ran = false;
  for (const c of checks) {
    if (c.name === 'run' && c.ok) ran = true;
    if (c.ok) continue;
    if (networkOnly.includes(c.name)) res.network_failed ??= structuredClone(c);
    else res.failed ??= structuredClone(c);
  }
  res.ok = ran && !res.failed;
  if (!res.ok && !res.failed) res.failed = { name: 'run', ok: false, detail: 'no test command ran', fix: 'run the test again' };
  if (res.failed?.name === 'image') res.action = 'build-image';
  return res;
}

/** The Sandbox and Custom tools tabs' calls over the fake's state. */
export function sandboxFakes(state: FakeState) {
  return {
    sandboxStatus: vi.fn(async () => structuredClone(state.sandbox)),
    setSandboxSettings: vi.fn(async (mode: string, fallback: string, image: string) => {
      state.sandbox = { ...state.sandbox, mode: mode as SandboxStatus['mode'], fallback: fallback as SandboxStatus['fallback'], image };
    }),
    pruneSandbox: vi.fn(async () => {
      const n = state.sandbox.containers?.length ?? 0;
      state.sandbox = { ...state.sandbox, containers: [] };
      return n;
    }),
    sandboxDoctor: vi.fn(async (_agent: string) => structuredClone(state.doctor)),
    // The sandbox's real test (MCP/Sandbox work), judged from `doctor` as Go's judgeSandbox does.
    testSandbox: vi.fn(async () => {
      state.lastTest = judgeDoctor(state.doctor);
      return structuredClone(state.lastTest);
    }),
    lastSandboxTest: vi.fn(async () => structuredClone(state.lastTest)),

    customTools: vi.fn(async () => structuredClone(state.custom)),
    // Like Go: env merges into the stored values, "" removes a key, and
    // env_keys is computed from what is stored (never trusted from the UI).
    saveCustomTool: vi.fn(async (t: CustomTool) => {
      const { env, env_keys: _ignored, ...rest } = t;
      const key = `${t.agent}\u0000${t.name}`;
      const stored = { ...(state.customEnv[key] ?? {}) };
      for (const [k, v] of Object.entries(env ?? {})) {
        if (v === '') delete stored[k];
        else stored[k] = v;
      }
      state.customEnv[key] = stored;
      state.custom = [
        ...state.custom.filter((c) => !(c.name === t.name && c.agent === t.agent)),
        { ...rest, env_keys: Object.keys(stored).sort() },
      ];
    }),
    deleteCustomTool: vi.fn(async (name: string, agent: string) => {
      state.custom = state.custom.filter((c) => !(c.name === name && c.agent === agent));
    }),
    customToolProblems: vi.fn(async () => [...state.customProblems]),
  };
}
