import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import CustomToolsPanel from '../src/components/tools/CustomToolsPanel.svelte';
import { fromDraft, placeholders, toDraft, validateDraft, type Draft } from '../src/lib/customTools';
import { fakeApi, sampleCustomTool } from './fakeApi';

function draft(over: Partial<Draft> = {}): Draft {
  return {
    ...toDraft(null),
    name: 'count_lines',
    description: 'Count lines',
    parameters: '{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}',
    command: 'wc -l {{.path}}',
    ...over,
  };
}

describe('custom tool validation', () => {
  it('finds placeholders in several spellings, once each', () => {
    expect(placeholders('cp {{.src}} {{ .dst }} && echo {{.src}} {{x}}')).toEqual(['src', 'dst']);
  });

  it('accepts a good draft', () => {
    expect(validateDraft(draft())).toEqual({ errors: {}, missing: [], ok: true });
  });

  it.each([
    [{ name: '' }, 'name', 'A name is required.'],
    [{ name: 'Count' }, 'name', 'lowercase letter first'],
    [{ name: '1abc' }, 'name', 'lowercase letter first'],
    [{ name: 'a'.repeat(65) }, 'name', '1–64 characters'],
    [{ name: 'has-dash' }, 'name', 'lowercase letters, digits or _'],
    [{ description: ' ' }, 'description', 'Say what the tool does'],
    [{ parameters: '{"type": "object",}' }, 'parameters', 'Not valid JSON: line 1, column 19: a trailing comma'],
    [{ parameters: '[]' }, 'parameters', 'Must be a JSON object'],
    [{ parameters: '{"type":"string"}' }, 'parameters', 'must be "object" (got "string")'],
    [{ parameters: '{"properties":{}}' }, 'parameters', 'must be "object" (got nothing)'],
    [{ parameters: '{"type":"object","properties":[]}' }, 'parameters', '"properties" must be an object'],
    [{ parameters: '{"type":"object","properties":{},"required":["x"]}' }, 'parameters', 'do not exist: x'],
    [{ command: '' }, 'command', 'A command is required.'],
    [{ command: 'cp {{.path}} {{.dest}} {{.mode}}' }, 'command', 'Not defined in parameters: {{.dest}}, {{.mode}}.'],
    [{ command: 'echo {{.path | printf "%q"}}' }, 'command', 'Only {{.name}} placeholders are allowed'],
    [{ command: 'echo {{if .path}}x{{end}}' }, 'command', 'Only {{.name}} placeholders are allowed'],
    [{ command: 'echo }} {{.path}}' }, 'command', 'Only {{.name}} placeholders are allowed'],
    [{ timeout: '0' }, 'timeout', 'Whole seconds from 1 to 3600.'],
    [{ timeout: '1.5' }, 'timeout', 'Whole seconds'],
    [{ timeout: '3601' }, 'timeout', 'Whole seconds'],
    [{ env: [{ key: '1X', value: 'v', stored: false, replace: false }] }, 'env', 'is not valid'],
    [{ env: [{ key: ' ', value: 'v', stored: false, replace: false }] }, 'env', 'Give each variable a name'],
    [{ env: [{ key: 'TOKEN', value: '', stored: false, replace: false }] }, 'env', 'Type a value for TOKEN.'],
  ])('%j → %s error', (over, field, text) => {
    const v = validateDraft(draft(over as Partial<Draft>));
    expect(v.ok).toBe(false);
    expect(v.errors[field as keyof typeof v.errors]).toContain(text);
  });

  it('lists the missing placeholders', () => {
    expect(validateDraft(draft({ command: 'cp {{.path}} {{.dest}}' })).missing).toEqual(['dest']);
  });

  it('rejects a duplicate (name, agent) only when creating', () => {
    const existing = [{ name: 'count_lines', agent: '' }];
    expect(validateDraft(draft(), { existing, creating: true }).errors.name).toBe(
      'A custom tool named count_lines already exists for all agents.',
    );
    expect(validateDraft(draft({ agent: 'reviewer' }), { existing, creating: true }).ok).toBe(true);
    expect(validateDraft(draft(), { existing, creating: false }).ok).toBe(true);
  });

  it('sends env values only when typed, and keeps stored keys', () => {
    const d = toDraft(sampleCustomTool);
    expect(d.env).toEqual([{ key: 'API_TOKEN', value: '', stored: true, replace: false }]);
    expect(fromDraft(d)).not.toHaveProperty('env');
    expect(fromDraft(d).env_keys).toEqual(['API_TOKEN']);
    d.env.push({ key: 'REGION', value: 'eu', stored: false, replace: false });
    d.env[0].replace = true;
    d.env[0].value = 'new-secret';
    const t = fromDraft(d);
    expect(t.env).toEqual({ API_TOKEN: 'new-secret', REGION: 'eu' });
    expect(t.env_keys).toEqual(['API_TOKEN', 'REGION']);
    expect(t.parameters).toBe(sampleCustomTool.parameters); // compact JSON
  });

  it('sends "" for a removed stored variable (Go deletes it)', () => {
    const d = toDraft(sampleCustomTool);
    d.env.splice(0, 1);
    d.removed.push('API_TOKEN');
    const t = fromDraft(d);
    expect(t.env).toEqual({ API_TOKEN: '' });
    expect(t.env_keys).toEqual([]);
  });
});

