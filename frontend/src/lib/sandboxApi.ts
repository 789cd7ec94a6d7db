// The real WarrenApi's sandbox and custom-tool calls, spread into wailsApi
// by api.ts.
import * as App from '../../wailsjs/go/app/App';
import type { CustomTool, SandboxCheck, SandboxImageReport, SandboxStatus, SandboxTest } from './types';

/** The Sandbox tab's, the first run's sandbox step's and the Custom tools tab's calls. */
export interface SandboxApi {
  sandboxStatus(): Promise<SandboxStatus>;
  setSandboxSettings(mode: string, fallback: string, image: string): Promise<void>;
  /** Removes idle sandbox containers; resolves to how many were removed. */
  pruneSandbox(): Promise<number>;
  /** Runs every sandbox check for agent's workspace ("" = the default); starts real containers, takes seconds. */
  sandboxDoctor(agent: string): Promise<SandboxCheck[]>;
  /** Builds the sandbox image offline (takes seconds). */
  buildSandboxImage(): Promise<SandboxImageReport>;
  /** Runs a real command in a real sandbox container (seconds); the result is kept. */
  testSandbox(): Promise<SandboxTest>;
  /** The last testSandbox result, null before the first. */
  lastSandboxTest(): Promise<SandboxTest | null>;

  customTools(): Promise<CustomTool[]>;
  /** Validates and stores a tool; it is live at once. */
  saveCustomTool(tool: CustomTool): Promise<void>;
  /** Deletes the tool name of agent ("" = the global one). */
  deleteCustomTool(name: string, agent: string): Promise<void>;
  /** Stored definitions that could not be loaded, one message each. */
  customToolProblems(): Promise<string[]>;
}

/** Turns a Go custom.Definition (parameters as a JSON object) into the UI's shape. */
export function customToolFromWire(d: unknown): CustomTool {
  const w = (d ?? {}) as Partial<Record<keyof CustomTool, unknown>>;
  const params = w.parameters;
  return {
    name: String(w.name ?? ''),
    description: String(w.description ?? ''),
    parameters: typeof params === 'string' ? params : JSON.stringify(params ?? {}),
    command: String(w.command ?? ''),
    timeout_seconds: Number(w.timeout_seconds) || 60, // Go: 0 means 60
    enabled: Boolean(w.enabled),
    agent: String(w.agent ?? ''),
    env_keys: Array.isArray(w.env_keys) ? (w.env_keys as string[]) : [],
  };
}

/** The custom.Definition JSON for a UI tool: parameters become a JSON object. */
export function customToolToWire(t: CustomTool): Record<string, unknown> {
  let parameters: unknown = t.parameters;
  try {
    parameters = JSON.parse(t.parameters);
  } catch {
    // Sent as is; Go reports what is wrong with it.
  }
  const out: Record<string, unknown> = { ...t, parameters };
  if (!t.env || Object.keys(t.env).length === 0) delete out.env;
  return out;
}

export function sandboxCalls(): SandboxApi {
  return {
    sandboxStatus: async () => (await App.SandboxStatus()) as unknown as SandboxStatus,
    setSandboxSettings: (mode, fallback, image) => App.SetSandboxSettings(mode, fallback, image),
    pruneSandbox: async () => Number(await App.PruneSandbox()) || 0,
    sandboxDoctor: async (agent) => ((await App.SandboxDoctor(agent)) ?? []) as unknown as SandboxCheck[],
    buildSandboxImage: async () => (await App.BuildSandboxImage()) as unknown as SandboxImageReport,
    testSandbox: async () => (await App.TestSandbox()) as unknown as SandboxTest,
    lastSandboxTest: async () => ((await App.LastSandboxTest()) ?? null) as unknown as SandboxTest | null,

    customTools: async () => ((await App.CustomTools()) ?? []).map(customToolFromWire),
    saveCustomTool: (tool) => App.SaveCustomTool(customToolToWire(tool) as never),
    deleteCustomTool: (name, agent) => App.DeleteCustomTool(name, agent),
    customToolProblems: async () => (await App.CustomToolProblems()) ?? [],
  };
}
