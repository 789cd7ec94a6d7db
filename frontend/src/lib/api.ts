// The one place the UI talks to Go: WarrenApi, with wailsApi over the
// generated bindings (some features' calls live in <feature>Api.ts files and
// are gathered here). Components receive a WarrenApi, so unit tests pass a
// stub and never touch window.go.
import * as App from '../../wailsjs/go/app/App';
import { ClipboardSetText } from '../../wailsjs/runtime/runtime';
import { knowledgeCalls, type KnowledgeApi } from './knowledgeApi';
import { memoryCalls, type MemoryApi } from './memoryApi';
import { memoryFolderCalls, type MemoryFoldersApi } from './memoryFoldersApi';
import { mcpClientCalls, type McpClientApi } from './mcpClientApi';
import { mcpServerCalls, type McpServerApi } from './mcpServerApi';
import { safeUrl } from './markdown';
import { sandboxCalls, type SandboxApi } from './sandboxApi';
import { subscribe } from './subscribe';
import { teamsCalls, type TeamsApi } from './teamsApi';
import type {
  Agent,
  AgentEvent,
  ApprovalDecision,
  ApprovalEvent,
  ApprovalMode,
  ApprovalPattern,
  ApprovalRequest,
  Attachment,
  AuditEntry,
  CallResult,
  ChatMessage,
  ChatSession,
  ContextFileView,
  CronJob,
  CronJobInput,
  Explanation,
  LlmModel,
  MessageEvent,
  ModelChoices,
  ModelProvider,
  ModelServer,
  SendOptions,
  SessionSearchHit,
  SettingValue,
  SubagentEvent,
  SubagentTask,
  ToolEvent,
  ToolInfo,
} from './types';

/**
 * Everything the UI asks of Go: the tools, approvals, chat, schedules, agents
 * and first-run calls here, the other features' in their own <feature>Api.ts.
 */
export interface WarrenApi extends SandboxApi, McpServerApi, McpClientApi, TeamsApi, MemoryApi, MemoryFoldersApi, KnowledgeApi {
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
  // Approvals in the chat and policy for people (approvals work).
  /** Tells the backend whether the window has the focus: only a background window gets a native prompt. */
  setWindowFocused(focused: boolean): Promise<void>;
  /** Lets one agent use a tool policy keeps from it; rejects with one sentence when that cannot be done. */
  allowToolForAgent(agent: string, tool: string): Promise<Explanation>;
  /** Undoes allowToolForAgent. */
  stopAllowingToolForAgent(agent: string, tool: string): Promise<Explanation>;
  /** Subscribes to approval requests and resolutions; returns the unsubscribe function. */
  onApprovalEvent(handler: (ev: ApprovalEvent) => void): () => void;

  /**
   * Starts an agent turn ("" session = a new one); resolves to the run id at
   * once. opts.replaceFrom replaces that message and what follows it, once the
   * new turn has stored its prompt.
   */
  sendMessage(agent: string, session: string, prompt: string, opts?: SendOptions): Promise<string>;
  /** Cancels a run; false when it already ended. */
  stopRun(runId: string): Promise<boolean>;
  /** An agent's sessions, newest first. */
  sessions(agent: string): Promise<ChatSession[]>;
  sessionHistory(id: string): Promise<ChatMessage[]>;
  deleteSession(id: string): Promise<void>;
  // ---- Chat (issue 15): search, model picker, attachments, links, clipboard ----
  /** An agent's sessions ("" = all) whose title or conversation contains query, newest first. */
  searchSessions(agent: string, query: string): Promise<SessionSearchHit[]>;
  /** The models the chat's picker offers for an agent; never rejects for an unreachable provider. */
  agentModels(agent: string): Promise<ModelChoices>;
  /** Copies a file (its bytes in base64) into the agent's workspace under attachments/. */
  attachFile(agent: string, name: string, dataBase64: string): Promise<Attachment>;
  /** One settings section ("media": the provider chains; "web": the guard's allow list, search), in a fixed order. */
  sectionSettings(section: string): Promise<SettingValue[]>;
  /** Sets one setting of a section; "" goes back to the default (clears a secret). */
  setSectionSetting(section: string, key: string, value: string): Promise<void>;
  /** An image or audio file of the agent's workspace as a data: URL (path-checked, size-capped), for inline previews. */
  mediaDataURL(agent: string, path: string): Promise<string>;
  /** Opens an http(s)/mailto link in the system browser, never in the app's window. */
  openURL(url: string): Promise<void>;
  /** Puts text on the clipboard. */
  copyText(text: string): Promise<void>;
  /** Subscribes to agent run events; returns the unsubscribe function. */
  onAgentEvent(handler: (ev: AgentEvent) => void): () => void;

