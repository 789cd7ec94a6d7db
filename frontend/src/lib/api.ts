// The one place the UI talks to Go. Components receive a WarrenApi, so unit
// tests pass a stub and never touch window.go.
import * as App from '../../wailsjs/go/app/App';
import { ClipboardSetText, EventsOn } from '../../wailsjs/runtime/runtime';
import { knowledgeCalls } from './knowledgeApi';
import { memoryFolderCalls } from './memoryFoldersApi';
import { mcpClientCalls } from './mcpClientApi';
import { mcpServerCalls } from './mcpServerApi';
import { safeUrl } from './markdown';
import type {
  Agent,
  AgentEvent,
  ChatMessage,
  ChatSession,
  Attachment,
  ModelChoices,
  SendOptions,
  SessionSearchHit,
  CronJob,
  ContextFileView,
  CronJobInput,
  MessageEvent,
  SubagentEvent,
  SubagentTask,
  LlmModel,
  ModelProvider,
  ModelServer,
  SandboxImageReport,
  ApprovalDecision,
  ApprovalEvent,
  ApprovalMode,
  ApprovalPattern,
  ApprovalRequest,
  AuditEntry,
  CallResult,
  CustomTool,
  Explanation,
  SandboxCheck,
  SandboxStatus,
  ToolEvent,
  ToolInfo,
  ClaudeDesktopOffer,
  McpAccessRequest,
  McpAgentAccess,
  McpEvent,
  McpGrant,
  McpImportPreview,
  McpImportReport,
  McpImportRequest,
  SandboxTest,
  McpServer,
  McpServerView,
  McpTestResult,
  McpTool,
  SettingValue,
  Team,
  TeamEvent,
  TeamSettings,
  TeamTask,
  TeamTaskDetail,
  TeamTaskInput,
  TeamTalk,
} from './types';
import { indexStatusFromWire } from './memory';
import type { MemoryDoc, MemoryEmbedderSetting, MemoryFolder, MemoryIndexStatus, MemorySearchResult, MemoryVersion } from './memoryTypes';
import type { KgEntity, KgGraph, KgQuery, KgRelation, KgVocabulary } from './knowledgeTypes';
import type {
  ElicitationAnswer,
  ElicitationEvent,
  ElicitationRequest,
  McpChatPrompt,
  McpChatResource,
  McpResourceContent,
  McpResourceList,
} from './mcpClient';
import type { Skill, SkillDetail, SkillList } from './skillTypes';

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
  // Approvals in the chat and policy for people (approvals work).
  /** Tells the backend whether the window has the focus: only a background window gets a native prompt. */
  setWindowFocused(focused: boolean): Promise<void>;
  /** Lets one agent use a tool policy keeps from it; rejects with one sentence when that cannot be done. */
  allowToolForAgent(agent: string, tool: string): Promise<Explanation>;
  /** Undoes allowToolForAgent. */
  stopAllowingToolForAgent(agent: string, tool: string): Promise<Explanation>;
  /** Subscribes to approval requests and resolutions; returns the unsubscribe function. */
  onApprovalEvent(handler: (ev: ApprovalEvent) => void): () => void;

  sandboxStatus(): Promise<SandboxStatus>;
  setSandboxSettings(mode: string, fallback: string, image: string): Promise<void>;
  /** Removes idle sandbox containers; resolves to how many were removed. */
  pruneSandbox(): Promise<number>;
  /** Runs every sandbox check for agent's workspace ("" = the default); starts real containers, takes seconds. */
  sandboxDoctor(agent: string): Promise<SandboxCheck[]>;

  customTools(): Promise<CustomTool[]>;
  /** Validates and stores a tool; it is live at once. */
  saveCustomTool(tool: CustomTool): Promise<void>;
  /** Deletes the tool name of agent ("" = the global one). */
  deleteCustomTool(name: string, agent: string): Promise<void>;
  /** Stored definitions that could not be loaded, one message each. */
  customToolProblems(): Promise<string[]>;

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
  /** Builds the sandbox image offline (takes seconds). */
  buildSandboxImage(): Promise<SandboxImageReport>;

  /** Every MCP server with its live status, by name. */
  mcpServers(): Promise<McpServerView[]>;
  /** Stores a new server (fails when the name is taken); an enabled one starts. */
  /** offer: also offer its tools to agents (the also-allow entry group:mcp:NAME). */
  addMcpServer(srv: McpServer, offer: boolean): Promise<void>;
  /** Saves an edited server: env/header values given replace, "" deletes, absent keys stay. */
  updateMcpServer(srv: McpServer): Promise<void>;
  deleteMcpServer(name: string): Promise<void>;
  setMcpServerEnabled(name: string, on: boolean): Promise<void>;
  startMcpServer(name: string): Promise<void>;
  stopMcpServer(name: string): Promise<void>;
  restartMcpServer(name: string): Promise<void>;
  /** Connects once to a configuration (saved or not) and lists its tools; never rejects for a failed connection. */
  testMcpServer(srv: McpServer): Promise<McpTestResult>;
  /** A running server's tools with their on/off switch; rejects when it is not running. */
  mcpServerTools(name: string): Promise<McpTool[]>;
  setMcpToolEnabled(server: string, tool: string, on: boolean): Promise<void>;
  /** The last lines of a server's stderr log. */
  mcpServerLogs(name: string, lines: number): Promise<string[]>;
  // ---- MCP client features (issue 12 §7): resources, prompts, elicitation ----
  /** A server's resources and templates as agent may use them. */
  mcpResources(server: string, agent: string): Promise<McpResourceList>;
  readMcpResource(server: string, agent: string, uri: string): Promise<McpResourceContent[]>;
  /** Copies a resource into agent's workspace as a chat attachment. */
  attachMcpResource(server: string, agent: string, uri: string): Promise<Attachment>;
  /** The prompts of the servers agent may use, for the composer's "/" menu. */
  mcpChatPrompts(agent: string): Promise<McpChatPrompt[]>;
  /** The resources of the servers agent may use, for attaching. */
  mcpChatResources(agent: string): Promise<McpChatResource[]>;
  /** A prompt rendered as the composer's text. */
  renderMcpPrompt(server: string, agent: string, name: string, args: Record<string, string>): Promise<string>;
  pendingElicitations(): Promise<ElicitationRequest[]>;
  /** Answers a server's question; false when it is gone (answered, cancelled). */
  answerElicitation(ans: ElicitationAnswer): Promise<boolean>;
  onElicitationEvent(handler: (ev: ElicitationEvent) => void): () => void;
  /** Grants ("" = every server's). */
  mcpGrants(server: string): Promise<McpGrant[]>;
  saveMcpGrant(g: McpGrant): Promise<void>;
  deleteMcpGrant(server: string, scope: string, subject: string): Promise<void>;
  /** Access requests with status ("" = all), newest first. */
  mcpAccessRequests(status: string): Promise<McpAccessRequest[]>;
  requestMcpAccess(r: Omit<McpAccessRequest, 'id' | 'status' | 'created_at'>): Promise<number>;
  /** Approving creates the grant. */
  reviewMcpRequest(id: number, approve: boolean, note: string): Promise<void>;
  /** Imports an mcpServers JSON (Claude Desktop, Cursor, VS Code). */
  importMcpServers(text: string, replace: boolean): Promise<McpImportReport>;
  /** The servers as a Claude Desktop mcpServers JSON, secrets included. */
  exportMcpServers(): Promise<string>;
  /** Whether saveMcpExport has a native save dialog. */
  canSaveFiles(): Promise<boolean>;
  /** Asks where to save the export and writes it; "" when cancelled. */
  saveMcpExport(): Promise<string>;
  /** The first-run offer to import Claude Desktop's servers; null when none. */
  claudeDesktopOffer(): Promise<ClaudeDesktopOffer | null>;
  /** Imports (accept) or dismisses the offer; it is not shown again. */
  answerClaudeDesktopOffer(accept: boolean): Promise<McpImportReport>;
  mcpAgentAccess(server: string): Promise<McpAgentAccess>;
  /** Adds or removes the also-allow entry group:mcp:NAME. */
  setMcpOffered(server: string, on: boolean): Promise<void>;
  /** Subscribes to MCP server status changes; returns the unsubscribe function. */
  onMcpEvent(handler: (ev: McpEvent) => void): () => void;
  // MCP import preview and the sandbox's real test (MCP/Sandbox work).
  /** Parses a pasted mcpServers JSON; stores and starts nothing. */
  previewMcpImport(text: string): Promise<McpImportPreview>;
  /** Previews the Claude Desktop, Cursor and VS Code configs found on this machine. */
  findMcpConfigs(): Promise<McpImportPreview[]>;
  /** Imports the chosen servers of pasted text or a found config, each on or off as chosen. */
  importMcpSelection(req: McpImportRequest): Promise<McpImportReport>;
  /** Runs a real command in a real sandbox container (seconds); the result is kept. */
  testSandbox(): Promise<SandboxTest>;
  /** The last testSandbox result, null before the first. */
  lastSandboxTest(): Promise<SandboxTest | null>;
  // ---- Teams (issue 11): the user acts on the board as "user" ----
  teams(): Promise<Team[]>;
  defaultTeamSettings(): Promise<TeamSettings>;
  /** Rejects with the board's sentence (unknown agent, lead listed as a member…). */
  createTeam(team: Team): Promise<Team>;
  updateTeam(team: Team): Promise<Team>;
  deleteTeam(key: string): Promise<void>;
  /** Every task of a team, in every state. */
  teamTasks(team: string): Promise<TeamTask[]>;
  teamTask(team: string, id: string): Promise<TeamTaskDetail>;
  createTeamTask(team: string, task: TeamTaskInput): Promise<TeamTask>;
  cancelTeamTask(team: string, id: string, reason: string): Promise<TeamTask>;
  /** assignee "" keeps the owner; note becomes a comment the new dispatch carries. */
  retryTeamTask(team: string, id: string, assignee: string, note: string): Promise<TeamTask>;
  approveTeamTask(team: string, id: string): Promise<TeamTask>;
  rejectTeamTask(team: string, id: string, reason: string): Promise<TeamTask>;
  assignTeamTask(team: string, id: string, assignee: string): Promise<TeamTask>;
  commentTeamTask(team: string, id: string, text: string): Promise<TeamTask>;
  /** Answers a member's ask_user question; the task resumes. */
  answerTeamTask(team: string, id: string, answer: string): Promise<TeamTask>;
  /** A team's audit trail after afterId, oldest first. */
  teamEvents(team: string, afterId: number, limit: number): Promise<TeamEvent[]>;
  /** Subscribes to board and mailbox events of every team; returns the unsubscribe function. */
  onTeamEvent(handler: (ev: TeamEvent) => void): () => void;
  /** Sends the user's message to a team's lead (a team request; a plain chat turn when orchestration is off). */
  talkToTeamLead(team: string, session: string, prompt: string): Promise<TeamTalk>;
  // ---- Native folder dialog (imports); the text fields stay for keyboards ----
  canChooseFolders(): Promise<boolean>;
  /** The chosen folder's path, or "" when cancelled. */
  chooseFolder(title: string): Promise<string>;
  // ---- Memory's imported folders (search_documents) ----
  memoryFolders(): Promise<MemoryFolder[]>;
  /** Imports a folder for one agent ("" every agent); its vectors fill in the background. */
  importMemoryFolder(dir: string, agent: string): Promise<MemoryFolder>;
  /** Forgets an imported folder and its documents (the files stay). */
  forgetMemoryFolder(id: number): Promise<void>;
  // ---- Memory (issue 13 §6): agent "" = global, user "" = the agent's shared copy ----
  /** Documents without content, newest first: an agent's (with the global ones), or the global ones only. */
  memoryDocs(agent: string, globalOnly: boolean): Promise<MemoryDoc[]>;
  /** One document with its content; rejects "memory document not found". */
  memoryDoc(agent: string, user: string, path: string): Promise<MemoryDoc>;
  /** Stores a document; the previous content becomes a version. */
  saveMemoryDoc(agent: string, user: string, path: string, content: string): Promise<MemoryDoc>;
  deleteMemoryDoc(agent: string, user: string, path: string): Promise<void>;
  /** Earlier versions, newest first. */
  memoryVersions(agent: string, user: string, path: string): Promise<MemoryVersion[]>;
  /** Searches as agent would for the local user; scope "" all, user, agent or global. */
  searchMemory(query: string, agent: string, maxResults: number, scope: string): Promise<MemorySearchResult>;
  memoryStatus(): Promise<MemoryIndexStatus>;
  /** Chunks everything again; the vectors rebuild in the background ("memory:index"). */
  reindexMemory(): Promise<void>;
  memoryEmbedder(): Promise<MemoryEmbedderSetting>;
  /** Rejects with the reason when the embedder cannot be put to work (the old one is kept). */
  setMemoryEmbedder(s: MemoryEmbedderSetting): Promise<void>;
  /** Subscribes to the index's progress; returns the unsubscribe function. */
  onMemoryIndex(handler: (st: MemoryIndexStatus) => void): () => void;

  // ---- Skills and the knowledge graph (issue 13 §6) ----
  /** An agent's skills and the folders that are not valid ones ("" workspace: Warren's). */
  agentSkills(agent: string, workspace: string): Promise<SkillList>;
  /** One of an agent's skills with its instructions and grants. */
  skill(agent: string, name: string): Promise<SkillDetail>;
  publishedSkills(): Promise<Skill[]>;
  /** Publishes a skill folder for one agent, or "*" for every agent. */
  importSkill(dir: string, agent: string): Promise<Skill>;
  /** Deletes a published skill (every version). */
  removeSkill(name: string): Promise<void>;
  /** Gives a published skill to an agent after the fact ("*": every agent). */
  grantSkill(name: string, agent: string): Promise<void>;
  /** Takes a published skill away from an agent ("*": the every-agent grant). */
  revokeSkill(name: string, agent: string): Promise<void>;
  knowledgeVocabulary(): Promise<KgVocabulary>;
  searchKnowledge(q: KgQuery): Promise<KgGraph>;
  /** agent "" adds to the global graph. */
  addKnowledgeEntity(e: KgEntity): Promise<KgEntity>;
  updateKnowledgeEntity(e: KgEntity): Promise<KgEntity>;
  deleteKnowledgeEntity(id: number): Promise<void>;
  linkKnowledge(r: KgRelation): Promise<KgRelation>;
  unlinkKnowledge(id: number): Promise<void>;
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
/** The event name app/ emits "mcp.status" bus events under. */
export const mcpEventName = 'mcp:event';
/** The event name app/ emits team board and mailbox events (teams.Event) under. */
export const teamEventName = 'team:event';
/** The event name app/ emits the memory index's progress (memory.IndexStatus) under. */
export const memoryEventName = 'memory:index';

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
  setWindowFocused: (focused) => App.SetWindowFocused(focused),
  allowToolForAgent: async (agent, tool) => (await App.AllowToolForAgent(agent, tool)) as unknown as Explanation,
  stopAllowingToolForAgent: async (agent, tool) => (await App.StopAllowingToolForAgent(agent, tool)) as unknown as Explanation,
  onApprovalEvent: (handler) => subscribe(approvalEventName, handler),

  sandboxStatus: async () => (await App.SandboxStatus()) as unknown as SandboxStatus,
  setSandboxSettings: (mode, fallback, image) => App.SetSandboxSettings(mode, fallback, image),
  pruneSandbox: async () => Number(await App.PruneSandbox()) || 0,
  sandboxDoctor: async (agent) => ((await App.SandboxDoctor(agent)) ?? []) as unknown as SandboxCheck[],

  customTools: async () => ((await App.CustomTools()) ?? []).map(customToolFromWire),
  saveCustomTool: (tool) => App.SaveCustomTool(customToolToWire(tool) as never),
  deleteCustomTool: (name, agent) => App.DeleteCustomTool(name, agent),
  customToolProblems: async () => (await App.CustomToolProblems()) ?? [],

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
  buildSandboxImage: async () => (await App.BuildSandboxImage()) as unknown as SandboxImageReport,

  onMcpEvent: (handler) => subscribe(mcpEventName, handler),
  testSandbox: async () => (await App.TestSandbox()) as unknown as SandboxTest,
  lastSandboxTest: async () => ((await App.LastSandboxTest()) ?? null) as unknown as SandboxTest | null,
  teams: async () => ((await App.Teams()) ?? []) as unknown as Team[],
  defaultTeamSettings: async () => (await App.DefaultTeamSettings()) as unknown as TeamSettings,
  createTeam: async (t) => (await App.CreateTeam(t as never)) as unknown as Team,
  updateTeam: async (t) => (await App.UpdateTeam(t as never)) as unknown as Team,
  deleteTeam: (key) => App.DeleteTeam(key),
  teamTasks: async (team) => ((await App.TeamTasks(team)) ?? []) as unknown as TeamTask[],
  teamTask: async (team, id) => (await App.TeamTask(team, id)) as unknown as TeamTaskDetail,
  createTeamTask: async (team, t) => (await App.CreateTeamTask(team, t as never)) as unknown as TeamTask,
  cancelTeamTask: async (team, id, reason) => (await App.CancelTeamTask(team, id, reason)) as unknown as TeamTask,
  retryTeamTask: async (team, id, assignee, note) => (await App.RetryTeamTask(team, id, assignee, note)) as unknown as TeamTask,
  approveTeamTask: async (team, id) => (await App.ApproveTeamTask(team, id)) as unknown as TeamTask,
  rejectTeamTask: async (team, id, reason) => (await App.RejectTeamTask(team, id, reason)) as unknown as TeamTask,
  assignTeamTask: async (team, id, assignee) => (await App.AssignTeamTask(team, id, assignee)) as unknown as TeamTask,
  commentTeamTask: async (team, id, text) => (await App.CommentTeamTask(team, id, text)) as unknown as TeamTask,
  answerTeamTask: async (team, id, answer) => (await App.AnswerTeamTask(team, id, answer)) as unknown as TeamTask,
  teamEvents: async (team, afterId, limit) => ((await App.TeamEvents(team, afterId, limit)) ?? []) as unknown as TeamEvent[],
  onTeamEvent: (handler) => subscribe(teamEventName, (ev: unknown) => handler(teamEventFromWire(ev))),
  talkToTeamLead: async (team, session, prompt) => (await App.TalkToTeamLead(team, session, prompt)) as unknown as TeamTalk,
  memoryDocs: async (agent, globalOnly) => ((await App.MemoryDocs(agent, globalOnly)) ?? []) as unknown as MemoryDoc[],
  memoryDoc: async (agent, user, path) => (await App.MemoryDoc(agent, user, path)) as unknown as MemoryDoc,
  saveMemoryDoc: async (agent, user, path, content) => (await App.SaveMemoryDoc(agent, user, path, content)) as unknown as MemoryDoc,
  deleteMemoryDoc: (agent, user, path) => App.DeleteMemoryDoc(agent, user, path),
  memoryVersions: async (agent, user, path) => ((await App.MemoryVersions(agent, user, path)) ?? []) as unknown as MemoryVersion[],
  searchMemory: async (query, agent, maxResults, scope) => {
    const r = (await App.SearchMemory(query, agent, maxResults, scope)) as unknown as MemorySearchResult;
    return { ...r, hits: r.hits ?? [] };
  },
  memoryStatus: async () => (await App.MemoryStatus()) as unknown as MemoryIndexStatus,
  reindexMemory: () => App.ReindexMemory(),
  memoryEmbedder: async () => (await App.MemoryEmbedder()) as unknown as MemoryEmbedderSetting,
  setMemoryEmbedder: (s) => App.SetMemoryEmbedder(s as never),
  onMemoryIndex: (handler) => subscribe(memoryEventName, (ev: unknown) => handler(indexStatusFromWire(ev))),
  ...knowledgeCalls(),
  ...memoryFolderCalls(),
  ...mcpServerCalls(),
  ...mcpClientCalls(),
};

/** "team:event" carries the bus event ({topic, time, payload: teams.Event}); the UI wants the teams.Event. */
export function teamEventFromWire(ev: unknown): TeamEvent {
  const w = (ev ?? {}) as { payload?: unknown; team?: unknown };
  return (w.team === undefined && w.payload && typeof w.payload === 'object' ? w.payload : w) as TeamEvent;
}

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
