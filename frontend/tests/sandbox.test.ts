import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import SandboxPanel from '../src/components/SandboxPanel.svelte';
import { customToolFromWire, customToolToWire, wailsApi } from '../src/lib/api';
import { HOST_HEADLINE, PODMAN_HEADLINE, whereCommandsRun } from '../src/lib/sandbox';
import { fakeApi, sandboxStatus } from './fakeApi';

function renderPanel(api = fakeApi(), props: { active?: boolean; refreshMs?: number } = {}) {
  const user = userEvent.setup();
  const r = render(SandboxPanel, { props: { api, active: true, ...props } });
  return { api, user, ...r };
}

describe('sandbox helpers', () => {
  it.each([
    [{}, 'safe', PODMAN_HEADLINE],
    [{ mode: 'host' as const }, 'danger', HOST_HEADLINE],
    [{ available: false, fallback: 'host' as const }, 'danger', HOST_HEADLINE],
    [{ available: false, fallback: 'deny' as const }, 'blocked', 'Commands are refused: the sandbox is not ready'],
    [{ rootless: false }, 'caution', 'Commands run in Podman containers (rootful)'],
  ])('%j → %s', (over, tone, headline) => {
    expect(whereCommandsRun(sandboxStatus(over))).toMatchObject({ tone, headline });
  });
});

describe('sandbox panel', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('says commands run in rootless Podman, with facts and the containers table', async () => {
    renderPanel();
    const verdict = await screen.findByTestId('sandbox-verdict');
    expect(verdict.classList.contains('safe')).toBe(true);
    expect(within(verdict).getByRole('heading').textContent).toBe(PODMAN_HEADLINE);
    expect(screen.queryByTestId('sandbox-warnings')).toBeNull();
    const table = screen.getByRole('table');
    const cells = within(table).getAllByRole('row')[1].textContent ?? '';
    expect(cells).toContain('local:default');
    expect(cells).toContain('0123456789ab'); // short id
    expect(cells).not.toContain('0123456789abcdef0123');
    expect(cells).toContain('1 min 15 s'); // idle
    expect(cells).toContain('1 h 2 min'); // age
    expect(cells).toContain('running');
    expect(screen.getByText('unix:///run/user/1000/podman/podman.sock')).toBeTruthy();
  });

  it('warns in big words when commands run on this machine, and shows warnings prominently', async () => {
    const api = fakeApi();
    api.state.sandbox = sandboxStatus({
      mode: 'host',
      containers: [],
      warnings: ['rootless cgroup v1: memory and pids limits are not enforced'],
    });
    renderPanel(api);
    const verdict = await screen.findByTestId('sandbox-verdict');
    expect(verdict.classList.contains('danger')).toBe(true);
    expect(within(verdict).getByRole('heading').textContent).toBe('Commands run ON THIS MACHINE (no sandbox)');
    const warnings = screen.getByTestId('sandbox-warnings');
    expect(warnings.textContent).toContain('memory and pids limits are not enforced');
    expect(screen.getByText(/No sandbox containers/)).toBeTruthy();
    expect(screen.getByTestId('host-warning')).toBeTruthy();
  });

  it('shows the Podman error', async () => {
    const api = fakeApi();
    api.state.sandbox = sandboxStatus({ available: false, fallback: 'deny', error: 'dial unix podman.sock: connection refused' });
    renderPanel(api);
    expect((await screen.findByRole('alert')).textContent).toContain('connection refused');
    expect(screen.getByTestId('sandbox-verdict').textContent).toContain('Commands are refused');
    expect(screen.getByText(/^\s*not ready, rootless/)).toBeTruthy();
  });

  it('saves settings, warning before choosing the host', async () => {
    const { api, user } = renderPanel();
    await screen.findByTestId('sandbox-verdict');
    const save = screen.getByRole('button', { name: 'Save settings' });
    expect(save.hasAttribute('disabled')).toBe(true);
    await user.selectOptions(screen.getByRole('combobox', { name: 'If Podman is unavailable' }), 'host');
    expect(screen.getByTestId('host-warning').textContent).toContain('on this machine');
    const image = screen.getByRole('textbox', { name: 'Image' });
    await user.clear(image);
    await user.type(image, 'my-image:1');
    await user.click(save);
    expect(api.setSandboxSettings).toHaveBeenCalledWith('podman', 'host', 'my-image:1');
    expect(await screen.findByText('Sandbox settings saved.')).toBeTruthy();
  });

  it('an empty image means the default', async () => {
    const { api, user } = renderPanel();
    await screen.findByTestId('sandbox-verdict');
    await user.clear(screen.getByRole('textbox', { name: 'Image' }));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(api.setSandboxSettings).toHaveBeenCalledWith('podman', 'deny', '');
  });

  it('shows a failed SandboxStatus call as an error with Retry', async () => {
    const api = fakeApi();
    api.sandboxStatus.mockRejectedValueOnce('sandbox unavailable: no podman socket');
    const { user } = renderPanel(api);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('no podman socket');
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByTestId('sandbox-verdict')).toBeTruthy();
  });

  it('prunes only after confirmation and reports how many were removed', async () => {
    const { api, user } = renderPanel();
    await screen.findByTestId('sandbox-verdict');
    await user.click(screen.getByRole('button', { name: 'Prune…' }));
    expect(api.pruneSandbox).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Yes, prune' }));
    expect(api.pruneSandbox).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Removed 1 container.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('table')).toBeNull());
  });

  it('refreshes every 5 s while shown, and not while hidden', async () => {
    vi.useFakeTimers();
    const api = fakeApi();
    const { rerender } = render(SandboxPanel, { props: { api, active: true } });
    await vi.advanceTimersByTimeAsync(0);
    expect(api.sandboxStatus).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(api.sandboxStatus).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(5000);
    expect(api.sandboxStatus).toHaveBeenCalledTimes(3);
    await rerender({ api, active: false });
    await vi.advanceTimersByTimeAsync(20000);
    expect(api.sandboxStatus).toHaveBeenCalledTimes(3);
  });
});

