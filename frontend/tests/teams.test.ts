import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import App from '../src/App.svelte';
import TeamsPanel from '../src/components/teams/TeamsPanel.svelte';
import { COLUMNS, actionsFor, byColumn, describeEvent, draftProblems, parseIds, userInbox } from '../src/lib/teams';
import { fakeApi } from './fakeApi';
import { makeTask, makeTeam, TEAM_DEFAULTS } from './teamsFake';

function seeded() {
  const api = fakeApi();
  api.board.seed(makeTeam(), [
    makeTask({ id: 'T-1', subject: 'Gather sources', state: 'completed', owner: 'reviewer', result: '**Done**: 3 sources' }),
    makeTask({ id: 'T-2', subject: 'Write the draft', state: 'in_progress', owner: 'reviewer', progress: 40, priority: 2, comments: 2, attachments: 1 }),
    makeTask({ id: 'T-3', subject: 'Review it', state: 'blocked', blocked_by: ['T-2'], reason: 'waiting for T-2' }),
    makeTask({ id: 'T-4', subject: 'Pick a title', state: 'blocked', owner: 'reviewer', hold: 'ask_user', question: 'Short or long title?' }),
    makeTask({ id: 'T-5', subject: 'Publish', state: 'in_review', owner: 'reviewer', require_approval: true }),
  ]);
  return api;
}

const column = (state: string) => document.querySelector<HTMLElement>(`[data-column="${state}"]`)!;
const card = (id: string) => document.querySelector<HTMLElement>(`article[data-task="${id}"]`)!;

describe('teams helpers', () => {
  it('has a column for every one of the eight states and groups tasks into them', () => {
    expect(COLUMNS.map((c) => c.state)).toEqual(['pending', 'blocked', 'in_progress', 'in_review', 'completed', 'failed', 'cancelled', 'stale']);
    const cols = byColumn([makeTask({ id: 'T-1', state: 'stale' }), makeTask({ id: 'T-2', state: 'stale' })]);
    expect(cols.stale.map((t) => t.id)).toEqual(['T-1', 'T-2']);
    expect(cols.pending).toEqual([]);
  });

  it('offers only the actions the board allows', () => {
    expect(actionsFor(makeTask({ state: 'in_review' }))).toMatchObject({ approve: true, reject: true, retry: false, assign: false, cancel: true });
    expect(actionsFor(makeTask({ state: 'failed' }))).toMatchObject({ retry: true, cancel: false, assign: false, approve: false });
    expect(actionsFor(makeTask({ state: 'blocked', hold: 'blocker' }))).toMatchObject({ retry: true, assign: true, cancel: true });
    expect(actionsFor(makeTask({ state: 'blocked', hold: 'ask_user', question: 'q?' })).answer).toBe(true);
  });

  it('puts questions and blockers escalated to the user in the inbox, not those for the lead', () => {
    const items = userInbox([
      makeTask({ id: 'T-1', hold: 'ask_user', question: 'Which year?' }),
      makeTask({ id: 'T-2', hold: 'blocker', escalate_to: 'user', reason: 'No access' }),
      makeTask({ id: 'T-3', hold: 'blocker', escalate_to: 'lead', reason: 'Lead handles it' }),
    ]);
    expect(items.map((i) => [i.task.id, i.kind, i.text])).toEqual([
      ['T-1', 'question', 'Which year?'],
      ['T-2', 'blocker', 'No access'],
    ]);
  });

  it('describes history events in words and parses typed ids', () => {
    const ev = { id: 1, team: 'crew', task: 'T-1', type: 'cancelled', actor_kind: 'user', actor: 'user', data: { reason: 'not needed' }, time: '' };
    expect(describeEvent(ev)).toBe('You cancelled it: not needed');
    expect(describeEvent({ ...ev, type: 'progress', actor_kind: 'agent', actor: 'bob', data: { percent: 50, step: 'half' } })).toBe('bob reported 50% — half');
    expect(describeEvent({ ...ev, type: 'dispatched', actor_kind: 'system', actor: 'system', data: { owner: 'alice', dispatch: 2 } })).toBe(
      'Started again with alice (attempt 2)',
    );
    // Mailbox text shows in the activity feed, with its recipients.
    expect(describeEvent({ ...ev, task: '', type: 'message', actor_kind: 'agent', actor: 'lead', data: { to: ['alice', 'bob'], text: 'Freeze at noon' } })).toBe(
      'lead → alice, bob: Freeze at noon',
    );
    expect(describeEvent({ ...ev, task: '', type: 'message', actor_kind: 'user', actor: 'user', data: { to: ['a'], broadcast: true, text: 'Hi' } })).toBe('You → everyone: Hi');
    expect(describeEvent({ ...ev, type: 'ask_user_reminder', actor_kind: 'system', actor: 'system', data: { owner: 'bob' } })).toBe(
      'Reminded you: bob still waits for your answer',
    );
    expect(parseIds('3, t-4  T-5')).toEqual(['T-3', 'T-4', 'T-5']);
  });

  it('validates a team draft', () => {
    const base = { name: 'Crew', key: '', lead: 'a', lead_role: '', members: [{ agent: 'b', role: 'x' }], settings: { ...TEAM_DEFAULTS }, workspace: '' };
    expect(draftProblems(base, true, [])).toEqual({});
    expect(draftProblems({ ...base, name: '  ' }, true, [])).toHaveProperty('name');
    expect(draftProblems(base, true, ['crew']).name).toMatch(/already exists/);
    expect(draftProblems({ ...base, lead: '' }, true, [])).toHaveProperty('lead');
    expect(draftProblems({ ...base, members: [{ agent: 'a', role: '' }] }, true, [])['member-0']).toMatch(/lead/);
    expect(draftProblems({ ...base, members: [{ agent: 'b', role: 'two\nlines' }] }, true, [])['role-0']).toMatch(/one line/);
    expect(draftProblems({ ...base, settings: { ...TEAM_DEFAULTS, max_dispatches: -1 } }, true, [])).toHaveProperty('max_dispatches');
  });
});

