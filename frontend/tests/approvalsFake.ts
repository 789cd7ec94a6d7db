// The tools and approvals part of the fake WarrenApi (fakeApi.ts spreads it
// in): the inventory and explanations as policy gives them, Try it's calls
// that wait for an approval, and the approval queue, patterns and audit.
import { vi } from 'vitest';
import { knownAgent } from './agentsFake';
import type { FakeState } from './fakeApi';
import { allowedBy, makeRequest, toolsFor } from './fixtures';
import type { ApprovalDecision, ApprovalEvent, ApprovalMode, ApprovalRequest, CallResult, Explanation, ToolEvent } from '../src/lib/types';

export function approvalFakes(state: FakeState) {
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

  return {
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
      knownAgent(state, agent);
      if (state.globalDeny.includes(tool)) {
        throw `${tool} is on the global deny list (entry “${tool}”), which applies to every agent: no single agent can be exempted.`;
      }
      const list = (state.agentAllowed[agent] ??= []);
      if (!(allowedBy[state.active] ?? []).includes(tool) && !list.includes(tool)) list.push(tool);
      return fakeExplain(tool, state.active, agent);
    }),
    stopAllowingToolForAgent: vi.fn(async (agent: string, tool: string) => {
      knownAgent(state, agent);
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
  };
}
