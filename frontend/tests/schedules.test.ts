import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import App from '../src/App.svelte';
import SchedulesPanel from '../src/components/schedules/SchedulesPanel.svelte';
import {
  describeSchedule,
  formatWhen,
  isBusy,
  nameFromPrompt,
  nextRunText,
  parseFieldErrors,
  rfc3339Local,
  SCHEDULE_PRESETS,
} from '../src/lib/schedules';
import { fakeApi, freezeClock, makeJob } from './fakeApi';

afterEach(() => vi.useRealTimers());

const NOW = new Date(2026, 2, 2, 8, 30); // Monday 2 March 2026, 08:30 local

describe('schedules in words', () => {
  it('describes the common cron shapes and leaves the rest alone', () => {
    const cases: [string, string | null][] = [
      ['0 9 * * *', 'every day at 09:00'],
      ['30 9 * * 1-5', 'on weekdays at 09:30'],
      ['0 8 * * 1', 'every Monday at 08:00'],
      ['0 8 * * MON', 'every Monday at 08:00'],
      ['0 10 * * 0,6', 'on weekends at 10:00'],
      ['15 7 * * 1,3,5', 'on Monday, Wednesday and Friday at 07:15'],
      ['0 9,17 * * *', 'every day at 09:00 and 17:00'],
      ['*/15 * * * *', 'every 15 minutes'],
      ['*/10 * * * 1-5', 'every 10 minutes on weekdays'],
      ['0 * * * *', 'every hour, on the hour'],
      ['5 * * * *', 'every hour at :05'],
      ['* * * * *', 'every minute'],
      ['0 6 1 * *', 'on day 1 of every month at 06:00'],
      ['@daily', 'every day at 00:00'],
      ['@HOURLY', 'every hour, on the hour'],
      ['0 9 * 1 *', null], // months: say the expression itself
      ['0 9-17 * * *', null],
      ['61 9 * * *', null], // invalid: the backend says why, not this
      ['0 9 * *', null],
    ];
    for (const [expr, words] of cases) expect([expr, describeSchedule(expr, NOW)]).toEqual([expr, words]);
    expect(describeSchedule('at 2026-03-03T09:00:00+00:00', NOW)).toMatch(/^once, (tomorrow|today) \d\d:00$/);
  });

  it('says which day and time', () => {
    expect(formatWhen(new Date(2026, 2, 2, 9, 0), NOW)).toBe('today 09:00');
    expect(formatWhen(new Date(2026, 2, 3, 9, 0), NOW)).toBe('tomorrow 09:00');
    expect(formatWhen(new Date(2026, 2, 1, 17, 30), NOW)).toBe('yesterday 17:30');
    expect(formatWhen(new Date(2026, 2, 6, 9, 0), NOW)).toMatch(/^Fri.*(6.*Mar|Mar.*6).* 09:00$/);
    expect(formatWhen(new Date(2027, 0, 4, 9, 0), NOW)).toMatch(/2027/);
  });

  it('reads next runs and busy jobs', () => {
    const job = makeJob({ next_run: new Date(2026, 2, 2, 9, 0).toISOString() });
    expect(nextRunText(job, NOW)).toBe('today 09:00 · in 30 min');
    expect(nextRunText({ ...job, enabled: false }, NOW)).toBe('paused');
    expect(nextRunText({ ...job, next_run: '0001-01-01T00:00:00Z' }, NOW)).toBe('no further runs');
    expect(isBusy(job, NOW)).toBe(false);
    expect(isBusy({ ...job, last_status: 'running' }, NOW)).toBe(true);
    expect(isBusy({ ...job, next_run: NOW.toISOString() }, NOW)).toBe(true); // made due by Run now
    expect(isBusy({ ...job, enabled: false, next_run: NOW.toISOString() }, NOW)).toBe(false);
  });

  it('maps backend errors to fields and writes one-shot times the parser takes', () => {
    expect(parseFieldErrors('schedule: minute field "61": value 61 out of range 0-59\nprompt: write the instruction\ndatabase is locked')).toEqual({
      fields: { schedule: 'Minute field "61": value 61 out of range 0-59', prompt: 'Write the instruction' },
      other: ['database is locked'],
    });
    const s = rfc3339Local(new Date(2026, 2, 2, 9, 5, 7));
    expect(s).toMatch(/^2026-03-02T09:05:07[+-]\d\d:\d\d$/);
    expect(Date.parse(s)).toBe(new Date(2026, 2, 2, 9, 5, 7).getTime());
    const once = SCHEDULE_PRESETS.find((p) => p.label.startsWith('Once'))!.value(NOW);
    expect(Date.parse(once.slice(3))).toBe(NOW.getTime() + 3_600_000);
  });
});

