// Sample data for component tests: tools, approval requests, sandbox status,
// custom tools, agents, schedules, subagents, messages and MCP grant
// overrides, shaped like what the Go side returns. fakeApi.ts serves them
// through an in-memory WarrenApi.
import { vi } from 'vitest';
import type {
  Agent,
  ApprovalRequest,
  CronJob,
  CustomTool,
  McpAgentConnection,
  McpGrant,
  SandboxStatus,
  SubagentTask,
  ToolInfo,
  UserMessage,
} from '../src/lib/types';

/** The "now" of tests whose text depends on the time (countdowns, "1 h ago"). */
export const FIXED_NOW = new Date('2026-03-02T08:30:00Z');

/**
 * Stops the clock at `at` until vi.useRealTimers(): only Date is faked, so
 * timers, waitFor and user events still run, while text computed from "now"
 * no longer depends on how long the test has taken.
 */
export function freezeClock(at = FIXED_NOW) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
}

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

let seq = 0;

/** A pending request as the Go side publishes it: two minutes to answer. */
export function makeRequest(over: Partial<ApprovalRequest> = {}): ApprovalRequest {
  seq++;
  // One millisecond per request: two made in the same millisecond must still
  // sort newest first (the queue orders by created).
  const created = new Date(Date.now() - 1000 + seq);
  const args = over.summary ? '' : `{"path":"file${seq}.txt"}`;
  return {
    id: `apr-${seq}`,
    tool: 'delete_file',
    summary: `delete_file ${args}`,
    commands: [['delete_file', args]],
    cwd: '/home/me/.warren/workspace',
    agent: 'default',
    session: 'local:default',
    reason: 'delete_file is dangerous and requires confirmation',
    created: created.toISOString(),
    deadline: new Date(created.getTime() + 120_000).toISOString(),
    ...over,
  };
}

export function sandboxStatus(over: Partial<SandboxStatus> = {}): SandboxStatus {
  return {
    mode: 'podman',
    fallback: 'deny',
    available: true,
    socket: 'unix:///run/user/1000/podman/podman.sock',
    rootless: true,
    image: 'warren-sandbox:latest',
    image_ready: true,
    runtime: 'runc',
    runner: '/usr/lib/warren/warren-runner',
    containers: [
      {
        key: 'local:default',
        id: '0123456789abcdef0123',
        image: 'warren-sandbox:latest',
        state: 'running',
        age_seconds: 3725,
        idle_seconds: 75,
        workspace: '/home/me/.warren/workspace',
        network: false,
        mine: true,
      },
    ],
    warnings: [],
    problems: [],
    ...over,
  };
}

export const sampleCustomTool: CustomTool = {
  name: 'count_lines',
  description: 'Count the lines of a file',
  parameters: '{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}',
  command: 'wc -l {{.path}}',
  timeout_seconds: 30,
  enabled: true,
  agent: '',
  env_keys: ['API_TOKEN'],
};


/** The routed context files and what they are for, as warren.AgentContextFiles lists them. */
export const CONTEXT_FILES: [string, string][] = [
  ['SOUL.md', "Persona: the agent's personality and behavior"],
  ['IDENTITY.md', 'Agent identity information: who it is, its name and role'],
  ['AGENTS.md', 'Sub-agent definitions'],
  ['TOOLS.md', 'Tool usage guidance'],
  ['USER.md', 'Per-user preferences and context'],
  ['BOOTSTRAP.md', 'First-run instructions; the agent writes it empty (deleting it) when the first run is done'],
];

export const ZERO_TIME = '0001-01-01T00:00:00Z';

export function makeJob(over: Partial<CronJob> = {}): CronJob {
  return {
    id: 'cron-1',
    agent: 'default',
    name: 'Morning digest',
    schedule: '0 9 * * 1-5',
    prompt: 'Summarise my notes.',
    enabled: true,
    next_run: new Date(Date.now() + 3_600_000).toISOString(),
    last_run: ZERO_TIME,
    created: '2026-03-01T08:00:00Z',
    updated: '2026-03-01T08:00:00Z',
    ...over,
  };
}

export function makeTask(over: Partial<SubagentTask> = {}): SubagentTask {
  return {
    id: 'sub-1',
    label: 'research',
    task: 'Find out what X is',
    parent_session: 'sess-1',
    agent: 'default',
    depth: 1,
    status: 'running',
    started: new Date(Date.now() - 5000).toISOString(),
    ...over,
  };
}

export function makeMessage(over: Partial<UserMessage> = {}): UserMessage {
  return {
    id: 'msg-1',
    agent: 'default',
    session: 'sess-1',
    title: 'Backup finished',
    text: 'All 3 folders were copied.',
    level: 'success',
    at: new Date().toISOString(),
    ...over,
  };
}

/** Like backend/cron's parser, roughly: enough to produce its kinds of errors. */
export function scheduleError(schedule: string): string | null {
  const s = schedule.trim();
  if (!s) return 'empty schedule: use a 5-field cron expression such as "*/15 * * * *" or "at 2026-05-01T09:00:00Z"';
  if (/^at /i.test(s)) {
    const t = Date.parse(s.slice(3));
    if (Number.isNaN(t)) return `one-shot schedule ${JSON.stringify(s)}: time must be RFC3339 such as 2026-05-01T09:00:00Z`;
    return t <= Date.now() ? 'that time has already passed; pick a time in the future' : null;
  }
  if (s.startsWith('@')) return null;
  const f = s.split(/\s+/);
  if (f.length !== 5) return `cron expression ${JSON.stringify(s)} has ${f.length} fields, want 5: minute hour day-of-month month day-of-week`;
  const m = Number(f[0]);
  if (/^\d+$/.test(f[0]) && m > 59) return `minute field ${JSON.stringify(f[0])}: value ${m} out of range 0-59`;
  return null;
}

export function makeAgent(over: Partial<Agent> = {}): Agent {
  return {
    key: 'default',
    name: 'Default',
    type: 'open',
    provider: '',
    model: '',
    profile: '',
    allow: [],
    deny: [],
    workspace: '',
    sandbox: false,
    network: false,
    ...over,
  };
}

/**
 * An agent grant of server `everything` with config overrides, as saved:
 * seedMcpGrant stores API_TOKEN's value as a secret; reads list only its key.
 */
export function mcpOverridesGrant(over: Partial<McpGrant> = {}): McpGrant {
  return {
    server: 'everything',
    scope: 'agent',
    subject: 'reviewer',
    tool_allow: [],
    tool_deny: [],
    enabled: true,
    config_overrides: { env: { API_TOKEN: 'tok-reviewer' }, args: ['stdio', '--verbose'], call_timeout_seconds: 30 },
    ...over,
  };
}

/** That grant's own connection, as a server status lists it. */
export const mcpAgentConnections: McpAgentConnection[] = [{ agent: 'reviewer', state: 'connected', pid: 4343 }];
