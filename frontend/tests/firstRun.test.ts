import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import FirstRun from '../src/components/firstrun/FirstRun.svelte';
import { cloudLabel, isLoopback, preferredModel, providerFor, sandboxVerdict, serverName, stepLabel, withoutSandbox } from '../src/lib/firstRun';
import type { ModelServer, SandboxCheck } from '../src/lib/types';
import { fakeApi } from './fakeApi';

// The MCP step is another component with its own tests; the wizard only
// relies on its {api, ondone} contract.
vi.mock('../src/components/mcp/import/McpImportStep.svelte', async () => await import('./McpImportStepStub.svelte'));

const ollama: ModelServer = {
  kind: 'ollama',
  label: 'Ollama',
  base_url: 'http://127.0.0.1:11434/v1',
  models: [{ id: 'nomic-embed-text' }, { id: 'llama3.2:3b' }, { id: 'qwen2.5:7b' }],
  needs_key: false,
};

const passing: SandboxCheck[] = [
  { name: 'socket', ok: true, detail: 'unix:///run/user/1000/podman/podman.sock' },
  { name: 'service', ok: true, detail: 'podman 4.3.1, rootless true' },
  { name: 'image', ok: true, detail: 'warren-sandbox:latest present' },
  { name: 'run', ok: true, detail: 'ran in podman' },
];

function setup(over: { servers?: ModelServer[]; doctor?: SandboxCheck[]; openSignal?: number; pending?: boolean } = {}) {
  const api = fakeApi();
  api.state.servers = over.servers ?? [structuredClone(ollama)];
  api.state.doctor = over.doctor ?? structuredClone(passing);
  api.state.firstRunDone = over.pending === false;
  const ondone = vi.fn();
  const user = userEvent.setup();
  const r = render(FirstRun, { props: { api, ondone, openSignal: over.openSignal ?? 0 } });
  return { api, ondone, user, ...r };
}

const dialog = () => screen.findByRole('dialog', { name: 'Set up Warren' });
const stepTitle = () => screen.getByTestId('first-run-step').textContent;

