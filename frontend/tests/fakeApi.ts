// An in-memory WarrenApi for component tests: the same shapes the Go side
// returns, with a vi.fn behind every method so tests can assert the calls.
import { vi } from 'vitest';
import { chatFakes } from './chatFake';
import { mediaFakes } from './mediaFake';
import { firstRunFakes } from './firstRunFake';
import { sandboxFakes } from './sandboxFake';
import type { WarrenApi } from '../src/lib/api';
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
  CronJobInput,
  MessageEvent,
  SubagentAnnouncement,
  SubagentEvent,
  SubagentTask,
  UserMessage,
  LlmModel,
  ModelProvider,
  ModelServer,
  ApprovalDecision,
  ApprovalEvent,
  ApprovalMode,
  ApprovalPattern,
  ApprovalRequest,
  AuditEntry,
  CallResult,
  ContextFileView,
  CustomTool,
  Explanation,
  McpGrant,
  McpServer,
  McpStatus,
  SandboxCheck,
  SandboxStatus,
  SandboxTest,
  ToolEvent,
} from '../src/lib/types';
import { mcpFake, type McpFakeState } from './fakeMcp';
import { mcpClientFake } from './fakeMcpClient';
import { teamsFake } from './teamsFake';
import { memoryFake } from './memoryFake';

import {
  CONTEXT_FILES,
  ZERO_TIME,
  allowedBy,
  makeAgent,
  makeJob,
  makeRequest,
  sampleCustomTool,
  sandboxStatus,
  scheduleError,
  toolsFor,
} from './fixtures';

export * from './fixtures';

export interface FakeState {
  active: string;
  pending: ApprovalRequest[];
  patterns: ApprovalPattern[];
  audit: AuditEntry[];
  mode: ApprovalMode;
  dialogs: boolean;
  sandbox: SandboxStatus;
  /** What SandboxDoctor answers. */
  doctor: SandboxCheck[];
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
  /** Chat (issue 15): files attachFile stored, by workspace path (base64 data). */
  attachments: Record<string, string>;
  /** Chat: what copyText put on the clipboard last. */
  clipboard: string;
  /** Run ids handed out by sendMessage, oldest first. */
  runs: string[];
  cron: CronJob[];
  /** Subagents by parent session, as app.Subagents lists them. */
  subagents: Record<string, SubagentTask[]>;
  /** Stored context files by agent, then name (where routing puts them does not matter here). */
  contextFiles: Record<string, Record<string, string>>;
  /** Open agents' agent-level templates by agent, then name. */
  contextTemplates: Record<string, Record<string, string>>;
  /** When set, saveAgentContextFile rejects with it. */
  contextSaveError: string | null;
  // Approvals in the chat and policy for people (approvals work).
  /** What the window last reported through setWindowFocused (null before). */
  focused: boolean | null;
  /** Tools allowToolForAgent gave each agent on top of the profile. */
  agentAllowed: Record<string, string[]>;
  /** Tools on the global deny list: allowToolForAgent refuses them. */
  globalDeny: string[];
  // First run (app/onboarding.go).
  /** What DetectModelServers finds. */
  servers: ModelServer[];
  /** What TestModelProviderDraft answers, by base URL (else models[name]); an Error rejects. */
  draftModels: Record<string, LlmModel[] | Error>;
  /** The ui.first_run_done setting; true by default so App tests see no wizard (firstRun.test.ts clears it). */
  firstRunDone: boolean;
  /** When set, buildSandboxImage rejects with it. */
  imageError: string | null;
  /** The last testSandbox result (MCP/Sandbox work); null before the first test. */
  lastTest: SandboxTest | null;
}

