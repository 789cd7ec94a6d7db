import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ChatPanel from '../src/components/chat/ChatPanel.svelte';
import { mergeTask, summarise, taskDuration, taskTitle } from '../src/lib/subagents';
import type { SubagentTask } from '../src/lib/types';
import { fakeApi, freezeClock, makeTask } from './fakeApi';

afterEach(() => vi.useRealTimers());

describe('subagent list', () => {
  it('merges events by id in start order; a finished task never goes back to running', () => {
    const t0 = '2026-03-02T09:00:00Z';
    const list: SubagentTask[] = [];
    mergeTask(list, makeTask({ id: 'sub-2', started: '2026-03-02T09:00:05Z' }));
    mergeTask(list, makeTask({ id: 'sub-1', started: t0 }));
    expect(list.map((t) => t.id)).toEqual(['sub-1', 'sub-2']);
    mergeTask(list, makeTask({ id: 'sub-1', started: t0, status: 'completed', result: 'X is 42', ended: '2026-03-02T09:00:03Z' }));
    // A late "started" (the dev server may reorder events) changes nothing.
    mergeTask(list, makeTask({ id: 'sub-1', started: t0, status: 'running' }));
    expect(list[0]).toMatchObject({ status: 'completed', result: 'X is 42' });
    expect(summarise(list)).toBe('1 running · 1 done');
    expect(summarise([...list, makeTask({ id: 'sub-3', status: 'failed' }), makeTask({ id: 'sub-4', status: 'cancelled' })])).toBe('1 running · 1 done · 1 failed · 1 cancelled');
  });

  it('measures durations, live while running', () => {
    const started = '2026-03-02T09:00:00Z';
    const at = (s: number) => Date.parse(started) + s * 1000;
    expect(taskDuration(makeTask({ started, status: 'completed', ended: '2026-03-02T09:00:03.500Z' }), at(99))).toBe('3.5 s');
    expect(taskDuration(makeTask({ started }), at(42))).toBe('42 s');
    expect(taskDuration(makeTask({ started }), at(125))).toBe('2 min 5 s');
    expect(taskDuration(makeTask({ started, status: 'failed' }), at(9))).toBe(''); // ended unknown
    expect(taskDuration(makeTask({ started, status: 'completed', ended: '0001-01-01T00:00:00Z' }), at(9))).toBe(''); // Go's zero time
    expect(taskTitle(makeTask({ label: '', task: 'Line one\nline two' }))).toBe('Line one');
  });
});

async function chatWithSession(api = fakeApi(), session = 'sess-1') {
  const user = userEvent.setup();
  render(ChatPanel, { props: { api, active: true } });
  await waitFor(() => expect(api.sessions).toHaveBeenCalled());
  await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Split the work{Enter}');
  api.emitAgent({ kind: 'session', session });
  await waitFor(() => expect(api.subagents).toHaveBeenCalledWith(session));
  return { api, user };
}

function row(id: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`[data-subagent="${id}"]`);
  if (!el) throw new Error(`no subagent ${id}`);
  return el;
}

