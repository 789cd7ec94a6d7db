import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import App from '../src/App.svelte';
import ChatPanel from '../src/components/chat/ChatPanel.svelte';
import MessageToasts from '../src/components/shell/MessageToasts.svelte';
import { addNotice, emptyTranscript, itemsFromHistory } from '../src/lib/chat';
import type { ChatMessage } from '../src/lib/types';
import { fakeApi, makeMessage } from './fakeApi';

describe('messages in the transcript', () => {
  it('turns stored notifications and subagent results into notices and skips summaries', () => {
    const msgs: ChatMessage[] = [
      { id: 1, role: 'user', content: 'Back up my notes', created: '2026-03-02T09:00:00.000Z' },
      { id: 2, role: 'assistant', content: '**Backup finished**\n\nAll 3 folders were copied.', name: 'message', kind: 'notification', created: '2026-03-02T09:00:05.000Z' },
      { id: 3, role: 'system', content: 'Summary of earlier turns', kind: 'summary', created: '2026-03-02T09:00:06.000Z' },
      { id: 4, role: 'user', content: 'sub-1 research: completed\nX is 42', kind: 'subagent_results', created: '2026-03-02T09:00:07.000Z' },
      { id: 5, role: 'assistant', content: 'Done.', created: '2026-03-02T09:00:08.000Z' },
    ];
    const live = [
      makeMessage({ id: 'msg-a', text: 'All 3 folders were copied.', at: '2026-03-02T09:00:05.000Z' }), // stored already
      makeMessage({ id: 'msg-b', title: 'Heads up', text: 'Disk almost full.', level: 'warning', at: '2026-03-02T09:00:07.500Z' }),
      makeMessage({ id: 'msg-c', title: 'Later', text: 'After everything.', at: '2026-03-02T09:10:00.000Z' }),
    ];
    const items = itemsFromHistory(msgs, live);
    expect(items.map((i) => (i.kind === 'notice' ? `notice:${i.message.title}|${i.message.text}` : i.kind === 'tool' ? 'tool' : `${i.kind}:${i.text}`))).toEqual([
      'user:Back up my notes',
      'notice:Backup finished|All 3 folders were copied.',
      'notice:Subagent results|sub-1 research: completed\nX is 42',
      'notice:Heads up|Disk almost full.',
      'assistant:Done.',
      'notice:Later|After everything.',
    ]);
  });
});

describe('live messages already in the history', () => {
  const notification = (content: string): ChatMessage => ({ id: 2, role: 'assistant', content, name: 'message', kind: 'notification', created: '2026-03-02T09:00:05.000Z' });
  const notices = (msgs: ChatMessage[], live: ReturnType<typeof makeMessage>[]) =>
    itemsFromHistory(msgs, live).flatMap((i) => (i.kind === 'notice' ? [`${i.message.title}|${i.message.text}`] : []));

  it('are matched on the whole stored message, title and text', () => {
    const stored = [notification('**Backup finished**\n\nAll 3 folders were copied. OK')];
    // A short text the stored one merely contains is another message.
    expect(notices(stored, [makeMessage({ id: 'm1', title: 'Status', text: 'OK', at: '2026-03-02T09:10:00.000Z' })])).toEqual([
      'Backup finished|All 3 folders were copied. OK',
      'Status|OK',
    ]);
    // The same text under another title, too.
    expect(notices(stored, [makeMessage({ id: 'm1', title: 'Other', text: 'All 3 folders were copied. OK' })])).toHaveLength(2);
    // The message itself is not shown twice; nor one stored without a title.
    expect(notices(stored, [makeMessage({ id: 'm1', title: 'Backup finished', text: 'All 3 folders were copied. OK' })])).toHaveLength(1);
    expect(notices([notification('Done.')], [makeMessage({ id: 'm1', title: '', text: 'Done.' })])).toEqual(['|Done.']);
  });

  it('keep a notice without text, whatever the history holds', () => {
    const live = [makeMessage({ id: 'm1', title: 'Heads up', text: '', at: '2026-03-02T09:10:00.000Z' })];
    expect(notices([notification('**Backup finished**\n\nAll done.')], live)).toEqual(['Backup finished|All done.', 'Heads up|']);
  });

  it('a notice on screen is added again only when it differs', () => {
    const t = emptyTranscript('sess-1');
    addNotice(t, makeMessage({ id: 'm1', title: 'Backup finished', text: 'All 3 folders were copied. OK' }));
    addNotice(t, makeMessage({ id: 'm2', title: 'Backup finished', text: 'All 3 folders were copied. OK' })); // the stored copy of m1
    addNotice(t, makeMessage({ id: 'm3', title: 'Status', text: 'OK' }));
    addNotice(t, makeMessage({ id: 'm1', title: 'Backup finished', text: 'All 3 folders were copied. OK' }));
    expect(t.items.map((i) => (i.kind === 'notice' ? i.message.id : i.kind))).toEqual(['m1', 'm3']);
  });
});