export interface FakeApi extends WarrenApi {
  emit(ev: ToolEvent): void;
  emitApproval(ev: ApprovalEvent): void;
  /** Delivers an agent event (run_id defaults to the newest run). */
  emitAgent(ev: Partial<AgentEvent> & Pick<AgentEvent, 'kind'>): void;
  /** Publishes a new request the way the Go service does. */
  request(over?: Partial<ApprovalRequest>): ApprovalRequest;
  /** Delivers a "subagent.started"/"subagent.done" event (topic from the status when omitted). */
  emitSubagent(task: SubagentTask, topic?: 'subagent.started' | 'subagent.done'): void;
  /** Delivers a "subagent.announced" event. */
  emitAnnouncement(a: SubagentAnnouncement): void;
  /** Delivers a "message.user" event. */
  emitMessage(m: UserMessage): void;
  /** Ends a job's run the way the scheduler records it. */
  finishCronRun(id: string, status: 'ok' | 'error', result: string, session?: string): void;
  state: FakeState;
  /** MCP servers, statuses, grants… (tests/fakeMcp.ts). */
  mcp: McpFakeState;
  /** Publishes an "mcp:event" status change (merged into the server's last status). */
  emitMcp(st: Partial<McpStatus> & { name: string }, time?: string): void;
  /** Adds a stored, running server with its tools. */
  seedMcpServer(...args: Parameters<ReturnType<typeof mcpFake>['addServer']>): McpServer;
  /** Stores a grant as SaveMCPGrant would (override values in config_overrides.env/headers become stored secrets). */
  seedMcpGrant(g: McpGrant): void;
  /** The Teams board in memory (tests/teamsFake.ts). */
  board: ReturnType<typeof teamsFake>;
  /** Memory documents, search and index status (tests/memoryFake.ts). */
  memory: ReturnType<typeof memoryFake>;
  /** MCP resources, prompts and servers' questions (tests/fakeMcpClient.ts). */
  mcpClient: ReturnType<typeof mcpClientFake>;
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
    doctor: [],
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
    attachments: {},
    clipboard: '',
    runs: [],
    cron: [],
    subagents: {},
    contextFiles: {},
    contextTemplates: {},
    contextSaveError: null,
    focused: null,
    agentAllowed: {},
    globalDeny: [],
    servers: [],
    draftModels: {},
    firstRunDone: true,
    imageError: null,
    lastTest: null,
  };
  // Like fs.RouteContextFile: where a file lives and whether a template shows through.
  function contextRoute(agent: string, name: string) {
    const predefined = state.agents.find((a) => a.key === agent)?.type === 'predefined';
    const scope: ContextFileView['scope'] = predefined && name !== 'USER.md' ? 'agent' : 'user';
    return { scope, fallback: !predefined && name !== 'BOOTSTRAP.md' };
  }
  // The shape warren.ExplainTool returns: a one-sentence summary, the trace.
  function fakeExplain(tool: string, profile: string, agent: string): Explanation {
    const inProfile = (allowedBy[profile] ?? []).includes(tool);
    const added = !inProfile && !!state.agentAllowed[agent]?.includes(tool);
    const denied = state.globalDeny.includes(tool);
    const allowed = (inProfile || added) && !denied;
    const summary = denied
      ? `${tool} is blocked because the global deny list denies it (entry “${tool}”).`
      : added
        ? `${tool} is allowed: agent “${agent}”'s also-allow list adds it back.`
        : inProfile
          ? `${tool} is allowed: the profile “${profile}” includes it.`
          : `${tool} is blocked because the profile “${profile}” does not include it.`;
    return {
      tool,
      allowed,
      summary,
      denied_by: denied ? `the global deny list (entry “${tool}”)` : undefined,
      steps: [
        { step: 'profile', outcome: 'allow', detail: `profile ${profile} for agent ${agent}` },
        { step: 'agent deny list', outcome: 'no match', detail: 'nothing denied' },
        ...(added ? [{ step: 'agent_also_allow', outcome: 'added', detail: `re-added by agent "${agent}" also_allow entry ${tool}` }] : []),
      ],
    };
  }
  function knownAgent(agent: string) {
    if (!state.agents.some((a) => a.key === agent)) throw `unknown agent ${JSON.stringify(agent)}`;
  }
  const subagentListeners = new Set<(ev: SubagentEvent) => void>();
  const messageListeners = new Set<(ev: MessageEvent) => void>();
  let cronSeq = 0;
  function checkJob(in_: CronJobInput) {
    const errs: string[] = [];
    if (!in_.agent.trim()) errs.push('agent: choose the agent that runs the prompt');
    else if (!state.agents.some((a) => a.key === in_.agent)) errs.push(`agent: no agent ${JSON.stringify(in_.agent)}`);
    if (in_.name.length > 100) errs.push(`name: ${in_.name.length} characters is too long (at most 100)`);
    const se = scheduleError(in_.schedule);
    if (se) errs.push(`schedule: ${se}`);
    if (!in_.prompt.trim()) errs.push('prompt: write the instruction the agent runs');
    if (errs.length) throw errs.join('\n');
  }
  function job(id: string): CronJob {
    const j = state.cron.find((x) => x.id === id);
    if (!j) throw `cron job not found: ${id}`;
    return j;
  }
  let agentListener: ((ev: AgentEvent) => void) | null = null;
  let runSeq = 0;
  let listener: ((ev: ToolEvent) => void) | null = null;
  let approvalListener: ((ev: ApprovalEvent) => void) | null = null;
  const waiters = new Map<string, (d: ApprovalDecision) => void>();
  let auditId = 0;
  let patternId = 0;
  const mcp = mcpFake();
  const board = teamsFake();
  const memory = memoryFake();
  const mcpClient = mcpClientFake();

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
    ...mcp.methods,
    ...board.methods,
    ...memory.methods,
    ...mcpClient.methods,
    mcpClient,
    board,
    memory,
    mcp: mcp.state,
    emitMcp: mcp.emitMcp,
    seedMcpServer: mcp.addServer,
    seedMcpGrant: mcp.addGrant,
    tools: vi.fn(async (profile: string, agent: string) =>
      toolsFor(profile || state.active).map((t) =>
        !t.allowed && state.agentAllowed[agent]?.includes(t.name) ? { ...t, allowed: true, reason: undefined } : t,
      ),
    ),
    profiles: vi.fn(async () => ['full', 'coding', 'messaging', 'minimal']),
    activeProfile: vi.fn(async () => state.active),
    setActiveProfile: vi.fn(async (p: string) => {
      state.active = p;
    }),
    explain: vi.fn(async (tool: string, profile: string, agent: string): Promise<Explanation> => fakeExplain(tool, profile, agent)),
    setWindowFocused: vi.fn(async (focused: boolean) => {
      state.focused = focused;
    }),
    // Like warren.AllowToolForAgent: a global deny cannot be lifted for one agent.
    allowToolForAgent: vi.fn(async (agent: string, tool: string) => {
      knownAgent(agent);
      if (state.globalDeny.includes(tool)) {
        throw `${tool} is on the global deny list (entry “${tool}”), which applies to every agent: no single agent can be exempted.`;
      }
      const list = (state.agentAllowed[agent] ??= []);
      if (!(allowedBy[state.active] ?? []).includes(tool) && !list.includes(tool)) list.push(tool);
      return fakeExplain(tool, state.active, agent);
    }),
    stopAllowingToolForAgent: vi.fn(async (agent: string, tool: string) => {
      knownAgent(agent);
      state.agentAllowed[agent] = (state.agentAllowed[agent] ?? []).filter((t) => t !== tool);
      return fakeExplain(tool, state.active, agent);
    }),
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

    ...sandboxFakes(state),

    sendMessage: vi.fn(async (_agent: string, _session: string, _prompt: string, _opts?: SendOptions) => {
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
    ...chatFakes(state),
    ...mediaFakes(),
    onAgentEvent: vi.fn((handler: (ev: AgentEvent) => void) => {
      agentListener = handler;
      return () => {
        agentListener = null;
      };
    }),
    emitAgent(ev: Partial<AgentEvent> & Pick<AgentEvent, 'kind'>) {
      agentListener?.({ run_id: state.runs[state.runs.length - 1] ?? '', session: '', ...ev });
    },

    subagents: vi.fn(async (session: string) => structuredClone(state.subagents[session] ?? [])),
    cancelSubagent: vi.fn(async (session: string, id: string) => {
      const t = (state.subagents[session] ?? []).find((x) => x.id === id);
      if (!t) throw `no subagent ${JSON.stringify(id)} of this session`;
      if (t.status !== 'running') return false;
      Object.assign(t, { status: 'cancelled', ended: new Date().toISOString() });
      for (const fn of subagentListeners) fn({ topic: 'subagent.done', time: new Date().toISOString(), payload: structuredClone(t) });
      return true;
    }),
    onSubagentEvent: vi.fn((handler: (ev: SubagentEvent) => void) => {
      subagentListeners.add(handler);
      return () => subagentListeners.delete(handler);
    }),
    emitSubagent(task: SubagentTask, topic?: 'subagent.started' | 'subagent.done') {
      const list = (state.subagents[task.parent_session] ??= []);
      const i = list.findIndex((x) => x.id === task.id);
      if (i >= 0) list[i] = structuredClone(task);
      else list.push(structuredClone(task));
      const ev: SubagentEvent = {
        topic: topic ?? (task.status === 'running' ? 'subagent.started' : 'subagent.done'),
        time: new Date().toISOString(),
        payload: structuredClone(task),
      };
      for (const fn of subagentListeners) fn(ev);
    },
    emitAnnouncement(a: SubagentAnnouncement) {
      for (const fn of subagentListeners) fn({ topic: 'subagent.announced', time: new Date().toISOString(), payload: structuredClone(a) });
    },
    onMessageEvent: vi.fn((handler: (ev: MessageEvent) => void) => {
      messageListeners.add(handler);
      return () => messageListeners.delete(handler);
    }),
    emitMessage(m: UserMessage) {
      for (const fn of messageListeners) fn({ topic: 'message.user', time: m.at, payload: structuredClone(m) });
    },

    cronJobs: vi.fn(async () => structuredClone(state.cron)),
    // Like warren.AddCronJob: every field problem at once, one "field: message" line each.
    addCronJob: vi.fn(async (in_: CronJobInput) => {
      checkJob(in_);
      const id = `cron-${++cronSeq}`;
      const j = makeJob({ ...in_, id, name: in_.name.trim() || id });
      state.cron = [...state.cron, j].sort((a, b) => a.name.localeCompare(b.name));
      return structuredClone(j);
    }),
    // Like warren.UpdateCronJob: AddCronJob's checks; enabled state kept, next run from now.
    updateCronJob: vi.fn(async (id: string, in_: CronJobInput) => {
      const j = job(id);
      if (j.last_status === 'running') throw `cron job is already running: wait for ${j.name} to finish before editing it`;
      checkJob(in_);
      Object.assign(j, { ...in_, name: in_.name.trim() || id, next_run: j.enabled ? new Date(Date.now() + 7_200_000).toISOString() : ZERO_TIME });
      state.cron = [...state.cron].sort((a, b) => a.name.localeCompare(b.name));
      return structuredClone(j);
    }),
    cronSchedulePreview: vi.fn(async (schedule: string, n: number) => {
      const se = scheduleError(schedule);
      if (se) throw `schedule: ${se}`;
      const base = /^at /i.test(schedule.trim()) ? Date.parse(schedule.trim().slice(3)) : Date.now() + 3_600_000;
      return Array.from({ length: /^at /i.test(schedule.trim()) ? 1 : n }, (_, i) => new Date(base + i * 86_400_000).toISOString());
    }),
    setCronJobEnabled: vi.fn(async (id: string, on: boolean) => {
      const j = job(id);
      Object.assign(j, { enabled: on, next_run: on ? new Date(Date.now() + 3_600_000).toISOString() : ZERO_TIME });
      return structuredClone(j);
    }),
    deleteCronJob: vi.fn(async (id: string) => {
      job(id);
      state.cron = state.cron.filter((j) => j.id !== id);
    }),
    // Like the scheduler picking the job up at once: it is running until finishCronRun.
    runCronJobNow: vi.fn(async (id: string) => {
      const j = job(id);
      if (j.last_status === 'running') throw `cron job is already running: ${j.name}`;
      if (!j.enabled) throw `cron job is disabled: enable ${j.name} to run it`;
      Object.assign(j, { last_status: 'running', last_run: new Date().toISOString(), last_result: '' });
      return structuredClone(j);
    }),
    finishCronRun(id: string, status: 'ok' | 'error', result: string, session = '') {
      Object.assign(job(id), { last_status: status, last_result: result, last_session: session, next_run: new Date(Date.now() + 86_400_000).toISOString() });
    },

    agents: vi.fn(async () => structuredClone(state.agents)),
    saveAgent: vi.fn(async (a: Agent) => {
      state.agents = [...state.agents.filter((x) => x.key !== a.key), structuredClone(a)];
    }),
    deleteAgent: vi.fn(async (key: string) => {
      if (key === 'default') throw 'the default agent cannot be removed';
      state.agents = state.agents.filter((a) => a.key !== key);
    }),
    agentContextFiles: vi.fn(async (agent: string): Promise<ContextFileView[]> => {
      knownAgent(agent);
      return CONTEXT_FILES.map(([name, purpose]) => {
        const { scope, fallback } = contextRoute(agent, name);
        const own = state.contextFiles[agent]?.[name];
        const template = fallback ? state.contextTemplates[agent]?.[name] : undefined;
        const content = own ?? template;
        return {
          name,
          purpose,
          scope,
          content: content ?? '',
          exists: content !== undefined,
          template: own === undefined && template !== undefined,
          in_prompt: !!content?.trim(),
        };
      });
    }),
    // Like warren.SaveAgentContextFile: blank removes, unless a template would show through.
    saveAgentContextFile: vi.fn(async (agent: string, name: string, content: string) => {
      if (state.contextSaveError) throw state.contextSaveError;
      knownAgent(agent);
      if (!CONTEXT_FILES.some(([n]) => n === name)) throw `invalid context file: ${JSON.stringify(name)} is not one of ${CONTEXT_FILES.map(([n]) => n).join(', ')}`;
      const files = (state.contextFiles[agent] ??= {});
      if (content.trim()) files[name] = content;
      else if (contextRoute(agent, name).fallback && state.contextTemplates[agent]?.[name] !== undefined) files[name] = '';
      else delete files[name];
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

    ...firstRunFakes(state),
  };
  return api as never;
}

export { judgeDoctor } from './sandboxFake';
