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
  warnings: string[] | null;
  error: string;
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

/** sessions.Session */
export interface ChatSession {
  id: string;
  agent: string;
  parent_id?: string;
  title: string;
  status: string;
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
  created: string;
}

/** llm.Usage */
export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  estimated?: boolean;
}

export type AgentEventKind = 'session' | 'text' | 'tool_start' | 'tool_end' | 'usage' | 'done' | 'error';

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

// ---- MCP servers (app/mcp.go over backend/mcp and backend/warren) ----

export type McpTransport = 'stdio' | 'sse' | 'streamable-http';
export type McpState = 'stopped' | 'connecting' | 'connected' | 'reconnecting' | 'failed';

/**
 * mcp.Server. env and headers are write-only: Go never returns their
 * values, only env_keys/header_keys. On save, a value replaces the stored
 * one and "" deletes that key (UpdateMCPServer merges).
 */
export interface McpServer {
  name: string;
  transport: McpTransport;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  url?: string;
  headers?: Record<string, string>;
  enabled: boolean;
  tool_prefix?: string;
  /** Nanoseconds (Go time.Duration); 0 or absent = the default. */
  connect_timeout_ns?: number;
  call_timeout_ns?: number;
  /** Tools switched off for every agent (SetMCPToolEnabled changes it). */
  tool_deny?: string[];
  restricted: boolean;
  deferred: boolean;
  sandboxed: boolean;
  sandbox_network: boolean;
  env_keys?: string[];
  header_keys?: string[];
}

/** mcp.Status, published as "mcp:event" on every change. Times are RFC 3339, absent when zero. */
export interface McpStatus {
  name: string;
  transport: McpTransport;
  enabled: boolean;
  state: McpState;
  protocol?: string;
  server_name?: string;
  server_version?: string;
  tools: number;
  /** Resources and prompts the server listed when it connected. */
  resources?: number;
  prompts?: number;
  /** A state that works but needs attention (0 tools), with the reason. */
  warning?: string;
  last_error?: string;
  last_health?: string;
  latency_ms?: number;
  restarts: number;
  /** While reconnecting: attempt n of max_attempts, the next at next_retry. */
  attempt?: number;
  max_attempts?: number;
  next_retry?: string;
  connected_at?: string;
  pid?: number;
  /** The agents' own connections: one per agent whose grant has config overrides. */
  agent_connections?: McpAgentConnection[] | null;
}

/** mcp.AgentConnection: a server's separate connection for one agent. */
export interface McpAgentConnection {
  agent: string;
  state: McpState | string;
  last_error?: string;
  pid?: number;
}

/** warren.MCPServerView. */
export interface McpServerView {
  server: McpServer;
  status: McpStatus;
  /** Set when the status comes from another Warren process. */
  source?: string;
}

/** The "mcp:event" payload envelope (topic "mcp.status"). */
export interface McpEvent {
  topic: 'mcp.status' | string;
  time: string;
  payload: McpStatus;
}

/** warren.MCPToolView: one server tool as Warren registers it. */
export interface McpTool {
  name: string;
  registered_as: string;
  description: string;
  enabled: boolean;
  danger: Danger | string;
}

/** app.MCPTestResult: ok false carries error and the server's stderr lines. */
export interface McpTestResult {
  ok: boolean;
  error?: string;
  protocol: string;
  server_name: string;
  server_version: string;
  tools: { name: string; description: string }[];
  latency_ms: number;
  warning?: string;
  stderr: string[];
}

export type McpScope = 'agent' | 'user';

/** mcp.Grant: one agent or user may use a server; deny wins over allow. */
export interface McpGrant {
  server: string;
  scope: McpScope;
  subject: string;
  /** Empty: every tool. */
  tool_allow?: string[];
  tool_deny?: string[];
  /** Agent grants only (Go refuses them on user grants); absent, null or {} = none. */
  config_overrides?: McpGrantOverrides | null;
  enabled: boolean;
  created_at?: string;
}

/**
 * mcp.ConfigOverrides: how one agent's own connection of a server differs.
 * env and headers are write-only like the server's: reads list only
 * env_keys/header_keys. On save, a key in env_keys and not in env keeps its
 * stored value, a key in env gets the new one, a stored key in neither is
 * removed.
 */
export interface McpGrantOverrides {
  /** stdio: merged over the server's env. */
  env?: Record<string, string>;
  /** sse / streamable-http: merged over the server's headers. */
  headers?: Record<string, string>;
  /** stdio: replaces the server's args. */
  args?: string[];
  /** Whole seconds, more than 0. */
  call_timeout_seconds?: number;
  env_keys?: string[];
  header_keys?: string[];
}

/** mcp.AccessRequest; approving it creates the grant. */
export interface McpAccessRequest {
  id: number;
  server: string;
  scope: McpScope;
  subject: string;
  tool_allow?: string[];
  reason?: string;
  status: 'pending' | 'approved' | 'rejected' | string;
  reviewer?: string;
  review_note?: string;
  created_at: string;
  reviewed_at?: string;
}

/** warren.MCPImportReport. */
export interface McpImportReport {
  added: string[] | null;
  replaced: string[] | null;
  /** Servers that exist already (import again with replace). */
  skipped: string[] | null;
  warnings: string[] | null;
}

/** warren.ClaudeDesktopOffer: servers in Claude Desktop's config Warren lacks. */
export interface ClaudeDesktopOffer {
  path: string;
  servers: string[];
}

/** app.MCPAgentAccess: whether the active profile offers a server's tools. */
export interface McpAgentAccess {
  also_allowed: boolean;
  /** How to offer the tools when they are not; "" when they are. */
  hint: string;
  profile: string;
}