describe('first-run wizard', () => {
  it('offers the detected server, saves its model as the default agent’s, checks the sandbox, then lands in Chat', async () => {
    const { api, ondone, user } = setup();
    const d = await dialog();
    expect(stepTitle()).toBe('Step 1 of 3: Model');
    const radio = await within(d).findByRole('radio', { name: /Ollama/ });
    expect((radio as HTMLInputElement).checked).toBe(true);
    expect(radio.closest('label')?.textContent).toContain('3 models');
    await waitFor(() => expect(document.activeElement).toBe(radio));
    // The embedding model is listed but not offered first.
    const model = within(d).getByRole('combobox', { name: 'Model' }) as HTMLSelectElement;
    expect(model.value).toBe('llama3.2:3b');
    expect([...model.options].map((o) => o.value)).toEqual(['nomic-embed-text', 'llama3.2:3b', 'qwen2.5:7b']);
    await user.selectOptions(model, 'qwen2.5:7b');
    await user.click(within(d).getByRole('button', { name: 'Use this model' }));
    expect(api.completeFirstRun).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'ollama', kind: 'openai', base_url: 'http://127.0.0.1:11434/v1' }),
      'qwen2.5:7b',
    );
    expect(api.state.agents.find((a) => a.key === 'default')).toMatchObject({ provider: 'ollama', model: 'qwen2.5:7b' });

    await waitFor(() => expect(stepTitle()).toBe('Step 2 of 3: Sandbox'));
    expect(document.activeElement).toBe(screen.getByTestId('first-run-step'));
    expect(within(d).getByRole('listitem', { current: 'step' }).textContent).toContain('Sandbox');
    const status = await within(d).findByText(/The sandbox works/);
    expect(status.closest('[role="status"]')).toBeTruthy();
    expect(api.sandboxDoctor).toHaveBeenCalledWith('');
    await user.click(within(d).getByRole('button', { name: 'Continue' }));

    expect(stepTitle()).toBe('Step 3 of 3: MCP servers');
    expect(api.finishFirstRun).not.toHaveBeenCalled();
    await user.click(within(d).getByRole('button', { name: 'Import and finish' }));
    await waitFor(() => expect(ondone).toHaveBeenCalledTimes(1));
    expect(api.finishFirstRun).toHaveBeenCalled();
    expect(api.state.firstRunDone).toBe(true);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('without a local server, a cloud provider is tested with its key (nothing saved) before its model is chosen', async () => {
    const { api, user } = setup({ servers: [] });
    api.state.draftModels['https://api.anthropic.com'] = [{ id: 'claude-sonnet-4-5' }, { id: 'claude-haiku-4-5' }];
    const d = await dialog();
    expect((await within(d).findByTestId('no-servers')).textContent).toContain('Ollama 11434');
    expect((within(d).getByRole('radio', { name: /cloud provider/ }) as HTMLInputElement).checked).toBe(true);
    expect(within(d).queryByRole('button', { name: 'Use this model' })?.hasAttribute('disabled')).toBe(true);
    expect((within(d).getByRole('textbox', { name: 'Base URL' }) as HTMLInputElement).value).toBe('https://api.anthropic.com');
    await user.type(within(d).getByLabelText('API key'), 'sk-ant-test');
    await user.click(within(d).getByRole('button', { name: 'Test and list models' }));
    expect(api.testModelProviderDraft).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'anthropic', kind: 'anthropic', base_url: 'https://api.anthropic.com', api_key: 'sk-ant-test' }),
    );
    expect(api.saveModelProvider).not.toHaveBeenCalled();
    const model = (await within(d).findByRole('combobox', { name: 'Model' })) as HTMLSelectElement;
    expect(model.value).toBe('claude-sonnet-4-5');
    await user.click(within(d).getByRole('button', { name: 'Use this model' }));
    expect(api.completeFirstRun).toHaveBeenCalledWith(expect.objectContaining({ name: 'anthropic', api_key: 'sk-ant-test' }), 'claude-sonnet-4-5');
    expect(api.state.providerKeys.anthropic).toBe('sk-ant-test');
  });

  it('explains a failed test in a sentence, with the detail folded', async () => {
    const { api, user } = setup({ servers: [] });
    api.state.draftModels['https://api.openai.com/v1'] = new Error('openai: GET https://api.openai.com/v1/models: 401 Unauthorized: Incorrect API key provided');
    const d = await dialog();
    await user.selectOptions(within(d).getByRole('combobox', { name: 'Service' }), 'openai');
    await user.type(within(d).getByLabelText('API key'), 'sk-wrong');
    await user.click(within(d).getByRole('button', { name: 'Test and list models' }));
    const alert = await within(d).findByRole('alert');
    expect(alert.querySelector('strong')?.textContent).toBe('Connection failed: The model provider refused the API key. Check the key in Agents.');
    expect(alert.querySelector('details')?.textContent).toContain('Incorrect API key');
    expect(within(d).queryByRole('combobox', { name: 'Model' })).toBeNull();
  });

  it('builds a missing sandbox image, or continues without the sandbox saying what that means', async () => {
    const missing = passing.map((c) => (c.name === 'image' ? { ...c, ok: false, detail: 'warren-sandbox:latest is missing', fix: 'warren sandbox image build' } : c));
    const { api, user } = setup({ doctor: missing });
    api.state.agents[0].provider = 'ollama'; // set up before: step 1 offers to keep it
    const d = await dialog();
    const keep = await within(d).findByRole('button', { name: 'Keep it and continue' });
    // A model is set already: skipping would lose nothing, and says so.
    await user.keyboard('{Escape}');
    expect(within(d).getByRole('group', { name: 'Skip the setup?' }).textContent).not.toContain('Without a model');
    await user.keyboard('{Escape}');
    await user.click(keep);
    expect(api.completeFirstRun).not.toHaveBeenCalled();
    expect(await within(d).findByText('Podman works, but the sandbox image is not built yet.')).toBeTruthy();
    expect(within(d).getByTestId('without-sandbox').textContent).toContain('refused until the sandbox works');
    await user.click(within(d).getByRole('button', { name: 'Build the sandbox image' }));
    expect(api.buildSandboxImage).toHaveBeenCalled();
    expect(await within(d).findByText(/The sandbox works/)).toBeTruthy();
    expect(api.sandboxDoctor).toHaveBeenCalledTimes(2);

    // Back, and a sandbox that cannot work: the step never blocks.
    await user.click(within(d).getByRole('button', { name: 'Back' }));
    api.state.doctor = [{ name: 'socket', ok: false, detail: 'no Podman socket found', fix: 'systemctl --user start podman.socket' }];
    await user.click(await within(d).findByRole('button', { name: 'Keep it and continue' }));
    expect(await within(d).findByText('The sandbox is not ready: 1 check failed.')).toBeTruthy();
    await user.click(within(d).getByRole('button', { name: 'Check again' }));
    expect(api.sandboxDoctor).toHaveBeenCalledTimes(4);
    expect(within(d).queryByRole('button', { name: 'Build the sandbox image' })).toBeNull();
    expect(within(d).getByText('systemctl --user start podman.socket').tagName).toBe('CODE');
    await user.click(within(d).getByRole('button', { name: 'Continue without the sandbox' }));
    expect(stepTitle()).toBe('Step 3 of 3: MCP servers');
  });

  it('offers to let the default agent go online, off until turned on', async () => {
    const { api, user } = setup({ doctor: passing });
    api.state.agents[0].provider = 'ollama';
    const d = await dialog();
    await user.click(await within(d).findByRole('button', { name: 'Keep it and continue' }));
    const sw = await within(d).findByRole('switch', { name: /Let the assistant go online/ });
    expect((sw as HTMLInputElement).checked).toBe(false);
    await user.click(sw);
    await vi.waitFor(() => expect(api.state.agents.find((a) => a.key === 'default')?.network).toBe(true));
    expect((sw as HTMLInputElement).checked).toBe(true);
    await user.click(sw);
    await vi.waitFor(() => expect(api.state.agents.find((a) => a.key === 'default')?.network).toBe(false));
  });

  it('Escape asks before skipping; Escape again goes back; Skip remembers it and opens Chat', async () => {
    const { api, ondone, user } = setup();
    const d = await dialog();
    await within(d).findByRole('radio', { name: /Ollama/ });
    await user.keyboard('{Escape}');
    const ask = within(d).getByRole('group', { name: 'Skip the setup?' });
    expect(ask.textContent).toContain('Without a model, Chat cannot answer');
    expect(document.activeElement).toBe(within(ask).getByRole('button', { name: 'Keep setting up' }));
    await user.keyboard('{Escape}');
    expect(within(d).queryByRole('group', { name: 'Skip the setup?' })).toBeNull();
    expect(screen.getByRole('dialog')).toBeTruthy();

    await user.click(within(d).getByRole('button', { name: 'Skip setup' }));
    await user.click(within(d).getByRole('button', { name: 'Skip the setup' }));
    await waitFor(() => expect(ondone).toHaveBeenCalledTimes(1));
    expect(api.finishFirstRun).toHaveBeenCalled();
    expect(api.completeFirstRun).not.toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stays closed once done, and opens again when asked (Agents → Run the setup again)', async () => {
    const { api, rerender } = setup({ pending: false });
    await waitFor(() => expect(api.firstRunPending).toHaveBeenCalled());
    await Promise.resolve();
    expect(screen.queryByRole('dialog')).toBeNull();
    await rerender({ openSignal: 1 });
    expect(await dialog()).toBeTruthy();
    expect(stepTitle()).toBe('Step 1 of 3: Model');
  });

  it('shows untrusted server names and models as text', async () => {
    const evil: ModelServer = { ...ollama, label: '<img src=x onerror=alert(1)>', models: [{ id: '<script>x</script>' }] };
    const { user } = setup({ servers: [evil] });
    const d = await dialog();
    await within(d).findByText('<img src=x onerror=alert(1)>');
    expect(d.querySelector('img, script')).toBeNull();
    expect((within(d).getByRole('combobox', { name: 'Model' }) as HTMLSelectElement).value).toBe('<script>x</script>');
    await user.keyboard('{Escape}');
  });
});

