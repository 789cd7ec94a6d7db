import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import SettingsPanel from '../src/components/settings/SettingsPanel.svelte';
import { contextDrafts, fileMarker, scopeNote } from '../src/lib/contextFiles';
import type { ContextFileView } from '../src/lib/types';
import { fakeApi, makeAgent } from './fakeApi';

beforeEach(() => contextDrafts.clear());

async function openEditor(api = fakeApi(), key = 'default') {
  const user = userEvent.setup();
  render(SettingsPanel, { props: { api, active: true } });
  await user.click(await screen.findByRole('button', { name: `Edit agent ${key}` }));
  const form = screen.getByRole('form', { name: `Edit agent ${key}` });
  const list = await within(form).findByRole('tablist', { name: 'Context files' });
  const tab = (name: string) => within(list).getByRole('tab', { name: new RegExp(`^${name.replace('.', '\\.')}`) });
  const area = (name: string) => within(form).getByRole('textbox', { name: `${name} content` }) as HTMLTextAreaElement;
  const editor = within(form).getByTestId('context-files');
  return { api, user, form, list, tab, area, editor };
}

const view = (over: Partial<ContextFileView> = {}): ContextFileView => ({
  name: 'SOUL.md',
  purpose: 'Persona',
  scope: 'user',
  content: '',
  exists: false,
  template: false,
  in_prompt: false,
  ...over,
});

describe('context file helpers', () => {
  it('marks files set, empty, missing or template', () => {
    expect(fileMarker(view())).toBe('missing');
    expect(fileMarker(view({ exists: true, content: 'x' }))).toBe('set');
    expect(fileMarker(view({ exists: true, content: ' \n' }))).toBe('empty');
    expect(fileMarker(view({ exists: true, content: 'x', template: true }))).toBe('template');
  });

  it('says whose the file is', () => {
    expect(scopeNote(view({ scope: 'agent' }))).toContain('Agent-level');
    expect(scopeNote(view())).toContain('your own copy');
    expect(scopeNote(view({ template: true, exists: true }))).toContain('no copy yet');
  });
});

