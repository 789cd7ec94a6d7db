import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import ChatPanel from '../src/components/chat/ChatPanel.svelte';
import McpElicitation from '../src/components/mcp/client/McpElicitation.svelte';
import McpPanel from '../src/components/mcp/McpPanel.svelte';
import ToolCallCard from '../src/components/chat/ToolCallCard.svelte';
import { applyEvent, emptyTranscript, progressPercent, type ToolCallView } from '../src/lib/chat';
import { formContent, matchPrompts, missingArguments, slashQuery, type ElicitField } from '../src/lib/mcpClient';
import type { AgentEvent } from '../src/lib/types';
import { fakeApi, freezeClock } from './fakeApi';

const ev = (e: Partial<AgentEvent> & Pick<AgentEvent, 'kind'>): AgentEvent => ({ run_id: 'run-1', session: 's1', ...e });

describe('tool progress', () => {
  it('keeps the latest progress on the running card and drops it when the call ends', () => {
    const t = emptyTranscript();
    t.running = true;
    applyEvent(t, ev({ kind: 'tool_start', tool: 'mcp_ev_slow', call_id: 'c1', args: '{}' }));
    applyEvent(t, ev({ kind: 'tool_progress', tool: 'mcp_ev_slow', call_id: 'c1', progress: 1, total: 4, text: 'step one' }));
    applyEvent(t, ev({ kind: 'tool_progress', tool: 'mcp_ev_slow', call_id: 'c1', progress: 2, total: 4 }));
    const card = t.items[0];
    expect(card.kind === 'tool' && card.call.progress).toEqual({ progress: 2, total: 4, message: undefined });
    applyEvent(t, ev({ kind: 'tool_end', tool: 'mcp_ev_slow', call_id: 'c1', result: 'done' }));
    expect(card.kind === 'tool' && card.call.progress).toBeUndefined();
    // Progress of an unknown call is ignored.
    applyEvent(t, ev({ kind: 'tool_progress', tool: 'x', call_id: 'nope', progress: 1, total: 2 }));
    expect(t.items).toHaveLength(1);
  });

  it('computes a bounded percentage, none without a total', () => {
    expect(progressPercent({ progress: 21, total: 50 })).toBe(42);
    expect(progressPercent({ progress: 9, total: 5 })).toBe(100);
    expect(progressPercent({ progress: 3, total: 0 })).toBeNull();
  });

  it('shows a progress bar on the running card', () => {
    const call: ToolCallView = { id: 'c1', name: 'mcp_ev_slow', args: '{}', running: true, progress: { progress: 21, total: 50, message: 'halfway' } };
    render(ToolCallCard, { props: { call, ontoggle: () => {} } });
    const bar = screen.getByTestId('tool-progress');
    expect(bar.textContent).toContain('42% halfway');
    expect(bar.querySelector('progress')?.getAttribute('value')).toBe('42');
  });
});

describe('MCP status facts', () => {
  it('shows the fallback transport, when the server started, and a status whose writer is gone', async () => {
    freezeClock();
    const api = fakeApi();
    api.seedMcpServer(
      { name: 'web', transport: 'streamable-http', command: undefined, args: undefined, url: 'http://127.0.0.1:3001/mcp' },
      { state: 'connected', via: 'sse', started_at: new Date(Date.now() - 5 * 60_000).toISOString(), pid: undefined },
    );
    api.seedMcpServer({ name: 'ok' }, { state: 'connected' });
    const views = await api.mcpServers();
    api.mcpServers.mockImplementation(async () => views.map((v) => (v.server.name === 'ok' ? { ...v, source: 'warren mcp serve (pid 7)', writer_gone: true } : v)));
    render(McpPanel, { api, active: true });
    await waitFor(() => expect(document.querySelectorAll('[data-server]')).toHaveLength(2));
    const web = document.querySelector<HTMLElement>('[data-server="web"]')!;
    expect(within(web).getByTestId('mcp-via').textContent).toMatch(/via .*SSE/i);
    expect(within(web).getByTestId('mcp-started').textContent).toContain('started 5 min');
    expect(within(web).queryByTestId('mcp-writer-gone')).toBeNull();
    const ok = document.querySelector<HTMLElement>('[data-server="ok"]')!;
    expect(within(ok).getByTestId('mcp-writer-gone').textContent).toContain('is gone');
    expect(within(ok).queryByTestId('mcp-via')).toBeNull();
  });
});

