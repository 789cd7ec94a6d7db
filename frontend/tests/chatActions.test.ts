// The chat as good as the best peers' (issue 15): message actions, the model
// picker and the model on each reply, partial replies, errors with Retry and
// a fix, attachments, session search, focus on entering Chat.
import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import ChatPanel from '../src/components/chat/ChatPanel.svelte';
import { attachmentNote, formatBytes } from '../src/lib/attachments';
import { applyEvent, emptyTranscript, markParts } from '../src/lib/chat';
import type { ChatMessage, ChatSession } from '../src/lib/types';
import { fakeApi } from './fakeApi';

const session = (over: Partial<ChatSession> = {}): ChatSession => ({
  id: 's1', agent: 'default', title: 'Garden', status: 'active', prompt_tokens: 10, completion_tokens: 5,
  created: '2026-01-02T10:00:00Z', updated: '2026-01-02T10:00:00Z', ...over,
});

const garden: ChatMessage[] = [
  { id: 1, role: 'user', content: 'When do I plant carrots?', created: '' },
  { id: 2, role: 'assistant', content: 'In **early spring**.', model: 'llama3.1:8b', created: '' },
  { id: 3, role: 'user', content: 'And beans?', created: '' },
  { id: 4, role: 'assistant', content: 'After the last fro', model: 'llama3.1:8b', incomplete: 'dropped', created: '' },
];

/** A fake whose default agent has a provider serving two models. */
function withModels() {
  const api = fakeApi();
  api.state.agents[0].provider = 'local';
  api.state.providers = [{ name: 'local', kind: 'openai', base_url: 'http://127.0.0.1:11434/v1', has_key: false, default_model: 'llama3.1:8b' }];
  api.state.models.local = [{ id: 'qwen2.5:7b' }, { id: 'llama3.1:8b' }];
  return api;
}

async function renderChat(api = fakeApi(), props: Record<string, unknown> = {}) {
  const user = userEvent.setup();
  const view = render(ChatPanel, { props: { api, active: true, ...props } });
  await waitFor(() => expect(api.sessions).toHaveBeenCalledWith('default'));
  return { api, user, view, box: screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement };
}

async function openGarden(api: ReturnType<typeof fakeApi>, user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: /^Garden/ }));
  await screen.findByText('early spring');
}

