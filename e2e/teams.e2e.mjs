#!/usr/bin/env node
// End-to-end test of the Teams tab against the real Go backend: a team made
// in the editor from agents created through the bindings, tasks with
// blocked_by made in the UI, agents acting on the board through the real
// team_tasks tool (in the app's process through the CallTool binding, and
// from another process through `warren tool call … --agent A`), the user's
// actions from cards and the drawer, and the cards moving between columns
// live, without a reload.
//
// Usage: node e2e/teams.e2e.mjs   (scripts/e2e.sh builds the binaries first)
// Env:   WARREN_DEV_BIN  binary to run (default build/bin/warren-dev)
//        LLMSERVE_BIN    scripted model for the lead (default build/bin/llmserve)
//        E2E_OUT         where screenshots and logs go (default build/e2e)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, log, openWarrenPage, repoRoot, startLlmserve, startWarren, suite, tempDir } from './lib.mjs';

const bin = path.resolve(repoRoot, process.env.WARREN_DEV_BIN || 'build/bin/warren-dev');
const outDir = path.resolve(repoRoot, process.env.E2E_OUT || 'build/e2e');
const llmserve = path.resolve(repoRoot, process.env.LLMSERVE_BIN || 'build/bin/llmserve');
const ASK = 'Plan a one-page summary of the sources.';
const ANSWER = 'I will split it into two tasks: **collect** and **write**.';
// The lead's scripted reply (llmserve), kept here: it is this test's only turn.
const cassette = { name: 'teams', models: ['e2e-model'], turns: [{ expect: ASK, chunks: ['I will split it into ', 'two tasks: **collect** and **write**.'], usage: { prompt_tokens: 120, completion_tokens: 14 } }] };

fs.mkdirSync(outDir, { recursive: true });
const t = suite('teams', { outDir });
const step = t.step;
let page;

async function shot(name) {
  const file = path.join(outDir, name);
  await page.screenshot({ path: file });
  t.docShot(file);
}

