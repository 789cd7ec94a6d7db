import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import App from '../src/App.svelte';
import {
  applyApprovalEvent,
  formatCountdown,
  fractionLeft,
  localTime,
  requestForCall,
  secondsLeft,
  shellLine,
} from '../src/lib/approvals';
import { fakeApi, freezeClock, makeRequest } from './fakeApi';

afterEach(() => vi.useRealTimers());

function badge(): string | null {
  return document.querySelector('[data-testid="badge-approvals"]')?.textContent ?? null;
}

function cards(): HTMLElement[] {
  return [...document.querySelectorAll<HTMLElement>('li[data-request]')];
}

async function renderApp(api = fakeApi(), initialTab: 'tools' | 'approvals' = 'approvals') {
  const user = userEvent.setup();
  render(App, { props: { api, initialTab } });
  await waitFor(() => expect(api.pendingApprovals).toHaveBeenCalled());
  if (initialTab === 'approvals') await waitFor(() => expect(api.approvalMode).toHaveBeenCalled());
  return { api, user };
}

describe('approval helpers', () => {
  it('adds requested and removes resolved requests, oldest first, without duplicates', () => {
    const a = makeRequest({ created: '2026-01-01T00:00:01Z' });
    const b = makeRequest({ created: '2026-01-01T00:00:00Z' });
    let list = applyApprovalEvent([], { topic: 'approval.requested', time: '', payload: a });
    list = applyApprovalEvent(list, { topic: 'approval.requested', time: '', payload: b });
    list = applyApprovalEvent(list, { topic: 'approval.requested', time: '', payload: a });
    expect(list.map((r) => r.id)).toEqual([b.id, a.id]);
    list = applyApprovalEvent(list, {
      topic: 'approval.resolved',
      time: '',
      payload: { request: b, outcome: { allowed: false, decision: 'deny', by: 'user' } },
    });
    expect(list.map((r) => r.id)).toEqual([a.id]);
  });

  it('counts down to the deadline', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(secondsLeft('2026-01-01T00:02:00Z', now)).toBe(120);
    expect(secondsLeft('2025-12-31T23:00:00Z', now)).toBe(0);
    expect(secondsLeft('', now)).toBeNull();
    expect(formatCountdown(125)).toBe('2:05');
    expect(formatCountdown(0)).toBe('0:00');
    const req = makeRequest({ created: '2026-01-01T00:00:00Z', deadline: '2026-01-01T00:02:00Z' });
    expect(fractionLeft(req, now + 60_000)).toBe(0.5);
  });

  it('quotes argv words for display', () => {
    expect(shellLine(['rm', '-f', 'a b', "it's", ''])).toBe(`rm -f 'a b' 'it'\\''s' ''`);
  });

  it('shows stored times in local time', () => {
    expect(localTime('2026-01-02T03:04:05.000Z')).toMatch(/^2026-01-0[12] \d\d:04:05$/);
    expect(localTime('not a time')).toBe('not a time');
  });
});

