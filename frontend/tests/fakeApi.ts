// An in-memory WarrenApi for component tests: the same shapes the Go side
// returns, with a vi.fn behind every method so tests can assert the calls.
import { vi } from 'vitest';
import { agentFakes } from './agentsFake';
import { approvalFakes } from './approvalsFake';
import { chatFakes } from './chatFake';
import { mediaFakes } from './mediaFake';
import { firstRunFakes } from './firstRunFake';
import { sandboxFakes } from './sandboxFake';
import { scheduleFakes } from './schedulesFake';
import type { WarrenApi } from '../src/lib/api';
import type {
  Agent,
  AgentEvent,
  ApprovalEvent,
  ApprovalMode,
  ApprovalPattern,
  ApprovalRequest,
  AuditEntry,
  ChatMessage,
  ChatSession,
  CronJob,
  CustomTool,
  LlmModel,
  McpGrant,
  McpServer,
  McpStatus,
  MessageEvent,
  ModelProvider,
  ModelServer,
  SandboxCheck,
  SandboxStatus,
  SandboxTest,
  SendOptions,
  SubagentAnnouncement,
  SubagentEvent,
  SubagentTask,
  ToolEvent,
  UserMessage,
} from '../src/lib/types';
import { mcpFake, type McpFakeState } from './fakeMcp';
import { mcpClientFake } from './fakeMcpClient';
import { teamsFake } from './teamsFake';
import { memoryFake } from './memoryFake';
import { makeAgent, sampleCustomTool, sandboxStatus } from './fixtures';

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
  const subagentListeners = new Set<(ev: SubagentEvent) => void>();
  const messageListeners = new Set<(ev: MessageEvent) => void>();
  let agentListener: ((ev: AgentEvent) => void) | null = null;
  let runSeq = 0;
  const mcp = mcpFake();
  const board = teamsFake();
  const memory = memoryFake();
  const mcpClient = mcpClientFake();

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
    ...approvalFakes(state),

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

    ...scheduleFakes(state),
    ...agentFakes(state),
    ...firstRunFakes(state),
  };
  return api as never;
}

export { judgeDoctor } from './sandboxFake';
