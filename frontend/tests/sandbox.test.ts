import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import SandboxPanel from '../src/components/sandbox/SandboxPanel.svelte';
import { wailsApi } from '../src/lib/api';
import { customToolFromWire, customToolToWire } from '../src/lib/sandboxApi';
import {
  FAILED_HEADLINE,
  HOST_HEADLINE,
  PODMAN_HEADLINE,
  TESTING_HEADLINE,
  checkResult,
  checkSentence,
  doctorSummary,
  segments,
  splitFix,
  testedText,
  whereCommandsRun,
} from '../src/lib/sandbox';
import type { SandboxCheck, SandboxTest } from '../src/lib/types';
import { fakeApi, judgeDoctor, sandboxStatus } from './fakeApi';

// Lines as app.SandboxStatus sends them (sandbox/podman/access_unix.go).
const WORKSPACE_PROBLEM =
  'the sandbox user warren-sandbox (uid 1001) cannot use the workspace /tmp/x: it is drwx------, owned by root. ' +
  'Fix: sudo chown -R warren-sandbox /tmp/x (the sandbox user then owns the files agents make), or pick a workspace that user can write';
const TUN_WARNING =
  'Agents with network on cannot run sandboxed commands: the sandbox cannot give this agent a network: /dev/net/tun is crw-------, ' +
  'owned by root, so slirp4netns cannot open it. Fix: sudo chmod 0666 /dev/net/tun (its usual mode; scripts/podman-setup.sh sets it), ' +
  "or turn the agent's network off";

// What the doctor reports on a working machine, and with the image missing.
const WORKING: SandboxCheck[] = [
  { name: 'socket', ok: true, detail: 'unix:///run/user/1000/podman/podman.sock (env)' },
  { name: 'service', ok: true, detail: 'podman 4.3.1, runtime runc, cgroup v1, rootless true' },
  { name: 'cgroup limits', ok: true, warn: true, detail: 'enforced: none', fix: 'a cgroup v2 host with delegated controllers enforces them' },
  { name: 'image', ok: true, detail: 'localhost/warren-sandbox:latest present' },
  { name: 'runner', ok: true, detail: '/usr/lib/warren/warren-runner' },
  { name: 'workspace', ok: true, detail: '/home/me/warren-workspace usable by warren-sandbox (uid 1001)' },
  { name: 'run', ok: true, detail: 'ran in podman:07473b465b09; interfaces: lo' },
];
const NO_IMAGE: SandboxCheck[] = [
  ...WORKING.slice(0, 3),
  { name: 'image', ok: false, detail: 'localhost/warren-sandbox:latest is missing', fix: 'warren sandbox image build (offline, from busybox-static)' },
  WORKING[4],
];
const PASSED: SandboxTest = judgeDoctor(WORKING);
const IMAGE_FAILED: SandboxTest = judgeDoctor(NO_IMAGE);

const code = (text: string) => ({ text, code: true });
const prose = (text: string) => ({ text, code: false });

/** The panel on a machine whose doctor reports `doctor` (a working one unless the test set another). */
function renderPanel(api = fakeApi(), props: { active?: boolean; refreshMs?: number } = {}) {
  if (!api.state.doctor.length) api.state.doctor = structuredClone(WORKING);
  const user = userEvent.setup();
  const r = render(SandboxPanel, { props: { api, active: true, ...props } });
  return { api, user, ...r };
}

