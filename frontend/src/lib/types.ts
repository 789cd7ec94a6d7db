// Shapes of the data the Go side (app.App) returns over the Wails bridge.
// They mirror the JSON tags of app.ToolInfo, app.Explanation and the
// "tool:event" payload; keep them in step with app/ when those change.

export type Danger = 'safe' | 'warning' | 'dangerous' | 'critical';
export type ToolClass = 'static' | 'engine' | 'runtime';

/** One JSON-schema property as the backend derives it from a Params struct. */
export interface SchemaProperty {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  items?: SchemaProperty;
  default?: unknown;
  [key: string]: unknown;
}

/** The tool's parameter schema: an object schema. */
export interface ToolSchema {
  type?: string;
  properties?: Record<string, SchemaProperty>;
  required?: string[];
  [key: string]: unknown;
}

export interface ToolInfo {
  name: string;
  group: string;
  description: string;
  long_description: string;
  danger: Danger;
  requires_confirmation: boolean;
  class: ToolClass;
  allowed: boolean;
  /** Why the tool is blocked; the backend may omit it for allowed tools. */
  reason?: string;
  schema: ToolSchema | null;
}

export interface ExplanationStep {
  step: string;
  outcome: string;
  detail: string;
}

export interface Explanation {
  tool: string;
  /** The groups the tool belongs to, when the backend reports them. */
  groups?: string[];
  allowed: boolean;
  steps: ExplanationStep[];
  /** The verdict in one sentence, naming what decided it. */
  summary?: string;
  /** A deny every agent is bound by (global or subagent deny): no per-agent change can allow the tool. */
  denied_by?: string;
}

export type ToolTopic = 'tool.start' | 'tool.complete' | 'tool.error';

export interface ToolEventPayload {
  call_id?: string;
  tool?: string;
  group?: string;
  agent?: string;
  session?: string;
  args?: unknown;
  code?: string;
  message?: string;
  duration_ms?: number;
}

export interface ToolEvent {
  topic: ToolTopic | string;
  time: string;
  payload: ToolEventPayload;
}

// ---- Calling a tool from the UI (app.CallTool) ----

export interface CallResult {
  status: 'success' | 'error' | string;
  for_llm: string;
  for_user: string;
  code?: string;
  message?: string;
  duration_ms: number;
}

// ---- Approvals (backend/approvals/types.go) ----

export type ApprovalDecision = 'allow-once' | 'allow-always' | 'deny';
export type ApprovalMode = 'ask' | 'allowlist' | 'deny';

/** One action waiting for a human. Times are RFC 3339 strings. */
export interface ApprovalRequest {
  id: string;
  tool: string;
  summary: string;
  /** The normalised argv of everything the action runs; "always" stores these. */
  commands?: string[][];
  cwd?: string;
  agent?: string;
  session?: string;
  /** The tool call the request holds up, so the chat asks on that call's card. */
  call_id?: string;
  /** Why the action was flagged. */
  reason: string;
  created: string;
  deadline: string;
  /** Set when another Warren process (warren mcp serve, a script) asked. */
  origin?: { pid: number; process: string };
}

export interface ApprovalOutcome {
  allowed: boolean;
  decision: ApprovalDecision | string;
  /** user, pattern, mode, timeout or cancelled. */
  by: string;
  reason?: string;
}

export interface ApprovalResolution {
  request: ApprovalRequest;
  outcome: ApprovalOutcome;
}

export type ApprovalEvent =
  | { topic: 'approval.requested'; time: string; payload: ApprovalRequest }
  | { topic: 'approval.resolved'; time: string; payload: ApprovalResolution };

/** A stored "allow always" answer. */
export interface ApprovalPattern {
  id: number;
  tool: string;
  agent?: string;
  commands: string[][];
  display: string;
  created: string;
}

export interface AuditEntry {
  id: number;
  request_id: string;
  tool: string;
  summary: string;
  cwd?: string;
  agent?: string;
  session?: string;
  decision: string;
  decided_by: string;
  reason?: string;
  created: string;
}