describe('approvals panel', () => {
  it('renders the pending queue with command, cwd, agent, reason and a countdown', async () => {
    freezeClock();
    const api = fakeApi();
    api.state.pending.push(makeRequest({ summary: 'exec rm -rf build', commands: [['rm', '-rf', 'build']], tool: 'exec' }));
    await renderApp(api);
    const [card] = await waitFor(() => {
      expect(cards()).toHaveLength(1);
      return cards();
    });
    expect(within(card).getByTestId('request-summary').textContent).toBe('exec rm -rf build');
    expect(card.textContent).toContain('/home/me/.warren/workspace');
    expect(card.textContent).toContain('default');
    expect(within(card).getByTestId('request-reason').textContent).toBe('delete_file is dangerous and requires confirmation');
    expect(card.textContent).toContain('2:00 left'); // makeRequest: two minutes to answer
    expect(card.textContent).toContain('rm -rf build'); // what "always" would store
    expect(within(card).getByRole('button', { name: /Allow once/ })).toBeTruthy();
    expect(within(card).getByRole('button', { name: /Always allow/ })).toBeTruthy();
    expect(within(card).getByRole('button', { name: /Deny/ })).toBeTruthy();
    expect(screen.getByTestId('pending-count').textContent).toBe('1');
    expect(within(card).queryByTestId('approval-origin')).toBeNull();
  });

  it('says which Warren process asked a request from outside the window', async () => {
    const api = fakeApi();
    api.state.pending.push(makeRequest({ origin: { pid: 4242, process: 'warren mcp serve' } }));
    await renderApp(api);
    const origin = await waitFor(() => screen.getByTestId('approval-origin'));
    expect(origin.textContent).toContain('warren mcp serve');
    expect(origin.textContent).toContain('pid 4242');
  });

  it('keeps the badge in step with requested and resolved events', async () => {
    const { api } = await renderApp(fakeApi(), 'tools');
    expect(badge()).toBeNull();
    const first = api.request();
    await waitFor(() => expect(badge()).toBe('1'));
    api.request();
    await waitFor(() => expect(badge()).toBe('2'));
    expect(screen.getByRole('tab', { name: /Approvals \(2 pending\)/ })).toBeTruthy();
    api.emitApproval({
      topic: 'approval.resolved',
      time: '',
      payload: { request: first, outcome: { allowed: true, decision: 'allow-once', by: 'user' } },
    });
    await waitFor(() => expect(badge()).toBe('1'));
  });

  it('answers with the buttons and removes the request', async () => {
    const { api, user } = await renderApp();
    const req = api.request();
    await waitFor(() => expect(cards()).toHaveLength(1));
    await user.click(within(cards()[0]).getByRole('button', { name: /Deny/ }));
    expect(api.answerApproval).toHaveBeenCalledWith(req.id, 'deny');
    await waitFor(() => expect(cards()).toHaveLength(0));
    expect(badge()).toBeNull();
    expect(screen.getByText(/Nothing is waiting/)).toBeTruthy();
    // The audit reloads on the resolution.
    await waitFor(() => expect(document.querySelector('tr[data-audit]')?.textContent).toContain('denied'));
  });

  it('focuses the newest request and answers with y / a / n', async () => {
    const { api, user } = await renderApp();
    api.request();
    const newest = api.request();
    await waitFor(() => expect(cards()).toHaveLength(2));
    await waitFor(() => expect(document.activeElement).toBe(cards()[0]));
    expect(cards()[0].dataset.request).toBe(newest.id); // newest on top

    await user.keyboard('a');
    expect(api.answerApproval).toHaveBeenLastCalledWith(newest.id, 'allow-always');
    await waitFor(() => expect(cards()).toHaveLength(1));
    // Focus moves to the next request, so the keyboard flow continues.
    await waitFor(() => expect(document.activeElement).toBe(cards()[0]));
    await user.keyboard('y');
    expect(api.answerApproval).toHaveBeenLastCalledWith(expect.stringMatching(/^apr-/), 'allow-once');
    await waitFor(() => expect(cards()).toHaveLength(0));

    // "Always" stored a pattern, which the list shows.
    await waitFor(() => expect(document.querySelectorAll('tr[data-pattern]')).toHaveLength(1));
  });

  it('n denies and a focused button still takes the shortcut', async () => {
    const { api, user } = await renderApp();
    const req = api.request();
    await waitFor(() => expect(cards()).toHaveLength(1));
    within(cards()[0]).getByRole('button', { name: /Allow once/ }).focus();
    await user.keyboard('n');
    expect(api.answerApproval).toHaveBeenCalledWith(req.id, 'deny');
  });

  it('says so when someone else answered first', async () => {
    const api = fakeApi();
    const { user } = await renderApp(api);
    api.request();
    await waitFor(() => expect(cards()).toHaveLength(1));
    api.answerApproval.mockResolvedValueOnce(false);
    await user.click(within(cards()[0]).getByRole('button', { name: /Allow once/ }));
    expect(await screen.findByText(/already answered/)).toBeTruthy();
  });

  it('shows a toast on the Tools screen when a request arrives, and Review opens the queue', async () => {
    freezeClock();
    const { api, user } = await renderApp(fakeApi(), 'tools');
    expect(screen.queryByTestId('approval-toast')).toBeNull();
    const req = api.request({ summary: 'delete_file {"path":"notes.txt"}' });
    const toast = await screen.findByTestId('approval-toast');
    expect(toast.textContent).toContain('Approval needed: delete_file');
    expect(toast.textContent).toContain('delete_file {"path":"notes.txt"}');
    expect(toast.textContent).toContain('agent default · 2:00 left');
    await user.click(within(toast).getByRole('button', { name: 'Review' }));
    expect(screen.getByRole('tab', { name: /Approvals/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.queryByTestId('approval-toast')).toBeNull();
    await waitFor(() => expect(document.activeElement?.getAttribute('data-request')).toBe(req.id));
  });

  it('hides the toast when dismissed or when the request is resolved', async () => {
    const { api, user } = await renderApp(fakeApi(), 'tools');
    api.request();
    await user.click(within(await screen.findByTestId('approval-toast')).getByRole('button', { name: /Hide/ }));
    expect(screen.queryByTestId('approval-toast')).toBeNull();
    expect(badge()).toBe('1'); // still pending
    const second = api.request();
    await screen.findByTestId('approval-toast');
    await api.answerApproval(second.id, 'deny');
    await waitFor(() => expect(screen.queryByTestId('approval-toast')).toBeNull());
  });

  it('revokes an always-allowed pattern only after confirming', async () => {
    const api = fakeApi();
    api.state.patterns.push({
      id: 7,
      tool: 'exec',
      commands: [['git', 'status']],
      display: 'git status',
      created: '2026-01-02T03:04:05Z',
    });
    const { user } = await renderApp(api);
    const row = await waitFor(() => {
      const r = document.querySelector<HTMLElement>('tr[data-pattern="7"]');
      expect(r).toBeTruthy();
      return r!;
    });
    expect(row.textContent).toContain('git status');
    expect(row.textContent).toContain('all agents');

    await user.click(within(row).getByRole('button', { name: 'Revoke git status' }));
    expect(api.revokeApproval).not.toHaveBeenCalled();
    const yes = within(row).getByRole('button', { name: 'Yes, revoke' });
    expect(document.activeElement).toBe(yes);
    // Cancel backs out.
    await user.click(within(row).getByRole('button', { name: 'Cancel' }));
    expect(api.revokeApproval).not.toHaveBeenCalled();

    await user.click(within(row).getByRole('button', { name: 'Revoke git status' }));
    await user.click(within(row).getByRole('button', { name: 'Yes, revoke' }));
    expect(api.revokeApproval).toHaveBeenCalledWith(7);
    await waitFor(() => expect(document.querySelector('tr[data-pattern]')).toBeNull());
    expect(screen.getByText(/Revoked: exec will ask again/)).toBeTruthy();
  });

  it('switches the mode with an explanation of each, and restores it when saving fails', async () => {
    const api = fakeApi();
    const { user } = await renderApp(api);
    const ask = await screen.findByRole('radio', { name: /^Ask/ });
    await waitFor(() => expect((ask as HTMLInputElement).checked).toBe(true));
    expect(screen.getByText(/run only actions I allowed always before/)).toBeTruthy();
    await user.click(screen.getByRole('radio', { name: /^Allowlist/ }));
    expect(api.setApprovalMode).toHaveBeenCalledWith('allowlist');

    api.setApprovalMode.mockRejectedValueOnce('settings are read-only');
    await user.click(screen.getByRole('radio', { name: /^Deny/ }));
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('strong')?.textContent).toBe('Warren could not change the approval mode.');
    expect(alert.querySelector('details')?.textContent).toContain('SetApprovalMode("deny"): settings are read-only');
    expect((screen.getByRole('radio', { name: /^Allowlist/ }) as HTMLInputElement).checked).toBe(true);
  });

  it('toggles native dialogs', async () => {
    const { api, user } = await renderApp();
    const toggle = await screen.findByRole('switch', { name: 'Show native dialogs' });
    await waitFor(() => expect((toggle as HTMLInputElement).checked).toBe(true));
    await user.click(toggle);
    expect(api.setDialogsEnabled).toHaveBeenCalledWith(false);
    expect((toggle as HTMLInputElement).checked).toBe(false);
  });

  it('lists recent decisions', async () => {
    const api = fakeApi();
    api.state.audit.push({
      id: 1,
      request_id: 'apr-x',
      tool: 'delete_file',
      summary: 'delete_file {"path":"a.txt"}',
      decision: 'allow-once',
      decided_by: 'pattern',
      reason: 'allowed earlier with "always"',
      created: '2026-01-02T03:04:05Z',
    });
    await renderApp(api);
    const row = await waitFor(() => {
      const r = document.querySelector<HTMLElement>('tr[data-audit="1"]');
      expect(r).toBeTruthy();
      return r!;
    });
    expect(row.textContent).toContain('allowed once');
    expect(row.textContent).toContain('pattern');
    expect(row.textContent).toContain('delete_file {"path":"a.txt"}');
  });
});

describe('navigation', () => {
  it('starts on Chat and moves between sections with arrow keys and Alt+digit', async () => {
    const api = fakeApi();
    const user = userEvent.setup();
    render(App, { props: { api } });
    const chat = screen.getByRole('tab', { name: 'Chat' });
    expect(chat.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Chat' })).toBeTruthy();
    // Entering Chat puts the caret in the message box; move it to the tabs.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Message' })));

    chat.focus();
    await user.keyboard('{ArrowRight}');
    const tools = screen.getByRole('tab', { name: 'Tools' });
    expect(tools.getAttribute('aria-selected')).toBe('true');
    await screen.findByText('5 tools · 4 allowed under coding');
    await user.keyboard('{ArrowRight}');
    const approvals = screen.getByRole('tab', { name: /Approvals/ });
    expect(approvals.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(approvals);
    // End and Left work whatever sections come last (new ones are appended).
    const all = screen.getAllByRole('tab');
    await user.keyboard('{End}');
    expect(all[all.length - 1].getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowLeft}');
    expect(all[all.length - 2].getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(all[all.length - 2]);
    await user.keyboard('{Alt>}4{/Alt}');
    expect(screen.getByRole('tab', { name: 'Sandbox' }).getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Alt>}2{/Alt}');
    expect(tools.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{Alt>}1{/Alt}');
    expect(chat.getAttribute('aria-selected')).toBe('true');
    // Only the shown panel is in the accessibility tree.
    expect(screen.getAllByRole('tabpanel')).toHaveLength(1);
  });
});

describe('inventory freshness', () => {
  it('re-queries the tools when coming back to the Tools tab', async () => {
    const api = fakeApi();
    const user = userEvent.setup();
    render(App, { props: { api } });
    await screen.findByText('5 tools · 4 allowed under coding');
    const calls = api.tools.mock.calls.length;
    await user.click(screen.getByRole('tab', { name: 'Custom tools' }));
    expect(api.tools.mock.calls.length).toBe(calls);
    await user.click(screen.getByRole('tab', { name: 'Tools' }));
    await waitFor(() => expect(api.tools.mock.calls.length).toBe(calls + 1));
  });
});

describe('approvals in the chat', () => {
  it('links a request to its tool call by call id and tool', () => {
    const a = makeRequest({ call_id: 'c1', tool: 'exec' });
    const b = makeRequest({ call_id: 'c1', tool: 'delete_file' });
    const foreign = makeRequest({ call_id: 'c2', tool: 'exec', origin: { pid: 1, process: 'warren mcp serve' } });
    expect(requestForCall([a, b, foreign], 'c1', 'exec')).toBe(a);
    expect(requestForCall([a, b], 'c1', 'delete_file')).toBe(b);
    expect(requestForCall([a, b, foreign], 'c2', 'exec')).toBeNull();
    expect(requestForCall([a, makeRequest({ tool: 'exec' })], '', 'exec')).toBeNull();
  });

  async function chatWithCall(api = fakeApi()) {
    const user = userEvent.setup();
    render(App, { props: { api, initialTab: 'chat' } });
    await waitFor(() => expect(api.pendingApprovals).toHaveBeenCalled());
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await user.type(box, 'clean up{Enter}');
    await waitFor(() => expect(api.sendMessage).toHaveBeenCalled());
    api.emitAgent({ kind: 'session', session: 'sess-1' });
    api.emitAgent({ kind: 'tool_start', session: 'sess-1', tool: 'exec', call_id: 'call_9', args: '{"command":"rm old.log"}' });
    const card = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-call-id="call_9"]');
      if (!el) throw new Error('no card');
      return el;
    });
    return { api, user, card };
  }

  it('asks on the waiting tool card, and answering there settles it everywhere', async () => {
    const { api, user, card } = await chatWithCall();
    expect(within(card).getByTestId('tool-status').textContent).toBe('running…');
    const req = api.request({
      tool: 'exec',
      call_id: 'call_9',
      session: 'sess-1',
      summary: 'rm old.log',
      commands: [['rm', 'old.log']],
      reason: 'rm deletes files outside the sandbox',
    });
    // Another call's request does not show on this card.
    api.request({ tool: 'exec', call_id: 'call_other', summary: 'ls' });
    await waitFor(() => expect(within(card).getByTestId('tool-status').textContent).toBe('waiting for your approval'));
    const ask = within(card).getByTestId('inline-approval');
    expect(within(ask).getByTestId('inline-command').textContent).toBe('rm old.log');
    expect(within(ask).getByTestId('inline-reason').textContent).toBe('rm deletes files outside the sandbox');
    expect(within(ask).getByTestId('inline-countdown').textContent?.trim()).toMatch(/^[12]:\d\d left$/);
    expect(within(card).getByRole('group', { name: 'Allow exec to run this?' })).toBe(ask);
    expect(within(ask).getByRole('button', { name: 'Always allow' }).getAttribute('title')).toBe('Never ask again for exactly: rm old.log');
    expect(badge()).toBe('2');

    await user.click(within(ask).getByRole('button', { name: 'Allow once' }));
    expect(api.answerApproval).toHaveBeenCalledWith(req.id, 'allow-once');
    await waitFor(() => expect(within(card).queryByTestId('inline-approval')).toBeNull());
    expect(within(card).getByTestId('tool-status').textContent).toBe('running…');
    expect(badge()).toBe('1'); // the other request still waits in the queue
    expect(api.state.audit[0]).toMatchObject({ request_id: req.id, decision: 'allow-once' });
  });

  it('hides the toast while the asking card is on screen', async () => {
    // jsdom has no layout: this observer reports every card as on screen.
    const observed: Element[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(private cb: IntersectionObserverCallback) {}
        observe(el: Element) {
          observed.push(el);
          this.cb([{ isIntersecting: true, target: el } as IntersectionObserverEntry], this as unknown as IntersectionObserver);
        }
        disconnect() {}
      },
    );
    try {
      const { api, card } = await chatWithCall();
      // Another call's request: no card shows it, so its toast stays.
      const other = api.request({ tool: 'exec', call_id: 'call_elsewhere', summary: 'ls' });
      await screen.findByTestId('approval-toast');
      await api.answerApproval(other.id, 'deny');
      await waitFor(() => expect(screen.queryByTestId('approval-toast')).toBeNull());
      api.request({ tool: 'exec', call_id: 'call_9', summary: 'rm old.log' });
      await within(card).findByTestId('inline-approval');
      expect(observed).toHaveLength(1);
      expect(screen.queryByTestId('approval-toast')).toBeNull();
      expect(badge()).toBe('1'); // still counted in the queue
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('takes the request away when it is answered elsewhere, and Deny denies', async () => {
    const { api, user, card } = await chatWithCall();
    const first = api.request({ tool: 'exec', call_id: 'call_9', summary: 'rm old.log' });
    await within(card).findByTestId('inline-approval');
    await api.answerApproval(first.id, 'deny'); // the Approvals tab, a dialog…
    await waitFor(() => expect(within(card).queryByTestId('inline-approval')).toBeNull());

    // One exec may ask again for its next command.
    const second = api.request({ tool: 'exec', call_id: 'call_9', summary: 'rm other.log' });
    const ask = await within(card).findByTestId('inline-approval');
    expect(within(ask).getByTestId('inline-command').textContent).toBe('rm other.log');
    await user.click(within(ask).getByRole('button', { name: 'Deny' }));
    expect(api.answerApproval).toHaveBeenLastCalledWith(second.id, 'deny');
    api.emitAgent({ kind: 'tool_end', tool: 'exec', call_id: 'call_9', code: 'PermissionDenied', result: 'PermissionDenied: not approved' });
    await waitFor(() => expect(within(card).getByTestId('tool-status').textContent).toBe('PermissionDenied'));
  });
});