describe('sandbox helpers', () => {
  it.each([
    [{}, PASSED, 'safe', PODMAN_HEADLINE],
    // No test yet: never "ready" from the status alone.
    [{}, null, 'pending', TESTING_HEADLINE],
    [{}, IMAGE_FAILED, 'blocked', FAILED_HEADLINE],
    [{ mode: 'host' as const }, null, 'danger', HOST_HEADLINE],
    [{ mode: 'host' as const }, IMAGE_FAILED, 'danger', HOST_HEADLINE],
    [{ fallback: 'host' as const }, IMAGE_FAILED, 'danger', HOST_HEADLINE],
    [{ available: false, fallback: 'host' as const }, null, 'danger', HOST_HEADLINE],
    [{ available: false, fallback: 'deny' as const }, null, 'blocked', 'Commands are refused: the sandbox is not ready'],
    [{ rootless: false }, PASSED, 'caution', 'Commands run in Podman containers (rootful)'],
    // A problem means not ready even if available still says true, and even after a passing test.
    [{ problems: [WORKSPACE_PROBLEM] }, PASSED, 'blocked', 'Commands are refused: the sandbox is not ready'],
  ])('%j with test %# → %s', (over, test, tone, headline) => {
    expect(whereCommandsRun(sandboxStatus(over), test)).toMatchObject({ tone, headline });
  });

  it('names the failing check in one sentence', () => {
    expect(whereCommandsRun(sandboxStatus(), IMAGE_FAILED).detail).toBe('The sandbox image is missing. The fallback is “deny”, so nothing runs until it is fixed.');
    expect(whereCommandsRun(sandboxStatus({ fallback: 'host' }), IMAGE_FAILED).detail).toContain('The sandbox test failed. The sandbox image is missing.');
    expect(checkSentence({ name: 'workspace', ok: false, detail: '' })).toBe('The sandbox user cannot use the workspace folder.');
    expect(checkSentence({ name: 'socket', ok: false, detail: '' })).toBe('Warren cannot reach the Podman service.');
    expect(checkSentence({ name: 'new check', ok: false, detail: '' })).toBe('The sandbox check “new check” failed.');
    expect(testedText({ ...PASSED, at: '2026-03-02T14:03:09Z', seconds: 1.23 })).toMatch(/^Tested at \d\d:\d\d:\d\d \(1\.2 s\): a command ran in a container, with the workspace writable\.$/);
    expect(testedText(IMAGE_FAILED)).toMatch(/the check “image” failed\.$/);
  });

  it('the blocked verdict points at the problem below', () => {
    expect(whereCommandsRun(sandboxStatus({ available: false })).detail).toContain('see the problem below');
    expect(whereCommandsRun(sandboxStatus({ available: false, fallback: 'host' })).detail).toContain('see the problem below');
  });

  it.each([
    [
      WORKSPACE_PROBLEM,
      'the sandbox user warren-sandbox (uid 1001) cannot use the workspace /tmp/x: it is drwx------, owned by root.',
      'sudo chown -R warren-sandbox /tmp/x (the sandbox user then owns the files agents make), or pick a workspace that user can write',
    ],
    ['image x is missing: build it with `warren sandbox image build`', 'image x is missing: build it with `warren sandbox image build`', ''],
    // Split at the last mark: the cause may quote an error with its own.
    ['a failed: inner. Fix: not this. Fix: this one', 'a failed: inner. Fix: not this.', 'this one'],
    ['  spaced. Fix:  chmod o+x /a  ', 'spaced.', 'chmod o+x /a'],
  ])('splitFix(%j)', (line, cause, fix) => {
    expect(splitFix(line)).toEqual({ cause, fix });
  });

  it.each([
    [
      'sudo chown -R warren-sandbox /tmp/x (the sandbox user then owns the files agents make), or pick a workspace that user can write',
      [code('sudo chown -R warren-sandbox /tmp/x'), prose(' (the sandbox user then owns the files agents make), or pick a workspace that user can write')],
    ],
    [
      "sudo modprobe tun, then sudo chmod 0666 /dev/net/tun, or turn the agent's network off",
      [code('sudo modprobe tun'), prose(', then '), code('sudo chmod 0666 /dev/net/tun'), prose(", or turn the agent's network off")],
    ],
    [
      'as root run scripts/podman-setup.sh; as a user `systemctl --user start podman.socket` (or install podman, uidmap and slirp4netns)',
      [
        prose('as root run '),
        code('scripts/podman-setup.sh'),
        prose('; as a user '),
        code('systemctl --user start podman.socket'),
        prose(' (or install podman, uidmap and slirp4netns)'),
      ],
    ],
    ['pick a workspace outside /srv/a, or let it pass: chmod o+x /srv/a.', [prose('pick a workspace outside /srv/a, or let it pass: '), code('chmod o+x /srv/a'), prose('.')]],
    ['sudo sysctl -w user.max_user_namespaces=15000', [code('sudo sysctl -w user.max_user_namespaces=15000')]],
    ['the container got no interface besides lo: check slirp4netns and /dev/net/tun', [prose('the container got no interface besides lo: check slirp4netns and /dev/net/tun')]],
    ['an `unpaired backtick', [prose('an `unpaired backtick')]],
  ])('segments(%j)', (text, want) => {
    expect(segments(text)).toEqual(want);
  });

  it('segments without commands only marks backticks', () => {
    expect(segments('run `warren sandbox doctor` or sudo chmod 0666 /dev/net/tun', false)).toEqual([
      prose('run '),
      code('warren sandbox doctor'),
      prose(' or sudo chmod 0666 /dev/net/tun'),
    ]);
  });

  it('sums up the doctor', () => {
    const pass: SandboxCheck = { name: 'socket', ok: true, detail: '' };
    const warn: SandboxCheck = { name: 'service', ok: true, warn: true, detail: '' };
    const fail: SandboxCheck = { name: 'image', ok: false, detail: '' };
    expect([pass, warn, fail].map(checkResult)).toEqual(['pass', 'warn', 'fail']);
    expect(doctorSummary([pass, warn, fail, fail])).toBe('2 of 4 checks failed, 1 warning.');
    expect(doctorSummary([pass, pass])).toBe('All 2 checks passed.');
    expect(doctorSummary([pass, warn])).toBe('All 2 checks passed, 1 warning.');
    expect(doctorSummary([])).toBe('The doctor ran no checks.');
  });
});