describe('first-run decisions', () => {
  it('reuses the provider with the same address, else derives a free id from the label', () => {
    const stored = [
      { name: 'ollama', kind: 'openai', base_url: 'http://127.0.0.1:9999/v1', has_key: false, default_model: '' },
      { name: 'local', kind: 'openai', base_url: 'http://127.0.0.1:11434/v1/', has_key: true, default_model: 'x' },
    ] as const;
    expect(providerFor('Ollama', 'openai', 'http://127.0.0.1:11434/v1', [...stored])).toMatchObject({ name: 'local', has_key: true });
    expect(providerFor('Ollama', 'openai', 'http://127.0.0.1:1/v1', [...stored]).name).toBe('ollama-2');
    expect(providerFor('LM Studio', 'openai', 'http://127.0.0.1:1234/v1', [], 'k')).toMatchObject({ name: 'lm-studio', api_key: 'k', has_key: true });
  });

  it('names detected servers: by product, or by port for other addresses', () => {
    expect(serverName(ollama)).toBe('Ollama');
    expect(serverName({ ...ollama, kind: 'custom', label: 'Server at 127.0.0.1:8081', base_url: 'http://127.0.0.1:8081/v1' })).toBe('server 8081');
    expect(isLoopback('http://127.0.0.1:8081/v1')).toBe(true);
    expect(isLoopback('https://gpu.lan:8443/v1')).toBe(false);
  });

  it('names cloud services and picks a chat model', () => {
    expect(cloudLabel('https://api.groq.com/openai/v1')).toBe('groq');
    expect(cloudLabel('not a url')).toBe('cloud');
    expect(preferredModel([{ id: 'bge-embed' }, { id: 'chat' }])).toBe('chat');
    expect(preferredModel([{ id: 'a' }, { id: 'b' }], 'b')).toBe('b');
    expect(preferredModel([])).toBe('');
    expect(stepLabel(2)).toBe('Step 3 of 3: MCP servers');
  });

  it('reads the sandbox checks in words', () => {
    expect(sandboxVerdict(passing)).toMatchObject({ ok: true, canBuildImage: false });
    const noImage = passing.map((c) => (c.name === 'image' ? { ...c, ok: false } : c));
    expect(sandboxVerdict(noImage)).toMatchObject({ ok: false, canBuildImage: true });
    const down = noImage.map((c) => (c.name === 'socket' ? { ...c, ok: false } : c));
    expect(sandboxVerdict(down)).toMatchObject({ ok: false, canBuildImage: false, headline: 'The sandbox is not ready: 2 checks failed.' });
    expect(withoutSandbox('host')).toContain('straight to this computer');
  });
});
