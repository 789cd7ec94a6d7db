// Agent grants' config overrides (env or headers, args, call timeout) in the
// grant editor and the list, and the agents' own connections on the server
// card. The rest of the MCP tab is in mcp.test.ts.
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import McpPanel from '../src/components/mcp/McpPanel.svelte';
import { toDraft } from '../src/lib/mcp';
import { checkGrant, grantDraft, grantFromDraft, grantWithEnabled, hasOverrides, overridesDraft, overridesSummary, type GrantDraft } from '../src/lib/mcpGrants';
import type { McpGrant } from '../src/lib/types';
import { fakeApi, mcpAgentConnections, mcpOverridesGrant } from './fakeApi';

/** The grant as Go reads it back: secrets reduced to their keys. */
const readBack = (): McpGrant => ({
  ...mcpOverridesGrant(),
  config_overrides: { env_keys: ['API_TOKEN'], args: ['stdio', '--verbose'], call_timeout_seconds: 30 },
});

function card(name: string) {
  const el = document.querySelector<HTMLElement>(`[data-server="${name}"]`);
  if (!el) throw new Error(`no card for ${name}`);
  return el;
}

/** Renders the panel and opens the Access tab of server `everything`. */
async function openAccess(api: ReturnType<typeof fakeApi>) {
  render(McpPanel, { api, active: true });
  await userEvent.setup().click(await screen.findByRole('button', { name: /everything/, expanded: false }));
  await userEvent.setup().click(screen.getByRole('tab', { name: 'Access' }));
  return screen.findByTestId('mcp-access');
}

const grantRow = (access: HTMLElement, key: string) => access.querySelector<HTMLElement>(`[data-grant="${key}"]`);

describe('grant overrides model', () => {
  it('summarises overrides; {} and null are none', () => {
    expect(overridesSummary(readBack().config_overrides)).toBe('env API_TOKEN · args · timeout 30 s');
    expect(overridesSummary({ header_keys: ['X-B', 'Authorization'] })).toBe('headers Authorization, X-B');
    expect(overridesSummary({})).toBe('');
    expect(overridesSummary(null)).toBe('');
    expect(hasOverrides({})).toBe(false);
    expect(hasOverrides({ args: [] })).toBe(true);
  });

  it('sends kept stored keys by name and only typed values, for the transport in use', () => {
    const d: GrantDraft = grantDraft(readBack());
    expect(d.overrides).toMatchObject({ ownArgs: true, args: ['stdio', '--verbose'], call_timeout: '30' });
    expect(d.overrides.env).toEqual([{ key: 'API_TOKEN', value: '', stored: true, replace: false }]);
    d.overrides.env.push({ key: ' EXTRA ', value: 'x', stored: false, replace: false });
    expect(grantFromDraft('everything', d, { keep: readBack(), transport: 'stdio' }).config_overrides).toEqual({
      env_keys: ['API_TOKEN'],
      header_keys: [],
      env: { EXTRA: 'x' },
      args: ['stdio', '--verbose'],
      call_timeout_seconds: 30,
    });

    // A replaced value goes out with its key; a cleared one is named in no list (both always go out).
    d.overrides.env[0].replace = true;
    d.overrides.env[0].value = 'new';
    d.overrides.env.splice(1, 1);
    d.overrides.ownArgs = false;
    d.overrides.call_timeout = '';
    expect(grantFromDraft('everything', d, { transport: 'stdio' }).config_overrides).toEqual({
      env_keys: [],
      header_keys: [],
      env: { API_TOKEN: 'new' },
    });
    d.overrides.env = [];
    expect(grantFromDraft('everything', d, { transport: 'stdio' }).config_overrides).toEqual({ env_keys: [], header_keys: [] });

    // An HTTP server: headers, never env or args; fields this UI does not know survive.
    const web = grantDraft({ ...readBack(), config_overrides: { header_keys: ['Authorization'], env_keys: ['OLD'], args: ['x'], future: 1 } as never });
    expect(grantFromDraft('web', web, { keep: { ...readBack(), config_overrides: { future: 1 } as never }, transport: 'streamable-http' }).config_overrides).toEqual({
      future: 1,
      env_keys: [],
      header_keys: ['Authorization'],
    });
  });

  it('gives user grants no overrides', () => {
    const d = { ...grantDraft(readBack()), scope: 'user' as const, subject: 'local' };
    expect(grantFromDraft('everything', d, { keep: readBack() })).not.toHaveProperty('config_overrides');
    expect(grantDraft({ ...readBack(), scope: 'user' }).overrides).toEqual(overridesDraft(null));
    // Switching a grant on or off sends its overrides back as read (stored keys kept), none for users.
    expect(grantWithEnabled(readBack(), false)).toEqual({ ...readBack(), enabled: false });
    const user: McpGrant = { server: 'everything', scope: 'user', subject: 'local', enabled: true, config_overrides: {} };
    expect(grantWithEnabled(user, false)).toEqual({ server: 'everything', scope: 'user', subject: 'local', enabled: false });
  });

  it.each([
    ['', undefined],
    ['30', undefined],
    [' 86400 ', undefined],
    ['0', 'Whole seconds, from 1 to 86400'],
    ['1.5', 'Whole seconds'],
    ['-3', 'Whole seconds'],
    ['abc', 'Whole seconds'],
    ['86401', 'Whole seconds'],
  ])('validates the call timeout %j', (text, want) => {
    const d = { ...grantDraft(), subject: 'default' };
    d.overrides.call_timeout = text;
    const c = checkGrant(d, []);
    if (want) expect(c.overrides.call_timeout).toContain(want);
    else expect(c.overrides.call_timeout).toBeUndefined();
    expect(c.ok).toBe(!want);
    // User grants have no overrides to check.
    expect(checkGrant({ ...d, scope: 'user' }, []).ok).toBe(true);
  });

  it('checks override env names and empty arguments like the server form', () => {
    const d = { ...grantDraft(), subject: 'default' };
    d.overrides.env = toDraft(null).env.concat({ key: 'A=B', value: 'v', stored: false, replace: false });
    d.overrides.ownArgs = true;
    d.overrides.args = [''];
    expect(checkGrant(d, []).overrides).toEqual({ env: 'Variable name "A=B" cannot contain "=".', args: 'Remove the empty argument, or type one.' });
    expect(checkGrant(d, [], 'sse').overrides).toEqual({});
  });
});

