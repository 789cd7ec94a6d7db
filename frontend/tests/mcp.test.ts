import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import App from '../src/App.svelte';
import McpPanel from '../src/components/mcp/McpPanel.svelte';
import { fakeApi, freezeClock } from './fakeApi';

// The MCP tab rendered against the fake API; its logic is in mcpModel.test.ts.

function card(name: string) {
  const el = document.querySelector<HTMLElement>(`[data-server="${name}"]`);
  if (!el) throw new Error(`no card for ${name}`);
  return el;
}

afterEach(() => vi.useRealTimers());

describe('MCP panel', () => {
  it('renders every state with its details, and follows mcp:event', async () => {
    freezeClock();
    const api = fakeApi();
    api.seedMcpServer({ name: 'ok' }, { state: 'connected', latency_ms: 0.42, restarts: 2 });
    api.seedMcpServer({ name: 'empty' }, { state: 'connected', tools: 0, warning: 'connected, but the server lists no tools' }, []);
    api.seedMcpServer({ name: 'flaky' }, { state: 'reconnecting', attempt: 3, max_attempts: 10, next_retry: new Date(Date.now() + 8000).toISOString(), last_error: 'process exited: signal: killed', pid: undefined });
    api.seedMcpServer({ name: 'broken' }, { state: 'failed', attempt: 10, max_attempts: 10, last_error: 'exec: "nope": executable file not found in $PATH', pid: undefined });
    api.seedMcpServer({ name: 'idle', enabled: false }, { state: 'stopped', enabled: false, pid: undefined });
    api.seedMcpServer({ name: 'web', transport: 'streamable-http', command: undefined, args: undefined, url: 'http://127.0.0.1:3001/mcp' }, { state: 'connecting', pid: undefined });
    render(McpPanel, { api, active: true });
    await waitFor(() => expect(document.querySelectorAll('[data-server]')).toHaveLength(6));

    const state = (name: string) => within(card(name)).getByTestId('mcp-state');
    expect(state('ok').textContent?.trim()).toBe('Connected');
    expect(card('ok').textContent).toMatch(/3 tools.*latency 0\.4 ms.*protocol 2025-11-25.*2 restarts.*pid 4242/);
    expect(state('empty').textContent?.trim()).toBe('Connected · 0 tools');
    expect(card('empty').textContent).toContain('connected, but the server lists no tools');
    expect(state('flaky').textContent?.trim()).toBe('Reconnecting');
    expect(card('flaky').textContent).toContain('next attempt 3/10 in 8 s');
    expect(card('flaky').textContent).toContain('process exited: signal: killed');
    expect(state('broken').textContent?.trim()).toBe('Failed');
    expect(card('flaky').querySelector('.error .sentence')?.textContent).toBe('The MCP server’s program stopped unexpectedly.');
    expect(card('broken').querySelector('.error .sentence')?.textContent).toBe('The program "nope" is not installed, or not on the PATH.');
    expect(card('broken').querySelector('.error details')?.textContent).toContain('executable file not found');
    expect(state('idle').textContent?.trim()).toBe('Disabled');
    expect(state('web').textContent?.trim()).toBe('Connecting…');
    expect(card('web').textContent).toContain('http://127.0.0.1:3001/mcp');
    expect(screen.getByTestId('mcp-summary').textContent).toContain('2 of 6 connected, 2 in trouble');

    api.emitMcp({ name: 'web', state: 'connected', tools: 7, pid: 99 });
    await waitFor(() => expect(state('web').textContent?.trim()).toBe('Connected'));
    expect(card('web').textContent).toContain('7 tools');
    api.emitMcp({ name: 'ok', state: 'reconnecting', attempt: 1, max_attempts: 10, next_retry: new Date(Date.now() + 2000).toISOString(), last_error: 'connection lost' });
    await waitFor(() => expect(state('ok').textContent?.trim()).toBe('Reconnecting'));
    expect(card('ok').textContent).toContain('next attempt 1/10 in 2 s');

    // Events delivered out of order: an older "connected" does not undo a newer "reconnecting".
    api.emitMcp({ name: 'ok', state: 'connected', pid: 4242 }, '2000-01-01T00:00:00.000000001Z');
    await new Promise((r) => setTimeout(r, 20));
    expect(state('ok').textContent?.trim()).toBe('Reconnecting');
  });

  it('validates the add form inline, tests the connection and saves with Enter', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'taken' });
    render(McpPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: 'Add server' }));
    const form = screen.getByRole('form', { name: 'New MCP server' });
    const name = within(form).getByRole('textbox', { name: /Name/ });
    expect(document.activeElement).toBe(name);

    await user.click(within(form).getByRole('button', { name: 'Add server' }));
    expect(within(form).getByTestId('mcp-form-errors').textContent).toContain('Fix 2 fields');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);
    await user.type(name, 'Taken');
    expect(form.textContent).toContain('A server named taken exists already.');
    await user.clear(name);
    await user.type(name, '日本');
    expect(form.textContent).toContain('Use at least one letter or digit');
    // The id is derived from the name typed (lib/names.ts).
    await user.clear(name);
    await user.type(name, 'My Server');
    expect(within(form).getByTestId('mcp-form-id').textContent).toContain('Saved as my-server; its tools are named mcp_my-server_<tool>.');
    await user.clear(name);
    await user.type(name, 'Everything');
    // Offered to agents by default, with what that means.
    const offerBox = within(form).getByRole('checkbox', { name: /Offer its tools to agents/ }) as HTMLInputElement;
    expect(offerBox.checked).toBe(true);
    expect(form.textContent).toContain('each call still checked by the policy and approvals');

    const command = within(form).getByRole('textbox', { name: /Command/ });
    await user.type(command, 'npx -y @modelcontextprotocol/server-everything');
    await user.click(within(form).getByRole('button', { name: 'Split into npx + 2 arguments' }));
    expect((command as HTMLInputElement).value).toBe('npx');
    expect((within(form).getByRole('textbox', { name: 'Argument 2' }) as HTMLInputElement).value).toBe('@modelcontextprotocol/server-everything');
    await user.click(within(form).getByRole('button', { name: 'Add variable' }));
    await user.keyboard('API_TOKEN');
    await user.type(within(form).getByLabelText('Value for API_TOKEN'), 's3cret');

    await user.click(within(form).getByRole('button', { name: 'Test connection' }));
    const result = await within(form).findByTestId('mcp-test-result');
    expect(result.textContent?.replace(/\s+/g, ' ')).toContain('Connected to mcp-servers/everything 2.0.0 (protocol 2025-11-25) in 413 ms: 3 tools found.');
    expect(within(result).getByRole('list', { name: 'Tools found' }).textContent).toContain('echo');
    expect(api.testMcpServer).toHaveBeenCalledWith(expect.objectContaining({ name: 'everything', command: 'npx', env: { API_TOKEN: 's3cret' } }));

    await user.click(name);
    await user.keyboard('{Enter}');
    await waitFor(() => expect(api.addMcpServer).toHaveBeenCalledTimes(1));
    expect(api.addMcpServer.mock.calls[0][1]).toBe(true);
    expect(api.mcp.alsoAllow).toContain('group:mcp:everything');
    expect(api.addMcpServer.mock.calls[0][0]).toMatchObject({
      name: 'everything',
      transport: 'stdio',
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-everything'],
      env: { API_TOKEN: 's3cret' },
      enabled: true,
      connect_timeout_ns: 30e9,
    });
    await waitFor(() => expect(screen.queryByRole('form', { name: 'New MCP server' })).toBeNull());
    const notice = () => screen.getAllByRole('status').find((el) => el.classList.contains('notice'))?.textContent ?? '';
    expect(notice()).toContain('Added everything. Warren is starting it.');
    // The notice follows the status: never "starting" once it connected, or failed.
    api.emitMcp({ name: 'everything', state: 'connected', tools: 3, pid: 7 });
    await waitFor(() => expect(notice()).toContain('Added everything. It is connected with 3 tools.'));
    expect(notice()).not.toContain('starting');
    api.emitMcp({ name: 'everything', state: 'failed', last_error: 'boom' });
    await waitFor(() => expect(notice()).toContain('Added everything, but it has not connected yet'));
  });

  it('adds a server without offering it when the box is cleared', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    render(McpPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: 'Add server' }));
    const form = screen.getByRole('form', { name: 'New MCP server' });
    await user.type(within(form).getByRole('textbox', { name: /Name/ }), 'quiet');
    await user.type(within(form).getByRole('textbox', { name: /Command/ }), 'true');
    await user.click(within(form).getByRole('checkbox', { name: /Offer its tools to agents/ }));
    await user.click(within(form).getByRole('button', { name: 'Add server' }));
    await waitFor(() => expect(api.addMcpServer).toHaveBeenCalledWith(expect.objectContaining({ name: 'quiet' }), false));
    expect(api.mcp.alsoAllow).not.toContain('group:mcp:quiet');
  });

  it('shows a failed test with the server stderr, and Escape cancels the form', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.mcp.tests.crash = {
      ok: false,
      error: 'process exited with code 3: boom',
      protocol: '',
      server_name: '',
      server_version: '',
      tools: [],
      latency_ms: 0,
      stderr: ['starting…', 'boom'],
    };
    render(McpPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: 'Add server' }));
    const form = screen.getByRole('form', { name: 'New MCP server' });
    await user.type(within(form).getByRole('textbox', { name: /Name/ }), 'crash');
    await user.type(within(form).getByRole('textbox', { name: /Command/ }), 'sh');
    await user.click(within(form).getByRole('button', { name: 'Test connection' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.querySelector('.sentence')?.textContent).toBe('Connection failed: The MCP server’s program stopped unexpectedly.');
    expect(alert.querySelector('details')?.textContent).toContain('process exited with code 3: boom');
    expect(within(form).getByTestId('mcp-test-stderr').textContent).toBe('starting…\nboom');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('form', { name: 'New MCP server' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Add server' }));
    expect(api.addMcpServer).not.toHaveBeenCalled();
  });

  it('edits keep stored env values, Clear deletes one, and http switches to URL + headers', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything', env_keys: ['KEEP', 'DROP'], tool_deny: ['echo'] });
    api.mcp.env.everything = { KEEP: 'k', DROP: 'd' };
    render(McpPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: 'Edit everything' }));
    const form = screen.getByRole('form', { name: 'Edit MCP server everything' });
    expect(within(form).getAllByTestId('kv-stored')).toHaveLength(2);
    expect((within(form).getByRole('textbox', { name: /Name/ }) as HTMLInputElement).readOnly).toBe(true);
    await user.click(within(form).getByRole('button', { name: 'Clear DROP' }));
    expect(form.textContent).toContain('Cleared when you save:');
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(api.updateMcpServer).toHaveBeenCalledTimes(1));
    expect(api.updateMcpServer.mock.calls[0][0].env).toEqual({ DROP: '' });
    expect(api.updateMcpServer.mock.calls[0][0].tool_deny).toEqual(['echo']);

    await user.click(await screen.findByRole('button', { name: 'Edit everything' }));
    const again = screen.getByRole('form', { name: 'Edit MCP server everything' });
    await user.click(within(again).getByRole('radio', { name: 'HTTP' }));
    expect(within(again).queryByRole('textbox', { name: /Command/ })).toBeNull();
    await user.click(within(again).getByRole('button', { name: 'Save changes' }));
    expect(again.textContent).toContain('The server’s URL');
    expect(api.updateMcpServer).toHaveBeenCalledTimes(1);
  });

  it('switches tools off and on, per server', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything' });
    render(McpPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: /everything/, expanded: false }));
    const tools = await screen.findByTestId('mcp-tools');
    const echo = await within(tools).findByRole('switch', { name: 'Tool echo' });
    expect(tools.textContent).toContain('3 of 3 on');
    expect(tools.textContent).toContain('mcp_everything_echo');
    await user.click(echo);
    await waitFor(() => expect(api.setMcpToolEnabled).toHaveBeenCalledWith('everything', 'echo', false));
    await waitFor(() => expect(tools.textContent).toContain('2 of 3 on'));
    expect(echo.closest('tr')?.classList.contains('off')).toBe(true);
    await user.click(echo);
    await waitFor(() => expect(api.setMcpToolEnabled).toHaveBeenLastCalledWith('everything', 'echo', true));
  });

  it('lists switched-off tools of a stopped server, and shows its log', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything', tool_deny: ['echo'] }, { state: 'stopped', pid: undefined });
    api.mcp.logs.everything = ['--- warren: starting everything', 'Starting default (STDIO) server...'];
    render(McpPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: /everything/, expanded: false }));
    const tools = await screen.findByTestId('mcp-tools');
    expect(tools.textContent).toContain('Start the server to list its tools.');
    await user.click(within(tools).getByRole('button', { name: 'Switch on' }));
    await waitFor(() => expect(api.setMcpToolEnabled).toHaveBeenCalledWith('everything', 'echo', true));
    // The detail tabs follow the arrow keys.
    screen.getByRole('tab', { name: 'Tools' }).focus();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('tab', { name: 'Logs' }).getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Logs' })));
    await user.keyboard('{Home}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Tools' })));
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Logs' }).getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Logs' })));
    const log = await screen.findByLabelText('Log of everything');
    expect(log.textContent).toContain('Starting default (STDIO) server...');
    expect(api.mcpServerLogs).toHaveBeenCalledWith('everything', 200);
  });

  it('starts, stops, restarts, disables and deletes (with confirmation)', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything' });
    render(McpPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: 'Stop everything' }));
    expect(api.stopMcpServer).toHaveBeenCalledWith('everything');
    await user.click(await screen.findByRole('button', { name: 'Start everything' }));
    expect(api.startMcpServer).toHaveBeenCalledWith('everything');
    await user.click(screen.getByRole('button', { name: 'Restart everything' }));
    expect(api.restartMcpServer).toHaveBeenCalledWith('everything');
    await user.click(screen.getByRole('switch', { name: 'Enabled everything' }));
    expect(api.setMcpServerEnabled).toHaveBeenCalledWith('everything', false);
    await user.click(screen.getByRole('button', { name: 'Delete everything' }));
    expect(api.deleteMcpServer).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(api.deleteMcpServer).toHaveBeenCalledWith('everything'));
    await waitFor(() => expect(screen.getByText(/No MCP servers yet/)).toBeTruthy());
  });

  it('offers the tools to agents, manages grants and reviews requests', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything', restricted: true });
    await api.requestMcpAccess({ server: 'everything', scope: 'agent', subject: 'reviewer', tool_allow: ['echo'], reason: 'needs echo' });
    render(McpPanel, { api, active: true });
    const reqs = await screen.findByRole('button', { name: '1 access request' });

    // The profile (coding) does not offer MCP tools: the card says so and offers the switch.
    const offer = within(card('everything')).getByRole('switch', { name: "Offer this server's tools to agents" }) as HTMLInputElement;
    const offerText = () => within(card('everything')).getByTestId('mcp-offer-text').textContent ?? '';
    await waitFor(() => expect(offerText()).toContain('Agents do not see these tools: profile coding does not include MCP tools. Switch on “Offer to agents”'));
    expect(offerText()).not.toContain('warren policy'); // no CLI command to copy
    expect(offer.checked).toBe(false);
    await user.click(offer);
    await waitFor(() => expect(api.setMcpOffered).toHaveBeenCalledWith('everything', true));
    await waitFor(() => expect(offerText()).toContain('through the also-allow entry group:mcp:everything'));
    expect(offer.checked).toBe(true);
    await user.click(offer);
    await waitFor(() => expect(api.setMcpOffered).toHaveBeenLastCalledWith('everything', false));
    await waitFor(() => expect(offerText()).toContain('Agents do not see these tools'));
    api.mcp.profile = 'full';
    await user.click(screen.getByRole('button', { name: 'Restart everything' }));
    await waitFor(() => expect(offerText()).toContain('profile full includes MCP tools'));
    expect(offer.disabled).toBe(true);

    await user.click(reqs);
    const access = await screen.findByTestId('mcp-access');
    expect(access.textContent).toContain('Restricted: only the agents and users with an enabled grant');

    // The request: approving creates the grant.
    expect(access.textContent).toContain('agent reviewer asks for echo');
    await user.type(within(access).getByRole('textbox', { name: 'Review note for request 1' }), 'ok');
    await user.click(within(access).getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(api.reviewMcpRequest).toHaveBeenCalledWith(1, true, 'ok'));
    await waitFor(() => expect(access.querySelector('[data-grant="agent:reviewer"]')).not.toBeNull());
    await waitFor(() => expect(screen.queryByRole('button', { name: '1 access request' })).toBeNull());

    // A new grant, with Enter.
    await user.click(within(access).getByRole('button', { name: 'Add grant' }));
    const form = within(access).getByRole('form', { name: 'New grant' });
    await user.click(within(form).getByRole('button', { name: 'Add grant' }));
    expect(form.textContent).toContain('Which agent?');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Subject' }), 'default');
    await user.type(within(form).getByRole('textbox', { name: 'Denied tools' }), 'printEnv, nope{Enter}');
    await waitFor(() => expect(api.saveMcpGrant).toHaveBeenCalledTimes(1));
    expect(api.saveMcpGrant.mock.calls[0][0]).toMatchObject({ server: 'everything', scope: 'agent', subject: 'default', tool_allow: [], tool_deny: ['printEnv', 'nope'], enabled: true });
    await waitFor(() => expect(access.querySelector('[data-grant="agent:default"]')?.textContent).toContain('printEnv, nope'));

    await user.click(within(access).getByRole('switch', { name: 'Grant for agent default enabled' }));
    await waitFor(() => expect(api.saveMcpGrant).toHaveBeenCalledTimes(2));
    expect(api.saveMcpGrant.mock.calls[1][0]).toMatchObject({ scope: 'agent', subject: 'default', enabled: false });
    await user.click(within(access).getByRole('button', { name: 'Delete grant for default' }));
    await user.click(within(access).getByRole('button', { name: 'Yes, delete' }));
    await waitFor(() => expect(access.querySelector('[data-grant="agent:default"]')).toBeNull());
  });

  it('imports pasted JSON through a preview: downloaders marked and off, nothing stored before Import', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything' });
    render(McpPanel, { api, active: true });
    const opener = await screen.findByRole('button', { name: 'Import…' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Import MCP servers' });
    const text = within(dialog).getByRole('textbox', { name: 'mcpServers JSON' });
    expect(document.activeElement).toBe(text);
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(within(dialog).getByRole('alert').textContent).toContain('Paste an mcpServers JSON document');
    const doc = JSON.stringify({
      mcpServers: {
        files: { command: '/usr/bin/mcp-files', env: { TOKEN: 'sekrit-value' } },
        memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
        everything: { command: '/usr/bin/mcp-server-everything' },
        '<img src=x onerror=alert(1)>': { command: 'x' },
      },
    });
    await fireEvent.input(text, { target: { value: doc } });
    await user.click(text);
    await user.keyboard('{Control>}{Enter}{/Control}');
    const preview = await within(dialog).findByTestId('mcp-import-preview');
    expect(api.previewMcpImport).toHaveBeenCalledWith(doc);
    expect(api.importMcpSelection).not.toHaveBeenCalled();
    const row = (name: string) => [...preview.querySelectorAll<HTMLElement>('[data-import-server]')].find((el) => el.dataset.importServer === name)!;
    // The local server: imported and on; its env key shown, never the value.
    expect((within(row('files')).getByRole('checkbox', { name: 'Import files' }) as HTMLInputElement).checked).toBe(true);
    expect((within(row('files')).getByRole('switch', { name: 'Start files' }) as HTMLInputElement).checked).toBe(true);
    expect(row('files').textContent).toContain('env TOKEN');
    expect(dialog.textContent).not.toContain('sekrit-value');
    // npx -y downloads on start: marked, and off until switched on.
    expect(within(row('memory')).getByTestId('downloads-mark').textContent).toContain('downloads a package when it starts');
    expect(row('memory').textContent).toContain('npx downloads the package @modelcontextprotocol/server-memory when it starts');
    expect((within(row('memory')).getByRole('switch', { name: 'Start memory' }) as HTMLInputElement).checked).toBe(false);
    // A name Warren has is not replaced unless ticked.
    expect((within(row('everything')).getByRole('checkbox', { name: 'Import everything' }) as HTMLInputElement).checked).toBe(false);
    expect(row('everything').textContent).toContain('replaces the server Warren has');
    // Untrusted names are text, never markup.
    expect(preview.querySelector('img')).toBeNull();
    await user.click(within(row('<img src=x onerror=alert(1)>')).getByRole('checkbox', { name: /Import <img/ }));
    expect(within(dialog).getByTestId('mcp-import-summary').textContent).toBe(
      '2 of 4 servers will be imported; 1 stays off until you switch it on. Nothing starts before you confirm.',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Import 2 servers' }));
    const report = await within(dialog).findByTestId('mcp-import-report');
    expect(api.importMcpSelection).toHaveBeenCalledWith({
      text: doc,
      servers: [
        { name: 'files', enabled: true },
        { name: 'memory', enabled: false },
      ],
      offer: true,
    });
    expect(report.textContent).toContain('Added 2 (files, memory). memory is stored switched off.');
    expect(api.mcp.servers.find((x) => x.name === 'memory')?.enabled).toBe(false);
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Done' }));
    // Escape closes it and gives focus back.
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    await waitFor(() => expect(screen.getAllByRole('status').some((el) => /Added 2 \(files, memory\)/.test(el.textContent ?? ''))).toBe(true));

    // A document that does not parse: the error, with the detail folded.
    await user.click(opener);
    const d2 = screen.getByRole('dialog', { name: 'Import MCP servers' });
    await fireEvent.input(within(d2).getByRole('textbox', { name: 'mcpServers JSON' }), { target: { value: '{x' } });
    await user.click(within(d2).getByRole('button', { name: 'Preview' }));
    expect((await within(d2).findByTestId('error-banner')).textContent).toContain('invalid JSON');
  });

  it('lists the configs found on this machine and previews one', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.mcp.configs = [
      {
        client: 'Cursor',
        path: '/home/me/.cursor/mcp.json',
        servers: [{ name: 'notion', transport: 'streamable-http', url: 'https://mcp.notion.com/mcp', args: [], env_keys: [], header_keys: ['Authorization'], exists: false, enable: true, notes: [] }],
        warnings: [],
      },
      { client: 'VS Code', path: '/home/me/.config/Code/User/mcp.json', servers: [], warnings: [], error: 'invalid JSON at line 3, column 1' },
    ];
    render(McpPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: 'Import…' }));
    const dialog = screen.getByRole('dialog', { name: 'Import MCP servers' });
    const found = await within(dialog).findByRole('region', { name: 'Found on this machine' });
    expect(found.textContent).toContain('VS Code cannot be read');
    expect(found.textContent).toContain('invalid JSON at line 3');
    await user.click(within(found).getByRole('button', { name: 'Preview Cursor' }));
    const preview = await within(dialog).findByTestId('mcp-import-preview');
    expect(dialog.textContent).toMatch(/From Cursor\s\/home\/me\/\.cursor\/mcp\.json/);
    expect(preview.textContent).toContain('headers Authorization');
    await user.click(within(dialog).getByRole('checkbox', { name: /Offer their tools to agents/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Import 1 server' }));
    await within(dialog).findByTestId('mcp-import-report');
    expect(api.importMcpSelection).toHaveBeenCalledWith({ path: '/home/me/.cursor/mcp.json', servers: [{ name: 'notion', enabled: true }], offer: false });
  });

  it('exports with a secrets warning, and saves through the native dialog when there is one', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything' });
    api.mcp.env.everything = { TOKEN: 't0k' };
    api.mcp.canSave = true;
    render(McpPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: 'Export…' }));
    const dialog = screen.getByRole('dialog', { name: 'Export MCP servers' });
    await waitFor(() => expect((within(dialog).getByRole('textbox', { name: 'Exported JSON' }) as HTMLTextAreaElement).value).toContain('t0k'));
    expect(dialog.textContent).toContain('in plain text');
    await user.click(within(dialog).getByRole('button', { name: 'Save to file…' }));
    expect((await within(dialog).findByRole('status')).textContent).toContain('Saved to /home/me/mcp-servers.json');
  });
});