async function renderPanel(api = fakeApi(), onopensession = vi.fn()) {
  const user = userEvent.setup();
  render(SchedulesPanel, { props: { api, active: true, onopensession, pollMs: 20 } });
  await waitFor(() => expect(api.cronJobs).toHaveBeenCalled());
  return { api, user, onopensession };
}

function card(id: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`[data-job="${id}"]`);
  if (!el) throw new Error(`no job ${id}`);
  return el;
}

describe('names made from prompts', () => {
  // The same cases as backend/cron/name_test.go: the form shows the name Go stores.
  it.each([
    ['summarise what changed in my notes since yesterday.', 'Summarise what changed in my notes since yesterday'],
    ['\n\n  Check   the\tbuild  \nthen more lines', 'Check the build'],
    [
      'Write a long report about every single thing that happened in the repository this week and more',
      'Write a long report about every single thing that happened…',
    ],
    [
      'Averyveryveryveryveryveryveryveryveryveryveryveryveryverylongwordwithoutspaces',
      'Averyveryveryveryveryveryveryveryveryveryveryveryveryverylo…',
    ],
    ['élan: café?', 'Élan: café'],
    ['   \n  ', 'Scheduled prompt'],
  ])('%j → %j', (prompt, want) => {
    expect(nameFromPrompt(prompt)).toBe(want);
  });
});