// ---- Sandbox (app.SandboxStatus) ----

export type SandboxMode = 'podman' | 'host';
export type SandboxFallback = 'deny' | 'host';

export interface SandboxContainer {
  /** The session the container belongs to. */
  key: string;
  id: string;
  image: string;
  /** Podman's state: running, exited… */
  state?: string;
  age_seconds?: number;
  idle_seconds: number;
  workspace: string;
  /** The container has a network (tools that asked for one). */
  network?: boolean;
  /** Owned by this Warren process (others belong to another, or a crashed, one). */
  mine?: boolean;
}

export interface SandboxStatus {
  mode: SandboxMode;
  /** What happens when the Podman sandbox is unavailable. */
  fallback: SandboxFallback;
  /** Podman answers, the image exists and the runner is in place. */
  available: boolean;
  socket: string;
  rootless: boolean;
  image: string;
  image_ready?: boolean;
  runtime: string;
  runner?: string;
  containers: SandboxContainer[] | null;
  /** What to know about where commands run; some end in ". Fix: …". */
  warnings: string[] | null;
  /** Why sandboxed commands cannot run, one line each: "<cause>. Fix: <fix>". */
  problems: string[] | null;
}

/** One check of app.SandboxDoctor (podman.Check), run for real. */
export interface SandboxCheck {
  /** Short and stable: "socket", "tun device", "network run"… */
  name: string;
  /** False when the check failed. */
  ok: boolean;
  /** A pass with a caveat. */
  warn?: boolean;
  /** What was found, in one line. */
  detail: string;
  /** What to do about a failure or warning, in one line. */
  fix?: string;
}

/** warren.SandboxTest: the sandbox's real test (doctor checks, then a command in a real container). */
export interface SandboxTest {
  /** When it finished (RFC 3339). */
  at: string;
  /** A test command ran in a container with the workspace writable. */
  ok: boolean;
  checks: SandboxCheck[] | null;
  /** The first failed check that stops sandboxed commands; absent when ok. */
  failed?: SandboxCheck | null;
  /** A failed check only agents with network on meet (tun device, slirp4netns). */
  network_failed?: SandboxCheck | null;
  /** What Warren can fix itself: "build-image". */
  action?: string;
  seconds: number;
}

// ---- Custom tools (app.CustomTools → custom.Definition) ----

/**
 * A custom tool as the UI handles it. On the wire parameters is a JSON
 * object (Go json.RawMessage); api.ts converts to and from this string.
 */
export interface CustomTool {
  name: string;
  description: string;
  /** A JSON schema object, as text. */
  parameters: string;
  /** A shell template with {{.key}} placeholders. */
  command: string;
  /** 1–3600 (Go treats 0 as its default, 60). */
  timeout_seconds: number;
  enabled: boolean;
  /** "" = every agent; (name, agent) identifies a tool. */
  agent: string;
  /** Names of the stored environment variables; their values are write-only. */
  env_keys: string[] | null;
  /**
   * Values to store, sent only when saving: new or replaced values, and ""
   * for a stored variable to remove. Never returned.
   */
  env?: Record<string, string>;
}

// ---- Chat, agents and model providers (app/chat.go) ----

/** store.Agent */
export interface Agent {
  key: string;
  name: string;
  type: 'open' | 'predefined';
  provider: string;
  model: string;
  /** "" inherits the global profile. */
  profile: string;
  allow: string[];
  deny: string[];
  workspace: string;
  sandbox: boolean;
  network: boolean;
}

/**
 * warren.ContextFileView: one routed context file (SOUL.md & co.) of an
 * agent, as the agent reads it on this desktop (user "local").
 */
