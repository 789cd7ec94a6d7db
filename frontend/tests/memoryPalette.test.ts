import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import App from '../src/App.svelte';
import MemoryPanel from '../src/components/memory/MemoryPanel.svelte';
import SkillsPanel from '../src/components/memory/SkillsPanel.svelte';
import { buildCommands, filterCommands } from '../src/lib/commands';
import { fakeApi } from './fakeApi';
import { knowledgeApi } from './knowledgeFake';

async function palette(text: string) {
  await fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
  await userEvent.type(await screen.findByRole('combobox', { name: 'Command' }), `${text}{Enter}`);
}

describe('the Memory tab in the command palette', () => {
  it('lists the views and actions, found by their words', () => {
    const all = buildCommands({ sections: [{ id: 'memory', label: 'Memory' }], agents: [], sessions: [] });
    expect(filterCommands(all, 'knowledge')[0].id).toBe('memory:graph');
    expect(filterCommands(all, 'skills')[0].id).toBe('memory:skills');
    expect(filterCommands(all, 'documents')[0].id).toBe('memory:documents');
    expect(filterCommands(all, 'import a folder')[0]).toMatchObject({ id: 'memory:import', title: 'Import a folder…' });
    expect(filterCommands(all, 'rebuild')[0]).toMatchObject({ id: 'memory:rebuild', title: 'Rebuild the memory index' });
    expect(filterCommands(all, 'search mem')[0].title).toBe('Search memory…');
  });

  it('opens each view of the Memory tab', async () => {
    render(App, { api: knowledgeApi() });
    const views = () => screen.getByRole('group', { name: 'Memory views' });
    for (const [words, view] of [
      ['knowledge graph', 'Knowledge graph'],
      ['memory: skills', 'Skills'],
      ['memory: documents', 'Documents'],
    ]) {
      await palette(words);
      expect(screen.getByRole('tab', { name: 'Memory' }).getAttribute('aria-selected')).toBe('true');
      await waitFor(() => expect(within(views()).getByRole('button', { name: view }).getAttribute('aria-pressed')).toBe('true'));
    }
  });

  it('opens the folder import form, from another view too', async () => {
    render(App, { api: knowledgeApi() });
    await palette('knowledge graph');
    await palette('import a folder');
    expect(await screen.findByRole('form', { name: 'Import a folder' })).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Memory views' })).getByRole('button', { name: 'Documents' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('rebuilds the index', async () => {
    const api = fakeApi();
    render(App, { api });
    await palette('rebuild the memory index');
    await waitFor(() => expect(api.reindexMemory).toHaveBeenCalledTimes(1));
    await palette('rebuild the memory index');
    await waitFor(() => expect(api.reindexMemory).toHaveBeenCalledTimes(2));
  });
});

describe('imported folders', () => {
  it('imports a typed or chosen folder, lists it and forgets it after confirming', async () => {
    const api = fakeApi();
    api.memory.state.dirs = { '/home/me/notes': 12 };
    api.memory.state.chosenFolder = '/home/me/notes';
    const user = userEvent.setup();
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    await user.click(await screen.findByRole('button', { name: 'Import a folder…' }));
    const form = screen.getByRole('form', { name: 'Import a folder' });
    await user.type(within(form).getByLabelText('Folder'), '/nope');
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/\/nope/);
    await user.click(within(form).getByRole('button', { name: 'Choose…' }));
    expect(api.chooseFolder).toHaveBeenCalledWith('Import a folder into memory');
    await waitFor(() => expect((within(form).getByLabelText('Folder') as HTMLInputElement).value).toBe('/home/me/notes'));
    await user.selectOptions(within(form).getByLabelText('Searched by'), 'reviewer');
    await user.click(within(form).getByRole('button', { name: 'Import' }));
    await waitFor(() => expect(api.importMemoryFolder).toHaveBeenLastCalledWith('/home/me/notes', 'reviewer'));
    expect((await screen.findByRole('status')).textContent).toMatch(/Imported \/home\/me\/notes: 12 files/);
    const section = screen.getByRole('region', { name: 'Imported folders' });
    expect(within(section).getByText(/for reviewer · 12 files/)).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Import a folder' })).toBeNull();
    await user.click(within(section).getByRole('button', { name: 'Forget /home/me/notes' }));
    await user.click(within(section).getByRole('button', { name: 'Forget folder' }));
    await waitFor(() => expect(api.forgetMemoryFolder).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Imported folders' })).toBeNull());
  });

  it('a cancelled dialog keeps what was typed; without a dialog there is no Choose… button', async () => {
    const api = fakeApi();
    api.memory.state.chosenFolder = '';
    const user = userEvent.setup();
    const { unmount } = render(MemoryPanel, { api, active: true, pollMs: 0 });
    await user.click(await screen.findByRole('button', { name: 'Import a folder…' }));
    const form = screen.getByRole('form', { name: 'Import a folder' });
    await user.type(within(form).getByLabelText('Folder'), '/typed');
    await user.click(await within(form).findByRole('button', { name: 'Choose…' }));
    await waitFor(() => expect(api.chooseFolder).toHaveBeenCalled());
    expect((within(form).getByLabelText('Folder') as HTMLInputElement).value).toBe('/typed');
    unmount();

    const none = fakeApi();
    render(MemoryPanel, { api: none, active: true, pollMs: 0 });
    await user.click(await screen.findByRole('button', { name: 'Import a folder…' }));
    await waitFor(() => expect(none.canChooseFolders).toHaveBeenCalled());
    expect(screen.queryByRole('button', { name: 'Choose…' })).toBeNull();
  });

  it('the Skills view picks a skill folder with the native dialog too', async () => {
    const api = knowledgeApi();
    api.memory.state.chosenFolder = '/tmp/weekly-report';
    const user = userEvent.setup();
    render(SkillsPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: 'Import a skill folder…' }));
    const form = screen.getByRole('form', { name: 'Import a skill folder' });
    await user.click(await within(form).findByRole('button', { name: 'Choose…' }));
    expect(api.chooseFolder).toHaveBeenCalledWith('Import a skill folder');
    await waitFor(() => expect((within(form).getByLabelText('Skill folder') as HTMLInputElement).value).toBe('/tmp/weekly-report'));
  });
});
