// The one place the UI talks to Go. Components receive a WarrenApi, so unit
// tests pass a stub and never touch window.go.
import * as App from '../../wailsjs/go/app/App';
import { EventsOn } from '../../wailsjs/runtime/runtime';
import type {
  Agent,
  AgentEvent,
  ChatMessage,
  ChatSession,
  LlmModel,
  ModelProvider,
  ApprovalDecision,
  ApprovalEvent,
  ApprovalMode,
  ApprovalPattern,
  ApprovalRequest,
  AuditEntry,
  CallResult,
  CustomTool,
  Explanation,
  SandboxStatus,
  ToolEvent,
  ToolInfo,
} from './types';

export interface WarrenApi {
  tools(profile: string, agent: string): Promise<ToolInfo[]>;
  profiles(): Promise<string[]>;
  activeProfile(): Promise<string>;
  setActiveProfile(profile: string): Promise<void>;
  explain(tool: string, profile: string, agent: string): Promise<Explanation>;
  version(): Promise<string>;
  /** Subscribes to tool lifecycle events; returns the unsubscribe function. */
  onToolEvent(handler: (ev: ToolEvent) => void): () => void;

  /** Runs one tool through the whole pipeline; blocks while it waits for approval. */
  callTool(name: string, argsJSON: string, agent: string): Promise<CallResult>;

  pendingApprovals(): Promise<ApprovalRequest[]>;
  /** False when the request was already answered (or timed out). */
  answerApproval(id: string, decision: ApprovalDecision): Promise<boolean>;
  approvalPatterns(): Promise<ApprovalPattern[]>;
  revokeApproval(id: number): Promise<void>;
  approvalAudit(limit: number): Promise<AuditEntry[]>;
  approvalMode(): Promise<ApprovalMode>;
  setApprovalMode(mode: ApprovalMode): Promise<void>;
  dialogsEnabled(): Promise<boolean>;
  setDialogsEnabled(on: boolean): Promise<void>;
  /** Subscribes to approval requests and resolutions; returns the unsubscribe function. */
  onApprovalEvent(handler: (ev: ApprovalEvent) => void): () => void;

  sandboxStatus(): Promise<SandboxStatus>;
  setSandboxSettings(mode: string, fallback: string, image: string): Promise<void>;
  /** Removes idle sandbox containers; resolves to how many were removed. */
  pruneSandbox(): Promise<number>;

  customTools(): Promise<CustomTool[]>;
  /** Validates and stores a tool; it is live at once. */
  saveCustomTool(tool: CustomTool): Promise<void>;
  /** Deletes the tool name of agent ("" = the global one). */
  deleteCustomTool(name: string, agent: string): Promise<void>;
  /** Stored definitions that could not be loaded, one message each. */
  customToolProblems(): Promise<string[]>;

  /** Starts an agent turn ("" session = a new one); resolves to the run id at once. */
  sendMessage(agent: string, session: string, prompt: string): Promise<string>;
  /** Cancels a run; false when it already ended. */
  stopRun(runId: string): Promise<boolean>;
  /** An agent's sessions, newest first. */
  sessions(agent: string): Promise<ChatSession[]>;
  sessionHistory(id: string): Promise<ChatMessage[]>;
  deleteSession(id: string): Promise<void>;
  /** Subscribes to agent run events; returns the unsubscribe function. */
  onAgentEvent(handler: (ev: AgentEvent) => void): () => void;

  agents(): Promise<Agent[]>;
  saveAgent(agent: Agent): Promise<void>;
  deleteAgent(key: string): Promise<void>;
  modelProviders(): Promise<ModelProvider[]>;
  saveModelProvider(p: ModelProvider): Promise<void>;
  deleteModelProvider(name: string): Promise<void>;
  /** Connects to a saved provider and lists its models. */
  testModelProvider(name: string): Promise<LlmModel[]>;
}

/** The event name app/ emits tool lifecycle events under. */
export const toolEventName = 'tool:event';
/** The event name app/ emits approval requests and resolutions under. */
export const approvalEventName = 'approval:event';
/** The event name app/ emits agent run events under. */
export const agentEventName = 'agent:event';

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
  onToolEvent: (handler) => subscribe(toolEventName, handler),

  callTool: async (name, argsJSON, agent) => (await App.CallTool(name, argsJSON, agent)) as unknown as CallResult,

  pendingApprovals: async () => ((await App.PendingApprovals()) ?? []) as unknown as ApprovalRequest[],
  answerApproval: (id, decision) => App.AnswerApproval(id, decision),
  approvalPatterns: async () => ((await App.ApprovalPatterns()) ?? []) as unknown as ApprovalPattern[],
  revokeApproval: (id) => App.RevokeApproval(id),
  approvalAudit: async (limit) => ((await App.ApprovalAudit(limit)) ?? []) as unknown as AuditEntry[],
  approvalMode: async () => (await App.ApprovalMode()) as ApprovalMode,
  setApprovalMode: (mode) => App.SetApprovalMode(mode),
  dialogsEnabled: () => App.DialogsEnabled(),
  setDialogsEnabled: (on) => App.SetDialogsEnabled(on),
  onApprovalEvent: (handler) => subscribe(approvalEventName, handler),

  sandboxStatus: async () => (await App.SandboxStatus()) as unknown as SandboxStatus,
  setSandboxSettings: (mode, fallback, image) => App.SetSandboxSettings(mode, fallback, image),
  pruneSandbox: async () => Number(await App.PruneSandbox()) || 0,

  customTools: async () => ((await App.CustomTools()) ?? []).map(customToolFromWire),
  saveCustomTool: (tool) => App.SaveCustomTool(customToolToWire(tool) as never),
  deleteCustomTool: (name, agent) => App.DeleteCustomTool(name, agent),
  customToolProblems: async () => (await App.CustomToolProblems()) ?? [],

  sendMessage: (agent, session, prompt) => App.SendMessage(agent, session, prompt),
  stopRun: (runId) => App.StopRun(runId),
  sessions: async (agent) => ((await App.Sessions(agent)) ?? []) as unknown as ChatSession[],
  sessionHistory: async (id) => ((await App.SessionHistory(id)) ?? []) as unknown as ChatMessage[],
  deleteSession: (id) => App.DeleteSession(id),
  onAgentEvent: (handler) => subscribe(agentEventName, handler),

  agents: async () =>
    ((await App.Agents()) ?? []).map((a) => ({ ...a, allow: a.allow ?? [], deny: a.deny ?? [] })) as unknown as Agent[],
  saveAgent: (agent) => App.SaveAgent(agent as never),
  deleteAgent: (key) => App.DeleteAgent(key),
  modelProviders: async () => ((await App.ModelProviders()) ?? []) as unknown as ModelProvider[],
  saveModelProvider: (p) => App.SaveModelProvider(p as never),
  deleteModelProvider: (name) => App.DeleteModelProvider(name),
  testModelProvider: async (name) => ((await App.TestModelProvider(name)) ?? []) as unknown as LlmModel[],
};

function subscribe<T>(name: string, handler: (ev: T) => void): () => void {
  const off = EventsOn(name, (ev: T) => handler(ev));
  return typeof off === 'function' ? off : () => {};
}

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
