import type { Agent, Danger } from './types';

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
  /** The transport in use when it is not the configured one (the SSE fallback). */
  via?: McpTransport;
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
  /** When Warren last started (or restarted) the server. */
  started_at?: string;
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
  /** The Warren process that ran the server is gone; status.warning says what it last said. */
  writer_gone?: boolean;
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
  /** Imported but stored switched off (left off, disabled in the file, or it downloads on start). */
  disabled?: string[] | null;
  warnings: string[] | null;
}

/** warren.MCPPreviewServer: one server an import would store. Values of env and headers are never included. */
export interface McpPreviewServer {
  name: string;
  transport: McpTransport;
  command?: string;
  args: string[] | null;
  cwd?: string;
  url?: string;
  env_keys: string[] | null;
  header_keys: string[] | null;
  /** Why starting it downloads code first ("npx downloads the package … when it starts"); absent when it does not. */
  downloads?: string;
  /** The file marks it disabled. */
  disabled_in_file?: boolean;
  /** Warren has a server of this name: importing it replaces it. */
  exists: boolean;
  /** The suggested switch: off when it downloads on start or the file disables it. */
  enable: boolean;
  /** What will not work as written: placeholders, a missing command. */
  notes: string[] | null;
}

/** warren.MCPImportPreview: what importing one document would store; nothing is stored or started. */
export interface McpImportPreview {
  /** "Claude Desktop", "Cursor", "VS Code" for a found config; absent for pasted text. */
  client?: string;
  path?: string;
  servers: McpPreviewServer[] | null;
  /** About the file: servers left out or renamed. */
  warnings: string[] | null;
  /** A found config that could not be read. */
  error?: string;
}

/** warren.MCPImportChoice. */
export interface McpImportChoice {
  name: string;
  enabled: boolean;
}

/** warren.MCPImportRequest: pasted text or a found config's path, and the chosen servers. */
export interface McpImportRequest {
  text?: string;
  path?: string;
  servers: McpImportChoice[];
  /** Offer the imported servers' tools to agents. */
  offer: boolean;
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