describe('messages in the chat', () => {
  it('shows a message of the open session as a notice bubble, not those of others', async () => {
    const api = fakeApi();
    const user = userEvent.setup();
    render(ChatPanel, { props: { api, active: true } });
    await waitFor(() => expect(api.onMessageEvent).toHaveBeenCalled());
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'Back up my notes{Enter}');
    api.emitAgent({ kind: 'session', session: 'sess-1' });
    api.emitAgent({ kind: 'tool_start', tool: 'message', call_id: 'c1', args: '{"text":"All 3 folders were copied."}' });
    api.emitMessage(makeMessage({ id: 'm1', session: 'sess-1', title: 'Backup finished', text: 'All 3 folders were copied.', level: 'success' }));
    api.emitMessage(makeMessage({ id: 'm2', session: 'other', title: 'Elsewhere', text: 'Not here.' }));
    const bubble = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-role="notice"]');
      if (!el) throw new Error('no notice');
      return el;
    });
    expect(bubble.dataset.level).toBe('success');
    expect(bubble.getAttribute('aria-label')).toBe('Success from default');
    expect(within(bubble).getByText('Backup finished')).toBeTruthy();
    expect(bubble.textContent).toContain('All 3 folders were copied.');
    expect(screen.queryByText('Not here.')).toBeNull();
    // The same message again (a repeated event) is shown once.
    api.emitMessage(makeMessage({ id: 'm1', session: 'sess-1', title: 'Backup finished', text: 'All 3 folders were copied.' }));
    api.emitAgent({ kind: 'text', session: 'sess-1', text: 'Told you.' });
    await screen.findByText('Told you.');
    expect(document.querySelectorAll('[data-role="notice"]')).toHaveLength(1);
  });
});

describe('message toasts', () => {
  it('toast on another tab; Open chat shows the session with the notice', async () => {
    const api = fakeApi();
    api.state.sessions = [{ id: 'sess-7', agent: 'reviewer', title: 'Nightly review', status: 'idle', prompt_tokens: 1, completion_tokens: 1, created: '2026-03-02T09:00:00Z', updated: '2026-03-02T09:00:00Z' }];
    api.state.history['sess-7'] = [
      { id: 1, role: 'user', content: 'Review the repo', created: '2026-03-02T09:00:00.000Z' },
      { id: 2, role: 'assistant', content: '**Review done**\n\n2 issues found.', kind: 'notification', created: '2026-03-02T09:00:05.000Z' },
    ];
    const user = userEvent.setup();
    render(App, { props: { api } });
    await screen.findByText('5 tools · 4 allowed under coding');
    api.emitMessage(makeMessage({ id: 'm1', agent: 'reviewer', session: 'sess-7', title: 'Review done', text: '2 issues found.', level: 'warning' }));
    const toast = await screen.findByTestId('message-toast');
    expect(toast.getAttribute('role')).toBe('alert'); // warnings stay and are announced
    expect(toast.textContent).toContain('Review done');
    expect(toast.textContent).toContain('2 issues found.');
    expect(toast.textContent).toContain('reviewer');
    await user.click(within(toast).getByRole('button', { name: 'Open chat' }));
    expect(screen.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(api.sessionHistory).toHaveBeenCalledWith('sess-7'));
    expect((screen.getByRole('combobox', { name: 'Agent' }) as HTMLSelectElement).value).toBe('reviewer');
    const chat = screen.getByRole('tabpanel', { name: 'Chat' });
    await within(chat).findByText('Review the repo');
    // Stored once in the history and received live: one notice.
    expect(chat.querySelectorAll('[data-role="notice"]')).toHaveLength(1);
    expect(screen.queryByTestId('message-toast')).toBeNull();

    // On Chat with that session open, a new message needs no toast.
    api.emitMessage(makeMessage({ id: 'm2', agent: 'reviewer', session: 'sess-7', title: 'One more', text: 'A third issue.' }));
    await within(chat).findByText('A third issue.');
    expect(screen.queryByTestId('message-toast')).toBeNull();
    // …but one for another session does.
    api.emitMessage(makeMessage({ id: 'm3', session: 'sess-other', title: 'Elsewhere', text: 'Other news.' }));
    const other = await screen.findByTestId('message-toast');
    expect(other.textContent).toContain('Other news.');
    await user.click(within(other).getByRole('button', { name: 'Dismiss message Elsewhere' }));
    expect(screen.queryByTestId('message-toast')).toBeNull();
  });

  it('hides info and success after a while, keeps warnings, counts the overflow', async () => {
    vi.useFakeTimers();
    try {
      const ondismiss = vi.fn();
      const messages = [
        makeMessage({ id: 'a', level: 'info', title: 'A' }),
        makeMessage({ id: 'b', level: 'error', title: 'B' }),
        makeMessage({ id: 'c', level: 'success', title: 'C' }),
        makeMessage({ id: 'd', level: 'warning', title: 'D', session: '' }),
      ];
      render(MessageToasts, { props: { messages, onopen: vi.fn(), ondismiss, autoHideMs: 1000 } });
      const toasts = screen.getAllByTestId('message-toast');
      expect(toasts.map((t) => t.dataset.level)).toEqual(['error', 'success', 'warning']);
      expect(screen.getByText(/1 more message/)).toBeTruthy();
      expect(within(toasts[2]).queryByRole('button', { name: 'Open chat' })).toBeNull(); // no session to open
      await vi.advanceTimersByTimeAsync(1100);
      expect(ondismiss.mock.calls.map((c) => c[0].id).sort()).toEqual(['a', 'c']);
    } finally {
      vi.useRealTimers();
    }
  });
});