  /** The subagents a session started, oldest first. */
  subagents(session: string): Promise<SubagentTask[]>;
  /** Stops a running subagent of session; false when it was not running. */
  cancelSubagent(session: string, id: string): Promise<boolean>;
  /** Subscribes to subagent starts and ends; returns the unsubscribe function. */
  onSubagentEvent(handler: (ev: SubagentEvent) => void): () => void;
  /** Subscribes to messages agents send the user; returns the unsubscribe function. */
  onMessageEvent(handler: (ev: MessageEvent) => void): () => void;

  /** Every agent's scheduled jobs, by name. */
  cronJobs(): Promise<CronJob[]>;
  /**
   * Stores a new enabled job. Rejects with one "field: message" line per
   * problem (agent, name, schedule, prompt); see parseFieldErrors.
   */
  addCronJob(job: CronJobInput): Promise<CronJob>;
  /**
   * Changes a job's agent, name, schedule and prompt; its next run is
   * counted from now and its enabled state kept. Rejects like addCronJob.
   */
  updateCronJob(id: string, job: CronJobInput): Promise<CronJob>;
  /** The next n runs (RFC 3339) of a schedule; rejects with "schedule: …". */
  cronSchedulePreview(schedule: string, n: number): Promise<string[]>;
  setCronJobEnabled(id: string, on: boolean): Promise<CronJob>;
  deleteCronJob(id: string): Promise<void>;
  /** Makes an enabled job due now; cronJobs() shows it running, then its result. */
  runCronJobNow(id: string): Promise<CronJob>;

  agents(): Promise<Agent[]>;
  saveAgent(agent: Agent): Promise<void>;
  deleteAgent(key: string): Promise<void>;
  /** Every routed context file of an agent (SOUL.md & co.), as the agent reads it. */
  agentContextFiles(agent: string): Promise<ContextFileView[]>;
  /** Writes one where the agent's file tools would; blank content removes it. */
  saveAgentContextFile(agent: string, name: string, content: string): Promise<void>;
  modelProviders(): Promise<ModelProvider[]>;
  saveModelProvider(p: ModelProvider): Promise<void>;
  deleteModelProvider(name: string): Promise<void>;
  /** Connects to a saved provider and lists its models. */
  testModelProvider(name: string): Promise<LlmModel[]>;

  // First run and the provider/agent forms (app/onboarding.go).
  /** The local model servers that answer (Ollama, LM Studio, llama.cpp, vLLM…), with their models. */
  detectModelServers(): Promise<ModelServer[]>;
  /** Connects to an unsaved provider configuration and lists its models; stores nothing ("" key = the stored one). */
  testModelProviderDraft(p: ModelProvider): Promise<LlmModel[]>;
  /** Whether the window should open the first-run setup. */
  firstRunPending(): Promise<boolean>;
  /** Records that the setup was finished or skipped. */
  finishFirstRun(): Promise<void>;
  /** Saves the provider and makes it, with model, the default agent's provider and model. */
  completeFirstRun(p: ModelProvider, model: string): Promise<void>;
  /** What a new agent starts with (sandbox on, like the default agent). */
  newAgentDefaults(): Promise<Agent>;
}

