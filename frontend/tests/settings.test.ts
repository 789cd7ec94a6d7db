import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import SettingsPanel from '../src/components/settings/SettingsPanel.svelte';
import {
  agentDraft,
  agentFromDraft,
  providerDraft,
  providerFromDraft,
  splitList,
  suggestNames,
  toolNames,
  unknownEntries,
  validateAgent,
  validateProvider,
  type AgentDraft,
  type ProviderDraft,
} from '../src/lib/settings';
import { fakeApi, makeAgent, toolsFor } from './fakeApi';

const agent = (over: Partial<AgentDraft> = {}): AgentDraft => ({ ...agentDraft(null), key: 'reviewer', ...over });
const provider = (over: Partial<ProviderDraft> = {}): ProviderDraft => ({
  ...providerDraft(null),
  name: 'ollama',
  base_url: 'http://127.0.0.1:11434/v1',
  ...over,
});

describe('agent validation', () => {
  it('accepts a good draft and converts comma lists', () => {
    expect(validateAgent(agent({ allow: 'web_fetch, exec', deny: 'delete_file' }))).toEqual({});
    expect(splitList(' a, b,,c ')).toEqual(['a', 'b', 'c']);
    const a = agentFromDraft(agent({ allow: 'web_fetch, exec', name: '' }));
    expect(a).toMatchObject({ key: 'reviewer', name: 'reviewer', allow: ['web_fetch', 'exec'], deny: [], type: 'open' });
    expect(agentDraft(makeAgent({ allow: ['a', 'b'] })).allow).toBe('a, b');
  });

  it.each([
    [{ key: '' }, 'key', 'at least one letter or digit'],
    [{ key: 'Big' }, 'key', 'lowercase'],
    [{ key: '-x' }, 'key', 'lowercase'],
    [{ key: 'x'.repeat(65) }, 'key', 'at most 64'],
    [{ allow: 'web fetch' }, 'allow', 'Not tool names: web fetch'],
    [{ allow: 'exec', deny: 'exec' }, 'deny', 'Both allowed and denied: exec'],
    [{ workspace: 'relative/dir' }, 'workspace', 'absolute path'],
    [{ network: true, sandbox: false }, 'network', 'turn the sandbox on first'],
    [{ profile: 'weird' }, 'profile', 'Choose a profile'],
    [{ provider: 'gone' }, 'provider', 'No provider named gone'],
  ])('%j → %s error', (over, field, text) => {
    const e = validateAgent(agent(over as Partial<AgentDraft>), { providers: ['ollama'] });
    expect(e[field as keyof AgentDraft]).toContain(text);
  });

  it('rejects a taken key only when creating, and asks a new agent for a name', () => {
    expect(validateAgent(agent({ name: 'Reviewer' }), { existing: ['reviewer'], creating: true }).key).toContain('already exists');
    expect(validateAgent(agent(), { existing: ['reviewer'], creating: false })).toEqual({});
    expect(validateAgent(agent({ name: '  ' }), { creating: true }).key).toBe('Give the agent a name.');
  });

  it('starts new agents sandboxed', () => {
    expect(agentDraft(null).sandbox).toBe(true);
    expect(agentDraft(makeAgent({ sandbox: false })).sandbox).toBe(false);
  });

  it('checks allow and deny entries against the tool inventory, with suggestions', () => {
    const names = toolNames(toolsFor('full'));
    expect(unknownEntries('read_file, group:fs, *, group:mcp:everything', names)).toEqual([]);
    const [typo, group] = unknownEntries('raed_file, group:filesytem', names);
    expect(typo.entry).toBe('raed_file');
    expect(typo.suggestions[0]).toBe('read_file');
    expect(group).toEqual({ entry: 'group:filesytem', suggestions: [] });
    expect(suggestNames('exce', names.tools)).toEqual(['exec']);
    const e = validateAgent(agent({ allow: 'nonexistent_tool', deny: 'exec' }), { tools: { tools: ['tool_search', 'exec'], groups: [] } });
    expect(e.allow).toBe('No tool or group is named nonexistent_tool: did you mean tool_search?');
    expect(e.deny).toBeUndefined();
    // Without an inventory only the form of the entries is judged.
    expect(validateAgent(agent({ allow: 'nonexistent_tool' }), { tools: null }).allow).toBeUndefined();
  });
});