describe('message actions', () => {
  it('copies a reply as its Markdown source and a user message as typed', async () => {
    const api = fakeApi();
    api.state.sessions = [session()];
    api.state.history.s1 = garden;
    const { user } = await renderChat(api);
    await openGarden(api, user);
    const [first] = screen.getAllByRole('button', { name: 'Copy reply' });
    await user.click(first);
    expect(api.copyText).toHaveBeenLastCalledWith('In **early spring**.');
    await waitFor(() => expect(first.textContent).toBe('Copied'));
    await user.click(screen.getAllByRole('button', { name: 'Copy message' })[0]);
    expect(api.copyText).toHaveBeenLastCalledWith('When do I plant carrots?');
  });

  it('shows the model on each reply and marks a cut reply; Retry replaces the broken turn', async () => {
    const api = fakeApi();
    api.state.sessions = [session()];
    api.state.history.s1 = garden;
    const { user } = await renderChat(api);
    await openGarden(api, user);
    expect(screen.getAllByTestId('reply-model').map((e) => e.textContent)).toEqual(['llama3.1:8b', 'llama3.1:8b']);
    expect(screen.getByTestId('incomplete').textContent).toBe('Incomplete — the connection broke off');
    // Only the newest reply offers Retry/Regenerate.
    expect(screen.queryAllByRole('button', { name: /Regenerate reply|Retry/ })).toHaveLength(1);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    expect(api.sendMessage).toHaveBeenLastCalledWith('default', 's1', 'And beans?', { replaceFrom: 3 });
    // The broken reply left; the prompt shows again as the new turn.
    expect(screen.queryByText('After the last fro')).toBeNull();
    expect(screen.getAllByText('And beans?')).toHaveLength(1);
    api.emitAgent({ kind: 'session', session: 's1', model: 'llama3.1:8b' });
    api.emitAgent({ kind: 'prompt', session: 's1', message_id: 5 });
    api.emitAgent({ kind: 'text', session: 's1', text: 'After the last frost.' });
    api.emitAgent({ kind: 'done', session: 's1' });
    await screen.findByText('After the last frost.');
    expect(screen.queryByTestId('incomplete')).toBeNull();
    // Regenerate now replaces the stored prompt the backend reported.
    await user.click(await screen.findByRole('button', { name: 'Regenerate reply' }));
    expect(api.sendMessage).toHaveBeenLastCalledWith('default', 's1', 'And beans?', { replaceFrom: 5 });
  });

  it('edits a message and sends it in place of it and everything after it', async () => {
    const api = fakeApi();
    api.state.sessions = [session()];
    api.state.history.s1 = garden;
    const { user } = await renderChat(api);
    await openGarden(api, user);
    await user.click(screen.getAllByRole('button', { name: 'Edit message' })[0]);
    const edit = screen.getByRole('textbox', { name: 'Edited message' });
    expect((edit as HTMLTextAreaElement).value).toBe('When do I plant carrots?');
    expect(document.activeElement).toBe(edit);
    // Escape cancels without sending.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: 'Edited message' })).toBeNull();
    expect(api.sendMessage).not.toHaveBeenCalled();

    await user.click(screen.getAllByRole('button', { name: 'Edit message' })[0]);
    const again = screen.getByRole('textbox', { name: 'Edited message' });
    await user.clear(again);
    await user.type(again, 'When do I plant potatoes?{Enter}');
    expect(api.sendMessage).toHaveBeenLastCalledWith('default', 's1', 'When do I plant potatoes?', { replaceFrom: 1 });
    expect(screen.queryByText('early spring')).toBeNull();
    expect(screen.queryByText('And beans?')).toBeNull();
    expect(screen.getByText('When do I plant potatoes?').closest('[data-role="user"]')).toBeTruthy();
    // No edits while the new turn runs.
    expect(screen.queryByRole('button', { name: 'Edit message' })).toBeNull();
  });

  it('a resend that fails to start keeps what it replaces, and Retry replaces it again', async () => {
    const api = fakeApi();
    api.state.sessions = [session()];
    api.state.history.s1 = garden;
    api.sendMessage.mockRejectedValueOnce('database is locked');
    const { user } = await renderChat(api);
    await openGarden(api, user);
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    const banner = await screen.findByTestId('chat-error');
    expect(banner.textContent).toContain('Warren’s database was busy. Retry in a moment.');
    await user.click(within(banner).getByRole('button', { name: 'Retry' }));
    expect(api.sendMessage).toHaveBeenLastCalledWith('default', 's1', 'And beans?', { replaceFrom: 3 });
  });
});

describe('model picker', () => {
  it('lists the provider’s models, sends the one picked and shows it on the reply', async () => {
    const { api, user, box } = await renderChat(withModels());
    const picker = (await screen.findByRole('combobox', { name: 'Chat model' })) as HTMLSelectElement;
    await waitFor(() => expect(picker.value).toBe('llama3.1:8b'));
    expect([...picker.options].map((o) => o.textContent)).toEqual(['llama3.1:8b (default)', 'qwen2.5:7b']);
    await user.selectOptions(picker, 'qwen2.5:7b');
    await user.type(box, 'hi{Enter}');
    expect(api.sendMessage).toHaveBeenLastCalledWith('default', '', 'hi', { model: 'qwen2.5:7b' });
    expect(picker.disabled).toBe(true); // not while a turn runs
    api.emitAgent({ kind: 'session', session: 'n1', model: 'qwen2.5:7b' });
    api.emitAgent({ kind: 'text', session: 'n1', text: 'Hello!' });
    api.emitAgent({ kind: 'done', session: 'n1' });
    await waitFor(() => expect(screen.getByTestId('reply-model').textContent).toBe('qwen2.5:7b'));
  });

  it('a reopened chat shows the model chosen for it; a new chat starts from the default', async () => {
    const api = withModels();
    api.state.sessions = [session({ model: 'qwen2.5:7b' })];
    api.state.history.s1 = garden.slice(0, 2);
    const { user } = await renderChat(api);
    const picker = (await screen.findByRole('combobox', { name: 'Chat model' })) as HTMLSelectElement;
    await waitFor(() => expect(picker.value).toBe('llama3.1:8b'));
    await openGarden(api, user);
    expect(picker.value).toBe('qwen2.5:7b');
    await user.click(screen.getByRole('button', { name: 'New chat' }));
    expect(picker.value).toBe('llama3.1:8b');
  });

  it('keeps the default when the provider cannot list its models, and offers setup without a provider', async () => {
    const api = withModels();
    api.state.models.local = new Error('dial tcp 127.0.0.1:11434: connection refused');
    const opened: string[] = [];
    await renderChat(api, { onopensettings: () => opened.push('agents') });
    const picker = (await screen.findByRole('combobox', { name: 'Chat model' })) as HTMLSelectElement;
    await waitFor(() => expect(picker.value).toBe('llama3.1:8b'));
    expect(screen.getByText('⚠ The model list is unavailable.').getAttribute('title')).toContain('connection refused');

    api.state.agents[0].provider = '';
    await fireEvent.change(screen.getByRole('combobox', { name: 'Agent' }), { target: { value: 'reviewer' } });
    await fireEvent.change(screen.getByRole('combobox', { name: 'Agent' }), { target: { value: 'default' } });
    await fireEvent.click(await screen.findByRole('button', { name: 'Set one up' }));
    expect(opened).toEqual(['agents']);
  });
});