describe('subagents in the chat', () => {
  it('shows each child of the session live: status, duration, result, and cancel', async () => {
    freezeClock();
    const { api, user } = await chatWithSession();
    expect(screen.queryByTestId('subagents')).toBeNull();
    api.emitSubagent(makeTask({ id: 'sub-1', label: 'research', task: 'Find out what X is' }));
    api.emitSubagent(makeTask({ id: 'sub-2', label: 'summary', task: 'Summarise Y' }));
    api.emitSubagent(makeTask({ id: 'sub-9', parent_session: 'another-session', label: 'elsewhere' }));
    const strip = await screen.findByTestId('subagents');
    await waitFor(() => expect(within(strip).getByTestId('subagent-summary').textContent).toBe('2 running'));
    expect(document.querySelector('[data-subagent="sub-9"]')).toBeNull();
    const one = row('sub-1');
    expect(one.textContent).toContain('research');
    expect(within(one).getByTestId('subagent-status').textContent).toBe('running');
    expect(within(one).getByTestId('subagent-duration').textContent).toBe('5.0 s'); // makeTask started 5 s ago

    await user.click(within(one).getByRole('button', { name: 'Cancel subagent research' }));
    expect(api.cancelSubagent).toHaveBeenCalledWith('sess-1', 'sub-1');
    await waitFor(() => expect(within(row('sub-1')).getByTestId('subagent-status').textContent).toBe('cancelled'));
    expect(within(row('sub-1')).queryByRole('button', { name: /Cancel/ })).toBeNull();

    api.emitSubagent(makeTask({ id: 'sub-2', label: 'summary', status: 'completed', result: 'Y in one line.\nMore detail.', ended: new Date().toISOString() }));
    await waitFor(() => expect(within(row('sub-2')).getByTestId('subagent-status').textContent).toBe('done'));
    expect(within(strip).getByTestId('subagent-summary').textContent).toBe('1 done · 1 cancelled');
    const result = within(row('sub-2')).getByTestId('subagent-result');
    expect(result.textContent).toBe('Y in one line.\nMore detail.');
    const toggle = result.closest('button')!;
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-expanded')).toBe('true');

    // The strip folds to one line.
    const head = within(strip).getByRole('button', { name: /^Subagents/ });
    expect(head.getAttribute('aria-expanded')).toBe('true');
    await user.click(head);
    expect(head.getAttribute('aria-expanded')).toBe('false');
    expect(document.querySelector('[data-subagent]')).toBeNull();
  });

  it('shows a failed child with its error and a cancel that fails', async () => {
    const api = fakeApi();
    api.cancelSubagent.mockRejectedValueOnce('no subagent "sub-1" of this session');
    const { user } = await chatWithSession(api);
    api.emitSubagent(makeTask({ id: 'sub-1', label: 'fetch' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel subagent fetch' }));
    const alert = await screen.findByRole('alert');
    expect(alert.querySelector('.sentence')?.textContent).toBe('Warren could not cancel the subagent fetch.');
    expect(alert.querySelector('details')?.textContent).toContain('no subagent "sub-1" of this session');
    api.emitSubagent(makeTask({ id: 'sub-1', label: 'fetch', status: 'failed', error: 'network unreachable', ended: new Date().toISOString() }));
    await waitFor(() => expect(within(row('sub-1')).getByTestId('subagent-status').textContent).toBe('failed'));
    const result = within(row('sub-1')).getByTestId('subagent-result');
    expect(result.textContent?.trim()).toBe('Warren could not finish the task of fetch.');
    await user.click(result);
    expect(result.textContent).toContain('network unreachable');
  });

  it("lists the subagents of a reopened session and opens a child's own session", async () => {
    const api = fakeApi();
    const session = (id: string, title: string, parent_id?: string) => ({ id, agent: 'default', title, parent_id, status: 'idle', prompt_tokens: 1, completion_tokens: 1, created: '2026-03-01T09:00:00Z', updated: '2026-03-01T09:00:00Z' });
    api.state.sessions = [session('s-old', 'Old'), session('s-child', 'Find it', 's-old')];
    api.state.history['s-child'] = [
      { id: 1, role: 'user', content: 'Find it', created: '' },
      { id: 2, role: 'assistant', content: 'found it', created: '' },
    ];
    api.state.subagents['s-old'] = [makeTask({ id: 'sub-5', parent_session: 's-old', session: 's-child', label: 'earlier', status: 'completed', result: 'found it', ended: new Date().toISOString() })];
    const user = userEvent.setup();
    render(ChatPanel, { props: { api, active: true } });
    await user.click(await screen.findByRole('button', { name: /^Old/ }));
    // The child's session is not in the list: it opens from the strip.
    expect(document.querySelector('[data-session="s-child"]')).toBeNull();
    expect(screen.getByRole('heading', { name: /Sessions/ }).textContent).toContain('1');
    await waitFor(() => expect(within(row('sub-5')).getByTestId('subagent-status').textContent).toBe('done'));
    expect(row('sub-5').textContent).toContain('found it');
    await user.click(within(row('sub-5')).getByRole('button', { name: 'Open the session of subagent earlier' }));
    expect(api.sessionHistory).toHaveBeenLastCalledWith('s-child');
    await screen.findByText('A subagent’s session.');
    await user.click(screen.getByRole('button', { name: 'Back to the chat that started it' }));
    expect(api.sessionHistory).toHaveBeenLastCalledWith('s-old');
    await waitFor(() => expect(screen.queryByText('A subagent’s session.')).toBeNull());
  });

  it('follows the turn Warren starts to answer subagent results', async () => {
    const { api } = await chatWithSession();
    api.emitAgent({ kind: 'text', session: 'sess-1', text: 'I started a researcher.' });
    api.emitAgent({ kind: 'done', session: 'sess-1' });
    await screen.findByRole('button', { name: 'Send' });
    const task = makeTask({ id: 'sub-1', label: 'research', status: 'completed', result: 'X is 42', background: true, ended: new Date().toISOString() });
    api.emitSubagent(task);
    api.emitAnnouncement({ session: 'sess-1', tasks: [task], run_id: 'run-bg' });
    const notice = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-role="notice"]');
      if (!el) throw new Error('no notice');
      return el;
    });
    expect(notice.textContent).toContain('Subagent results handed to the agent');
    expect(notice.textContent).toContain('research: done');
    // Its events carry a run id this window never started.
    api.emitAgent({ run_id: 'run-bg', kind: 'session', session: 'sess-1' });
    api.emitAgent({ run_id: 'run-bg', kind: 'text', session: 'sess-1', text: 'The researcher found: X is 42.' });
    await screen.findByText('The researcher found: X is 42.');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    api.emitAgent({ run_id: 'run-bg', kind: 'done', session: 'sess-1' });
    await screen.findByRole('button', { name: 'Send' });
    // A turn of another session is not shown.
    api.emitAgent({ run_id: 'run-x', kind: 'text', session: 'other', text: 'NOISE' });
    await Promise.resolve();
    expect(screen.queryByText('NOISE')).toBeNull();
  });
});