export interface ContextFileView {
  name: string;
  /** What the file is for (seed §3). */
  purpose: string;
  /** "agent": one copy shared by every user; "user": the local user's own copy. */
  scope: 'agent' | 'user';
  /** What read_file returns; "" when the file does not exist. */
  content: string;
  exists: boolean;
  /** The user has no copy of this open agent's file: content is the agent-level template. */
  template: boolean;
  /** Whether the system prompt includes it (it exists and is not blank). */
  in_prompt: boolean;
}

/** store.Provider; api_key is write-only ("" keeps the stored key, "-" removes it). */
export interface ModelProvider {
  name: string;
  kind: 'openai' | 'anthropic';
  base_url: string;
  api_key?: string;
  has_key: boolean;
  default_model: string;
}

/** llm.Model */
export interface LlmModel {
  id: string;
}

// ---- First run (app/onboarding.go) ----

/** warren.ModelServer: a local OpenAI-compatible server that answered. */
export interface ModelServer {
  /** "ollama", "lmstudio", "llamacpp", "vllm" or "custom". */
  kind: string;
  /** For a person: "Ollama". */
  label: string;
  base_url: string;
  models: LlmModel[];
  /** It answered 401/403: running, but wants an API key. */
  needs_key: boolean;
}

/** podman.ImageReport: what BuildSandboxImage made. */
export interface SandboxImageReport {
  image: string;
  id: string;
  source: string;
}

/** sessions.Session */
export interface ChatSession {
  id: string;
  agent: string;
  parent_id?: string;
  title: string;
  status: string;
  /** The model chosen for this chat in its header ("" = the agent's). */
  model?: string;
  prompt_tokens: number;
  completion_tokens: number;
  created: string;
  updated: string;
}

/** sessions.ToolCall */
export interface StoredToolCall {
  id: string;
  name: string;
  arguments: string;
}

/**
 * What a stored message is beyond its role (sessions.Kind*): "" is an
 * ordinary message; "notification" a message the agent sent the user;
 * "summary" a system summary of earlier turns (for the model only);
 * "subagent_results" finished subagents announced to the parent.
 */
export type ChatMessageKind = '' | 'notification' | 'summary' | 'subagent_results';

/** sessions.Message */
export interface ChatMessage {
  id: number;
  role: string;
  content: string;
  tool_calls?: StoredToolCall[];
  tool_call_id?: string;
  name?: string;
  kind?: ChatMessageKind | string;
  /** The model that wrote an assistant message. */
  model?: string;
  /** Why a stored reply is partial; absent when complete. */
  incomplete?: IncompleteReason;
  created: string;
}

// ---- The chat's own calls (issue 15: model picker, resend, search, attachments) ----

/** sessions.Incomplete*: why a reply was cut short. */
export type IncompleteReason = 'stopped' | 'dropped' | 'error';

/** What sendMessage sends besides the prompt. */
export interface SendOptions {
  /** The model picked in the chat's header ("" = the session's or the agent's). */
  model?: string;
  /** The id of the user message this one replaces (edit, regenerate, retry). */
  replaceFrom?: number;
}

/** sessions.SearchHit */
export interface SessionSearchHit {
  session: ChatSession;
  /** The matching words in context; "" when the title matched. */
  snippet: string;
}

/** warren.ModelChoices: what the chat's model picker offers for an agent. */
export interface ModelChoices {
  provider: string;
  /** The model a new chat uses ("" when none is set). */
  default: string;
  models: string[];
  /** Why the list is missing or short ("" when whole). */
  problem?: string;
}

/** warren.Attachment: a file copied into the workspace for the chat. */
export interface Attachment {
  /** Relative to the workspace, e.g. "attachments/notes.txt". */
  path: string;
  size: number;
}

/** llm.Usage */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  estimated?: boolean;
}

export type AgentEventKind =
  | 'session'
  | 'prompt'
  | 'text'
  | 'tool_start'
  | 'tool_progress'
  | 'tool_end'
  | 'usage'
  | 'done'
  | 'error';