describe('errors', () => {
  it('lead with a sentence, fold the detail and link to the setting that fixes them', async () => {
    const sections: string[] = [];
    const { api, user, box } = await renderChat(fakeApi(), { onopensection: (t: string) => sections.push(t) });
    await user.type(box, 'run ls{Enter}');
    api.emitAgent({ kind: 'error', error: 'sandbox: podman exec: statfs /workspace: permission denied' });
    const banner = await screen.findByTestId('chat-error');
    expect(within(banner).getByText('The sandbox is not working.')).toBeTruthy();
    expect(banner.querySelector('details code')?.textContent).toBe('sandbox: podman exec: statfs /workspace: permission denied');
    await user.click(within(banner).getByRole('button', { name: 'Open the Sandbox check' }));
    expect(sections).toEqual(['sandbox']);
    await user.click(within(banner).getByRole('button', { name: 'Retry' }));
    expect(api.sendMessage).toHaveBeenLastCalledWith('default', '', 'run ls');
    expect(screen.getAllByText('run ls')).toHaveLength(1); // resent, not repeated
  });

  it('mark a reply cut by a dropped stream', () => {
    const t = emptyTranscript();
    t.items.push({ kind: 'user', text: 'hi', id: 1 });
    t.running = true;
    applyEvent(t, { run_id: 'r', session: 's', kind: 'text', text: 'Hel' });
    applyEvent(t, { run_id: 'r', session: 's', kind: 'error', error: 'stream dropped before completion: unexpected EOF' });
    expect(t.items[1]).toEqual({ kind: 'assistant', text: 'Hel', incomplete: 'dropped' });
    // A reply finished before a tool call is not marked by a later error.
    const u = emptyTranscript();
    u.items.push({ kind: 'user', text: 'go' }, { kind: 'assistant', text: 'Let me look.' }, { kind: 'tool', call: { id: 'c', name: 'exec', args: '{}', running: true } });
    applyEvent(u, { run_id: 'r', session: 's', kind: 'error', error: 'boom' });
    expect(u.items[1]).toEqual({ kind: 'assistant', text: 'Let me look.' });
  });
});