describe('TeamsPanel', () => {
  it('shows all eight columns, empty ones as strips, and renders cards with their details', async () => {
    const api = seeded();
    render(TeamsPanel, { api, active: true });
    await screen.findByText('Write the draft');
    for (const c of COLUMNS) expect(column(c.state)).toBeTruthy();
    expect(column('failed').classList.contains('empty')).toBe(true);
    expect(column('in_progress').classList.contains('empty')).toBe(false);
    const working = card('T-2');
    expect(within(working).getByText('T-2')).toBeTruthy();
    expect(within(working).getByText('Urgent')).toBeTruthy();
    expect(within(working).getByText('reviewer')).toBeTruthy();
    expect(within(working).getByRole('status', { name: 'working' })).toBeTruthy();
    expect(within(working).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('40');
    expect(within(working).getByLabelText('2 comments')).toBeTruthy();
    expect(within(working).getByLabelText('1 attachments')).toBeTruthy();
    expect(within(card('T-3')).getByText('after T-2')).toBeTruthy();
    expect(within(card('T-4')).getByText('Asks you')).toBeTruthy();
    // The question waits in the user's inbox.
    const inbox = screen.getByRole('region', { name: 'Waiting for you' });
    expect(within(inbox).getByText('Short or long title?')).toBeTruthy();
  });

  it('never renders task text as HTML', async () => {
    const api = fakeApi();
    api.board.seed(makeTeam(), [makeTask({ subject: '<img src=x onerror=alert(1)>Evil', result: '<script>alert(1)</script>ok' })]);
    render(TeamsPanel, { api, active: true });
    await screen.findByText('<img src=x onerror=alert(1)>Evil');
    expect(document.querySelector('img')).toBeNull();
    await userEvent.click(screen.getByTitle('Open T-1 (Enter)'));
    const drawer = await screen.findByRole('dialog', { name: 'Task T-1' });
    expect(await within(drawer).findByText(/ok$/)).toBeTruthy();
    expect(document.querySelector('.drawer script')).toBeNull();
  });

  it('cancels with a reason after a confirmation, approves, retries and assigns through the API', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(TeamsPanel, { api, active: true });
    await screen.findByText('Write the draft');

    await user.click(within(card('T-2')).getByRole('button', { name: 'Cancel T-2' }));
    const dlg = await screen.findByRole('dialog', { name: 'Cancel T-2?' });
    expect(api.cancelTeamTask).not.toHaveBeenCalled();
    await user.type(within(dlg).getByRole('textbox'), 'not needed');
    await user.click(within(dlg).getByRole('button', { name: 'Cancel T-2' }));
    expect(api.cancelTeamTask).toHaveBeenCalledWith('crew', 'T-2', 'not needed');
    await waitFor(() => expect(column('cancelled').textContent).toContain('Write the draft'));

    await user.click(within(card('T-5')).getByRole('button', { name: 'Approve' }));
    expect(api.approveTeamTask).toHaveBeenCalledWith('crew', 'T-5');
    await waitFor(() => expect(column('completed').textContent).toContain('Publish'));

    await user.click(within(card('T-2')).getByRole('button', { name: 'Retry' }));
    const retry = await screen.findByRole('dialog', { name: 'Retry T-2' });
    await user.selectOptions(within(retry).getByRole('combobox'), 'default');
    await user.click(within(retry).getByRole('button', { name: 'Retry T-2' }));
    expect(api.retryTeamTask).toHaveBeenCalledWith('crew', 'T-2', 'default', '');

    await user.click(within(card('T-3')).getByRole('button', { name: 'Assign' }));
    const assign = await screen.findByRole('dialog', { name: 'Assign T-3' });
    await user.selectOptions(within(assign).getByRole('combobox'), 'reviewer');
    await user.click(within(assign).getByRole('button', { name: 'Assign' }));
    expect(api.assignTeamTask).toHaveBeenCalledWith('crew', 'T-3', 'reviewer');
  });

  it('rejects only with a reason and shows a refusal as a sentence', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(TeamsPanel, { api, active: true });
    await screen.findByText('Publish');
    await user.click(within(card('T-5')).getByRole('button', { name: 'Reject' }));
    const dlg = await screen.findByRole('dialog', { name: 'Reject T-5?' });
    const go = within(dlg).getByRole('button', { name: 'Reject T-5' });
    expect((go as HTMLButtonElement).disabled).toBe(true);
    await user.type(within(dlg).getByRole('textbox'), 'Cite the sources');
    api.board.state.failNext = 'T-5 is waiting for review: the lead or the user approves or rejects it';
    await user.click(go);
    expect(await within(dlg).findByRole('alert')).toBeTruthy();
    await user.click(go);
    expect(api.rejectTeamTask).toHaveBeenLastCalledWith('crew', 'T-5', 'Cite the sources');
  });

  it('answers a question from the inbox', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(TeamsPanel, { api, active: true });
    const inbox = await screen.findByRole('region', { name: 'Waiting for you' });
    await user.click(within(inbox).getByRole('button', { name: 'Answer' }));
    const dlg = await screen.findByRole('dialog', { name: 'Answer reviewer' });
    await user.type(within(dlg).getByRole('textbox'), 'Short');
    await user.click(within(dlg).getByRole('button', { name: 'Send answer' }));
    expect(api.answerTeamTask).toHaveBeenCalledWith('crew', 'T-4', 'Short');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Waiting for you' })).toBeNull());
  });

  it('moves cards live when an agent acts, without a reload from the user', async () => {
    const api = seeded();
    render(TeamsPanel, { api, active: true, reloadDelayMs: 1 });
    await screen.findByText('Write the draft');
    api.board.agentMoves('crew', 'T-2', { state: 'completed', progress: 100 }, 'completed');
    api.board.agentMoves('crew', 'T-3', { state: 'pending', reason: '' }, 'ready');
    await waitFor(() => expect(column('completed').textContent).toContain('Write the draft'));
    await waitFor(() => expect(column('pending').textContent).toContain('Review it'));
    expect(column('in_progress').classList.contains('empty')).toBe(true);
    // The activity beside the board shows what happened.
    expect(within(screen.getByRole('list', { name: 'Team activity' })).getByText('reviewer completed it')).toBeTruthy();
  });

  it('picks up changes another process made (the CLI) by polling the events', async () => {
    const api = seeded();
    render(TeamsPanel, { api, active: true, reloadDelayMs: 1, pollMs: 20 });
    await screen.findByText('Write the draft');
    const t = api.board.state.tasks.crew.find((x) => x.id === 'T-2')!;
    t.state = 'failed';
    api.board.state.events.push({ id: 99, team: 'crew', task: 'T-2', type: 'failed', actor_kind: 'system', actor: 'system', data: { reason: 'timeout' }, time: '' });
    await waitFor(() => expect(column('failed').textContent).toContain('Write the draft'));
    expect(screen.getByText('It failed: timeout')).toBeTruthy();
  });

  it('opens the drawer with Enter, moves between cards with arrows, and Escape returns focus', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(TeamsPanel, { api, active: true });
    await screen.findByText('Review it');
    const first = within(card('T-3')).getByTitle('Open T-3 (Enter)');
    first.focus();
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(card('T-4')).getByTitle('Open T-4 (Enter)'));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(within(card('T-2')).getByTitle('Open T-2 (Enter)'));
    await user.keyboard('{ArrowLeft}{ArrowUp}{Enter}');
    const drawer = await screen.findByRole('dialog', { name: 'Task T-3' });
    expect(await within(drawer).findByText('waiting for T-2')).toBeTruthy();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Task T-3' })).toBeNull());
    expect(document.activeElement).toBe(within(card('T-3')).getByTitle('Open T-3 (Enter)'));
  });

  it('shows the result as Markdown in the drawer and adds a comment', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(TeamsPanel, { api, active: true });
    await user.click(await screen.findByTitle('Open T-1 (Enter)'));
    const drawer = await screen.findByRole('dialog', { name: 'Task T-1' });
    expect((await within(drawer).findByText('Done')).tagName).toBe('STRONG');
    await user.type(within(drawer).getByRole('textbox', { name: 'New comment' }), 'Nice work');
    await user.click(within(drawer).getByRole('button', { name: 'Comment' }));
    expect(api.commentTeamTask).toHaveBeenCalledWith('crew', 'T-1', 'Nice work');
    expect(await within(drawer).findByText('Nice work')).toBeTruthy();
  });

  it('creates a team from the editor: agents are picked, the id is derived, bad drafts are refused', async () => {
    const api = fakeApi();
    const user = userEvent.setup();
    render(TeamsPanel, { api, active: true });
    await user.click(await screen.findByRole('button', { name: 'Create a team' }));
    const dlg = await screen.findByRole('dialog', { name: 'New team' });
    await user.click(within(dlg).getByRole('button', { name: 'Create team' }));
    expect(within(dlg).getByText('Give the team a name.')).toBeTruthy();
    expect(within(dlg).getByText('Choose the lead agent.')).toBeTruthy();
    expect(api.createTeam).not.toHaveBeenCalled();

    await user.type(within(dlg).getByLabelText('Team name'), 'Research Crew');
    expect(within(dlg).getByText('research-crew')).toBeTruthy();
    await user.selectOptions(within(dlg).getByLabelText('Lead'), 'default');
    await user.click(within(dlg).getByRole('button', { name: '+ Add member' }));
    await user.type(within(dlg).getByLabelText('Role of member 1'), 'Checks the facts');
    await user.click(within(dlg).getByRole('button', { name: 'Create team' }));
    await waitFor(() => expect(api.createTeam).toHaveBeenCalled());
    expect(api.createTeam.mock.calls[0][0]).toMatchObject({
      key: 'research-crew',
      name: 'Research Crew',
      lead: 'default',
      members: [{ agent: 'reviewer', role: 'Checks the facts' }],
      settings: TEAM_DEFAULTS,
    });
    expect(await screen.findByRole('combobox', { name: 'Team' })).toBeTruthy();
  });

  it('creates a task that waits for another, picked from the board', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(TeamsPanel, { api, active: true });
    await screen.findByText('Publish');
    await user.click(screen.getByRole('button', { name: '+ New task' }));
    const dlg = await screen.findByRole('dialog', { name: 'New task for Crew' });
    await user.type(within(dlg).getByPlaceholderText('Summarise the three reports'), 'Announce it');
    await user.click(within(dlg).getByText('Publish').closest('label')!.querySelector('input')!);
    await user.click(within(dlg).getByRole('button', { name: 'Create task' }));
    expect(api.createTeamTask).toHaveBeenCalledWith('crew', expect.objectContaining({ subject: 'Announce it', blocked_by: ['T-5'] }));
    await waitFor(() => expect(column('blocked').textContent).toContain('Announce it'));
  });

  it('sends a message to the lead', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(TeamsPanel, { api, active: true });
    await user.type(await screen.findByRole('textbox', { name: 'Message to the lead' }), 'Write a report');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(api.talkToTeamLead).toHaveBeenCalledWith('crew', '', 'Write a report');
    api.emitAgent({ kind: 'text', session: 'lead-session', text: 'On it.' });
    expect(await screen.findByText('On it.')).toBeTruthy();
  });

  it('keeps the lead’s first words when they arrive before the request returns', async () => {
    const api = seeded();
    const user = userEvent.setup();
    // The lead starts streaming while TalkToTeamLead is still returning.
    api.talkToTeamLead.mockImplementationOnce(async () => {
      api.emitAgent({ kind: 'text', session: 'lead-session', text: 'I will split it into ' });
      api.emitAgent({ kind: 'text', session: 'other-session', text: 'not for this box ' });
      return { session: 'lead-session', run_id: '', request: true };
    });
    render(TeamsPanel, { api, active: true });
    await user.type(await screen.findByRole('textbox', { name: 'Message to the lead' }), 'Write a report');
    await user.click(screen.getByRole('button', { name: 'Send' }));
    api.emitAgent({ kind: 'text', session: 'lead-session', text: 'two tasks.' });
    expect(await screen.findByText('I will split it into two tasks.')).toBeTruthy();
    expect(screen.queryByText(/not for this box/)).toBeNull();
  });

  it('is the ninth section of the app (Alt+9)', async () => {
    const api = seeded();
    const user = userEvent.setup();
    render(App, { api });
    await user.keyboard('{Alt>}9{/Alt}');
    expect(await screen.findByText('Write the draft')).toBeTruthy();
    expect(screen.getByRole('tab', { name: /Teams/ }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('teamEventFromWire', () => {
  it('unwraps the bus event the window receives and keeps a bare one', async () => {
    const { teamEventFromWire } = await import('../src/lib/teamsApi');
    const ev = { id: 3, team: 'crew', task: 'T-1', type: 'claimed', actor_kind: 'agent', actor: 'w', data: {}, time: '' };
    expect(teamEventFromWire({ topic: 'team.event', time: '', payload: ev })).toEqual(ev);
    expect(teamEventFromWire(ev)).toEqual(ev);
  });
});