describe('sandbox panel', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the real test when first shown: "testing" until it passes, then says where commands run', async () => {
    const api = fakeApi();
    let finish: () => void = () => {};
    api.testSandbox.mockImplementationOnce(
      () => new Promise<SandboxTest>((resolve) => (finish = () => resolve((api.state.lastTest = judgeDoctor(api.state.doctor))))),
    );
    renderPanel(api);
    const verdict = await screen.findByTestId('sandbox-verdict');
    await waitFor(() => expect(api.testSandbox).toHaveBeenCalledTimes(1));
    // Status says available, but nothing ran yet: no "ready".
    expect(verdict.classList.contains('pending')).toBe(true);
    expect(within(verdict).getByRole('heading').textContent).toBe(TESTING_HEADLINE);
    expect(screen.getByTestId('sandbox-tested').textContent).toContain('a command in a real container');
    expect(screen.getByTestId('sandbox-podman-fact').textContent).toContain('not tested yet');
    expect(within(verdict).getByRole('button', { name: 'Testing…' }).hasAttribute('disabled')).toBe(true);
    finish();
    await waitFor(() => expect(verdict.classList.contains('safe')).toBe(true));
    expect(within(verdict).getByRole('heading').textContent).toBe(PODMAN_HEADLINE);
    expect(screen.getByTestId('sandbox-tested').textContent).toMatch(/^Tested at .*a command ran in a container/);
    expect(screen.getByTestId('sandbox-podman-fact').textContent?.trim()).toBe('works (tested), rootless');
    // The test's checks are listed; the page owns the Re-test button.
    const rows = within(screen.getByTestId('doctor-results')).getAllByRole('listitem');
    expect(rows.map((r) => r.querySelector('.badge')?.textContent)).toEqual(['PASS', 'PASS', 'WARN', 'PASS', 'PASS', 'PASS', 'PASS']);
    expect(screen.queryByRole('button', { name: 'Check the sandbox' })).toBeNull();
  });

  it('says commands run in rootless Podman, with facts and the containers table', async () => {
    renderPanel();
    const verdict = await screen.findByTestId('sandbox-verdict');
    await waitFor(() => expect(verdict.classList.contains('safe')).toBe(true));
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

  it('never says ready while the first command would fail: the failing check in one sentence, its fix, Re-test', async () => {
    const api = fakeApi();
    // Issue 15: the status looked fine, but the workspace was not reachable by the sandbox user.
    api.state.doctor = [
      ...WORKING.slice(0, 5),
      { name: 'workspace', ok: false, detail: 'statfs /root/ws: permission denied', fix: 'sudo chmod o+x /root (or pick a workspace the sandbox user can reach)' },
    ];
    const { user } = renderPanel(api);
    const verdict = await screen.findByTestId('sandbox-verdict');
    await waitFor(() => expect(verdict.classList.contains('blocked')).toBe(true));
    expect(within(verdict).getByRole('heading').textContent).toBe(FAILED_HEADLINE);
    const failed = screen.getByTestId('sandbox-failed-check');
    expect(failed.dataset.check).toBe('workspace');
    expect(failed.textContent).toContain('Failing check: workspace. The sandbox user cannot use the workspace folder.');
    expect(failed.textContent).toContain('statfs /root/ws: permission denied');
    expect(within(within(failed).getByTestId('sandbox-fix')).getByText('sudo chmod o+x /root').tagName).toBe('CODE');
    expect(screen.getByTestId('sandbox-podman-fact').textContent).toContain('does not work: the check “workspace” failed');
    expect(within(verdict).queryByRole('button', { name: 'Build the image' })).toBeNull();

    // Fixed outside Warren: Re-test runs the real test again.
    api.state.doctor = structuredClone(WORKING);
    await user.click(within(verdict).getByRole('button', { name: 'Re-test' }));
    await waitFor(() => expect(verdict.classList.contains('safe')).toBe(true));
    expect(api.testSandbox).toHaveBeenCalledTimes(2);
    expect(screen.queryByTestId('sandbox-failed-check')).toBeNull();
  });

  it('builds a missing image where Warren can, then tests again', async () => {
    const api = fakeApi();
    api.state.doctor = structuredClone(NO_IMAGE).concat([]);
    const { user } = renderPanel(api);
    const verdict = await screen.findByTestId('sandbox-verdict');
    await waitFor(() => expect(screen.getByTestId('sandbox-failed-check').dataset.check).toBe('image'));
    expect(screen.getByTestId('sandbox-failed-check').textContent).toContain('The sandbox image is missing.');
    // The fake's build marks the image present; the run check then passes too.
    api.buildSandboxImage.mockImplementationOnce(async () => {
      api.state.doctor = structuredClone(WORKING);
      return { image: 'localhost/warren-sandbox:latest', id: 'abc', source: 'busybox-static' };
    });
    await user.click(within(verdict).getByRole('button', { name: 'Build the image' }));
    await waitFor(() => expect(verdict.classList.contains('safe')).toBe(true));
    expect(api.buildSandboxImage).toHaveBeenCalledTimes(1);
    expect(api.testSandbox).toHaveBeenCalledTimes(2);
    expect(screen.getByText('Built the sandbox image localhost/warren-sandbox:latest.')).toBeTruthy();
  });

  it('shows a failed image build and keeps the failing check', async () => {
    const api = fakeApi();
    api.state.doctor = structuredClone(NO_IMAGE);
    api.state.imageError = 'build image: busybox-static is not installed';
    const { user } = renderPanel(api);
    const verdict = await screen.findByTestId('sandbox-verdict');
    await user.click(await within(verdict).findByRole('button', { name: 'Build the image' }));
    const banner = await within(verdict).findByTestId('error-banner');
    expect(banner.textContent).toContain('busybox-static is not installed');
    expect(api.testSandbox).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('sandbox-failed-check').dataset.check).toBe('image');
  });

  it('shows the kept result at once and does not re-run a test under a minute old', async () => {
    const api = fakeApi();
    api.state.lastTest = judgeDoctor(WORKING, new Date());
    renderPanel(api);
    const verdict = await screen.findByTestId('sandbox-verdict');
    await waitFor(() => expect(verdict.classList.contains('safe')).toBe(true));
    expect(api.lastSandboxTest).toHaveBeenCalledTimes(1);
    expect(api.testSandbox).not.toHaveBeenCalled();
  });

  it('does not test in host mode until asked', async () => {
    const api = fakeApi();
    api.state.sandbox = sandboxStatus({ mode: 'host' });
    const { user } = renderPanel(api);
    const verdict = await screen.findByTestId('sandbox-verdict');
    await waitFor(() => expect(screen.getByTestId('sandbox-tested').textContent).toContain('Not tested'));
    expect(api.testSandbox).not.toHaveBeenCalled();
    await user.click(within(verdict).getByRole('button', { name: 'Re-test' }));
    await waitFor(() => expect(api.testSandbox).toHaveBeenCalledTimes(1));
    expect(verdict.classList.contains('danger')).toBe(true); // host mode stays the headline
  });

  it('shows a failed test call as an error banner, and drops the old result', async () => {
    const api = fakeApi();
    const { user } = renderPanel(api);
    const verdict = await screen.findByTestId('sandbox-verdict');
    await waitFor(() => expect(verdict.classList.contains('safe')).toBe(true));
    api.testSandbox.mockRejectedValueOnce('sandbox unavailable: no podman socket');
    await user.click(within(verdict).getByRole('button', { name: 'Re-test' }));
    const banner = await within(verdict).findByTestId('error-banner');
    expect(banner.textContent).toContain('no podman socket');
    expect(verdict.classList.contains('pending')).toBe(true);
    expect(screen.queryByTestId('doctor-results')).toBeNull();
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
    api.state.sandbox = sandboxStatus({ available: false, fallback: 'deny', problems: ['dial unix podman.sock: connection refused'] });
    api.state.doctor = [{ name: 'socket', ok: false, detail: 'dial unix podman.sock: connection refused', fix: 'systemctl --user start podman.socket' }];
    renderPanel(api);
    expect((await screen.findByRole('alert')).textContent).toContain('connection refused');
    expect(screen.getByTestId('sandbox-verdict').textContent).toContain('Commands are refused');
    await waitFor(() => expect(screen.getByTestId('sandbox-failed-check').textContent).toContain('Warren cannot reach the Podman service.'));
    expect(screen.getByTestId('sandbox-podman-fact').textContent).toContain('does not work: the check “socket” failed, rootless');
  });

  it('lists each problem and fix-bearing warning with its cause as prose and its fix set apart', async () => {
    const api = fakeApi();
    api.state.sandbox = sandboxStatus({
      available: false,
      problems: [WORKSPACE_PROBLEM, 'image x is missing: build it with `warren sandbox image build`'],
      warnings: [TUN_WARNING],
    });
    renderPanel(api);
    const problems = await screen.findByTestId('sandbox-problems');
    expect(problems.getAttribute('role')).toBe('alert');
    expect(within(problems).getByRole('heading').textContent).toBe('The sandbox reported 2 problems');
    const [first, second] = within(problems).getAllByRole('listitem');
    // The cause is prose, not a code blob; the fix has its label and the command as code.
    const cause = within(first).getByText(/cannot use the workspace \/tmp\/x/);
    expect(cause.tagName).not.toBe('CODE');
    expect(cause.closest('code')).toBeNull();
    expect(cause.textContent).not.toContain('Fix:');
    const fix = within(first).getByTestId('sandbox-fix');
    expect(fix.textContent).toMatch(/^\s*Fix:/);
    expect(within(fix).getByText('sudo chown -R warren-sandbox /tmp/x').tagName).toBe('CODE');
    expect(fix.textContent).toContain('or pick a workspace that user can write');
    // A line without a fix is shown whole; its backticked command is code.
    expect(within(second).queryByTestId('sandbox-fix')).toBeNull();
    expect(within(second).getByText('warren sandbox image build').tagName).toBe('CODE');

    const warnings = screen.getByTestId('sandbox-warnings');
    expect(warnings.textContent).toContain('slirp4netns cannot open it.');
    const wfix = within(warnings).getByTestId('sandbox-fix');
    expect(within(wfix).getByText('sudo chmod 0666 /dev/net/tun').tagName).toBe('CODE');

    const verdict = screen.getByTestId('sandbox-verdict');
    expect(verdict.textContent).toContain('Commands are refused');
    expect(verdict.textContent).toContain('see the problem below');
    expect(screen.getByTestId('sandbox-podman-fact').textContent).toMatch(/^\s*not ready, rootless/);
  });

  it('never says ready while a problem is reported', async () => {
    const api = fakeApi();
    api.state.sandbox = sandboxStatus({ available: true, problems: [WORKSPACE_PROBLEM] });
    renderPanel(api);
    const verdict = await screen.findByTestId('sandbox-verdict');
    await waitFor(() => expect(api.testSandbox).toHaveBeenCalled());
    // The test passed, but the status now reports a problem: still not ready.
    await waitFor(() => expect(verdict.classList.contains('blocked')).toBe(true));
    expect(screen.getByTestId('sandbox-podman-fact').textContent).toMatch(/^\s*not ready, rootless/);
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
    expect(alert.querySelector('strong')?.textContent).toBe('The sandbox (Podman) is not available right now.');
    expect(alert.querySelector('details')?.textContent).toContain('SandboxStatus(): sandbox unavailable: no podman socket');
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
    api.state.lastTest = judgeDoctor(WORKING, new Date()); // fresh: no test on top of the refreshes
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
    expect(api.testSandbox).not.toHaveBeenCalled();
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
          SandboxDoctor: vi.fn(async () => null),
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
    expect(await wailsApi.sandboxDoctor('')).toEqual([]);
  });

  it('leaves out an empty env and passes unparsable parameters through for Go to report', () => {
    const t = customToolFromWire({ name: 'x', parameters: '{bad', env_keys: null });
    expect(t.parameters).toBe('{bad');
    expect(customToolToWire({ ...t, env: {} })).not.toHaveProperty('env');
    expect(customToolToWire(t).parameters).toBe('{bad');
  });
});