describe('attachments', () => {
  it('copies a picked file into the workspace and names it in the message', async () => {
    const { api, user, box } = await renderChat();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(input, new File(['a,b\n1,2\n'], 'data.csv', { type: 'text/csv' }));
    const chip = await waitFor(() => {
      const el = document.querySelector('[data-attachment="attachments/data.csv"]');
      if (!el) throw new Error('no chip');
      return el;
    });
    expect(chip.textContent).toContain('8 B');
    expect(api.attachFile).toHaveBeenCalledWith('default', 'data.csv', btoa('a,b\n1,2\n'));
    await user.type(box, 'Sum column b{Enter}');
    expect(api.sendMessage).toHaveBeenLastCalledWith(
      'default',
      '',
      'Sum column b\n\nAttached file (in the workspace; read with read_file):\n- attachments/data.csv (8 B)',
    );
    expect(document.querySelector('[data-attachment]')).toBeNull();
  });

  it('takes files dropped on the conversation, refuses ones over 10 MB', async () => {
    const { api } = await renderChat();
    const conversation = screen.getByRole('region', { name: 'Conversation' });
    const big = new File(['x'], 'huge.iso');
    Object.defineProperty(big, 'size', { value: 11 * 1024 * 1024 });
    const small = new File(['hello'], 'notes.txt');
    const dataTransfer = { types: ['Files'], files: [big, small] };
    await fireEvent.dragOver(conversation, { dataTransfer });
    expect(screen.getByText(/Drop files to attach them/)).toBeTruthy();
    await fireEvent.drop(conversation, { dataTransfer });
    await waitFor(() => expect(document.querySelector('[data-attachment="attachments/notes.txt"]')).toBeTruthy());
    expect(screen.getByRole('alert').textContent).toContain('files up to 10 MB can be attached');
    expect(api.attachFile).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(/Drop files to attach them/)).toBeNull();
  });

  it('words the note for the agent', () => {
    expect(formatBytes(2048)).toBe('2.0 KB');
    expect(attachmentNote('', [{ path: 'attachments/a.png', size: 3 * 1024 * 1024 }])).toBe(
      'Attached file (in the workspace; read with read_file):\n- attachments/a.png (3.0 MB)',
    );
  });
});

describe('session search', () => {
  it('finds chats by their words, marks the match and opens one', async () => {
    const api = fakeApi();
    api.state.sessions = [session(), session({ id: 's2', title: 'Taxes' })];
    api.state.history.s1 = garden;
    api.state.history.s2 = [{ id: 9, role: 'user', content: 'Sum the invoices', created: '' }];
    const { user } = await renderChat(api);
    await user.type(screen.getByRole('searchbox', { name: 'Search chats' }), 'carrots');
    const results = await screen.findByRole('list', { name: 'Search results' });
    await waitFor(() => expect(within(results).getAllByRole('listitem')).toHaveLength(1));
    expect(api.searchSessions).toHaveBeenLastCalledWith('default', 'carrots');
    expect(results.querySelector('mark')?.textContent).toBe('carrots');
    await user.click(within(results).getByRole('button'));
    await screen.findByText('early spring');
    // Escape clears the search: the whole list is back.
    screen.getByRole('searchbox', { name: 'Search chats' }).focus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('list', { name: 'Search results' })).toBeNull();
    expect(document.querySelectorAll('[data-session]')).toHaveLength(2);
  });

  it('splits text around matches', () => {
    expect(markParts('Plant Carrots, carrots!', 'carrots')).toEqual([
      { text: 'Plant ', hit: false },
      { text: 'Carrots', hit: true },
      { text: ', ', hit: false },
      { text: 'carrots', hit: true },
      { text: '!', hit: false },
    ]);
  });
});

describe('entering Chat', () => {
  it('focuses the message box and scrolls to the newest message', async () => {
    const api = fakeApi();
    // jsdom has no scrolling; record the calls.
    const scrolls = vi.fn();
    Object.defineProperty(HTMLElement.prototype, 'scrollTo', { value: scrolls, configurable: true });
    const view = render(ChatPanel, { props: { api, active: false } });
    const box = screen.getByRole('textbox', { name: 'Message' });
    expect(document.activeElement).not.toBe(box);
    await new Promise((r) => setTimeout(r, 0));
    scrolls.mockClear(); // the transcript's own scroll at mount
    await view.rerender({ active: true });
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(scrolls).toHaveBeenCalled();
    delete (HTMLElement.prototype as { scrollTo?: unknown }).scrollTo;
  });

  it('does not take the focus from an open dialog', async () => {
    const dialog = document.createElement('div');
    dialog.setAttribute('aria-modal', 'true');
    const field = document.createElement('input');
    dialog.append(field);
    document.body.append(dialog);
    field.focus();
    const api = fakeApi();
    const view = render(ChatPanel, { props: { api, active: false } });
    await view.rerender({ active: true });
    await waitFor(() => expect(api.sessions).toHaveBeenCalled());
    expect(document.activeElement).toBe(field);
    dialog.remove();
  });
});