describe('Claude Desktop first-run offer', () => {
  it('asks once; Not now dismisses it for good', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.mcp.offer = { path: '/home/me/.config/Claude/claude_desktop_config.json', servers: ['filesystem', 'github'] };
    const { unmount } = render(App, { api });
    const offer = await screen.findByTestId('claude-offer');
    expect(offer.textContent).toContain('Import 2 servers from Claude Desktop?');
    expect(offer.textContent).toContain('filesystem, github');
    await user.click(within(offer).getByRole('button', { name: 'Not now' }));
    expect(api.answerClaudeDesktopOffer).toHaveBeenCalledWith(false);
    await waitFor(() => expect(screen.queryByTestId('claude-offer')).toBeNull());
    unmount();
    render(App, { api });
    await waitFor(() => expect(api.claudeDesktopOffer).toHaveBeenCalledTimes(2));
    expect(screen.queryByTestId('claude-offer')).toBeNull();
  });

  it('imports and opens the MCP tab', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.mcp.offer = { path: '/home/me/.config/Claude/claude_desktop_config.json', servers: ['filesystem'] };
    render(App, { api });
    const offer = await screen.findByTestId('claude-offer');
    expect(offer.textContent).toContain('Import 1 server from Claude Desktop?');
    api.mcp.configs = [
      {
        client: 'Claude Desktop',
        path: api.mcp.offer.path,
        servers: [
          { name: 'filesystem', transport: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me'], env_keys: [], header_keys: [], downloads: 'npx downloads the package @modelcontextprotocol/server-filesystem when it starts', exists: false, enable: false, notes: [] },
        ],
        warnings: [],
      },
    ];
    await user.click(within(offer).getByRole('button', { name: 'Import…' }));
    // A preview first: nothing is imported yet, and the npx server is off.
    const dialog = await screen.findByRole('dialog', { name: 'Import from Claude Desktop' });
    expect(api.importMcpSelection).not.toHaveBeenCalled();
    expect((within(dialog).getByRole('switch', { name: 'Start filesystem' }) as HTMLInputElement).checked).toBe(false);
    expect(within(dialog).queryByRole('button', { name: 'Back' })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Import 1 server' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Done' }));
    expect(api.importMcpSelection).toHaveBeenCalledWith({ path: api.mcp.offer.path, servers: [{ name: 'filesystem', enabled: false }], offer: true });
    const done = await screen.findByTestId('claude-offer-done');
    expect(done.textContent).toContain('Added 1 (filesystem). filesystem is stored switched off.');
    await user.click(within(done).getByRole('button', { name: 'Show servers' }));
    expect(screen.getByRole('tab', { name: 'MCP' }).getAttribute('aria-selected')).toBe('true');
  });
});