async function main() {
  const cassetteFile = path.join(tempDir('warren-e2e-teams-'), 'teams.json');
  fs.writeFileSync(cassetteFile, JSON.stringify(cassette));
  const url = await startLlmserve({ bin: llmserve, cassette: cassetteFile, outDir, logName: 'llmserve-teams.log' });
  const { addr, appLog, home } = await startWarren({ bin, outDir, logName: 'app-teams.log' });
  t.appLog = appLog;
  const browser = await launchChromium();
  let pageErrors;
  ({ page, pageErrors } = await openWarrenPage(browser, addr));
  t.page = page;
  const go = (method, ...args) => page.evaluate(([m, a]) => window.go.app.App[m](...a), [method, args]);
  /** An agent acts on the board with the real tool, inside the app's process (its events reach the window live). */
  const asAgent = async (agent, args) => {
    const res = await go('CallTool', 'team_tasks', JSON.stringify(args), agent);
    assert.ok(!res.is_error && !res.error, `team_tasks ${args.action} as ${agent}: ${JSON.stringify(res)}`);
    return res;
  };
  /** The same from another process: the CLI on the same WARREN_HOME. */
  const cliAsAgent = (agent, args) =>
    execFileSync(bin, ['tool', 'call', 'team_tasks', JSON.stringify(args), '--agent', agent, '--json'], {
      env: { ...process.env, WARREN_HOME: home, DISPLAY: '' },
      stdio: 'pipe',
    }).toString();

  const column = (state) => page.locator(`[data-column="${state}"]`);
  const card = (id) => page.locator(`article[data-task="${id}"]`);
  const inColumn = (id, state) => column(state).locator(`article[data-task="${id}"]`).waitFor({ timeout: 15000 });

  await step('setup through the bindings: three agents allowed to use the team tools', async () => {
    await go('SaveModelProvider', { name: 'replay', kind: 'openai', base_url: `${url}/v1`, default_model: 'e2e-model', has_key: false, tool_mode: '' });
    const agents = await go('Agents');
    const def = agents.find((a) => a.key === 'default');
    for (const [key, name] of [
      ['planner', 'Planner'],
      ['writer', 'Writer'],
      ['checker', 'Checker'],
    ]) {
      await go('SaveAgent', { ...def, key, name, profile: 'full', provider: key === 'planner' ? 'replay' : def.provider });
    }
    const keys = (await go('Agents')).map((a) => a.key);
    assert.ok(['planner', 'writer', 'checker'].every((k) => keys.includes(k)), `agents: ${keys}`);
  });

  await step('Teams is the ninth tab (Alt+9) and offers to create a team', async () => {
    const tabs = (await page.getByRole('tab').allTextContents()).map((x) => x.trim().replace(/\s+.*/, ''));
    assert.equal(tabs[8], 'Teams', `tabs: ${tabs.join(' | ')}`);
    await page.keyboard.press('Alt+9');
    assert.equal(await page.getByRole('tab', { name: 'Teams' }).getAttribute('aria-selected'), 'true');
    await page.getByText('No teams yet').waitFor();
  });

  await step('the editor refuses an incomplete team, then creates one from picked agents with roles', async () => {
    await page.getByRole('button', { name: 'Create a team' }).click();
    const dlg = page.getByRole('dialog', { name: 'New team' });
    await dlg.getByRole('button', { name: 'Create team' }).click();
    await dlg.getByText('Give the team a name.').waitFor();
    await dlg.getByText('Choose the lead agent.').waitFor();
    await dlg.getByLabel('Team name').fill('Docs Crew');
    await dlg.getByText('docs-crew').waitFor();
    await dlg.getByLabel('Lead', { exact: true }).selectOption('planner');
    await dlg.getByRole('button', { name: '+ Add member' }).click();
    await dlg.getByLabel('Member 1', { exact: true }).selectOption('writer');
    await dlg.getByLabel('Role of member 1').fill('Writes the drafts');
    await dlg.getByRole('button', { name: '+ Add member' }).click();
    await dlg.getByLabel('Member 2', { exact: true }).selectOption('checker');
    await dlg.getByLabel('Role of member 2').fill('Checks every fact');
    // Paused: the team loop starts no member's turn, so this script moves
    // the cards itself (as the agents, through team_tasks and the CLI).
    await dlg.getByRole('checkbox', { name: /^Paused/ }).check();
    await shot('teams-editor.png');
    await dlg.getByRole('button', { name: 'Create team' }).click();
    await dlg.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Created team Docs Crew.' }).waitFor();
    const teams = await go('Teams');
    assert.equal(teams.length, 1);
    assert.equal(teams[0].key, 'docs-crew');
    assert.equal(teams[0].lead, 'planner');
    assert.deepEqual(teams[0].members, [
      { agent: 'writer', role: 'Writes the drafts' },
      { agent: 'checker', role: 'Checks every fact' },
    ]);
    assert.equal(teams[0].settings.max_dispatches, 3, 'settings keep their defaults');
    assert.equal(teams[0].settings.paused, true);
  });

  await step('all eight columns are there, empty ones as strips', async () => {
    for (const s of ['pending', 'blocked', 'in_progress', 'in_review', 'completed', 'failed', 'cancelled', 'stale']) {
      assert.equal(await column(s).count(), 1, `column ${s}`);
      assert.match((await column(s).getAttribute('class')) ?? '', /empty/);
    }
  });

  await step('tasks made in the UI: T-2 waits for T-1 and starts blocked', async () => {
    await page.getByRole('button', { name: '+ New task' }).click();
    let dlg = page.getByRole('dialog', { name: 'New task for Docs Crew' });
    await dlg.getByLabel('Subject').fill('Collect the sources');
    await dlg.getByLabel('Priority').selectOption({ label: 'High' });
    await dlg.getByRole('button', { name: 'Create task' }).click();
    await dlg.waitFor({ state: 'detached' });
    await inColumn('T-1', 'pending');

    await page.getByRole('button', { name: '+ New task' }).click();
    dlg = page.getByRole('dialog', { name: 'New task for Docs Crew' });
    await dlg.getByLabel('Subject').fill('Write the summary');
    await dlg.getByLabel('Description').fill('One page, for people who have not read the sources.');
    await dlg.locator('label').filter({ hasText: 'Collect the sources' }).getByRole('checkbox').check();
    await dlg.getByRole('button', { name: 'Create task' }).click();
    await dlg.waitFor({ state: 'detached' });
    await inColumn('T-2', 'blocked');
    await card('T-2').getByText('after T-1').waitFor();
    // A third through the bindings, for the review column later.
    await go('CreateTeamTask', 'docs-crew', { subject: 'Proofread the summary', description: '', priority: 0, assignee: '', blocked_by: [], require_approval: true });
    await inColumn('T-3', 'pending');
  });

  await step('an agent claims T-1 and reports progress: the card moves and pulses, live', async () => {
    await page.evaluate(() => window.runtime.EventsOn('team:event', (e) => (window.__teamEvents ??= []).push(e)));
    await asAgent('writer', { action: 'claim', task_id: 'T-1' });
    await inColumn('T-1', 'in_progress');
    // Pushed by the backend as it happened, not found by polling.
    const pushed = await page.evaluate(() => (window.__teamEvents ?? []).map((e) => (e.payload ?? e).type));
    assert.ok(pushed.includes('claimed'), `team:event pushed: ${pushed}`);
    await card('T-1').getByRole('status', { name: 'working' }).waitFor();
    await asAgent('writer', { action: 'progress', task_id: 'T-1', percent: 60, text: 'three of five read' });
    await page.waitForFunction(() => document.querySelector('article[data-task="T-1"] [role="progressbar"]')?.getAttribute('aria-valuenow') === '60');
    await page.getByRole('list', { name: 'Team activity' }).getByText('writer claimed it').waitFor();
  });

  await step('keyboard: arrows move between cards, Enter opens the drawer; a comment lands; Escape returns focus', async () => {
    await card('T-2').getByTitle('Open T-2 (Enter)').focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-card')), 'T-1');
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Task T-1' });
    await drawer.getByText('Collect the sources').waitFor();
    await drawer.getByRole('textbox', { name: 'New comment' }).fill('Prefer primary sources, please.');
    await drawer.getByRole('button', { name: 'Comment' }).click();
    await drawer.getByText('Prefer primary sources, please.').waitFor();
    await card('T-1').getByLabel('1 comments').waitFor();
    await shot('teams-drawer.png');
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-card')), 'T-1');
  });

  await step('the CLI completes T-1 as the writer (another process): T-1 completes and T-2 is ready, without a reload', async () => {
    const out = cliAsAgent('writer', {
      action: 'complete',
      task_id: 'T-1',
      result: '## Sources\n\n- **Report A** (2025)\n- Report B\n\n<script>alert(1)</script>',
    });
    log(`cli: ${out.replace(/\s+/g, ' ').slice(0, 160)}`);
    await inColumn('T-1', 'completed');
    await inColumn('T-2', 'pending');
    await card('T-1').getByTitle('Open T-1 (Enter)').click();
    const drawer = page.getByRole('dialog', { name: 'Task T-1' });
    await drawer.locator('.md strong').filter({ hasText: 'Report A' }).waitFor();
    assert.equal(await drawer.locator('script').count(), 0, 'the result is never raw HTML');
    await drawer.getByText('writer completed it').waitFor();
    await drawer.getByRole('button', { name: 'Close task (Escape)' }).click();
  });

  await step('assign, cancel with a reason (confirmed), retry: T-2 moves between columns', async () => {
    await card('T-2').getByRole('button', { name: 'Assign', exact: true }).click();
    let dlg = page.getByRole('dialog', { name: 'Assign T-2' });
    await dlg.getByRole('combobox').selectOption('checker');
    await dlg.getByRole('button', { name: 'Assign', exact: true }).click();
    await dlg.waitFor({ state: 'detached' });
    await card('T-2').locator('.owner').filter({ hasText: 'checker' }).waitFor();

    await card('T-2').getByRole('button', { name: 'Cancel T-2' }).click();
    dlg = page.getByRole('dialog', { name: 'Cancel T-2?' });
    await dlg.getByRole('textbox').fill('Plans changed');
    await dlg.getByRole('button', { name: 'Cancel T-2' }).click();
    await dlg.waitFor({ state: 'detached' });
    await inColumn('T-2', 'cancelled');
    assert.equal((await go('TeamTask', 'docs-crew', 'T-2')).task.reason, 'Plans changed');

    await card('T-2').getByRole('button', { name: 'Retry', exact: true }).click();
    dlg = page.getByRole('dialog', { name: 'Retry T-2' });
    await dlg.getByRole('textbox').fill('Back on: keep it short');
    await dlg.getByRole('button', { name: 'Retry T-2' }).click();
    await dlg.waitFor({ state: 'detached' });
    await inColumn('T-2', 'pending');
  });

  await step('a member asks the user: the question waits in the inbox and is answered there', async () => {
    await asAgent('checker', { action: 'claim', task_id: 'T-2' });
    await inColumn('T-2', 'in_progress');
    await asAgent('checker', { action: 'ask_user', task_id: 'T-2', text: 'Should the summary name the authors?' });
    const inbox = page.getByRole('region', { name: 'Waiting for you' });
    await inbox.getByText('Should the summary name the authors?').waitFor();
    await card('T-2').getByText('Asks you').waitFor();
    await shot('teams-board.png');
    await inbox.getByRole('button', { name: 'Answer', exact: true }).click();
    const dlg = page.getByRole('dialog', { name: 'Answer checker' });
    await dlg.getByRole('textbox').fill('Yes, surnames only.');
    await dlg.getByRole('button', { name: 'Send answer' }).click();
    await dlg.waitFor({ state: 'detached' });
    await inbox.waitFor({ state: 'detached' });
    assert.equal((await go('TeamTask', 'docs-crew', 'T-2')).task.answer, 'Yes, surnames only.');
  });

  await step('review: a finished task that needs approval waits in review; the user approves it', async () => {
    await asAgent('writer', { action: 'claim', task_id: 'T-3' });
    await asAgent('writer', { action: 'complete', task_id: 'T-3', result: 'No typos left.' });
    await inColumn('T-3', 'in_review');
    await card('T-3').getByRole('button', { name: 'Approve', exact: true }).click();
    await inColumn('T-3', 'completed');
  });

  await step('talk to the lead beside the board: the reply streams in as Markdown', async () => {
    const box = page.getByRole('textbox', { name: 'Message to the lead' });
    await box.fill(ASK);
    await box.press('Control+Enter');
    const side = page.getByRole('complementary', { name: 'Talk to the lead' });
    await side.getByText(ASK).waitFor();
    await side.locator('.md strong').filter({ hasText: 'collect' }).waitFor({ timeout: 30000 });
    // The reply streams: wait for the whole of it, in order.
    await side.locator('.line.lead').last().filter({ hasText: /I will split it into two tasks: collect and write\./ }).waitFor({ timeout: 30000 });
    await side.getByRole('button', { name: 'Open in Chat' }).waitFor();
  });

  await step('900×600 and dark mode: the board, the lead box and every column still fit', async () => {
    await page.setViewportSize({ width: 900, height: 600 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.evaluate(() => (document.activeElement instanceof HTMLElement ? document.activeElement.blur() : null));
    for (const s of ['pending', 'blocked', 'in_progress', 'in_review', 'completed', 'failed', 'cancelled', 'stale']) {
      assert.equal(await column(s).count(), 1);
    }
    await page.getByRole('textbox', { name: 'Message to the lead' }).waitFor();
    await shot('teams-board-900-dark.png');
    await card('T-1').getByTitle('Open T-1 (Enter)').click();
    await shot('teams-drawer-900-dark.png');
    await page.keyboard.press('Escape');
  });

  assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
}

await t.run(main);
