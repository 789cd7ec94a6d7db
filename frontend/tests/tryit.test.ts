import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import App from '../src/App.svelte';
import { formatDuration, parseArgs, prefillArgs, resultOutput } from '../src/lib/tryit';
import { fakeApi } from './fakeApi';

function row(name: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`li[data-tool="${name}"]`);
  if (!el) throw new Error(`no row for ${name}`);
  return el;
}

async function openTool(name: string, api = fakeApi()) {
  const user = userEvent.setup();
  render(App, { props: { api, initialTab: 'tools' } });
  await screen.findByText('5 tools · 4 allowed under coding');
  await user.click(within(row(name)).getAllByRole('button')[0]);
  const form = within(row(name)).getByTestId('try-it');
  const args = within(form).getByRole('textbox', { name: /Arguments/ }) as HTMLTextAreaElement;
  return { api, user, form, args };
}

/** Replaces the textarea's content (user-event would treat { and [ as key syntax). */
function setArgs(el: HTMLTextAreaElement, text: string) {
  return fireEvent.input(el, { target: { value: text } });
}

describe('try-it helpers', () => {
  it('prefills required properties with empty values of their type', () => {
    expect(
      JSON.parse(
        prefillArgs({
          type: 'object',
          properties: {
            path: { type: 'string' },
            n: { type: 'integer' },
            on: { type: 'boolean' },
            tags: { type: 'array' },
            opt: { type: 'string' },
            any: {},
          },
          required: ['path', 'n', 'on', 'tags', 'any'],
        }),
      ),
    ).toEqual({ path: '', n: 0, on: false, tags: [], any: null });
    expect(prefillArgs(null)).toBe('{}');
  });

  it('explains invalid JSON, non-objects and missing required arguments', () => {
    const bad = parseArgs('{"path": }');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toBe(
      'Arguments are not valid JSON: line 1, column 10: expected a value (string, number, object, array, true, false or null) but found "}".',
    );
    const arr = parseArgs('[1]');
    expect(!arr.ok && arr.error).toBe('Arguments must be a JSON object such as {"path": "notes.txt"}, not an array.');
    const schema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    const missing = parseArgs('{}', schema);
    expect(!missing.ok && missing.error).toBe('Missing required argument: path.');
    expect(parseArgs('{ "path" : "a" }', schema)).toEqual({ ok: true, json: '{"path":"a"}' });
    expect(parseArgs('   ')).toEqual({ ok: true, json: '{}' });
  });

  it('formats results and durations', () => {
    expect(resultOutput({ status: 'success', for_llm: 'llm', for_user: 'user', duration_ms: 1 })).toBe('user');
    expect(resultOutput({ status: 'error', for_llm: '', for_user: '', code: 'X', message: 'boom', duration_ms: 1 })).toBe('boom');
    expect(formatDuration(0.42)).toBe('0.42 ms');
    expect(formatDuration(250)).toBe('250 ms');
    expect(formatDuration(1234.5)).toBe('1.23 s');
  });
});

describe('Try it', () => {
  it('is prefilled from the schema and shows a clear error for invalid JSON', async () => {
    const { api, user, form, args } = await openTool('read_file');
    expect(JSON.parse(args.value)).toEqual({ path: '' });
    await setArgs(args, '{"path": "a.txt",}');
    await user.click(within(form).getByRole('button', { name: 'Run' }));
    const err = within(form).getByRole('alert');
    expect(err.textContent).toMatch(/^Arguments are not valid JSON/);
    expect(args.getAttribute('aria-invalid')).toBe('true');
    expect(api.callTool).not.toHaveBeenCalled();

    // Typing clears the error.
    await setArgs(args, '{"limit": 3}');
    expect(within(form).queryByRole('alert')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Run' }));
    expect(within(form).getByRole('alert').textContent).toBe('Missing required argument: path.');
    expect(api.callTool).not.toHaveBeenCalled();
  });

  it('runs the tool as the current agent and shows status, output and duration', async () => {
    const { api, user, form, args } = await openTool('read_file');
    await setArgs(args, '{"path": "notes.txt"}');
    await user.click(within(form).getByRole('button', { name: 'Run' }));
    expect(api.callTool).toHaveBeenCalledWith('read_file', '{"path":"notes.txt"}', 'default');
    const result = await within(form).findByTestId('try-result');
    expect(within(result).getByTestId('try-status').textContent).toBe('success');
    expect(within(result).getByTestId('try-output').textContent).toBe('ran read_file');
    expect(result.textContent).toContain('0.42 ms');
    expect(within(result).queryByTestId('try-code')).toBeNull();
  });

  it('Ctrl+Enter runs, and an error result shows its code and message', async () => {
    const api = fakeApi();
    api.callTool.mockResolvedValueOnce({
      status: 'error',
      for_llm: '',
      for_user: '',
      code: 'NotFound',
      message: 'notes.txt does not exist',
      duration_ms: 3,
    });
    const { user, form, args } = await openTool('read_file', api);
    await setArgs(args, '{"path": "notes.txt"}');
    args.focus();
    await user.keyboard('{Control>}{Enter}{/Control}');
    const result = await within(form).findByTestId('try-result');
    expect(within(result).getByTestId('try-status').textContent).toBe('error');
    expect(within(result).getByTestId('try-code').textContent).toBe('NotFound');
    expect(within(result).getByTestId('try-output').textContent).toBe('notes.txt does not exist');
  });

  it('shows a failed call (Go error) as such', async () => {
    const api = fakeApi();
    api.callTool.mockRejectedValueOnce('registry is closed');
    const { user, form } = await openTool('session_status', api);
    await user.click(within(form).getByRole('button', { name: 'Run' }));
    const result = await within(form).findByTestId('try-result');
    expect(result.textContent).toContain('failed');
    expect(result.textContent).toContain('registry is closed');
  });

  it('says "waiting for approval…" while the call waits, then shows PermissionDenied after Deny', async () => {
    const { api, user, form, args } = await openTool('write_file');
    await setArgs(args, '{"path": "a.txt", "mode": "create"}');
    await user.click(within(form).getByRole('button', { name: 'Run' }));
    const waiting = await within(form).findByTestId('try-waiting');
    expect(waiting.textContent).toContain('waiting for approval…');
    expect(within(form).getByRole('button', { name: 'Run' }).hasAttribute('disabled')).toBe(true);

    // Open Approvals from the form and deny there.
    await user.click(within(waiting).getByRole('button', { name: 'Open Approvals' }));
    expect(screen.getByRole('tab', { name: /Approvals/ }).getAttribute('aria-selected')).toBe('true');
    const card = await waitFor(() => {
      const c = document.querySelector<HTMLElement>('li[data-request]');
      expect(c).toBeTruthy();
      return c!;
    });
    expect(within(card).getByTestId('request-summary').textContent).toBe('write_file {"path":"a.txt","mode":"create"}');
    await user.click(within(card).getByRole('button', { name: /Deny/ }));

    await user.click(screen.getByRole('tab', { name: 'Tools' }));
    const result = await within(form).findByTestId('try-result');
    expect(within(result).getByTestId('try-code').textContent).toBe('PermissionDenied');
    expect(within(form).queryByTestId('try-waiting')).toBeNull();
    expect(api.callTool).toHaveBeenCalledTimes(1);
  });

  it('Reset restores the prefilled arguments', async () => {
    const { user, form, args } = await openTool('write_file');
    await setArgs(args, 'garbage');
    await user.click(within(form).getByRole('button', { name: 'Reset' }));
    expect(JSON.parse(args.value)).toEqual({ path: '', mode: '' });
  });
});
