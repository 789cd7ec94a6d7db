import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import App from '../src/App.svelte';
import { fakeApi, toolsFor } from './fakeApi';

function row(name: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`li[data-tool="${name}"]`);
  if (!el) throw new Error(`no row for ${name}`);
  return el;
}

async function renderApp(api = fakeApi()) {
  const user = userEvent.setup();
  render(App, { props: { api, initialTab: 'tools' } });
  await screen.findByText('5 tools · 4 allowed under coding');
  return { api, user };
}

describe('inventory', () => {
  it('renders live tools grouped by group with badges and status', async () => {
    const { api } = await renderApp();
    expect(screen.getByRole('heading', { level: 1, name: 'Warren' })).toBeTruthy();
    expect(api.tools).toHaveBeenCalledWith('coding', 'default');

    const groups = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent?.trim().split(/\s+/)[0]);
    expect(groups).toEqual(['fs', 'runtime', 'sessions', 'web', 'Activity']);

    const fs = screen.getByRole('region', { name: /^fs/ });
    expect(within(fs).getAllByRole('listitem').map((li) => li.dataset.tool)).toEqual(['read_file', 'write_file']);

    const read = row('read_file');
    expect(read.querySelector('.danger')?.textContent).toBe('safe');
    expect(read.querySelector('.danger')?.classList.contains('safe')).toBe(true);
    expect(row('exec').querySelector('.danger')?.textContent).toBe('critical');
    expect(row('write_file').querySelector('.confirm')?.textContent).toBe('asks first');
    expect(read.querySelector('.confirm')).toBeNull();
    // Badges say what they mean on hover and to screen readers; "static"
    // (every tool here) is not shown at all.
    expect(read.querySelector('.class')).toBeNull();
    expect(read.querySelector('.danger')?.getAttribute('title')).toBe('Safe: it only reads or reports; it changes nothing.');
    expect(row('write_file').querySelector('.confirm')?.getAttribute('title')).toMatch(/^Asks first: every call waits until you allow it/);
    const described = within(row('write_file')).getAllByRole('button')[0];
    const desc = document.getElementById(described.getAttribute('aria-describedby') ?? '');
    expect(desc?.textContent).toContain('Asks first');
    expect(desc?.textContent).toContain('Caution:');

    const webStatus = within(row('web_fetch')).getByTestId('status');
    expect(webStatus.textContent?.trim()).toBe('blocked');
    expect(webStatus.getAttribute('title')).toBe('not in profile coding');
    expect(within(read).getByTestId('status').textContent?.trim()).toBe('allowed');

    expect(await screen.findByText('v0.1.0-test')).toBeTruthy();
    expect((screen.getByRole('radio', { name: 'coding' }) as HTMLInputElement).checked).toBe(true);
  });

  it('asks before switching the global profile, saying what changes, then switches and re-queries', async () => {
    const { api, user } = await renderApp();
    expect(screen.getByRole('radiogroup', { name: 'Tool profile' }).textContent).toContain('for every agent');
    await user.click(screen.getByRole('radio', { name: 'minimal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the tool profile for every agent?' });
    expect(await within(dialog).findByText('Switching to minimal blocks 3 tools for every agent: exec, read_file and write_file.')).toBeTruthy();
    expect(dialog.textContent).toContain('It is not a view filter.');
    expect(api.setActiveProfile).not.toHaveBeenCalled();
    expect((screen.getByRole('radio', { name: 'coding' }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Switch to minimal' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.setActiveProfile).toHaveBeenCalledWith('minimal');
    await screen.findByText('5 tools · 1 allowed under minimal');
    expect(api.tools).toHaveBeenLastCalledWith('minimal', 'default');
    expect(within(row('read_file')).getByTestId('status').textContent?.trim()).toBe('blocked');
    expect(within(row('session_status')).getByTestId('status').textContent?.trim()).toBe('allowed');
  });

  it('Cancel keeps the profile, the radios and the list as they were', async () => {
    const { api, user } = await renderApp();
    await user.click(screen.getByRole('radio', { name: 'messaging' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText(/^Switching to messaging blocks 3 tools for every agent: exec, read_file and write_file\.$/);
    expect(within(dialog).getByText('It allows 1 tool for every agent: web_fetch.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.setActiveProfile).not.toHaveBeenCalled();
    expect((screen.getByRole('radio', { name: 'coding' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('radio', { name: 'messaging' }) as HTMLInputElement).checked).toBe(false);
    expect(screen.getByText('5 tools · 4 allowed under coding')).toBeTruthy();
    // Escape cancels too.
    await user.click(screen.getByRole('radio', { name: 'full' }));
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.setActiveProfile).not.toHaveBeenCalled();
  });

  it('keeps the old profile and shows the error when switching fails', async () => {
    const api = fakeApi();
    api.setActiveProfile.mockRejectedValueOnce('profile store is read-only');
    const { user } = await renderApp(api);
    await user.click(screen.getByRole('radio', { name: 'full' }));
    await user.click(await screen.findByRole('button', { name: 'Switch to full' }));
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('profile store is read-only');
    expect((screen.getByRole('radio', { name: 'coding' }) as HTMLInputElement).checked).toBe(true);
  });

  it('re-queries for another agent', async () => {
    const { api, user } = await renderApp();
    const agent = screen.getByRole('textbox', { name: 'Agent' });
    await user.clear(agent);
    await user.type(agent, 'reviewer{Enter}');
    await waitFor(() => expect(api.tools).toHaveBeenLastCalledWith('coding', 'reviewer'));
  });

  it('filters by name or description, and "/" focuses the filter', async () => {
    const { user } = await renderApp();
    await user.click(document.body);
    await user.keyboard('/');
    const filter = screen.getByRole('searchbox', { name: 'Filter tools' });
    expect(document.activeElement).toBe(filter);
    expect((filter as HTMLInputElement).value).toBe(''); // the "/" is not typed into it

    await user.keyboard('sandbox');
    expect(document.querySelectorAll('li[data-tool]')).toHaveLength(1);
    expect(row('exec')).toBeTruthy();
    expect(screen.getByTestId('summary').textContent).toContain('showing 1 matching');

    await user.clear(filter);
    await user.type(filter, 'zzz');
    expect(screen.getByText('No tool matches “zzz”.')).toBeTruthy();

    await user.keyboard('{Escape}');
    expect(document.querySelectorAll('li[data-tool]')).toHaveLength(5);
  });

  it('expands a tool with the keyboard and shows its schema and explanation', async () => {
    const { api, user } = await renderApp();
    const button = within(row('write_file')).getAllByRole('button')[0];
    expect(button.getAttribute('aria-expanded')).toBe('false');
    button.focus();
    await user.keyboard('{Enter}');
    expect(button.getAttribute('aria-expanded')).toBe('true');

    const details = row('write_file');
    const table = within(details).getByRole('table');
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(cells[0]).toContain('mode');
    expect(cells[0]).toContain('"create", "overwrite"');
    expect(cells[1]).toContain('path');
    expect(within(details).getByText('Writes content to a file.')).toBeTruthy();

    await user.click(within(details).getByRole('button', { name: 'Why allowed?' }));
    // One sentence first; the engine's trace is folded below it.
    expect((await within(details).findByTestId('why-sentence')).textContent).toBe('write_file is allowed: the profile “coding” includes it.');
    expect(api.explain).toHaveBeenCalledWith('write_file', 'coding', 'default');
    const trace = details.querySelector('details.trace-box') as HTMLDetailsElement;
    expect(trace.open).toBe(false);
    expect(within(trace).getByText('How the policy decided (2 steps)')).toBeTruthy();
    expect(within(trace).getByText('agent deny list')).toBeTruthy();
    expect(within(trace).getByText('profile coding for agent default')).toBeTruthy();

    // Switching profile refreshes the open explanation.
    await user.click(screen.getByRole('radio', { name: 'minimal' }));
    await user.click(await screen.findByRole('button', { name: 'Switch to minimal' }));
    await waitFor(() => expect(api.explain).toHaveBeenLastCalledWith('write_file', 'minimal', 'default'));
    expect(await within(row('write_file')).findByText('profile minimal for agent default')).toBeTruthy();

    button.focus();
    await user.keyboard(' ');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(within(row('write_file')).queryByRole('table')).toBeNull();
  });

  it('"Why blocked?" leads with one sentence and allows the tool for this agent only', async () => {
    const { api, user } = await renderApp();
    await user.click(within(row('web_fetch')).getAllByRole('button')[0]);
    await user.click(within(row('web_fetch')).getByRole('button', { name: 'Why blocked?' }));
    const sentence = await within(row('web_fetch')).findByTestId('why-sentence');
    expect(sentence.textContent).toBe('web_fetch is blocked because the profile “coding” does not include it.');
    await user.click(within(row('web_fetch')).getByRole('button', { name: 'Allow for this agent' }));
    expect(api.allowToolForAgent).toHaveBeenCalledWith('default', 'web_fetch');
    await waitFor(() => expect(within(row('web_fetch')).getByTestId('status').textContent?.trim()).toBe('allowed'));
    expect(within(row('web_fetch')).getByRole('status').textContent).toBe('web_fetch is now allowed for agent default.');
    expect((await within(row('web_fetch')).findByTestId('why-sentence')).textContent).toBe(
      "web_fetch is allowed: agent “default”'s also-allow list adds it back.",
    );
    expect(api.setActiveProfile).not.toHaveBeenCalled();
    // And back.
    await user.click(within(row('web_fetch')).getByRole('button', { name: 'Stop allowing for this agent' }));
    expect(api.stopAllowingToolForAgent).toHaveBeenCalledWith('default', 'web_fetch');
    await waitFor(() => expect(within(row('web_fetch')).getByTestId('status').textContent?.trim()).toBe('blocked'));
  });

  it('says when a deny binds every agent, and shows a refusal as one sentence', async () => {
    const api = fakeApi();
    api.state.globalDeny = ['web_fetch'];
    const { user } = await renderApp(api);
    await user.click(within(row('web_fetch')).getAllByRole('button')[0]);
    await user.click(within(row('web_fetch')).getByRole('button', { name: 'Why blocked?' }));
    expect((await within(row('web_fetch')).findByTestId('why-hard')).textContent).toContain(
      'It is on the global deny list (entry “web_fetch”), which applies to every agent',
    );
    expect(within(row('web_fetch')).queryByRole('button', { name: 'Allow for this agent' })).toBeNull();

    // A refusal the UI could not foresee reads as the backend's sentence.
    api.allowToolForAgent.mockRejectedValueOnce('exec is denied to agent "default" by its deny entry "group:runtime", which covers other tools too: edit the agent\'s deny list in Agents.');
    api.state.active = 'minimal';
    await user.click(screen.getByRole('radio', { name: 'minimal' }));
    await user.click(await screen.findByRole('button', { name: 'Switch to minimal' }));
    await user.click(within(row('exec')).getAllByRole('button')[0]);
    await user.click(within(row('exec')).getByRole('button', { name: 'Why blocked?' }));
    await user.click(await within(row('exec')).findByRole('button', { name: 'Allow for this agent' }));
    expect((await within(row('exec')).findByRole('alert')).textContent?.trim()).toBe(
      'exec is denied to agent "default" by its deny entry "group:runtime", which covers other tools too: edit the agent\'s deny list in Agents.',
    );
  });

  it('reports window focus to the backend for native prompts', async () => {
    const { api } = await renderApp();
    expect(api.setWindowFocused).toHaveBeenCalled();
    window.dispatchEvent(new FocusEvent('blur'));
    await waitFor(() => expect(api.state.focused).toBe(false));
    window.dispatchEvent(new FocusEvent('focus'));
    await waitFor(() => expect(api.state.focused).toBe(true));
    const calls = api.setWindowFocused.mock.calls.length;
    window.dispatchEvent(new FocusEvent('focus'));
    expect(api.setWindowFocused.mock.calls.length).toBe(calls); // only changes are sent
  });

  it('keeps a tool expanded while it is filtered out and back', async () => {
    const { user } = await renderApp();
    await user.click(within(row('read_file')).getAllByRole('button')[0]);
    expect(within(row('read_file')).getByRole('table')).toBeTruthy();
    const filter = screen.getByRole('searchbox', { name: 'Filter tools' });
    await user.type(filter, 'sandbox');
    expect(document.querySelector('li[data-tool="read_file"]')).toBeNull();
    await user.clear(filter);
    expect(within(row('read_file')).getByRole('table')).toBeTruthy();
  });

  it('shows a clear error banner when the backend fails, and recovers on retry', async () => {
    const api = fakeApi();
    api.tools.mockRejectedValueOnce(new Error('database is locked'));
    const user = userEvent.setup();
    render(App, { props: { api, initialTab: 'tools' } });
    const banner = await screen.findByRole('alert');
    expect(banner.textContent).toContain('Warren’s database was busy.');
    expect(banner.textContent).toContain('database is locked');
    expect(document.querySelectorAll('li[data-tool]')).toHaveLength(0);

    await user.click(within(banner).getByRole('button', { name: 'Retry' }));
    await screen.findByText('5 tools · 4 allowed under coding');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the error when profiles cannot be loaded', async () => {
    const api = fakeApi();
    api.profiles.mockRejectedValueOnce('no store');
    render(App, { props: { api, initialTab: 'tools' } });
    const banner = await screen.findByRole('alert');
    await waitFor(() => expect(banner.querySelector('strong')?.textContent).toBe('Warren could not load the tool profiles.'));
    expect(banner.querySelector('details')?.textContent).toContain('Profiles(): no store');
  });

  it('shows tool lifecycle events in the activity strip', async () => {
    const { api } = await renderApp();
    expect(screen.getByText(/No tool calls yet/)).toBeTruthy();
    api.emit({ topic: 'tool.start', time: '2026-01-02T03:04:05Z', payload: { call_id: 'c1', tool: 'read_file', agent: 'default' } });
    api.emit({ topic: 'tool.complete', time: '2026-01-02T03:04:06Z', payload: { call_id: 'c1', tool: 'read_file', duration_ms: 12 } });
    api.emit({ topic: 'tool.error', time: '2026-01-02T03:04:07Z', payload: { call_id: 'c2', tool: 'exec', code: 'denied', message: 'blocked by policy' } });
    const strip = screen.getByRole('region', { name: 'Tool activity' });
    const items = await within(strip).findAllByRole('listitem');
    expect(items.map((li) => li.className.split(' ').find((c) => c !== 'event' && !c.startsWith('s-')))).toEqual([
      'error',
      'complete',
      'start',
    ]);
    expect(items[0].textContent).toContain('denied: blocked by policy');
    expect(items[1].textContent).toContain('12 ms');
  });

  it('uses the stubbed data only: nothing is hard-coded', async () => {
    const api = fakeApi('minimal');
    api.tools.mockImplementation(async () => toolsFor('minimal').slice(0, 2));
    render(App, { props: { api, initialTab: 'tools' } });
    await screen.findByText('2 tools · 0 allowed under minimal');
    expect(document.querySelectorAll('li[data-tool]')).toHaveLength(2);
  });
});