const fields: ElicitField[] = [
  { name: 'name', title: 'Name', type: 'string', required: true },
  { name: 'age', type: 'integer' },
  { name: 'ok', title: 'Agree', type: 'boolean' },
  { name: 'hero', type: 'string', enum: ['hero-1', 'hero-2'], default: 'hero-1' },
  { name: 'many', type: 'unsupported' },
];

describe('elicitation form', () => {
  it('builds the content from typed fields and names the first problem', () => {
    expect(formContent(fields, { name: '', hero: 'hero-1' }).error).toBe('Name is required');
    expect(formContent(fields, { name: 'Ada', age: '4.5' }).error).toBe('age must be a whole number');
    expect(formContent(fields, { name: 'Ada', hero: 'villain' }).error).toContain('must be one of hero-1, hero-2');
    expect(formContent(fields, { name: 'Ada', age: '40', ok: true, hero: 'hero-2', many: ['x'] }).content).toEqual({ name: 'Ada', age: 40, ok: true, hero: 'hero-2' });
  });

  it('asks in a dialog and answers accept, decline or cancel', async () => {
    const api = fakeApi();
    render(McpElicitation, { api });
    api.mcpClient.emitElicitation({ id: 'e1', server: 'ev', agent: 'default', message: 'Please provide inputs', fields, created: new Date().toISOString() });
    const dialog = await screen.findByTestId('mcp-elicitation');
    expect(dialog.textContent).toContain('Please provide inputs');
    expect(dialog.textContent).toContain('a multiple choice Warren cannot show');
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Name is required');
    await user.type(within(dialog).getByLabelText('Name *'), 'Ada');
    await user.type(within(dialog).getByLabelText('age'), '40');
    await user.click(within(dialog).getByLabelText('Agree'));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => expect(screen.queryByTestId('mcp-elicitation')).toBeNull());
    expect(api.mcpClient.answers).toEqual([{ id: 'e1', action: 'accept', content: { name: 'Ada', age: 40, ok: true, hero: 'hero-1' } }]);

    api.mcpClient.emitElicitation({ id: 'e2', server: 'ev', message: 'Again?', fields, created: new Date().toISOString() });
    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    await waitFor(() => expect(api.mcpClient.answers.at(-1)).toEqual({ id: 'e2', action: 'decline' }));

    // A question the server withdrew closes by itself.
    api.mcpClient.emitElicitation({ id: 'e3', server: 'ev', message: 'Gone soon', fields: [], created: new Date().toISOString() });
    await screen.findByTestId('mcp-elicitation');
    api.mcpClient.cancelElicitation('e3');
    await waitFor(() => expect(screen.queryByTestId('mcp-elicitation')).toBeNull());
  });
});

describe('composer prompts', () => {
  it('reads the slash query and matches server:prompt labels', () => {
    expect(slashQuery('/ev:ar')).toBe('ev:ar');
    expect(slashQuery('hello /x')).toBeNull();
    expect(slashQuery('/a\nb')).toBeNull();
    const prompts = [
      { server: 'ev', prompt: { name: 'simple-prompt' } },
      { server: 'ev', prompt: { name: 'args-prompt', title: 'Arguments Prompt', arguments: [{ name: 'city', required: true }, { name: 'state' }] } },
    ];
    expect(matchPrompts(prompts, '').map((p) => p.prompt.name)).toEqual(['args-prompt', 'simple-prompt']);
    expect(matchPrompts(prompts, 'ARGUMENTS').map((p) => p.prompt.name)).toEqual(['args-prompt']);
    expect(missingArguments(prompts[1], { state: 'TX' })).toEqual(['city']);
  });
});