/** app.AgentEvent: an agent.Event tagged with its run ("agent:event"). */
export interface AgentEvent {
  run_id: string;
  /** Position in its run from 1, when the backend numbers events (the dev server's WebSocket may reorder them). */
  seq?: number;
  kind: AgentEventKind;
  session: string;
  text?: string;
  tool?: string;
  call_id?: string;
  args?: string;
  result?: string;
  code?: string;
  duration_ms?: number;
  usage?: TokenUsage;
  error?: string;
  /** On "session": the model answering this turn. */
  model?: string;
  /** On "prompt": the stored id of the user's message. */
  message_id?: number;
  /** On "tool_progress": progress of total (0 when unknown); text is the message. */
  progress?: number;
  total?: number;
}

// ---- Subagents ("subagent:event", app.Subagents → agent.Task) ----

export type SubagentStatus = 'running' | 'completed' | 'failed' | 'cancelled';

/** agent.Task: one subagent a session started. Times are RFC 3339. */
export interface SubagentTask {
  id: string;
  label: string;
  task: string;
  /** The session that started it (the chat's session id). */
  parent_session: string;
  agent: string;
  depth: number;
  /** The child's own session, once it has one. */
  session?: string;
  status: SubagentStatus | string;
  result?: string;
  error?: string;
  started: string;
  /** Absent while running. */
  ended?: string;
  /** Spawned to run on its own (its result is announced), rather than awaited. */
  background?: boolean;
}

/** warren.Announcement: finished background subagents handed to their parent. */
export interface SubagentAnnouncement {
  session: string;
  tasks: SubagentTask[];
  /** The turn Warren started to answer them; absent when a running turn took them. */
  run_id?: string;
}

/** The "subagent.*" bus events. */
export type SubagentEvent =
  | { topic: 'subagent.started' | 'subagent.done'; time: string; payload: SubagentTask }
  | { topic: 'subagent.announced'; time: string; payload: SubagentAnnouncement };

// ---- Messages agents send the user ("message:event", topic "message.user") ----

export type MessageLevel = 'info' | 'success' | 'warning' | 'error';

/** The "message.user" payload: something an agent wants the user to see. */
export interface UserMessage {
  id: string;
  agent: string;
  /** The session it belongs to; "" when it belongs to none. */
  session: string;
  title: string;
  text: string;
  level: MessageLevel | string;
  /** RFC 3339. */
  at: string;
}

export interface MessageEvent {
  topic: 'message.user' | string;
  time: string;
  payload: UserMessage;
}

// ---- Schedules (app/cron.go → cron.Job) ----

/** cron.Job. Times are RFC 3339; Go's zero time (year 1) means "none". */
export interface CronJob {
  id: string;
  agent: string;
  name: string;
  /** A 5-field cron expression, a macro (@daily) or "at <RFC 3339>". */
  schedule: string;
  prompt: string;
  enabled: boolean;
  next_run: string;
  last_run: string;
  /** ok, error or running; absent before the first run. */
  last_status?: 'ok' | 'error' | 'running' | string;
  /** The reply of the last run, or its error. */
  last_result?: string;
  /** The session the last run wrote to (opens in Chat). */
  last_session?: string;
  created: string;
  updated: string;
}

/** warren.CronJobInput: a new job as the form sends it. */
export interface CronJobInput {
  agent: string;
  name: string;
  schedule: string;
  prompt: string;
}

// MCP types live in mcpTypes.ts; re-exported so imports stay in one place.
export * from './mcpTypes';

// Team board types live in teamTypes.ts; re-exported so imports stay in one place.
export * from './teamTypes';
// Memory types live in memoryTypes.ts; re-exported likewise.
export * from './memoryTypes';

/** A user setting (warren settings): its value, default and meaning. */
export interface SettingValue {
  key: string;
  value: string;
  default: string;
  description: string;
  /** A sealed secret: value is "(set)" or "". */
  secret?: boolean;
  /** "true" or "false": shown as a switch, saved when flipped. */
  bool?: boolean;
}
