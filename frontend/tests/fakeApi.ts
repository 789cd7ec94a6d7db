// An in-memory WarrenApi for component tests: the same shapes the Go side
// returns, with a vi.fn behind every method so tests can assert the calls.
import { vi } from 'vitest';
import type { WarrenApi } from '../src/lib/api';
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
} from '../src/lib/types';

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
  const created = new Date(Date.now() - 1000);
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
    error: '',
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

export interface FakeState {
  active: string;
  pending: ApprovalRequest[];
  patterns: ApprovalPattern[];
  audit: AuditEntry[];
  mode: ApprovalMode;
  dialogs: boolean;
  sandbox: SandboxStatus;
  custom: CustomTool[];
  /** Stored env values per tool (the fake keeps them to check write-only handling). */
  customEnv: Record<string, Record<string, string>>;
  customProblems: string[];
  /** Tools whose calls wait for an approval (like requires_confirmation). */
  confirm: Set<string>;
  agents: Agent[];
  providers: ModelProvider[];
  /** Stored API keys by provider (write-only on the wire). */
  providerKeys: Record<string, string>;
  /** What TestModelProvider answers, by provider; an Error rejects. */
  models: Record<string, LlmModel[] | Error>;
  sessions: ChatSession[];
  history: Record<string, ChatMessage[]>;
  /** Run ids handed out by sendMessage, oldest first. */
  runs: string[];
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

export interface FakeApi extends WarrenApi {
  emit(ev: ToolEvent): void;
  emitApproval(ev: ApprovalEvent): void;
  /** Delivers an agent event (run_id defaults to the newest run). */
  emitAgent(ev: Partial<AgentEvent> & Pick<AgentEvent, 'kind'>): void;
  /** Publishes a new request the way the Go service does. */
  request(over?: Partial<ApprovalRequest>): ApprovalRequest;
  state: FakeState;
}

type Fns = { [K in keyof WarrenApi]: ReturnType<typeof vi.fn> & WarrenApi[K] };

export function fakeApi(active = 'coding'): FakeApi & Fns {
  const state: FakeState = {
    active,
    pending: [],
    patterns: [],
    audit: [],
    mode: 'ask',
    dialogs: true,
    sandbox: sandboxStatus(),
    custom: [structuredClone(sampleCustomTool)],
    customEnv: { '\u0000count_lines': { API_TOKEN: 'stored-secret' } },
    customProblems: [],
    confirm: new Set(['write_file', 'exec']),
    agents: [makeAgent(), makeAgent({ key: 'reviewer', name: 'Reviewer', profile: 'minimal', deny: ['exec'] })],
    providers: [],
    providerKeys: {},
    models: {},
    sessions: [],
    history: {},
    runs: [],
  };
  let agentListener: ((ev: AgentEvent) => void) | null = null;
  let runSeq = 0;
  let listener: ((ev: ToolEvent) => void) | null = null;
  let approvalListener: ((ev: ApprovalEvent) => void) | null = null;
  const waiters = new Map<string, (d: ApprovalDecision) => void>();
  let auditId = 0;
  let patternId = 0;

  function publishRequest(over: Partial<ApprovalRequest> = {}): ApprovalRequest {
    const req = makeRequest(over);
    state.pending.push(req);
    approvalListener?.({ topic: 'approval.requested', time: new Date().toISOString(), payload: req });
    return req;
  }

  function settle(id: string, decision: ApprovalDecision): boolean {
    const req = state.pending.find((r) => r.id === id);
    if (!req) return false;
    state.pending = state.pending.filter((r) => r.id !== id);
    const allowed = decision !== 'deny';
    if (decision === 'allow-always' && req.commands?.length) {
      state.patterns.push({
        id: ++patternId,
        tool: req.tool,
        agent: req.agent,
        commands: req.commands,
        display: req.commands.map((c) => c.join(' ')).join(' && '),
        created: new Date().toISOString(),
      });
    }
    state.audit.unshift({
      id: ++auditId,
      request_id: id,
      tool: req.tool,
      summary: req.summary,
      agent: req.agent,
      decision,
      decided_by: 'user',
      reason: allowed ? '' : 'denied by the user',
      created: new Date().toISOString(),
    });
    approvalListener?.({
      topic: 'approval.resolved',
      time: new Date().toISOString(),
      payload: { request: req, outcome: { allowed, decision, by: 'user', reason: allowed ? '' : 'denied by the user' } },
    });
    waiters.get(id)?.(decision);
    waiters.delete(id);
    return true;
  }

  const api = {
    state,
    tools: vi.fn(async (profile: string, _agent: string) => toolsFor(profile || state.active)),
    profiles: vi.fn(async () => ['full', 'coding', 'messaging', 'minimal']),
    activeProfile: vi.fn(async () => state.active),
    setActiveProfile: vi.fn(async (p: string) => {
      state.active = p;
    }),
    explain: vi.fn(
      async (tool: string, profile: string, agent: string): Promise<Explanation> => ({
        tool,
        allowed: (allowedBy[profile] ?? []).includes(tool),
        steps: [
          { step: 'profile', outcome: 'allow', detail: `profile ${profile} for agent ${agent}` },
          { step: 'agent deny list', outcome: 'no match', detail: 'nothing denied' },
        ],
      }),
    ),
    version: vi.fn(async () => 'v0.1.0-test'),
    onToolEvent: vi.fn((handler: (ev: ToolEvent) => void) => {
      listener = handler;
      return () => {
        listener = null;
      };
    }),
    emit(ev: ToolEvent) {
      listener?.(ev);
    },

    callTool: vi.fn(async (name: string, argsJSON: string, agent: string): Promise<CallResult> => {
      if (state.confirm.has(name)) {
        const req = publishRequest({ tool: name, summary: `${name} ${argsJSON}`, commands: [[name, argsJSON]], agent });
        const decision = await new Promise<ApprovalDecision>((resolve) => waiters.set(req.id, resolve));
        if (decision === 'deny') {
          return {
            status: 'error',
            for_llm: '',
            for_user: '',
            code: 'PermissionDenied',
            message: `${name} was not approved: denied by the user`,
            duration_ms: 1234.5,
          };
        }
      }
      return { status: 'success', for_llm: `ran ${name} with ${argsJSON}`, for_user: `ran ${name}`, duration_ms: 0.42 };
    }),

    pendingApprovals: vi.fn(async () => [...state.pending]),
    answerApproval: vi.fn(async (id: string, decision: ApprovalDecision) => settle(id, decision)),
    approvalPatterns: vi.fn(async () => [...state.patterns]),
    revokeApproval: vi.fn(async (id: number) => {
      state.patterns = state.patterns.filter((p) => p.id !== id);
    }),
    approvalAudit: vi.fn(async (limit: number) => state.audit.slice(0, limit)),
    approvalMode: vi.fn(async () => state.mode),
    setApprovalMode: vi.fn(async (m: ApprovalMode) => {
      state.mode = m;
    }),
    dialogsEnabled: vi.fn(async () => state.dialogs),
    setDialogsEnabled: vi.fn(async (on: boolean) => {
      state.dialogs = on;
    }),
    onApprovalEvent: vi.fn((handler: (ev: ApprovalEvent) => void) => {
      approvalListener = handler;
      return () => {
        approvalListener = null;
      };
    }),
    emitApproval(ev: ApprovalEvent) {
      approvalListener?.(ev);
    },
    request: publishRequest,

    sandboxStatus: vi.fn(async () => structuredClone(state.sandbox)),
    setSandboxSettings: vi.fn(async (mode: string, fallback: string, image: string) => {
      state.sandbox = { ...state.sandbox, mode: mode as SandboxStatus['mode'], fallback: fallback as SandboxStatus['fallback'], image };
    }),
    pruneSandbox: vi.fn(async () => {
      const n = state.sandbox.containers?.length ?? 0;
      state.sandbox = { ...state.sandbox, containers: [] };
      return n;
    }),

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

    sendMessage: vi.fn(async (_agent: string, _session: string, _prompt: string) => {
      const id = `run-${++runSeq}`;
      state.runs.push(id);
      return id;
    }),
    stopRun: vi.fn(async (_id: string) => true),
    sessions: vi.fn(async (agent: string) => structuredClone(state.sessions.filter((s) => !agent || s.agent === agent))),
    sessionHistory: vi.fn(async (id: string) => structuredClone(state.history[id] ?? [])),
    deleteSession: vi.fn(async (id: string) => {
      state.sessions = state.sessions.filter((s) => s.id !== id);
    }),
    onAgentEvent: vi.fn((handler: (ev: AgentEvent) => void) => {
      agentListener = handler;
      return () => {
        agentListener = null;
      };
    }),
    emitAgent(ev: Partial<AgentEvent> & Pick<AgentEvent, 'kind'>) {
      agentListener?.({ run_id: state.runs[state.runs.length - 1] ?? '', session: '', ...ev });
    },

    agents: vi.fn(async () => structuredClone(state.agents)),
    saveAgent: vi.fn(async (a: Agent) => {
      state.agents = [...state.agents.filter((x) => x.key !== a.key), structuredClone(a)];
    }),
    deleteAgent: vi.fn(async (key: string) => {
      if (key === 'default') throw 'the default agent cannot be deleted';
      state.agents = state.agents.filter((a) => a.key !== key);
    }),
    modelProviders: vi.fn(async () => structuredClone(state.providers)),
    // Like Go: "" keeps the stored key, "-" removes it; has_key is computed.
    saveModelProvider: vi.fn(async (p: ModelProvider) => {
      if (!/^https?:\/\//.test(p.base_url)) throw `provider ${p.name}: base URL ${JSON.stringify(p.base_url)} must be an http(s) URL`;
      if (p.api_key === '-') delete state.providerKeys[p.name];
      else if (p.api_key) state.providerKeys[p.name] = p.api_key;
      const { api_key: _k, ...rest } = p;
      state.providers = [
        ...state.providers.filter((x) => x.name !== p.name),
        { ...rest, has_key: p.name in state.providerKeys },
      ];
    }),
    deleteModelProvider: vi.fn(async (name: string) => {
      state.providers = state.providers.filter((p) => p.name !== name);
    }),
    testModelProvider: vi.fn(async (name: string) => {
      const m = state.models[name];
      if (m instanceof Error) throw m.message;
      return structuredClone(m ?? []);
    }),
  };
  return api as never;
}