describe('wailsApi over the generated bindings', () => {
  afterEach(() => {
    delete (window as { go?: unknown }).go;
  });

  it('converts custom tools to and from Go (parameters travel as a JSON object)', async () => {
    const wire = {
      name: 'count_lines',
      description: 'Count lines',
      parameters: { type: 'object', properties: { path: { type: 'string' } } },
      command: 'wc -l {{.path}}',
      enabled: true,
      env_keys: ['TOKEN'],
    };
    const SaveCustomTool = vi.fn(async () => {});
    const DeleteCustomTool = vi.fn(async () => {});
    (window as { go?: unknown }).go = {
      app: {
        App: {
          CustomTools: vi.fn(async () => [wire]),
          SaveCustomTool,
          DeleteCustomTool,
          CustomToolProblems: vi.fn(async () => null),
          PruneSandbox: vi.fn(async () => 3),
        },
      },
    };
    const [t] = await wailsApi.customTools();
    expect(t).toEqual({
      name: 'count_lines',
      description: 'Count lines',
      parameters: '{"type":"object","properties":{"path":{"type":"string"}}}',
      command: 'wc -l {{.path}}',
      timeout_seconds: 60, // omitted by Go = its default
      enabled: true,
      agent: '',
      env_keys: ['TOKEN'],
    });
    await wailsApi.saveCustomTool({ ...t, env: { TOKEN: '' } });
    expect(SaveCustomTool).toHaveBeenCalledWith({ ...t, parameters: wire.parameters, env: { TOKEN: '' } });
    await wailsApi.deleteCustomTool('count_lines', 'reviewer');
    expect(DeleteCustomTool).toHaveBeenCalledWith('count_lines', 'reviewer');
    expect(await wailsApi.customToolProblems()).toEqual([]);
    expect(await wailsApi.pruneSandbox()).toBe(3);
  });

  it('leaves out an empty env and passes unparsable parameters through for Go to report', () => {
    const t = customToolFromWire({ name: 'x', parameters: '{bad', env_keys: null });
    expect(t.parameters).toBe('{bad');
    expect(customToolToWire({ ...t, env: {} })).not.toHaveProperty('env');
    expect(customToolToWire(t).parameters).toBe('{bad');
  });
});