/** The event name app/ emits tool lifecycle events under. */
export const toolEventName = 'tool:event';
/** The event name app/ emits approval requests and resolutions under. */
export const approvalEventName = 'approval:event';
/** The event name app/ emits agent run events under. */
export const agentEventName = 'agent:event';
/** The event name app/ emits "subagent.*" bus events under. */
export const subagentEventName = 'subagent:event';
/** The event name app/ emits "message.*" bus events under. */
export const messageEventName = 'message:event';

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
  setWindowFocused: (focused) => App.SetWindowFocused(focused),
  allowToolForAgent: async (agent, tool) => (await App.AllowToolForAgent(agent, tool)) as unknown as Explanation,
  stopAllowingToolForAgent: async (agent, tool) => (await App.StopAllowingToolForAgent(agent, tool)) as unknown as Explanation,
  onApprovalEvent: (handler) => subscribe(approvalEventName, handler),

  sendMessage: (agent, session, prompt, opts) =>
    App.SendChatMessage({ agent, session, prompt, model: opts?.model ?? '', replace_from: opts?.replaceFrom ?? 0 } as never),
  stopRun: (runId) => App.StopRun(runId),
  sessions: async (agent) => ((await App.Sessions(agent)) ?? []) as unknown as ChatSession[],
  sessionHistory: async (id) => ((await App.SessionHistory(id)) ?? []) as unknown as ChatMessage[],
  deleteSession: (id) => App.DeleteSession(id),
  // ---- Chat (issue 15) ----
  searchSessions: async (agent, query) => ((await App.SearchSessions(agent, query)) ?? []) as unknown as SessionSearchHit[],
  agentModels: async (agent) => {
    const m = (await App.AgentModels(agent)) as unknown as ModelChoices;
    return { ...m, models: m.models ?? [] };
  },
  attachFile: async (agent, name, dataBase64) => (await App.AttachFile(agent, name, dataBase64)) as unknown as Attachment,
  mediaDataURL: (agent, path) => App.MediaDataURL(agent, path),
  sectionSettings: async (section) => ((await App.SectionSettings(section)) ?? []) as unknown as SettingValue[],
  setSectionSetting: (section, key, value) => App.SetSectionSetting(section, key, value),
  openURL: async (url) => {
    const safe = safeUrl(url);
    if (!safe) throw new Error(`only web and mail links open: ${url}`);
    // In the app's window Go opens the system browser; the same UI served to a
    // browser (the dev build, e2e tests) opens a new tab instead.
    if (location.protocol === 'wails:' || location.hostname === 'wails.localhost') return App.OpenURL(safe);
    window.open(safe, '_blank', 'noopener,noreferrer');
  },
  copyText: async (text) => {
    try {
      await navigator.clipboard.writeText(text);
      return;
    } catch {
      // WebKitGTK may refuse the web clipboard; the runtime's works there.
    }
    if (!(await ClipboardSetText(text))) throw new Error('the clipboard did not take the text');
  },
  onAgentEvent: (handler) => subscribe(agentEventName, handler),

  subagents: async (session) => ((await App.Subagents(session)) ?? []) as unknown as SubagentTask[],
  cancelSubagent: (session, id) => App.CancelSubagent(session, id),
  onSubagentEvent: (handler) => subscribe(subagentEventName, handler),
  onMessageEvent: (handler) => subscribe(messageEventName, handler),

  cronJobs: async () => ((await App.CronJobs()) ?? []) as unknown as CronJob[],
  addCronJob: async (job) => (await App.AddCronJob(job as never)) as unknown as CronJob,
  updateCronJob: async (id, job) => (await App.UpdateCronJob(id, job as never)) as unknown as CronJob,
  cronSchedulePreview: async (schedule, n) => (await App.CronSchedulePreview(schedule, n)) ?? [],
  setCronJobEnabled: async (id, on) => (await App.SetCronJobEnabled(id, on)) as unknown as CronJob,
  deleteCronJob: (id) => App.DeleteCronJob(id),
  runCronJobNow: async (id) => (await App.RunCronJobNow(id)) as unknown as CronJob,

  agents: async () =>
    ((await App.Agents()) ?? []).map((a) => ({ ...a, allow: a.allow ?? [], deny: a.deny ?? [] })) as unknown as Agent[],
  saveAgent: (agent) => App.SaveAgent(agent as never),
  deleteAgent: (key) => App.DeleteAgent(key),
  agentContextFiles: async (agent) => ((await App.AgentContextFiles(agent)) ?? []) as unknown as ContextFileView[],
  saveAgentContextFile: (agent, name, content) => App.SaveAgentContextFile(agent, name, content),
  modelProviders: async () => ((await App.ModelProviders()) ?? []) as unknown as ModelProvider[],
  saveModelProvider: (p) => App.SaveModelProvider(p as never),
  deleteModelProvider: (name) => App.DeleteModelProvider(name),
  testModelProvider: async (name) => ((await App.TestModelProvider(name)) ?? []) as unknown as LlmModel[],

  // First run and the provider/agent forms.
  detectModelServers: async () =>
    ((await App.DetectModelServers()) ?? []).map((s) => ({ ...s, models: s.models ?? [] })) as unknown as ModelServer[],
  testModelProviderDraft: async (p) => ((await App.TestModelProviderDraft(p as never)) ?? []) as unknown as LlmModel[],
  firstRunPending: () => App.FirstRunPending(),
  finishFirstRun: () => App.FinishFirstRun(),
  completeFirstRun: (p, model) => App.CompleteFirstRun(p as never, model),
  newAgentDefaults: async () => {
    const a = await App.NewAgentDefaults();
    return { ...a, allow: a.allow ?? [], deny: a.deny ?? [] } as unknown as Agent;
  },
  ...sandboxCalls(),
  ...mcpServerCalls(),
  ...mcpClientCalls(),
  ...teamsCalls(),
  ...memoryCalls(),
  ...memoryFolderCalls(),
  ...knowledgeCalls(),
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