describe('context files editor', () => {
  it('lists every file with a marker and what it is for, SOUL.md open', async () => {
    const api = fakeApi();
    api.state.contextFiles.default = { 'USER.md': 'Call me Ada.' };
    const { list, tab, area, editor } = await openEditor(api);
    expect(within(list).getAllByRole('tab').map((t) => t.dataset.file)).toEqual([
      'SOUL.md',
      'IDENTITY.md',
      'AGENTS.md',
      'TOOLS.md',
      'USER.md',
      'BOOTSTRAP.md',
    ]);
    expect(tab('SOUL.md').getAttribute('aria-selected')).toBe('true');
    expect(tab('SOUL.md').dataset.marker).toBe('missing');
    expect(tab('SOUL.md').textContent).toContain('Persona');
    expect(tab('USER.md').dataset.marker).toBe('set');
    expect(area('SOUL.md').value).toBe('');
    expect(editor.textContent).toContain('Open agent: every file is kept per user');
    expect(editor.textContent).toContain('your own copy');
    expect(editor.textContent).toContain('not in the system prompt');
    expect(within(editor).getByRole('button', { name: 'Save SOUL.md' })).toHaveProperty('disabled', true);
  });

  it('saves with Ctrl+S and shows the file as set and in the prompt', async () => {
    const { api, user, form, tab, area, editor } = await openEditor();
    await user.click(area('SOUL.md'));
    await user.keyboard('Be kind.');
    expect(within(form).getByText('A context file has unsaved changes.')).toBeTruthy();
    expect(tab('SOUL.md').textContent).toContain('edited');
    await user.keyboard('{Control>}s{/Control}');
    expect(api.saveAgentContextFile).toHaveBeenCalledWith('default', 'SOUL.md', 'Be kind.');
    expect((await within(editor).findByRole('status')).textContent).toContain('Saved SOUL.md.');
    expect(tab('SOUL.md').dataset.marker).toBe('set');
    expect(editor.textContent).toContain('in the system prompt');
    expect(area('SOUL.md').value).toBe('Be kind.');
    expect(within(form).queryByText('A context file has unsaved changes.')).toBeNull();
  });

  it('reverts to the saved text', async () => {
    const api = fakeApi();
    api.state.contextFiles.default = { 'SOUL.md': 'v1' };
    const { user, area, editor } = await openEditor(api);
    expect(area('SOUL.md').value).toBe('v1');
    await user.type(area('SOUL.md'), ' and more');
    await user.click(within(editor).getByRole('button', { name: 'Revert' }));
    expect(area('SOUL.md').value).toBe('v1');
    expect(document.activeElement).toBe(area('SOUL.md'));
    expect(within(editor).getByRole('button', { name: 'Revert' })).toHaveProperty('disabled', true);
  });

  it('asks before switching files with unsaved changes', async () => {
    const { api, user, tab, area, editor } = await openEditor();
    await user.type(area('SOUL.md'), 'draft');
    await user.click(tab('TOOLS.md'));
    const guard = within(editor).getByRole('group', { name: 'Unsaved changes' });
    expect(guard.textContent).toContain('SOUL.md has unsaved changes. Save them before you open TOOLS.md?');
    await waitFor(() => expect(document.activeElement).toBe(within(guard).getByRole('button', { name: 'Save first' })));

    await user.click(within(guard).getByRole('button', { name: 'Keep editing' }));
    expect(tab('SOUL.md').getAttribute('aria-selected')).toBe('true');
    expect(area('SOUL.md').value).toBe('draft');
    await waitFor(() => expect(document.activeElement).toBe(area('SOUL.md')));

    await user.click(tab('TOOLS.md'));
    await user.click(within(editor).getByRole('button', { name: 'Discard changes' }));
    expect(tab('TOOLS.md').getAttribute('aria-selected')).toBe('true');
    expect(api.saveAgentContextFile).not.toHaveBeenCalled();
    expect(tab('SOUL.md').dataset.marker).toBe('missing');

    await user.type(area('TOOLS.md'), 'prefer search');
    await user.click(tab('USER.md'));
    await user.click(within(editor).getByRole('button', { name: 'Save first' }));
    expect(api.saveAgentContextFile).toHaveBeenCalledWith('default', 'TOOLS.md', 'prefer search');
    await waitFor(() => expect(tab('USER.md').getAttribute('aria-selected')).toBe('true'));
    expect(tab('TOOLS.md').dataset.marker).toBe('set');
  });

  it('asks before closing the form; Escape in the question keeps editing', async () => {
    const { api, user, form, area, editor } = await openEditor();
    await user.type(area('SOUL.md'), 'draft');
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(within(editor).getByRole('group', { name: 'Unsaved changes' }).textContent).toContain('before you close the agent');
    await user.keyboard('{Escape}');
    expect(within(editor).queryByRole('group', { name: 'Unsaved changes' })).toBeNull();
    expect(screen.getByRole('form', { name: 'Edit agent default' })).toBeTruthy();
    // Escape from the editor asks again; discarding closes.
    await waitFor(() => expect(document.activeElement).toBe(area('SOUL.md')));
    await user.keyboard('{Escape}');
    await user.click(within(editor).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(api.saveAgentContextFile).not.toHaveBeenCalled();
  });

  it('closes at once when nothing is unsaved', async () => {
    const { user, form } = await openEditor();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('Save agent with an unsaved file saves the file first when asked', async () => {
    const { api, user, form, area, editor } = await openEditor();
    await user.type(area('SOUL.md'), 'Be brief.');
    await user.type(within(form).getByRole('textbox', { name: 'Workspace' }), '/tmp/w');
    await user.click(within(form).getByRole('button', { name: 'Save agent' }));
    expect(api.saveAgent).not.toHaveBeenCalled();
    const guard = within(editor).getByRole('group', { name: 'Unsaved changes' });
    expect(guard.textContent).toContain('before you save the agent');
    await user.click(within(guard).getByRole('button', { name: 'Save first' }));
    await waitFor(() => expect(screen.queryByRole('form')).toBeNull());
    expect(api.saveAgentContextFile).toHaveBeenCalledWith('default', 'SOUL.md', 'Be brief.');
    expect(api.saveAgent).toHaveBeenCalledWith(expect.objectContaining({ key: 'default', workspace: '/tmp/w' }));
  });

  it('shows agent-level files for a predefined agent and USER.md per user', async () => {
    const api = fakeApi();
    api.state.agents = [makeAgent(), makeAgent({ key: 'helper', type: 'predefined' })];
    const { user, tab, editor } = await openEditor(api, 'helper');
    expect(editor.textContent).toContain('Predefined agent: the files are shared');
    expect(editor.textContent).toContain('Agent-level: one copy, shared by everyone');
    await user.click(tab('USER.md'));
    expect(editor.textContent).toContain('your own copy');
    expect(editor.textContent).not.toContain('Agent-level: one copy');
  });

  it("shows an open agent's template until the user saves a copy", async () => {
    const api = fakeApi();
    api.state.contextTemplates.default = { 'TOOLS.md': 'template tools' };
    const { user, tab, area, editor } = await openEditor(api);
    expect(tab('TOOLS.md').dataset.marker).toBe('template');
    await user.click(tab('TOOLS.md'));
    expect(area('TOOLS.md').value).toBe('template tools');
    expect(editor.textContent).toContain('you have no copy yet');
    // Emptying it keeps an empty copy: the agent reads nothing, not the template.
    await user.clear(area('TOOLS.md'));
    await user.keyboard('{Control>}s{/Control}');
    expect((await within(editor).findByRole('status')).textContent).toContain('Emptied TOOLS.md');
    expect(tab('TOOLS.md').dataset.marker).toBe('empty');
  });

  it('removes a file saved empty', async () => {
    const api = fakeApi();
    api.state.contextFiles.default = { 'SOUL.md': 'old' };
    const { user, tab, area, editor } = await openEditor(api);
    await user.clear(area('SOUL.md'));
    await user.click(within(editor).getByRole('button', { name: 'Save SOUL.md' }));
    expect((await within(editor).findByRole('status')).textContent).toContain('Removed SOUL.md.');
    expect(tab('SOUL.md').dataset.marker).toBe('missing');
    expect(api.saveAgentContextFile).toHaveBeenCalledWith('default', 'SOUL.md', '');
  });

  it('moves between files with the keyboard and opens one with Enter', async () => {
    const { user, tab, area } = await openEditor();
    tab('SOUL.md').focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(tab('IDENTITY.md'));
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(tab('BOOTSTRAP.md'));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(tab('SOUL.md'));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(tab('BOOTSTRAP.md'));
    expect(tab('BOOTSTRAP.md').tabIndex).toBe(0);
    expect(tab('SOUL.md').tabIndex).toBe(-1);
    await user.keyboard('{Enter}');
    expect(tab('BOOTSTRAP.md').getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(area('BOOTSTRAP.md')));
  });

  it('keeps the text and says why when saving fails', async () => {
    const api = fakeApi();
    api.state.contextSaveError = 'database is locked';
    const { user, form, area, editor } = await openEditor(api);
    await user.type(area('SOUL.md'), 'keep me');
    await user.keyboard('{Control>}s{/Control}');
    const alert = await within(editor).findByRole('alert');
    expect(alert.querySelector('.sentence')?.textContent).toBe('Warren’s database was busy. Retry in a moment.');
    expect(alert.querySelector('details')?.textContent).toContain('SaveAgentContextFile(SOUL.md): database is locked');
    expect(area('SOUL.md').value).toBe('keep me');
    expect(within(form).getByText('A context file has unsaved changes.')).toBeTruthy();
  });

  it('keeps an edit when the form is replaced without asking', async () => {
    const { user, area } = await openEditor();
    await user.type(area('SOUL.md'), 'half-written');
    await user.click(screen.getByRole('button', { name: 'Edit agent reviewer' }));
    await screen.findByRole('form', { name: 'Edit agent reviewer' });
    await user.click(screen.getByRole('button', { name: 'Edit agent default' }));
    const form = await screen.findByRole('form', { name: 'Edit agent default' });
    const restored = await within(form).findByRole('textbox', { name: 'SOUL.md content' });
    expect((restored as HTMLTextAreaElement).value).toBe('half-written');
    expect(within(form).getByText(/Restored your unsaved changes to SOUL\.md/)).toBeTruthy();
  });

  it('notes an unsaved type change', async () => {
    const { user, form, editor } = await openEditor();
    await user.selectOptions(within(form).getByRole('combobox', { name: /^Type/ }), 'predefined');
    expect(within(editor).getByRole('note').textContent).toContain('You changed the type to predefined');
  });

  it('explains that a new agent gets context files once created', async () => {
    const user = userEvent.setup();
    render(SettingsPanel, { props: { api: fakeApi(), active: true } });
    await user.click(await screen.findByRole('button', { name: 'New agent' }));
    const form = screen.getByRole('form', { name: 'New agent' });
    expect(within(form).queryByRole('tablist')).toBeNull();
    expect(within(form).getByText(/can be edited once the agent is created/)).toBeTruthy();
  });
});