function setValue(el: HTMLElement, value: string) {
  return fireEvent.input(el, { target: { value } });
}

async function renderPanel(api = fakeApi()) {
  const user = userEvent.setup();
  render(CustomToolsPanel, { props: { api, active: true } });
  await waitFor(() => expect(api.customTools).toHaveBeenCalled());
  return { api, user };
}

describe('custom tools panel', () => {
  it('lists tools with their env keys but never values', async () => {
    await renderPanel();
    const row = await waitFor(() => {
      const r = document.querySelector<HTMLElement>('tr[data-custom-tool="count_lines"]');
      expect(r).toBeTruthy();
      return r!;
    });
    expect(row.textContent).toContain('Count the lines of a file');
    expect(row.textContent).toContain('wc -l {{.path}}');
    expect(row.textContent).toContain('API_TOKEN');
    expect((within(row).getByRole('switch', { name: 'Enable count_lines' }) as HTMLInputElement).checked).toBe(true);
  });

  it('shows validation errors on create and does not save until fixed', async () => {
    const { api, user } = await renderPanel();
    await user.click(await screen.findByRole('button', { name: 'New tool' }));
    const form = screen.getByTestId('custom-tool-form');
    const f = within(form);
    await user.type(f.getByRole('textbox', { name: /^Name/ }), '日本');
    await setValue(f.getByRole('textbox', { name: /^Parameters/ }), '{"type":"object","properties":{"path":{"type":"string"}}}');
    await setValue(f.getByRole('textbox', { name: /^Command/ }), 'cp {{.path}} {{.dest}} {{.mode}}');

    // The missing placeholders show as soon as they are typed.
    expect(f.getByTestId('missing-placeholders').textContent).toContain('{{.dest}}, {{.mode}}');

    await user.click(f.getByRole('button', { name: 'Create tool' }));
    expect(api.saveCustomTool).not.toHaveBeenCalled();
    expect(f.getByTestId('form-errors').textContent).toContain('Fix 3 fields');
    expect(form.textContent).toContain('Give it a name with at least one letter or digit.');
    expect(form.textContent).toContain('Say what the tool does');
    expect(f.getByRole('textbox', { name: /^Name/ }).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(f.getByRole('textbox', { name: /^Name/ }));

    await setValue(f.getByRole('textbox', { name: /^Parameters/ }), '{"type": "array"}');
    expect(form.textContent).toContain('The schema\'s "type" must be "object"');
  });

  it('derives the tool name from the name typed, and picks the agent from the list', async () => {
    const { api, user } = await renderPanel();
    await user.click(await screen.findByRole('button', { name: 'New tool' }));
    const f = within(screen.getByTestId('custom-tool-form'));
    const name = f.getByRole('textbox', { name: /^Name/ });
    expect(document.activeElement).toBe(name);
    await user.type(name, 'Count Lines 2');
    expect(f.getByTestId('ct-name-id').textContent).toContain('The model calls it count_lines_2.');
    // Agents come from a list, never typed: a tool for a missing agent cannot be made here.
    const agent = f.getByRole('combobox', { name: /^Agent/ }) as HTMLSelectElement;
    expect([...agent.options].map((o) => o.value)).toEqual(['', 'default', 'reviewer']);
    expect(agent.value).toBe('');
    await user.selectOptions(agent, 'reviewer');
    await user.type(f.getByRole('textbox', { name: /^Description/ }), 'Count lines');
    await setValue(f.getByRole('textbox', { name: /^Command/ }), 'wc -l README.md');
    await user.click(f.getByRole('button', { name: 'Create tool' }));
    expect(api.saveCustomTool).toHaveBeenCalledWith(expect.objectContaining({ name: 'count_lines_2', agent: 'reviewer' }));
    expect(await screen.findByText('Created count_lines_2.')).toBeTruthy();
  });

  it('Escape closes the form and gives focus back to New tool', async () => {
    const { api, user } = await renderPanel();
    const button = await screen.findByRole('button', { name: 'New tool' });
    await user.click(button);
    await user.type(within(screen.getByTestId('custom-tool-form')).getByRole('textbox', { name: /^Name/ }), 'half done');
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('custom-tool-form')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(button));
    expect(api.saveCustomTool).not.toHaveBeenCalled();
  });

  it('creates a tool with a masked env value', async () => {
    const { api, user } = await renderPanel();
    await user.click(await screen.findByRole('button', { name: 'New tool' }));
    const f = within(screen.getByTestId('custom-tool-form'));
    await user.type(f.getByRole('textbox', { name: /^Name/ }), 'greet');
    await user.type(f.getByRole('textbox', { name: /^Description/ }), 'Say hello');
    await setValue(
      f.getByRole('textbox', { name: /^Parameters/ }),
      '{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}',
    );
    await setValue(f.getByRole('textbox', { name: /^Command/ }), 'echo hello {{.who}}');
    await user.click(f.getByRole('button', { name: 'Add variable' }));
    expect(document.activeElement).toBe(f.getByRole('textbox', { name: 'Variable name' }));
    await user.type(f.getByRole('textbox', { name: 'Variable name' }), 'GREETING_KEY');
    const secret = f.getByLabelText('Value for GREETING_KEY') as HTMLInputElement;
    expect(secret.type).toBe('password');
    await user.type(secret, 's3cret');
    await user.click(f.getByRole('button', { name: 'Create tool' }));

    expect(api.saveCustomTool).toHaveBeenCalledWith({
      name: 'greet',
      description: 'Say hello',
      parameters: '{"type":"object","properties":{"who":{"type":"string"}},"required":["who"]}',
      command: 'echo hello {{.who}}',
      timeout_seconds: 60,
      enabled: true,
      agent: '',
      env_keys: ['GREETING_KEY'],
      env: { GREETING_KEY: 's3cret' },
    });
    expect(await screen.findByText('Created greet.')).toBeTruthy();
    expect(screen.queryByTestId('custom-tool-form')).toBeNull();
    expect(document.querySelector('tr[data-custom-tool="greet"]')).toBeTruthy();
  });

  it('edits a tool: stored env values show as set and are not sent unless replaced', async () => {
    const { api, user } = await renderPanel();
    const row = await waitFor(() => document.querySelector<HTMLElement>('tr[data-custom-tool="count_lines"]')!);
    await user.click(within(row).getByRole('button', { name: 'Edit count_lines' }));
    const form = screen.getByTestId('custom-tool-form');
    const f = within(form);
    expect((f.getByRole('textbox', { name: /^Name/ }) as HTMLInputElement).readOnly).toBe(true);
    expect(f.getByTestId('env-set').textContent).toBe('•••• (set)');
    expect(form.textContent).not.toContain('s3cret');
    await user.clear(f.getByRole('textbox', { name: /^Timeout/ }));
    await user.type(f.getByRole('textbox', { name: /^Timeout/ }), '60');
    await user.click(f.getByRole('button', { name: 'Save changes' }));
    const saved = api.saveCustomTool.mock.calls[0][0];
    expect(saved).toMatchObject({ name: 'count_lines', timeout_seconds: 60, env_keys: ['API_TOKEN'] });
    expect(saved).not.toHaveProperty('env');
    expect(await screen.findByText('Saved count_lines.')).toBeTruthy();
  });

  it('replacing a stored value requires typing one', async () => {
    const { api, user } = await renderPanel();
    const row = await waitFor(() => document.querySelector<HTMLElement>('tr[data-custom-tool="count_lines"]')!);
    await user.click(within(row).getByRole('button', { name: 'Edit count_lines' }));
    const f = within(screen.getByTestId('custom-tool-form'));
    await user.click(f.getByRole('button', { name: 'Replace' }));
    await user.click(f.getByRole('button', { name: 'Save changes' }));
    expect(api.saveCustomTool).not.toHaveBeenCalled();
    expect(f.getByText(/Type a value for API_TOKEN, or keep the stored one/)).toBeTruthy();
    await user.type(f.getByLabelText('New value for API_TOKEN'), 'rotated');
    await user.click(f.getByRole('button', { name: 'Save changes' }));
    expect(api.saveCustomTool.mock.calls[0][0].env).toEqual({ API_TOKEN: 'rotated' });
  });

  it('toggles enabled without sending env values', async () => {
    const { api, user } = await renderPanel();
    const toggle = await screen.findByRole('switch', { name: 'Enable count_lines' });
    await user.click(toggle);
    expect(api.saveCustomTool).toHaveBeenCalledWith({ ...sampleCustomTool, enabled: false });
    await waitFor(() => expect((screen.getByRole('switch', { name: 'Enable count_lines' }) as HTMLInputElement).checked).toBe(false));
  });

  it('deletes only after confirmation', async () => {
    const { api, user } = await renderPanel();
    await user.click(await screen.findByRole('button', { name: 'Delete count_lines' }));
    expect(api.deleteCustomTool).not.toHaveBeenCalled();
    expect(screen.getByText(/Delete count_lines\? Agents lose it at once/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    expect(api.deleteCustomTool).toHaveBeenCalledWith('count_lines', '');
    expect(await screen.findByText(/No custom tools yet/)).toBeTruthy();
  });

  it('shows the save error from Go and keeps the form', async () => {
    const api = fakeApi();
    api.saveCustomTool.mockRejectedValueOnce('name clashes with built-in tool read_file');
    const { user } = await renderPanel(api);
    const row = await waitFor(() => document.querySelector<HTMLElement>('tr[data-custom-tool="count_lines"]')!);
    await user.click(within(row).getByRole('button', { name: 'Edit count_lines' }));
    const f = within(screen.getByTestId('custom-tool-form'));
    await user.click(f.getByRole('button', { name: 'Save changes' }));
    expect((await f.findByTestId('error-banner')).textContent).toContain('name clashes with built-in tool read_file');
  });

  it('removes a stored variable on save', async () => {
    const { api, user } = await renderPanel();
    const row = await waitFor(() => document.querySelector<HTMLElement>('tr[data-custom-tool="count_lines"]')!);
    await user.click(within(row).getByRole('button', { name: 'Edit count_lines' }));
    const f = within(screen.getByTestId('custom-tool-form'));
    await user.click(f.getByRole('button', { name: 'Remove API_TOKEN' }));
    expect(f.getByText(/Removed when you save/).textContent).toContain('API_TOKEN');
    await user.click(f.getByRole('button', { name: 'Save changes' }));
    expect(api.saveCustomTool.mock.calls[0][0].env).toEqual({ API_TOKEN: '' });
    await waitFor(() =>
      expect(document.querySelector('tr[data-custom-tool="count_lines"]')?.textContent).not.toContain('API_TOKEN'),
    );
    expect(api.state.customEnv['\u0000count_lines']).toEqual({});
  });

  it('shows stored definitions that could not be loaded', async () => {
    const api = fakeApi();
    api.state.customProblems = ['custom tool "broken": parameters must have "type": "object"'];
    await renderPanel(api);
    const problems = await screen.findByTestId('custom-problems');
    expect(problems.querySelector('.sentence')?.textContent).toBe('Warren could not load the tool broken.');
    expect(problems.querySelector('details')?.textContent).toContain('custom tool "broken": parameters must have "type": "object"');
  });
});