describe('grant overrides in the Access tab', () => {
  it('creates an agent grant with an env override and a timeout, with Enter', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything' });
    const access = await openAccess(api);
    await user.click(within(access).getByRole('button', { name: 'Add grant' }));
    const form = within(access).getByRole('form', { name: 'New grant' });
    const overrides = within(form).getByRole('group', { name: /Overrides for this agent/ });
    expect(overrides.textContent).toContain('Warren runs a separate connection of everything for this agent');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Subject' }), 'reviewer');
    await user.click(within(overrides).getByRole('button', { name: 'Add variable' }));
    await user.type(within(overrides).getByRole('textbox', { name: 'Variable name' }), 'API_TOKEN');
    await user.type(within(overrides).getByLabelText('Value for API_TOKEN'), 's3cret');
    await user.type(within(overrides).getByRole('textbox', { name: /Call timeout/ }), '45{Enter}');

    await waitFor(() => expect(api.saveMcpGrant).toHaveBeenCalledTimes(1));
    expect(api.saveMcpGrant.mock.calls[0][0]).toEqual({
      server: 'everything',
      scope: 'agent',
      subject: 'reviewer',
      tool_allow: [],
      tool_deny: [],
      enabled: true,
      config_overrides: { env_keys: [], header_keys: [], env: { API_TOKEN: 's3cret' }, call_timeout_seconds: 45 },
    });
    await waitFor(() => expect(grantRow(access, 'agent:reviewer')).not.toBeNull());
    expect(within(grantRow(access, 'agent:reviewer')!).getByTestId('grant-overrides').textContent).toBe('overrides: env API_TOKEN · timeout 45 s');
    expect(access.textContent).not.toContain('s3cret');
  });

  it('edits a grant keeping its stored secret; Clear drops it, Escape cancels', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything' });
    api.seedMcpGrant(mcpOverridesGrant());
    api.seedMcpGrant({ server: 'everything', scope: 'user', subject: 'local', enabled: true });
    const access = await openAccess(api);
    await waitFor(() => expect(grantRow(access, 'agent:reviewer')).not.toBeNull());
    expect(within(grantRow(access, 'agent:reviewer')!).getByTestId('grant-overrides').textContent).toBe('overrides: env API_TOKEN · args · timeout 30 s');
    expect(within(grantRow(access, 'user:local')!).queryByTestId('grant-overrides')).toBeNull();

    await user.click(within(access).getByRole('button', { name: 'Edit grant for agent reviewer' }));
    let form = within(access).getByRole('form', { name: 'Edit grant for reviewer' });
    expect(within(form).getAllByTestId('kv-stored')).toHaveLength(1);
    expect(within(form).getByText('API_TOKEN')).toBeTruthy();
    expect((within(form).getByRole('checkbox', { name: /Replace the server’s arguments/ }) as HTMLInputElement).checked).toBe(true);
    expect((within(form).getByRole('textbox', { name: 'Argument 2' }) as HTMLInputElement).value).toBe('--verbose');
    const timeout = within(form).getByRole('textbox', { name: /Call timeout/ }) as HTMLInputElement;
    expect(timeout.value).toBe('30');
    await user.clear(timeout);
    await user.type(timeout, '60');
    await user.click(within(form).getByRole('button', { name: 'Add variable' }));
    await user.type(within(form).getByRole('textbox', { name: 'Variable name' }), 'EXTRA');
    await user.type(within(form).getByLabelText('Value for EXTRA'), '1');
    await user.click(within(form).getByRole('button', { name: 'Save grant' }));

    await waitFor(() => expect(api.saveMcpGrant).toHaveBeenCalledTimes(1));
    expect(api.saveMcpGrant.mock.calls[0][0].config_overrides).toEqual({
      env_keys: ['API_TOKEN'],
      header_keys: [],
      env: { EXTRA: '1' },
      args: ['stdio', '--verbose'],
      call_timeout_seconds: 60,
    });
    await waitFor(() => expect(grantRow(access, 'agent:reviewer')?.textContent).toContain('overrides: env API_TOKEN, EXTRA · args · timeout 60 s'));

    // Escape leaves everything as it was.
    await user.click(within(access).getByRole('button', { name: 'Edit grant for agent reviewer' }));
    form = within(access).getByRole('form', { name: 'Edit grant for reviewer' });
    await user.click(within(form).getByRole('button', { name: 'Clear API_TOKEN' }));
    await user.keyboard('{Escape}');
    expect(within(access).queryByRole('form')).toBeNull();
    expect(api.saveMcpGrant).toHaveBeenCalledTimes(1);

    // Clear drops the stored value; unticking the arguments goes back to the server's.
    await user.click(within(access).getByRole('button', { name: 'Edit grant for agent reviewer' }));
    form = within(access).getByRole('form', { name: 'Edit grant for reviewer' });
    await user.click(within(form).getByRole('button', { name: 'Clear API_TOKEN' }));
    expect(form.textContent).toContain('Cleared when you save:');
    await user.click(within(form).getByRole('checkbox', { name: /Replace the server’s arguments/ }));
    expect(within(form).queryByRole('textbox', { name: 'Argument 1' })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Save grant' }));
    await waitFor(() => expect(api.saveMcpGrant).toHaveBeenCalledTimes(2));
    expect(api.saveMcpGrant.mock.calls[1][0].config_overrides).toEqual({ env_keys: ['EXTRA'], header_keys: [], call_timeout_seconds: 60 });

    // Switching the grant off keeps its secrets: the overrides go back as read.
    await user.click(within(access).getByRole('switch', { name: 'Grant for agent reviewer enabled' }));
    await waitFor(() => expect(api.saveMcpGrant).toHaveBeenCalledTimes(3));
    expect(api.saveMcpGrant.mock.calls[2][0]).toMatchObject({ enabled: false, config_overrides: { env_keys: ['EXTRA'], call_timeout_seconds: 60 } });
  });

  it('hides overrides for user grants, and says an agent grant turned user grant drops them', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything' });
    api.seedMcpGrant(mcpOverridesGrant());
    const access = await openAccess(api);
    await user.click(within(access).getByRole('button', { name: 'Add grant' }));
    const form = within(access).getByRole('form', { name: 'New grant' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Scope' }), 'user');
    expect(within(form).queryByRole('group', { name: /Overrides/ })).toBeNull();
    expect(within(form).getByTestId('grant-no-overrides').textContent).toContain('Overrides (env, arguments, timeout) are for agent grants');
    expect(form.textContent).not.toContain('drops its overrides');
    await user.type(within(form).getByRole('textbox', { name: 'Subject' }), 'local{Enter}');
    await waitFor(() => expect(api.saveMcpGrant).toHaveBeenCalledTimes(1));
    expect(api.saveMcpGrant.mock.calls[0][0]).not.toHaveProperty('config_overrides');
    await waitFor(() => expect(grantRow(access, 'user:local')).not.toBeNull());

    await user.click(within(access).getByRole('button', { name: 'Edit grant for agent reviewer' }));
    const edit = within(access).getByRole('form', { name: 'Edit grant for reviewer' });
    await user.selectOptions(within(edit).getByRole('combobox', { name: 'Scope' }), 'user');
    expect(within(edit).getByTestId('grant-no-overrides').textContent).toContain('Saving this as a user grant drops its overrides.');
    await user.click(within(edit).getByRole('button', { name: 'Save grant' }));
    await waitFor(() => expect(api.deleteMcpGrant).toHaveBeenCalledWith('everything', 'agent', 'reviewer'));
    expect(api.saveMcpGrant.mock.calls[1][0]).toMatchObject({ scope: 'user', subject: 'reviewer' });
    expect(api.saveMcpGrant.mock.calls[1][0]).not.toHaveProperty('config_overrides');
  });

  it('shows a bad call timeout inline and does not save until it is fixed', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything', call_timeout_ns: 90e9 });
    const access = await openAccess(api);
    await user.click(within(access).getByRole('button', { name: 'Add grant' }));
    const form = within(access).getByRole('form', { name: 'New grant' });
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Subject' }), 'default');
    const timeout = within(form).getByRole('textbox', { name: /Call timeout/ }) as HTMLInputElement;
    expect(timeout.placeholder).toBe('server’s: 90');
    await user.type(timeout, '1.5');
    expect(timeout.getAttribute('aria-invalid')).toBeNull(); // not while typing
    await user.tab();
    expect(timeout.getAttribute('aria-invalid')).toBe('true');
    const hint = document.getElementById(timeout.getAttribute('aria-describedby')!)!;
    expect(hint.textContent).toContain('Whole seconds, from 1 to 86400; leave it empty to use the server’s.');
    await user.click(within(form).getByRole('button', { name: 'Add grant' }));
    await waitFor(() => expect(document.activeElement).toBe(timeout));
    expect(api.saveMcpGrant).not.toHaveBeenCalled();
    await user.clear(timeout);
    await user.type(timeout, '0{Enter}');
    expect(api.saveMcpGrant).not.toHaveBeenCalled();
    await user.clear(timeout);
    await user.type(timeout, '15{Enter}');
    await waitFor(() => expect(api.saveMcpGrant).toHaveBeenCalledTimes(1));
    expect(api.saveMcpGrant.mock.calls[0][0].config_overrides).toEqual({ env_keys: [], header_keys: [], call_timeout_seconds: 15 });
  });

  it('offers header overrides for an HTTP server, and no arguments', async () => {
    const user = userEvent.setup();
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything', transport: 'streamable-http', command: undefined, args: undefined, url: 'http://127.0.0.1:3001/mcp' });
    const access = await openAccess(api);
    await user.click(within(access).getByRole('button', { name: 'Add grant' }));
    const form = within(access).getByRole('form', { name: 'New grant' });
    expect(within(form).queryByRole('button', { name: 'Add variable' })).toBeNull();
    expect(within(form).queryByRole('checkbox', { name: /arguments/ })).toBeNull();
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Subject' }), 'default');
    await user.click(within(form).getByRole('button', { name: 'Add header' }));
    await user.type(within(form).getByRole('textbox', { name: 'Header name' }), 'Authorization');
    await user.type(within(form).getByLabelText('Value for Authorization'), 'Bearer agent{Enter}');
    await waitFor(() => expect(api.saveMcpGrant).toHaveBeenCalledTimes(1));
    expect(api.saveMcpGrant.mock.calls[0][0].config_overrides).toEqual({ env_keys: [], header_keys: [], headers: { Authorization: 'Bearer agent' } });
    await waitFor(() => expect(grantRow(access, 'agent:default')?.textContent).toContain('overrides: headers Authorization'));
  });
});