describe('provider validation', () => {
  it.each([
    [{ name: '' }, 'name', 'A name is required.'],
    [{ name: 'My Server' }, 'name', 'lowercase'],
    [{ base_url: '' }, 'base_url', 'A base URL is required'],
    [{ base_url: 'localhost:11434' }, 'base_url', 'http(s) URL'],
    [{ base_url: 'ftp://host/v1' }, 'base_url', 'http(s) URL'],
    [{ api_key: '-' }, 'api_key', 'Remove the stored key'],
    [{ api_key: 'sk abc' }, 'api_key', 'no spaces'],
  ])('%j → %s error', (over, field, text) => {
    expect(validateProvider(provider(over as Partial<ProviderDraft>))[field as keyof ProviderDraft]).toContain(text);
  });

  it('keeps, replaces or removes the stored key', () => {
    const stored = providerDraft({ name: 'cloud', kind: 'openai', base_url: 'https://api.example.com/v1', has_key: true, default_model: 'm' });
    expect(providerFromDraft(stored).api_key).toBe('');
    expect(providerFromDraft({ ...stored, api_key: 'sk-new' }).api_key).toBe('sk-new');
    expect(providerFromDraft({ ...stored, remove_key: true, api_key: 'ignored' }).api_key).toBe('-');
  });
});

async function renderSettings(api = fakeApi(), props: { onrunsetup?: () => void } = {}) {
  const user = userEvent.setup();
  render(SettingsPanel, { props: { api, active: true, ...props } });
  await waitFor(() => expect(document.querySelector('tr[data-agent="default"]')).toBeTruthy());
  return { api, user };
}

describe('providers screen', () => {
  it('derives the id from the name, tests without saving, and saves the picked model', async () => {
    const api = fakeApi();
    api.state.draftModels['http://127.0.0.1:1234/v1'] = [{ id: 'qwen2.5-7b' }, { id: 'llama-3.2-3b' }];
    const { user } = await renderSettings(api);
    await user.click(screen.getByRole('button', { name: 'New provider' }));
    const form = screen.getByRole('form', { name: 'New provider' });
    const name = within(form).getByRole('textbox', { name: 'Name' });
    expect(document.activeElement).toBe(name);

    // Validation shows on submit, nothing is saved.
    await user.click(within(form).getByRole('button', { name: 'Save provider' }));
    expect(within(form).getByText('A name is required.')).toBeTruthy();
    expect(api.saveModelProvider).not.toHaveBeenCalled();

    await user.type(name, 'LM Studio');
    expect(within(form).getByText('lm-studio').tagName).toBe('CODE');
    await user.click(within(form).getByRole('button', { name: 'LM Studio' }));
    expect((within(form).getByRole('textbox', { name: 'Base URL' }) as HTMLInputElement).value).toBe('http://127.0.0.1:1234/v1');
    await user.type(within(form).getByLabelText('API key'), 'sk-local');
    await user.click(within(form).getByRole('button', { name: 'Test connection' }));
    // The test sends the draft, key included, and stores nothing.
    expect(api.testModelProviderDraft).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'lm-studio', kind: 'openai', base_url: 'http://127.0.0.1:1234/v1', api_key: 'sk-local' }),
    );
    expect(api.saveModelProvider).not.toHaveBeenCalled();
    expect(api.testModelProvider).not.toHaveBeenCalled();
    const found = await within(form).findByTestId('test-models');
    expect(found.textContent).toContain('2 models found');
    await user.click(within(found).getByRole('button', { name: 'qwen2.5-7b' }));
    expect(within(found).getByRole('button', { name: 'qwen2.5-7b' }).getAttribute('aria-pressed')).toBe('true');
    expect((within(form).getByRole('combobox', { name: 'Default model' }) as HTMLInputElement).value).toBe('qwen2.5-7b');

    // Cancel asks before dropping the picked model; keeping it loses nothing.
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    const guard = within(form).getByRole('group', { name: 'Unsaved changes' });
    expect(guard.textContent).toContain('model qwen2.5-7b');
    expect(document.activeElement).toBe(within(guard).getByRole('button', { name: 'Keep editing' }));
    await user.click(within(guard).getByRole('button', { name: 'Keep editing' }));
    expect((within(form).getByRole('combobox', { name: 'Default model' }) as HTMLInputElement).value).toBe('qwen2.5-7b');

    await user.click(within(form).getByRole('button', { name: 'Save provider' }));
    expect(api.saveModelProvider).toHaveBeenCalledTimes(1);
    expect(api.saveModelProvider).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'lm-studio', api_key: 'sk-local', default_model: 'qwen2.5-7b' }));
    const row = await waitFor(() => {
      const r = document.querySelector<HTMLElement>('tr[data-provider="lm-studio"]');
      if (!r || !r.textContent?.includes('qwen2.5-7b')) throw new Error('not yet');
      return r;
    });
    expect(row.textContent).toContain('•••• set');
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('a failed test saves nothing and says why in a sentence; a stored key stays masked', async () => {
    const api = fakeApi();
    api.state.providers = [{ name: 'cloud', kind: 'openai', base_url: 'https://api.example.com/v1', has_key: true, default_model: '' }];
    api.state.providerKeys.cloud = 'secret';
    api.state.models.cloud = new Error('dial tcp 10.0.0.1:443: connection refused');
    const { user } = await renderSettings(api);
    await user.click(await screen.findByRole('button', { name: 'Edit provider cloud' }));
    const form = screen.getByRole('form', { name: 'Edit provider cloud' });
    const key = within(form).getByLabelText('API key') as HTMLInputElement;
    expect(key.value).toBe('');
    expect(key.placeholder).toContain('•••• set');
    expect((within(form).getByRole('textbox', { name: 'Name' }) as HTMLInputElement).readOnly).toBe(true);
    await user.click(within(form).getByRole('button', { name: 'Test connection' }));
    // No key typed: "" asks the backend to use the stored one.
    expect(api.testModelProviderDraft).toHaveBeenCalledWith(expect.objectContaining({ name: 'cloud', api_key: '' }));
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toContain('Warren could not reach the server.');
    expect(alert.querySelector('details')?.textContent).toContain('connection refused');
    expect(api.saveModelProvider).not.toHaveBeenCalled();
    // Unchanged: Cancel closes at once.
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Edit provider cloud' }));
    const again = screen.getByRole('form', { name: 'Edit provider cloud' });
    await user.click(within(again).getByRole('checkbox', { name: 'Remove the stored key' }));
    await user.click(within(again).getByRole('button', { name: 'Save provider' }));
    expect(api.saveModelProvider).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'cloud', api_key: '-' }));
    await waitFor(() => expect(document.querySelector('tr[data-provider="cloud"]')?.textContent).not.toContain('•••• set'));
  });

  it('refuses a name whose id is taken', async () => {
    const api = fakeApi();
    api.state.providers = [{ name: 'ollama', kind: 'openai', base_url: 'http://127.0.0.1:11434/v1', has_key: false, default_model: '' }];
    const { user } = await renderSettings(api);
    await user.click(screen.getByRole('button', { name: 'New provider' }));
    const form = screen.getByRole('form', { name: 'New provider' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Ollama');
    await user.click(within(form).getByRole('button', { name: 'Ollama' }));
    await user.click(within(form).getByRole('button', { name: 'Save provider' }));
    expect(within(form).getByText(/id ollama already exists/)).toBeTruthy();
    expect(api.saveModelProvider).not.toHaveBeenCalled();
  });

  it('deletes a provider after confirming', async () => {
    const api = fakeApi();
    api.state.providers = [{ name: 'old', kind: 'anthropic', base_url: 'https://api.anthropic.com', has_key: false, default_model: '' }];
    const { user } = await renderSettings(api);
    await user.click(await screen.findByRole('button', { name: 'Delete provider old' }));
    expect(api.deleteModelProvider).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    expect(api.deleteModelProvider).toHaveBeenCalledWith('old');
    await waitFor(() => expect(document.querySelector('tr[data-provider="old"]')).toBeNull());
  });
});

