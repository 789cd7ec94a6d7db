import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import App from '../src/App.svelte';
import ChatPanel from '../src/components/chat/ChatPanel.svelte';
import { applyEvent, emptyTranscript, errorCodeOf, isSetupError, itemsFromHistory, prettyArgs, Sequencer } from '../src/lib/chat';
import type { AgentEvent, ChatMessage } from '../src/lib/types';
import { fakeApi } from './fakeApi';

const ev = (e: Partial<AgentEvent> & Pick<AgentEvent, 'kind'>): AgentEvent => ({ run_id: 'run-1', session: 's1', ...e });

describe('transcript assembly', () => {
  it('joins streamed text, places tool cards in order and sums usage', () => {
    const t = emptyTranscript();
    t.running = true;
    for (const e of [
      ev({ kind: 'session', session: 's1' }),
      ev({ kind: 'text', text: 'Let me ' }),
      ev({ kind: 'text', text: 'look.' }),
      ev({ kind: 'usage', usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } }),
      ev({ kind: 'tool_start', tool: 'read_file', call_id: 'c1', args: '{"path":"a.txt"}' }),
      ev({ kind: 'tool_end', tool: 'read_file', call_id: 'c1', result: 'hello', duration_ms: 2.4 }),
      ev({ kind: 'text', text: 'It says hello.' }),
      ev({ kind: 'usage', usage: { prompt_tokens: 150, completion_tokens: 5, total_tokens: 155 } }),
      ev({ kind: 'done' }),
    ])
      applyEvent(t, e);
    expect(t.session).toBe('s1');
    expect(t.running).toBe(false);
    expect(t.items).toEqual([
      { kind: 'assistant', text: 'Let me look.' },
      { kind: 'tool', call: { id: 'c1', name: 'read_file', args: '{"path":"a.txt"}', result: 'hello', code: undefined, duration_ms: 2.4, running: false } },
      { kind: 'assistant', text: 'It says hello.' },
    ]);
    expect(t.usage).toEqual({ prompt_tokens: 250, completion_tokens: 15, total_tokens: 265, estimated: false });
  });

  it('records error codes, and an error ends the run and running calls', () => {
    const t = emptyTranscript();
    t.running = true;
    applyEvent(t, ev({ kind: 'tool_start', tool: 'exec', call_id: 'c1', args: '{}' }));
    applyEvent(t, ev({ kind: 'tool_start', tool: 'exec', call_id: 'c2', args: '{}' }));
    applyEvent(t, ev({ kind: 'tool_end', tool: 'exec', call_id: 'c1', code: 'PermissionDenied', result: 'PermissionDenied: no' }));
    applyEvent(t, ev({ kind: 'error', error: 'boom' }));
    expect(t.running).toBe(false);
    expect(t.error).toBe('boom');
    const calls = t.items.map((i) => (i.kind === 'tool' ? [i.call.id, i.call.code, i.call.running] : null));
    expect(calls).toEqual([
      ['c1', 'PermissionDenied', false],
      ['c2', undefined, false],
    ]);
  });

  it('rebuilds tool cards from stored history', () => {
    const msgs: ChatMessage[] = [
      { id: 1, role: 'user', content: 'read it', created: '' },
      { id: 2, role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"x"}' }], created: '' },
      { id: 3, role: 'tool', content: 'NotFound: x does not exist', tool_call_id: 'c1', name: 'read_file', created: '' },
      { id: 4, role: 'assistant', content: 'No such file.', created: '' },
    ];
    expect(itemsFromHistory(msgs)).toEqual([
      { kind: 'user', text: 'read it', id: 1 },
      { kind: 'assistant', text: 'Reading.' },
      { kind: 'tool', call: { id: 'c1', name: 'read_file', args: '{"path":"x"}', result: 'NotFound: x does not exist', code: 'NotFound', running: false } },
      { kind: 'assistant', text: 'No such file.' },
    ]);
  });

  it('puts numbered events back in order and passes unnumbered ones through', () => {
    const q = new Sequencer();
    const e = (seq?: number) => ev({ kind: 'text', text: String(seq), seq });
    expect(q.push(e(2))).toEqual([]);
    expect(q.push(e(3))).toEqual([]);
    expect(q.push(e(1)).map((x) => x.seq)).toEqual([1, 2, 3]);
    expect(q.push(e(2))).toEqual([]); // a duplicate
    expect(q.push(e(4)).map((x) => x.seq)).toEqual([4]);
    expect(q.push(e(undefined))).toHaveLength(1);
  });

  it('pretty-prints JSON arguments and recognises setup errors', () => {
    expect(prettyArgs('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyArgs('not json')).toBe('not json');
    expect(errorCodeOf('Hello: world')).toBeUndefined();
    expect(isSetupError('agent default has no model provider: add one (warren providers add …)')).toBe(true);
    expect(isSetupError('agent default: no model set (agent, provider x default, or --model)')).toBe(true);
    expect(isSetupError('connection refused')).toBe(false);
  });
});

async function renderChat(api = fakeApi(), onopensettings?: () => void) {
  const user = userEvent.setup();
  render(ChatPanel, { props: { api, active: true, onopensettings } });
  await waitFor(() => expect(api.sessions).toHaveBeenCalledWith('default'));
  return { api, user, box: screen.getByRole('textbox', { name: 'Message' }) };
}

describe('chat panel', () => {
  it('sends on Enter, keeps Shift+Enter as a newline and streams the reply with a tool card', async () => {
    const { api, user, box } = await renderChat();
    await user.type(box, 'first line{Shift>}{Enter}{/Shift}second');
    expect((box as HTMLTextAreaElement).value).toBe('first line\nsecond');
    expect(api.sendMessage).not.toHaveBeenCalled();
    await user.keyboard('{Enter}');
    expect(api.sendMessage).toHaveBeenCalledWith('default', '', 'first line\nsecond');
    expect((box as HTMLTextAreaElement).value).toBe('');
    expect(screen.getByText('first line second', { normalizer: (s) => s.replace(/\s+/g, ' ') })).toBeTruthy();
    await screen.findByRole('button', { name: 'Stop' });

    api.emitAgent({ kind: 'session', session: 'sess-1' });
    api.emitAgent({ kind: 'text', session: 'sess-1', text: 'Let me ' });
    api.emitAgent({ kind: 'text', session: 'sess-1', text: 'read it.' });
    const reply = await screen.findByText(/Let me read it\./);
    expect(reply.closest('[data-role="assistant"]')).toBeTruthy();
    api.emitAgent({ kind: 'tool_start', tool: 'read_file', call_id: 'c1', args: '{"path":"notes.md"}' });
    const card = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-tool-call="read_file"]');
      if (!el) throw new Error('no card');
      return el;
    });
    expect(within(card).getByTestId('tool-status').textContent).toBe('running…');
    api.emitAgent({ kind: 'tool_end', tool: 'read_file', call_id: 'c1', result: 'buy milk', duration_ms: 3.2 });
    await waitFor(() => expect(within(card).getByTestId('tool-status').textContent).toBe('ok'));
    expect(card.textContent).toContain('3 ms');
    // Collapsed until opened; then the pretty arguments and the result show.
    expect(within(card).queryByTestId('tool-result')).toBeNull();
    const toggle = within(card).getByRole('button', { expanded: false });
    toggle.focus();
    await user.keyboard('{Enter}');
    expect(within(card).getByTestId('tool-args').textContent).toBe('{\n  "path": "notes.md"\n}');
    expect(within(card).getByTestId('tool-result').textContent).toBe('buy milk');

    api.state.sessions = [{ id: 'sess-1', agent: 'default', title: 'first line', status: 'idle', prompt_tokens: 90, completion_tokens: 12, created: new Date().toISOString(), updated: new Date().toISOString() }];
    api.emitAgent({ kind: 'text', text: 'It says buy milk.' });
    api.emitAgent({ kind: 'usage', usage: { prompt_tokens: 90, completion_tokens: 12, total_tokens: 102 } });
    api.emitAgent({ kind: 'done', session: 'sess-1' });
    expect((await screen.findByTestId('turn-usage')).textContent).toContain('90 in · 12 out · 102 tokens this turn');
    expect(screen.queryByRole('button', { name: 'Stop' })).toBeNull();
    // The session list refreshes after the turn, and the next message continues the session.
    const item = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-session="sess-1"]');
      if (!el) throw new Error('no session');
      return el;
    });
    expect(item.textContent).toContain('102 tokens');
    expect(item.classList.contains('current')).toBe(true);
    await user.type(box, 'again{Enter}');
    expect(api.sendMessage).toHaveBeenLastCalledWith('default', 'sess-1', 'again');
  });

  it('ignores events of other runs and replays events that beat the run id', async () => {
    const api = fakeApi();
    let release!: (id: string) => void;
    api.sendMessage.mockImplementationOnce(() => new Promise<string>((r) => (release = r)));
    const { user, box } = await renderChat(api);
    await user.type(box, 'hi{Enter}');
    api.emitAgent({ run_id: 'run-9', kind: 'text', text: 'early ' });
    api.emitAgent({ run_id: 'other', kind: 'text', text: 'NOISE' });
    release('run-9');
    await waitFor(() => expect(screen.getByText(/early/)).toBeTruthy());
    api.emitAgent({ run_id: 'run-9', kind: 'text', text: 'late' });
    api.emitAgent({ run_id: 'other', kind: 'text', text: 'NOISE' });
    await screen.findByText('early late');
    expect(screen.queryByText(/NOISE/)).toBeNull();
  });

  it('orders numbered events and keeps text that arrives after done', async () => {
    const { api, user, box } = await renderChat();
    await user.type(box, 'hi{Enter}');
    api.emitAgent({ kind: 'text', text: 'world', seq: 3 });
    api.emitAgent({ kind: 'text', text: 'hello ', seq: 2 });
    api.emitAgent({ kind: 'session', session: 's9', seq: 1 });
    await screen.findByText('hello world');
    // Unnumbered, as the dev server's WebSocket may deliver them: done overtakes the last text.
    api.emitAgent({ kind: 'done', seq: 5 });
    api.emitAgent({ kind: 'text', text: '!', seq: 4 });
    await screen.findByText('hello world!');
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
  });

  it('keeps a late text of a finished run that carries no seq', async () => {
    const { api, user, box } = await renderChat();
    await user.type(box, 'hi{Enter}');
    api.emitAgent({ kind: 'text', text: 'one ' });
    api.emitAgent({ kind: 'done' });
    api.emitAgent({ kind: 'text', text: 'two' });
    await screen.findByText('one two');
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
  });

  it('Stop cancels the run, marks the cut reply and drops its later events', async () => {
    const { api, user, box } = await renderChat();
    await user.type(box, 'long task{Enter}');
    api.emitAgent({ kind: 'text', text: 'Working' });
    await user.click(await screen.findByRole('button', { name: 'Stop' }));
    expect(api.stopRun).toHaveBeenCalledWith('run-1');
    expect((await screen.findByTestId('incomplete')).textContent).toBe('Stopped');
    expect(screen.queryByText('Stopped.')).toBeNull(); // the reply carries the mark
    api.emitAgent({ kind: 'text', text: ' more' });
    await Promise.resolve();
    expect(screen.getByText('Working').textContent).toBe('Working');
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('Stop before any text says so under the turn', async () => {
    const { user, box } = await renderChat();
    await user.type(box, 'long task{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Stop' }));
    await screen.findByText('Stopped.');
    expect(screen.queryByTestId('incomplete')).toBeNull();
  });

  it('Escape in the input stops a running turn', async () => {
    const { api, user, box } = await renderChat();
    await user.type(box, 'go{Enter}');
    await screen.findByRole('button', { name: 'Stop' });
    await user.keyboard('{Escape}');
    expect(api.stopRun).toHaveBeenCalledWith('run-1');
  });

  it('shows an error banner with a way to the provider settings', async () => {
    const calls: string[] = [];
    const { api, user, box } = await renderChat(fakeApi(), () => calls.push('open'));
    await user.type(box, 'hello{Enter}');
    api.emitAgent({ kind: 'error', error: 'agent default has no model provider: add one (warren providers add …) or pass --base-url and --model' });
    const banner = await screen.findByTestId('chat-error');
    expect(banner.getAttribute('role')).toBe('alert');
    expect(banner.querySelector('strong')?.textContent).toBe('This agent has no model provider yet. Choose one in Agents.');
    expect(banner.querySelector('details')?.textContent).toContain('agent default has no model provider');
    await user.click(within(banner).getByRole('button', { name: 'Set up agents & providers' }));
    expect(calls).toEqual(['open']);
    await user.click(within(banner).getByRole('button', { name: 'Dismiss error' }));
    expect(screen.queryByTestId('chat-error')).toBeNull();
  });

  it('shows a failed load in the error banner, and Retry loads again', async () => {
    const api = fakeApi();
    api.sessions.mockRejectedValueOnce('database is locked');
    const { user } = await renderChat(api);
    const banner = await screen.findByTestId('error-banner');
    expect(banner.querySelector('strong')?.textContent).toBe('Warren’s database was busy. Retry in a moment.');
    expect(banner.querySelector('details')?.textContent).toContain('Sessions("default"): database is locked');
    await user.click(within(banner).getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(screen.queryByTestId('error-banner')).toBeNull());
    expect(api.sessions).toHaveBeenCalledTimes(2);
  });

  it('a rejected SendMessage shows the banner without a settings button for other errors', async () => {
    const api = fakeApi();
    api.sendMessage.mockRejectedValueOnce('empty message');
    const { user, box } = await renderChat(api, () => {});
    await user.type(box, 'x{Enter}');
    const banner = await screen.findByTestId('chat-error');
    expect(banner.textContent).toContain('empty message');
    expect(within(banner).queryByRole('button', { name: /Set up/ })).toBeNull();
  });

  it('reopens a session from the list and deletes one after confirming', async () => {
    const api = fakeApi();
    api.state.sessions = [
      { id: 's2', agent: 'default', title: 'Newer chat', status: 'idle', prompt_tokens: 300, completion_tokens: 20, created: '2026-01-02T10:00:00Z', updated: '2026-01-02T10:00:00Z' },
      { id: 's1', agent: 'default', title: 'Older chat', status: 'idle', prompt_tokens: 10, completion_tokens: 2, created: '2026-01-01T10:00:00Z', updated: '2026-01-01T10:00:00Z' },
      { id: 'r1', agent: 'reviewer', title: 'Review', status: 'idle', prompt_tokens: 1, completion_tokens: 1, created: '2026-01-01T10:00:00Z', updated: '2026-01-01T10:00:00Z' },
    ];
    api.state.history.s2 = [
      { id: 1, role: 'user', content: 'What is in notes.md?', created: '' },
      { id: 2, role: 'assistant', content: '', tool_calls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"notes.md"}' }], created: '' },
      { id: 3, role: 'tool', content: 'buy milk', tool_call_id: 'c1', name: 'read_file', created: '' },
      { id: 4, role: 'assistant', content: 'It says buy milk.', created: '' },
    ];
    const { user } = await renderChat(api);
    const titles = await waitFor(() => {
      const t = [...document.querySelectorAll('[data-session] .title')].map((e) => e.textContent);
      if (t.length !== 2) throw new Error('not yet');
      return t;
    });
    expect(titles).toEqual(['Newer chat', 'Older chat']);
    expect(document.querySelector('[data-session="s2"]')?.textContent).toContain('320 tokens');
    await user.click(screen.getByRole('button', { name: /^Newer chat/ }));
    expect(api.sessionHistory).toHaveBeenCalledWith('s2');
    await screen.findByText('It says buy milk.');
    const card = document.querySelector<HTMLElement>('[data-tool-call="read_file"]')!;
    await user.click(within(card).getByRole('button'));
    expect(within(card).getByTestId('tool-result').textContent).toBe('buy milk');
    await user.type(screen.getByRole('textbox', { name: 'Message' }), 'more{Enter}');
    expect(api.sendMessage).toHaveBeenLastCalledWith('default', 's2', 'more');
    api.emitAgent({ kind: 'done', session: 's2' });
    await screen.findByRole('button', { name: 'Send' });

    await user.click(screen.getByRole('button', { name: 'Delete Older chat' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    expect(api.deleteSession).toHaveBeenCalledWith('s1');
    await waitFor(() => expect(document.querySelector('[data-session="s1"]')).toBeNull());

    // Another agent: its own sessions, and a new chat.
    await fireEvent.change(screen.getByRole('combobox', { name: 'Agent' }), { target: { value: 'reviewer' } });
    await waitFor(() => expect(api.sessions).toHaveBeenLastCalledWith('reviewer'));
    await waitFor(() => expect(document.querySelector('[data-session="r1"]')).toBeTruthy());
    expect(screen.queryByText('It says buy milk.')).toBeNull();
  });
});

describe('chat in the app', () => {
  it('is the first tab and the error button opens the Agents tab', async () => {
    const api = fakeApi();
    const user = userEvent.setup();
    render(App, { props: { api } });
    const tabs = screen.getAllByRole('tab').map((t) => t.textContent?.trim());
    // Sections added later go after these, so Alt+1…7 keep their meaning.
    expect(tabs.slice(0, 7)).toEqual(['Chat', 'Tools', 'Approvals', 'Sandbox', 'Custom tools', 'Agents', 'Schedules']);
    await user.keyboard('{Alt>}1{/Alt}');
    const box = await screen.findByRole('textbox', { name: 'Message' });
    await user.type(box, 'hi{Enter}');
    api.emitAgent({ kind: 'error', error: 'agent default has no model provider: add one' });
    await user.click(await screen.findByRole('button', { name: 'Set up agents & providers' }));
    expect(screen.getByRole('tab', { name: 'Agents' }).getAttribute('aria-selected')).toBe('true');
    await screen.findByRole('heading', { name: /Model providers/ });
  });
});