describe('composer MCP', () => {
  it('offers prompts on "/", asks for arguments and inserts the rendered text; attaches a resource', async () => {
    const api = fakeApi();
    const user = userEvent.setup();
    render(ChatPanel, { props: { api, active: true } });
    await waitFor(() => expect(api.sessions).toHaveBeenCalledWith('default'));
    const box = screen.getByRole('textbox', { name: 'Message' }) as HTMLTextAreaElement;

    await user.type(box, '/args');
    const menu = await screen.findByTestId('mcp-prompt-menu');
    await waitFor(() => expect(menu.querySelectorAll('[data-prompt]')).toHaveLength(1));
    expect(api.mcpChatPrompts).toHaveBeenCalledWith('default');
    // Enter on "/name" does not send the slash text.
    await user.keyboard('{Enter}');
    expect(api.sendMessage).not.toHaveBeenCalled();
    await user.click(menu.querySelector<HTMLElement>('[data-prompt="ev:args-prompt"]')!);
    await user.click(within(menu).getByRole('button', { name: 'Insert' }));
    expect(within(menu).getByRole('alert').textContent).toBe('city is required');
    await user.type(within(menu).getByLabelText('city *'), 'Paris');
    await user.click(within(menu).getByRole('button', { name: 'Insert' }));
    await waitFor(() => expect(box.value).toBe("What's weather in Paris?"));
    expect(api.renderMcpPrompt).toHaveBeenCalledWith('ev', 'default', 'args-prompt', { city: 'Paris' });
    expect(screen.queryByTestId('mcp-prompt-menu')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Attach an MCP resource' }));
    const picker = await screen.findByTestId('mcp-resource-picker');
    const item = await waitFor(() => {
      const el = picker.querySelector<HTMLElement>('[data-resource="demo://resource/static/document/features.md"]');
      if (!el) throw new Error('no resource');
      return el;
    });
    await user.click(item);
    await waitFor(() => expect(document.querySelector('[data-attachment="attachments/features.md"]')).toBeTruthy());
    expect(api.attachMcpResource).toHaveBeenCalledWith('ev', 'default', 'demo://resource/static/document/features.md');
    await user.click(box);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(api.sendMessage).toHaveBeenCalled());
    const sent = api.sendMessage.mock.calls[0][2] as string;
    expect(sent).toContain("What's weather in Paris?");
    expect(sent).toContain('attachments/features.md');
  });
});

describe('MCP server card resources', () => {
  it('lists resources and templates and previews one', async () => {
    const api = fakeApi();
    api.seedMcpServer({ name: 'ev' }, { state: 'connected', resources: 1 });
    const user = userEvent.setup();
    render(McpPanel, { api, active: true });
    const card = await waitFor(() => {
      const el = document.querySelector<HTMLElement>('[data-server="ev"]');
      if (!el) throw new Error('no card');
      return el;
    });
    await user.click(within(card).getByRole('button', { name: /ev/, expanded: false }));
    await user.click(within(card).getByRole('tab', { name: 'Resources' }));
    const section = await within(card).findByTestId('mcp-resources');
    expect(section.textContent).toContain('demo://resource/dynamic/text/{index}');
    await user.click(await within(section).findByRole('button', { name: 'features.md' }));
    expect((await within(section).findByTestId('mcp-resource-preview')).textContent).toContain('Everything Server');
    expect(api.readMcpResource).toHaveBeenCalledWith('ev', 'default', 'demo://resource/static/document/features.md');
  });
});

describe('sampling approval', () => {
  it("is asked on the card of the MCP call that caused it", async () => {
    const { requestForCall } = await import('../src/lib/approvals');
    const req = { id: 'a1', tool: 'mcp_sampling', call_id: 'c9', summary: 'MCP server ev asks default’s model m1', reason: '', created: '', deadline: '' };
    expect(requestForCall([req], 'c9', 'mcp_ev_trigger-sampling-request')?.id).toBe('a1');
    expect(requestForCall([req], 'other', 'mcp_ev_trigger-sampling-request')).toBeNull();
  });
});
