import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import App from '../src/App.svelte';
import { buildCommands, filterCommands, shortcuts } from '../src/lib/commands';
import { fakeApi } from './fakeApi';

const sections = [
  { id: 'chat', label: 'Chat' },
  { id: 'tools', label: 'Tools' },
  { id: 'schedules', label: 'Schedules' },
];

describe('command list', () => {
  it('ranks titles that start with the query first and needs every word', () => {
    const all = buildCommands({
      sections,
      agents: [{ key: 'research-bot', name: 'Research Bot' } as never],
      sessions: [{ id: 's1', agent: 'default', title: 'Schedule a dentist visit' } as never],
    });
    expect(filterCommands(all, 'go to sch').map((c) => c.id)).toEqual(['section:schedules']);
    expect(filterCommands(all, 'sched')[0].id).toBe('section:schedules');
    expect(filterCommands(all, 'sched').map((c) => c.id)).toContain('session:s1');
    expect(filterCommands(all, 'research')[0]).toMatchObject({ title: 'New chat with Research Bot', action: { kind: 'new-chat', agent: 'research-bot' } });
    expect(filterCommands(all, 'zzz')).toEqual([]);
    expect(filterCommands(all, '')).toHaveLength(all.length);
  });

  it('lists Alt+number for each section in order', () => {
    const list = shortcuts(sections);
    expect(list.find((s) => s.keys === 'Alt+3')?.what).toBe('Go to Schedules');
  });
});

describe('keyboard in the window', () => {
  it('Ctrl+K opens the palette; typing and Enter go to a section; Escape closes it and returns focus', async () => {
    const user = userEvent.setup();
    render(App, { props: { api: fakeApi() } });
    const chatTab = screen.getByRole('tab', { name: 'Chat' });
    chatTab.focus();
    await user.keyboard('{Control>}k{/Control}');
    const box = await screen.findByRole('combobox', { name: 'Command' });
    expect(document.activeElement).toBe(box);
    await user.type(box, 'go to sched');
    const options = within(screen.getByRole('listbox', { name: 'Commands' })).getAllByRole('option');
    expect(options[0].textContent).toContain('Go to Schedules');
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('combobox', { name: 'Command' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Schedules' }).getAttribute('aria-selected')).toBe('true');

    await user.keyboard('{Control>}k{/Control}');
    await screen.findByRole('combobox', { name: 'Command' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('the palette reopens a recent chat and starts a chat with an agent', async () => {
    const api = fakeApi();
    const user = userEvent.setup();
    render(App, { props: { api, initialTab: 'tools' } });
    await user.keyboard('{Control>}k{/Control}');
    const box = await screen.findByRole('combobox', { name: 'Command' });
    await user.type(box, 'reviewer');
    await screen.findByRole('option', { name: /New chat with Reviewer/ });
    await user.keyboard('{Enter}');
    expect(screen.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect((screen.getByRole('combobox', { name: 'Agent' }) as HTMLSelectElement).value).toBe('reviewer'));
  });

  it('? shows the shortcuts unless typing in a field; Ctrl+N opens a new chat', async () => {
    const user = userEvent.setup();
    render(App, { props: { api: fakeApi(), initialTab: 'tools' } });
    await screen.findByText('5 tools · 4 allowed under coding');
    const filter = screen.getByRole('searchbox', { name: 'Filter tools' });
    await user.type(filter, '?');
    expect(screen.queryByRole('dialog')).toBeNull();
    filter.blur();
    await user.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog.textContent).toContain('Alt+2');
    expect(dialog.textContent).toContain('Go to Tools');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();

    await user.keyboard('{Control>}n{/Control}');
    expect(screen.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected')).toBe('true');
    // Every section tab says its shortcut on hover.
    expect(screen.getByRole('tab', { name: 'Tools' }).getAttribute('title')).toBe('Tools (Alt+2)');
  });
});