describe("agents' own connections on the server card", () => {
  it('lists each with its state, pid and last error, and follows mcp:event', async () => {
    const api = fakeApi();
    api.seedMcpServer({ name: 'everything' }, { agent_connections: structuredClone(mcpAgentConnections) });
    api.seedMcpServer({ name: 'plain' });
    render(McpPanel, { api, active: true });
    const list = await within(await waitFor(() => card('everything'))).findByRole('list', { name: 'Agent connections of everything' });
    const line = () => list.querySelector<HTMLElement>('[data-agent-connection="reviewer"]')!;
    expect(line().textContent).toMatch(/agent\s+reviewer\s+Connected\s+pid 4343/);
    expect(within(line()).getByTestId('mcp-state').getAttribute('data-state')).toBe('connected');
    expect(within(card('plain')).queryByTestId('mcp-agent-connections')).toBeNull();

    api.emitMcp({ name: 'everything', agent_connections: [{ agent: 'reviewer', state: 'failed', last_error: 'process exited: API_TOKEN rejected' }] });
    await waitFor(() => expect(within(line()).getByTestId('mcp-state').textContent?.trim()).toBe('Failed'));
    expect(line().querySelector('.sentence')?.textContent).toBe('The MCP server’s program stopped unexpectedly.');
    expect(line().querySelector('details')?.textContent).toContain('process exited: API_TOKEN rejected');
    expect(line().textContent).not.toContain('pid');
    // The server's own badge is unchanged.
    expect(within(card('everything')).getAllByTestId('mcp-state')[0].textContent?.trim()).toBe('Connected');

    api.emitMcp({ name: 'everything', agent_connections: [] });
    await waitFor(() => expect(within(card('everything')).queryByTestId('mcp-agent-connections')).toBeNull());
  });
});