describe('agents screen', () => {
  const ollama = { name: 'ollama', kind: 'openai', base_url: 'http://127.0.0.1:11434/v1', has_key: false, default_model: 'llama3.1:8b' } as const;

  it('creates an agent from a display name, with a model from the list, sandboxed by default', async () => {
    const api = fakeApi();
    api.state.providers = [{ ...ollama }];
    api.state.models.ollama = [{ id: 'llama3.1:8b' }, { id: 'qwen2.5:7b' }];
    const { user } = await renderSettings(api);
    await user.click(screen.getByRole('button', { name: 'New agent' }));
    const form = await screen.findByRole('form', { name: 'New agent' });
    expect(api.newAgentDefaults).toHaveBeenCalled();
    const name = within(form).getByRole('textbox', { name: 'Name' });
    expect(document.activeElement).toBe(name);
    await user.click(within(form).getByRole('button', { name: 'Create agent' }));
    expect(within(form).getByText('Give the agent a name.')).toBeTruthy();
    expect(api.saveAgent).not.toHaveBeenCalled();

    await user.type(name, 'Research Bot');
    expect(within(form).getByText('research-bot').tagName).toBe('CODE');
    expect(within(form).getByRole<HTMLInputElement>('switch', { name: /Sandbox/ }).checked).toBe(true);
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Provider' }), 'ollama');
    const model = await within(form).findByRole('option', { name: 'qwen2.5:7b' });
    expect(api.testModelProviderDraft).toHaveBeenCalledWith(expect.objectContaining({ name: 'ollama', api_key: '' }));
    const select = within(form).getByRole('combobox', { name: 'Model' });
    expect([...(select as HTMLSelectElement).options].map((o) => o.textContent)).toEqual([
      'Provider default (llama3.1:8b)',
      'llama3.1:8b',
      'qwen2.5:7b',
      'Type a model name…',
    ]);
    await user.selectOptions(select, model);
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Profile' }), 'coding');
    await user.type(within(form).getByRole('textbox', { name: 'Deny (comma list)' }), 'exec, write_file');
    await user.click(within(form).getByRole('switch', { name: /Network/ }));
    await user.click(within(form).getByRole('button', { name: 'Create agent' }));
    expect(api.saveAgent).toHaveBeenCalledWith({
      key: 'research-bot',
      name: 'Research Bot',
      type: 'open',
      provider: 'ollama',
      model: 'qwen2.5:7b',
      profile: 'coding',
      allow: [],
      deny: ['exec', 'write_file'],
      workspace: '',
      sandbox: true,
      network: true,
    });
    const row = await waitFor(() => {
      const r = document.querySelector<HTMLElement>('tr[data-agent="research-bot"]');
      if (!r) throw new Error('not yet');
      return r;
    });
    expect(row.textContent).toContain('qwen2.5:7b');
    expect(row.textContent).toContain('on, network');
  });

  it('refuses an unknown tool with what was meant, and a click fixes it', async () => {
    const { api, user } = await renderSettings();
    await user.click(screen.getByRole('button', { name: 'New agent' }));
    const form = await screen.findByRole('form', { name: 'New agent' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'helper');
    await waitFor(() => expect(api.tools).toHaveBeenCalledWith('', 'default'));
    const allow = within(form).getByRole('textbox', { name: 'Allow (comma list)' });
    await user.type(allow, 'web_fetch, web_fecth');
    expect(allow.getAttribute('aria-invalid')).toBe('true');
    const fix = await within(form).findByRole('button', { name: 'web_fetch' });
    expect(fix.closest('small')?.textContent).toMatch(/No tool or group is named web_fecth: did you mean\s+web_fetch\s*\?/);
    await user.click(within(form).getByRole('button', { name: 'Create agent' }));
    expect(api.saveAgent).not.toHaveBeenCalled();
    await user.click(fix);
    expect((allow as HTMLInputElement).value).toBe('web_fetch, web_fetch');
    expect(allow.getAttribute('aria-invalid')).toBe('false');
    await user.click(within(form).getByRole('button', { name: 'Create agent' }));
    expect(api.saveAgent).toHaveBeenCalledWith(expect.objectContaining({ key: 'helper', allow: ['web_fetch', 'web_fetch'], sandbox: true }));
  });

  it('falls back to a typed model name when the list cannot be fetched', async () => {
    const api = fakeApi();
    api.state.providers = [{ ...ollama }];
    api.state.models.ollama = new Error('dial tcp 127.0.0.1:11434: connect: connection refused');
    api.state.agents[0].provider = 'ollama';
    const { user } = await renderSettings(api);
    await user.click(screen.getByRole('button', { name: 'Edit agent default' }));
    const form = screen.getByRole('form', { name: 'Edit agent default' });
    expect(within(form).getByText('default').tagName).toBe('CODE');
    const input = await within(form).findByRole('textbox', { name: 'Model' });
    expect(within(form).getByText(/Could not list ollama’s models: Warren could not reach the server/)).toBeTruthy();
    await user.type(input, 'llama3.1:8b');
    await user.keyboard('{Enter}');
    expect(api.saveAgent).toHaveBeenCalledWith(expect.objectContaining({ key: 'default', provider: 'ollama', model: 'llama3.1:8b' }));
  });

  it('edits the default agent, which has no delete button; others delete after confirming', async () => {
    const { api, user } = await renderSettings();
    const def = document.querySelector<HTMLElement>('tr[data-agent="default"]')!;
    expect(within(def).queryByRole('button', { name: /Delete/ })).toBeNull();
    await user.click(within(def).getByRole('button', { name: 'Edit agent default' }));
    const form = screen.getByRole('form', { name: 'Edit agent default' });
    const name = within(form).getByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Main helper');
    await user.keyboard('{Enter}');
    // The id stays: renaming never moves an agent's sessions or files.
    expect(api.saveAgent).toHaveBeenCalledWith(expect.objectContaining({ key: 'default', name: 'Main helper' }));

    await user.click(screen.getByRole('button', { name: 'Delete agent reviewer' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    expect(api.deleteAgent).toHaveBeenCalledWith('reviewer');
    await waitFor(() => expect(document.querySelector('tr[data-agent="reviewer"]')).toBeNull());
  });

  it('Escape closes the form; "Run the setup again" asks App to open the setup', async () => {
    let runs = 0;
    const { user } = await renderSettings(fakeApi(), { onrunsetup: () => runs++ });
    await user.click(screen.getByRole('button', { name: 'New agent' }));
    expect(await screen.findByRole('form', { name: 'New agent' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('form')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Run the setup again' }));
    expect(runs).toBe(1);
  });
});