describe('schedules panel', () => {
  it('lists jobs with agent, schedule in words, next run, prompt, switch and last result', async () => {
    freezeClock();
    const api = fakeApi();
    api.state.cron = [
      makeJob({ id: 'cron-a', name: 'Morning digest', schedule: '0 9 * * 1-5', last_status: 'ok', last_run: new Date(Date.now() - 3_600_000).toISOString(), last_result: 'Three notes changed.', last_session: 'sess-a' }),
      makeJob({ id: 'cron-b', name: 'Weekly review', agent: 'reviewer', schedule: '0 8 * * 1', enabled: false, next_run: '0001-01-01T00:00:00Z', last_status: 'error', last_run: new Date(Date.now() - 86_400_000).toISOString(), last_result: 'agent reviewer has no model provider' }),
      makeJob({ id: 'cron-c', name: 'Never yet', schedule: '*/5 * * * *' }),
    ];
    const { onopensession, user } = await renderPanel(api);
    await waitFor(() => card('cron-a'));
    expect(screen.getByRole('heading', { name: /Schedules/ }).textContent).toContain('3');

    const a = card('cron-a');
    expect(within(a).getByRole('heading', { name: 'Morning digest' })).toBeTruthy();
    expect(a.textContent).toContain('agent default');
    expect(within(a).getByTestId('job-schedule').textContent).toBe('0 9 * * 1-5');
    expect(a.textContent).toContain('on weekdays at 09:00');
    expect(within(a).getByTestId('job-next').textContent).toMatch(/ · in 1 h$/); // makeJob: next run in an hour
    expect(a.textContent).toContain('Summarise my notes.');
    expect((within(a).getByRole('switch', { name: 'Enabled Morning digest' }) as HTMLInputElement).checked).toBe(true);
    expect(within(a).getByTestId('job-status').textContent).toBe('ok');
    expect(within(a).getByTestId('job-last').textContent).toContain(' · 1 h ago'); // the run an hour ago
    const result = within(a).getByTestId('job-result');
    expect(result.textContent).toBe('Three notes changed.');
    expect(result.getAttribute('aria-expanded')).toBe('false');
    await user.click(result);
    expect(result.getAttribute('aria-expanded')).toBe('true');
    await user.click(within(a).getByRole('button', { name: 'Open chat' }));
    expect(onopensession).toHaveBeenCalledWith('sess-a', 'default');

    const b = card('cron-b');
    expect(b.textContent).toContain('agent reviewer');
    expect(within(b).getByTestId('job-next').textContent).toBe('paused');
    expect(within(b).getByTestId('job-status').textContent).toBe('failed');
    expect(within(b).getByTestId('job-result').textContent).toContain('no model provider');
    expect((within(b).getByRole('button', { name: 'Run Weekly review now' }) as HTMLButtonElement).disabled).toBe(true);

    expect(within(card('cron-c')).getByTestId('job-last').textContent).toContain('never run');
  });

  it('says how to start when there are none', async () => {
    await renderPanel();
    await screen.findByText(/No schedules yet/);
  });

  it('creates a job: required fields, the backend parser checked as you type, Ctrl+Enter saves', async () => {
    const { api, user } = await renderPanel();
    await user.click(await screen.findByRole('button', { name: 'New schedule' }));
    const form = screen.getByRole('form', { name: 'New schedule' });
    const name = within(form).getByRole('textbox', { name: 'Name' });
    expect(document.activeElement).toBe(name);

    await user.click(within(form).getByRole('button', { name: 'Create schedule' }));
    expect(api.addCronJob).not.toHaveBeenCalled();
    const schedule = within(form).getByRole('textbox', { name: 'Schedule' });
    expect(schedule.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(schedule);
    expect(form.textContent).toContain('A schedule is required');
    expect(form.textContent).toContain('Write the instruction the agent runs.');

    await user.type(schedule, '61 9 * * *');
    const err = await within(form).findByTestId('schedule-error');
    expect(err.textContent).toBe('Minute field "61": value 61 out of range 0-59');
    expect(api.cronSchedulePreview).toHaveBeenLastCalledWith('61 9 * * *', 3);

    await user.click(within(form).getByRole('button', { name: 'Weekdays 09:00' }));
    expect((schedule as HTMLInputElement).value).toBe('0 9 * * 1-5');
    const preview = await within(form).findByTestId('schedule-preview');
    expect(preview.textContent).toMatch(/^On weekdays at 09:00\. Next: /);
    expect(within(form).queryByTestId('schedule-error')).toBeNull();

    const prompt = within(form).getByRole('textbox', { name: 'Prompt' });
    await user.type(prompt, 'Collect yesterday’s commits.');
    // Left empty, the name comes from the prompt: the form says which.
    expect(within(form).getByTestId('sched-derived-name').textContent).toBe('Left empty, it is called “Collect yesterday’s commits”.');
    expect(name.getAttribute('placeholder')).toBe('Collect yesterday’s commits');
    await user.type(name, 'Standup notes');
    expect(within(form).queryByTestId('sched-derived-name')).toBeNull();
    await user.click(prompt);
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(api.addCronJob).toHaveBeenCalledWith({ agent: 'default', name: 'Standup notes', schedule: '0 9 * * 1-5', prompt: 'Collect yesterday’s commits.' });
    await screen.findByText('Created schedule Standup notes.');
    expect(screen.queryByRole('form', { name: 'New schedule' })).toBeNull();
    const created = card('cron-1');
    expect(created.textContent).toContain('Collect yesterday’s commits.');
    await waitFor(() => expect(document.activeElement).toBe(within(created).getByRole('button', { name: 'Run Standup notes now' })));
  });

  it('shows each backend field error next to its field and focuses the first', async () => {
    const api = fakeApi();
    api.addCronJob.mockRejectedValueOnce('schedule: hour field "25": value 25 out of range 0-23\nprompt: write the instruction the agent runs\nsomething else broke');
    const { user } = await renderPanel(api);
    await user.click(await screen.findByRole('button', { name: 'New schedule' }));
    const form = screen.getByRole('form', { name: 'New schedule' });
    // A valid-looking draft the backend still refuses (the mock above).
    await user.type(within(form).getByRole('textbox', { name: 'Schedule' }), '0 9 * * *');
    await user.type(within(form).getByRole('textbox', { name: 'Prompt' }), 'x');
    await user.click(within(form).getByRole('button', { name: 'Create schedule' }));
    const schedule = within(form).getByRole('textbox', { name: 'Schedule' });
    await waitFor(() => expect(schedule.getAttribute('aria-invalid')).toBe('true'));
    expect(document.activeElement).toBe(schedule);
    expect(within(form).getByTestId('schedule-error').textContent).toBe('Hour field "25": value 25 out of range 0-23');
    expect(within(form).getByRole('textbox', { name: 'Prompt' }).getAttribute('aria-invalid')).toBe('true');
    const alert = within(form).getByRole('alert');
    expect(alert.querySelector('strong')?.textContent).toBe('Warren could not create the schedule.');
    expect(alert.querySelector('details')?.textContent).toContain('AddCronJob: something else broke');
    // Editing the field clears its backend error.
    await user.type(schedule, ' ');
    await waitFor(() => expect(within(form).queryByText(/Hour field/)).toBeNull());
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('form', { name: 'New schedule' })).toBeNull();
  });

  it('pauses and resumes with the switch', async () => {
    const api = fakeApi();
    api.state.cron = [makeJob({ id: 'cron-a', name: 'Digest' })];
    const { user } = await renderPanel(api);
    const sw = await screen.findByRole('switch', { name: 'Enabled Digest' });
    await user.click(sw);
    expect(api.setCronJobEnabled).toHaveBeenCalledWith('cron-a', false);
    await waitFor(() => expect(within(card('cron-a')).getByTestId('job-next').textContent).toBe('paused'));
    expect(screen.getByText('Paused Digest.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Run Digest now' }) as HTMLButtonElement).disabled).toBe(true);
    await user.keyboard(' '); // the switch keeps focus: Space turns it back on
    expect(api.setCronJobEnabled).toHaveBeenLastCalledWith('cron-a', true);
    await waitFor(() => expect(within(card('cron-a')).getByTestId('job-next').textContent).toMatch(/in /));
  });

  it('deletes only after confirming', async () => {
    const api = fakeApi();
    api.state.cron = [makeJob({ id: 'cron-a', name: 'Digest' }), makeJob({ id: 'cron-b', name: 'Other' })];
    const { user } = await renderPanel(api);
    await user.click(await screen.findByRole('button', { name: 'Delete Digest' }));
    expect(api.deleteCronJob).not.toHaveBeenCalled();
    const ask = screen.getByRole('group', { name: 'Delete Digest?' });
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(api.deleteCronJob).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Delete Digest' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete' }));
    expect(api.deleteCronJob).toHaveBeenCalledWith('cron-a');
    await waitFor(() => expect(document.querySelector('[data-job="cron-a"]')).toBeNull());
    expect(card('cron-b')).toBeTruthy();
  });

  it('Run now shows the run under way, then its result', async () => {
    const api = fakeApi();
    api.state.cron = [makeJob({ id: 'cron-a', name: 'Digest' })];
    const { user } = await renderPanel(api);
    await user.click(await screen.findByRole('button', { name: 'Run Digest now' }));
    expect(api.runCronJobNow).toHaveBeenCalledWith('cron-a');
    const button = screen.getByRole('button', { name: 'Run Digest now' }) as HTMLButtonElement;
    await waitFor(() => expect(button.textContent).toBe('Running…'));
    expect(button.disabled).toBe(true);
    expect(within(card('cron-a')).getByTestId('job-status').textContent).toBe('running');
    const calls = api.cronJobs.mock.calls.length;
    await waitFor(() => expect(api.cronJobs.mock.calls.length).toBeGreaterThan(calls + 1)); // polling while it runs
    const notice = () => screen.getAllByRole('status').find((el) => el.classList.contains('notice'))?.textContent ?? '';
    expect(notice()).toContain('Started Digest: it is running…');
    api.finishCronRun('cron-a', 'ok', 'Nothing due today.', 'sess-9');
    await waitFor(() => expect(within(card('cron-a')).getByTestId('job-status').textContent).toBe('ok'));
    expect(within(card('cron-a')).getByTestId('job-result').textContent).toBe('Nothing due today.');
    expect(button.textContent).toBe('Run now');
    // The notice follows the run: no stale "started" once it ended.
    expect(notice()).toContain('Digest ran: its result is below.');
  });

  it('edits a job in place: prefilled, checked as you type, Escape cancels, Ctrl+Enter saves', async () => {
    const api = fakeApi();
    api.state.cron = [makeJob({ id: 'cron-a', name: 'Morning digest', schedule: '0 9 * * 1-5', prompt: 'Summarise my notes.', last_status: 'ok', last_result: 'Done.' })];
    const { user } = await renderPanel(api);
    await waitFor(() => card('cron-a'));

    const editButton = within(card('cron-a')).getByRole('button', { name: 'Edit Morning digest' });
    await user.click(editButton);
    let form = within(card('cron-a')).getByRole('form', { name: 'Edit schedule' });
    const name = within(form).getByRole('textbox', { name: 'Name' }) as HTMLInputElement;
    expect(document.activeElement).toBe(name);
    expect(name.value).toBe('Morning digest');
    expect((within(form).getByRole('textbox', { name: 'Schedule' }) as HTMLInputElement).value).toBe('0 9 * * 1-5');
    expect((within(form).getByRole('textbox', { name: 'Prompt' }) as HTMLTextAreaElement).value).toBe('Summarise my notes.');
    expect((within(form).getByRole('combobox', { name: 'Agent' }) as HTMLSelectElement).value).toBe('default');
    await within(form).findByTestId('schedule-preview');

    await user.keyboard('{Escape}');
    expect(within(card('cron-a')).queryByRole('form')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(within(card('cron-a')).getByRole('button', { name: 'Edit Morning digest' })));
    expect(api.updateCronJob).not.toHaveBeenCalled();

    await user.click(within(card('cron-a')).getByRole('button', { name: 'Edit Morning digest' }));
    form = within(card('cron-a')).getByRole('form', { name: 'Edit schedule' });
    const schedule = within(form).getByRole('textbox', { name: 'Schedule' });
    await user.clear(schedule);
    await user.type(schedule, '61 9 * * *');
    expect((await within(form).findByTestId('schedule-error')).textContent).toMatch(/^Minute field "61"/);
    await user.clear(schedule);
    await user.type(schedule, '30 7 * * *');
    expect((await within(form).findByTestId('schedule-preview')).textContent).toMatch(/^Every day at 07:30\. Next: /);

    const prompt = within(form).getByRole('textbox', { name: 'Prompt' });
    await user.clear(prompt);
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(api.updateCronJob).not.toHaveBeenCalled();
    expect(prompt.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(prompt);

    await user.type(prompt, 'List today’s meetings.');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(api.updateCronJob).toHaveBeenCalledWith('cron-a', { agent: 'default', name: 'Morning digest', schedule: '30 7 * * *', prompt: 'List today’s meetings.' });
    expect(api.addCronJob).not.toHaveBeenCalled();
    await screen.findByText('Saved schedule Morning digest.');
    const a = card('cron-a');
    expect(within(a).queryByRole('form')).toBeNull();
    expect(within(a).getByTestId('job-schedule').textContent).toBe('30 7 * * *');
    expect(a.textContent).toContain('List today’s meetings.');
    expect(within(a).getByTestId('job-status').textContent).toBe('ok');
    await waitFor(() => expect(document.activeElement).toBe(within(a).getByRole('button', { name: 'Edit Morning digest' })));
  });

  it('shows a refused edit next to its field and cannot edit a running job', async () => {
    const api = fakeApi();
    api.state.cron = [makeJob({ id: 'cron-a', name: 'Digest' }), makeJob({ id: 'cron-r', name: 'Busy', last_status: 'running', last_run: new Date().toISOString() })];
    api.updateCronJob.mockRejectedValueOnce('agent: no agent "ghost"');
    const { user } = await renderPanel(api);
    await waitFor(() => card('cron-r'));
    expect((within(card('cron-r')).getByRole('button', { name: 'Edit Busy' }) as HTMLButtonElement).disabled).toBe(true);

    await user.click(within(card('cron-a')).getByRole('button', { name: 'Edit Digest' }));
    const form = within(card('cron-a')).getByRole('form', { name: 'Edit schedule' });
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    const agent = within(form).getByRole('combobox', { name: 'Agent' });
    await waitFor(() => expect(agent.getAttribute('aria-invalid')).toBe('true'));
    expect(form.textContent).toContain('No agent "ghost"');
    expect(within(card('cron-a')).getByRole('form', { name: 'Edit schedule' })).toBe(form);
  });

  it('reports a refused Run now in a banner', async () => {
    const api = fakeApi();
    api.state.cron = [makeJob({ id: 'cron-a', name: 'Digest' })];
    api.runCronJobNow.mockRejectedValueOnce('cron job is already running: Digest started at 09:00:00');
    const { user } = await renderPanel(api);
    await user.click(await screen.findByRole('button', { name: 'Run Digest now' }));
    const banner = await screen.findByRole('alert');
    expect(banner.querySelector('strong')?.textContent).toBe('That schedule is running now. Wait for it to finish, then try again.');
    expect(banner.querySelector('details')?.textContent).toContain('RunCronJobNow("Digest"): cron job is already running');
  });
});

describe('schedules in the app', () => {
  it('is the seventh tab (Alt+7), and a run opens in Chat', async () => {
    const api = fakeApi();
    api.state.cron = [makeJob({ id: 'cron-a', name: 'Digest', last_status: 'ok', last_run: new Date().toISOString(), last_result: 'Done.', last_session: 's-run' })];
    api.state.history['s-run'] = [
      { id: 1, role: 'user', content: 'Summarise my notes.', created: '' },
      { id: 2, role: 'assistant', content: 'Done.', created: '' },
    ];
    const user = userEvent.setup();
    render(App, { props: { api } });
    await user.keyboard('{Alt>}7{/Alt}');
    expect(screen.getByRole('tab', { name: 'Schedules' }).getAttribute('aria-selected')).toBe('true');
    const panel = screen.getByRole('tabpanel', { name: 'Schedules' });
    await user.click(await within(panel).findByRole('button', { name: 'Open chat' }));
    expect(screen.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(api.sessionHistory).toHaveBeenCalledWith('s-run'));
    const chat = screen.getByRole('tabpanel', { name: 'Chat' });
    await within(chat).findByText('Done.');
  });
});
