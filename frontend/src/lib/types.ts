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

/** sessions.Message */
export interface ChatMessage {
  id: number;
  role: string;
  content: string;
  tool_calls?: StoredToolCall[];
  tool_call_id?: string;
  name?: string;
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
