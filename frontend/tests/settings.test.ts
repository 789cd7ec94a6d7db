import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import SettingsPanel from '../src/components/SettingsPanel.svelte';
import {
  agentDraft,
  agentFromDraft,
  providerDraft,
  providerFromDraft,
  splitList,
  validateAgent,
  validateProvider,
  type AgentDraft,
  type ProviderDraft,
} from '../src/lib/settings';
import { fakeApi, makeAgent } from './fakeApi';

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
    [{ key: '' }, 'key', 'A key is required.'],
    [{ key: 'Big' }, 'key', 'lower-case'],
    [{ key: '-x' }, 'key', 'lower-case'],
    [{ key: 'x'.repeat(65) }, 'key', 'lower-case'],
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

  it('rejects a taken key only when creating', () => {
    expect(validateAgent(agent(), { existing: ['reviewer'], creating: true }).key).toContain('already exists');
    expect(validateAgent(agent(), { existing: ['reviewer'], creating: false })).toEqual({});
  });
});

describe('provider validation', () => {
  it.each([
    [{ name: '' }, 'name', 'A name is required.'],
    [{ name: 'My Server' }, 'name', 'lower-case'],
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

async function renderSettings(api = fakeApi()) {
  const user = userEvent.setup();
  render(SettingsPanel, { props: { api, active: true } });
  await waitFor(() => expect(document.querySelector('tr[data-agent="default"]')).toBeTruthy());
  return { api, user };
}

describe('providers screen', () => {
  it('adds a provider from a preset, tests the connection and picks a default model', async () => {
    const api = fakeApi();
    api.state.models.lmstudio = [{ id: 'qwen2.5-7b' }, { id: 'llama-3.2-3b' }];
    const { user } = await renderSettings(api);
    await user.click(screen.getByRole('button', { name: 'New provider' }));
    const form = screen.getByRole('form', { name: 'New provider' });
    const name = within(form).getByRole('textbox', { name: 'Name' });
    expect(document.activeElement).toBe(name);

    // Validation shows on submit, nothing is saved.
    await user.click(within(form).getByRole('button', { name: 'Add provider' }));
    expect(within(form).getByText('A name is required.')).toBeTruthy();
    expect(api.saveModelProvider).not.toHaveBeenCalled();

    await user.type(name, 'lmstudio');
    await user.click(within(form).getByRole('button', { name: 'LM Studio' }));
    expect((within(form).getByRole('textbox', { name: 'Base URL' }) as HTMLInputElement).value).toBe('http://127.0.0.1:1234/v1');
    await user.type(within(form).getByLabelText('API key'), 'sk-local');
    await user.click(within(form).getByRole('button', { name: 'Test connection' }));
    expect(api.saveModelProvider).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'lmstudio', kind: 'openai', base_url: 'http://127.0.0.1:1234/v1', api_key: 'sk-local' }),
    );
    expect(api.testModelProvider).toHaveBeenCalledWith('lmstudio');
    const found = await within(form).findByTestId('test-models');
    expect(found.textContent).toContain('2 models found');
    await user.click(within(found).getByRole('button', { name: 'qwen2.5-7b' }));
    expect(within(found).getByRole('button', { name: 'qwen2.5-7b' }).getAttribute('aria-pressed')).toBe('true');
    expect((within(form).getByRole('combobox', { name: 'Default model' }) as HTMLInputElement).value).toBe('qwen2.5-7b');
    await user.click(within(form).getByRole('button', { name: 'Save provider' }));
    // The key is not sent again once stored.
    expect(api.saveModelProvider).toHaveBeenLastCalledWith(expect.objectContaining({ api_key: '', default_model: 'qwen2.5-7b' }));
    const row = await waitFor(() => {
      const r = document.querySelector<HTMLElement>('tr[data-provider="lmstudio"]');
      if (!r || !r.textContent?.includes('qwen2.5-7b')) throw new Error('not yet');
      return r;
    });
    expect(row.textContent).toContain('•••• set');
    expect(screen.queryByRole('form')).toBeNull();
  });

  it('shows a failed connection and masks a stored key when editing', async () => {
    const api = fakeApi();
    api.state.providers = [{ name: 'cloud', kind: 'openai', base_url: 'https://api.example.com/v1', has_key: true, default_model: '' }];
    api.state.providerKeys.cloud = 'secret';
    api.state.models.cloud = new Error('dial tcp: connection refused');
    const { user } = await renderSettings(api);
    await user.click(await screen.findByRole('button', { name: 'Edit provider cloud' }));
    const form = screen.getByRole('form', { name: 'Edit provider cloud' });
    const key = within(form).getByLabelText('API key') as HTMLInputElement;
    expect(key.value).toBe('');
    expect(key.placeholder).toContain('•••• set');
    await user.click(within(form).getByRole('button', { name: 'Test connection' }));
    expect((await within(form).findByRole('alert')).textContent).toContain('connection refused');
    await user.click(within(form).getByRole('checkbox', { name: 'Remove the stored key' }));
    await user.click(within(form).getByRole('button', { name: 'Save provider' }));
    expect(api.saveModelProvider).toHaveBeenLastCalledWith(expect.objectContaining({ name: 'cloud', api_key: '-' }));
    await waitFor(() => expect(document.querySelector('tr[data-provider="cloud"]')?.textContent).not.toContain('•••• set'));
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
  it('creates an agent with a provider, validating first', async () => {
    const api = fakeApi();
    api.state.providers = [{ name: 'ollama', kind: 'openai', base_url: 'http://127.0.0.1:11434/v1', has_key: false, default_model: 'llama3.1:8b' }];
    const { user } = await renderSettings(api);
    await user.click(screen.getByRole('button', { name: 'New agent' }));
    const form = screen.getByRole('form', { name: 'New agent' });
    await user.type(within(form).getByRole('textbox', { name: 'Key' }), 'Coder');
    await user.click(within(form).getByRole('button', { name: 'Create agent' }));
    expect(within(form).getByText(/lower-case/)).toBeTruthy();
    expect(api.saveAgent).not.toHaveBeenCalled();
    const key = within(form).getByRole('textbox', { name: 'Key' });
    await user.clear(key);
    await user.type(key, 'coder');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Provider' }), 'ollama');
    expect((within(form).getByRole('textbox', { name: 'Model' }) as HTMLInputElement).placeholder).toContain('llama3.1:8b');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Profile' }), 'coding');
    await user.type(within(form).getByRole('textbox', { name: 'Deny (comma list)' }), 'exec, delete_file');
    await user.click(within(form).getByRole('switch', { name: /Network/ }));
    await user.click(within(form).getByRole('button', { name: 'Create agent' }));
    expect(within(form).getByText(/turn the sandbox on first/)).toBeTruthy();
    await user.click(within(form).getByRole('switch', { name: /Sandbox/ }));
    await user.click(within(form).getByRole('button', { name: 'Create agent' }));
    expect(api.saveAgent).toHaveBeenCalledWith({
      key: 'coder',
      name: 'coder',
      type: 'open',
      provider: 'ollama',
      model: '',
      profile: 'coding',
      allow: [],
      deny: ['exec', 'delete_file'],
      workspace: '',
      sandbox: true,
      network: true,
    });
    const row = await waitFor(() => {
      const r = document.querySelector<HTMLElement>('tr[data-agent="coder"]');
      if (!r) throw new Error('not yet');
      return r;
    });
    expect(row.textContent).toContain('ollama');
    expect(row.textContent).toContain('on, network');
  });

  it('edits the default agent, which has no delete button; others delete after confirming', async () => {
    const { api, user } = await renderSettings();
    const def = document.querySelector<HTMLElement>('tr[data-agent="default"]')!;
    expect(within(def).queryByRole('button', { name: /Delete/ })).toBeNull();
    await user.click(within(def).getByRole('button', { name: 'Edit agent default' }));
    const form = screen.getByRole('form', { name: 'Edit agent default' });
    expect((within(form).getByRole('textbox', { name: 'Key' }) as HTMLInputElement).readOnly).toBe(true);
    await user.type(within(form).getByRole('textbox', { name: 'Model' }), 'llama3.1:8b');
    await user.keyboard('{Enter}');
    expect(api.saveAgent).toHaveBeenCalledWith(expect.objectContaining({ key: 'default', model: 'llama3.1:8b' }));

    await user.click(screen.getByRole('button', { name: 'Delete agent reviewer' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    expect(api.deleteAgent).toHaveBeenCalledWith('reviewer');
    await waitFor(() => expect(document.querySelector('tr[data-agent="reviewer"]')).toBeNull());
  });

  it('Escape closes the form', async () => {
    const { user } = await renderSettings();
    await user.click(screen.getByRole('button', { name: 'New agent' }));
    expect(screen.getByRole('form', { name: 'New agent' })).toBeTruthy();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('form')).toBeNull();
  });
});
