#!/usr/bin/env node
// End-to-end test of a team at work, with the team loop running in the real
// window process and a scripted model (llmserve) for every agent: the user
// asks the lead beside the board, the lead plans two tasks with blocked_by,
// members start on their own, cards move across the board live, the lead
// messages a working member (the text shows in the activity feed), and the
// window is killed with SIGKILL in the middle of a member's turn: started
// again on the same data, the orphaned task is dispatched again and the
// work finishes, nothing lost or stuck.
//
// Usage: node e2e/teams-live.e2e.mjs   (scripts/e2e.sh builds the binaries first)
// Env:   WARREN_DEV_BIN  binary to run (default build/bin/warren-dev)
//        LLMSERVE_BIN    scripted model (default build/bin/llmserve)
//        E2E_OUT         where screenshots and logs go (default build/e2e)
import assert from 'node:assert/strict';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, log, openWarrenPage, repoRoot, startLlmserve, startWarren, suite, tempDir } from './lib.mjs';

const bin = path.resolve(repoRoot, process.env.WARREN_DEV_BIN || 'build/bin/warren-dev');
const outDir = path.resolve(repoRoot, process.env.E2E_OUT || 'build/e2e');
const llmserve = path.resolve(repoRoot, process.env.LLMSERVE_BIN || 'build/bin/llmserve');

const ASK = 'Find two sources on heat pumps and summarise them.';
const call = (id, name, args) => ({ id, name, arguments: [JSON.stringify(args)] });
const say = (expect, text, extra = {}) => ({ expect, chunks: [text], finish_reason: 'stop', ...extra });
const act = (expect, c, extra = {}) => ({ expect, tool_calls: [c], ...extra });

// Every agent's model, turn by turn. Each expect is the end of what Warren
// sends, so a turn served out of place fails loudly in llmserve's log.
const cassettes = {
  lead: [
    act(ASK, call('c1', 'team_tasks', { action: 'create', subject: 'Collect two sources', assignee: 'alice', priority: 2 })),
    act('T-1 [', call('c2', 'team_tasks', { action: 'create', subject: 'Write the summary', assignee: 'bob', blocked_by: ['T-1'] })),
    say('T-2 [', 'Planned: **T-1** with alice, then **T-2** with bob.'),
    act('T-1 (Collect two sources) completed', call('c3', 'team_message', { action: 'send', to: 'bob', text: 'Keep it under 100 words.' })),
    say('sent message', 'Told bob to keep it short.'),
    say('T-2 (Write the summary) completed', 'All done: the summary is on the board.'),
  ],
  alice: [
    // The first dispatch never gets its answer: the window is killed meanwhile.
    say('Task T-1 for you', 'never delivered', { delay_ms: 600000 }),
    act('Task T-1 for you', call('a1', 'team_tasks', { action: 'progress', task_id: 'T-1', percent: 50, text: 'read one of two' }), { delay_ms: 1500 }),
    say('T-1', 'Sources: Report A (2024) and Report B (2025).', { delay_ms: 1500 }),
  ],
  bob: [
    say('Result of T-1', 'Draft: both reports find heat pumps cut costs.', { delay_ms: 4000 }),
    // The lead's message reaches the running turn (or, if the turn has
    // just ended, a turn of its own).
    say('[Team message from lead lead] Keep it under 100 words.', 'Heat pumps cut heating costs, both reports agree.'),
  ],
};

fs.mkdirSync(outDir, { recursive: true });
const t = suite('teams-live', { outDir });
const step = t.step;
let page;

async function shot(name) {
  const file = path.join(outDir, name);
  await page.screenshot({ path: file });
  t.docShot(file);
}

async function main() {
  const dir = tempDir('warren-e2e-teams-live-');
  const urls = {};
  for (const [agent, turns] of Object.entries(cassettes)) {
    const file = path.join(dir, `${agent}.json`);
    fs.writeFileSync(file, JSON.stringify({ name: `teams-live-${agent}`, models: ['e2e-model'], turns }));
    urls[agent] = await startLlmserve({ bin: llmserve, cassette: file, outDir, logName: `llmserve-teams-live-${agent}.log` });
  }
  let warren = await startWarren({ bin, outDir, logName: 'app-teams-live.log' });
  t.appLog = warren.appLog;
  const browser = await launchChromium();
  let pageErrors;
  ({ page, pageErrors } = await openWarrenPage(browser, warren.addr));
  t.page = page;
  const go = (method, ...args) => page.evaluate(([m, a]) => window.go.app.App[m](...a), [method, args]);
  const column = (state) => page.locator(`[data-column="${state}"]`);
  const card = (id) => page.locator(`article[data-task="${id}"]`);
  const inColumn = (id, state, timeout = 30000) => column(state).locator(`article[data-task="${id}"]`).waitFor({ timeout });
  const activity = () => page.getByRole('list', { name: 'Team activity' });
  const openBoard = async () => {
    await page.keyboard.press('Alt+9');
    await page.getByRole('combobox', { name: 'Team' }).waitFor();
    assert.equal(await page.getByRole('combobox', { name: 'Team' }).inputValue(), 'heat-crew');
    await page.getByRole('textbox', { name: 'Message to the lead' }).waitFor();
  };

  await step('setup through the bindings: a lead and two members, each on its own scripted model', async () => {
    const def = (await go('Agents')).find((a) => a.key === 'default');
    for (const agent of Object.keys(cassettes)) {
      await go('SaveModelProvider', { name: `replay-${agent}`, kind: 'openai', base_url: `${urls[agent]}/v1`, default_model: 'e2e-model', has_key: false, tool_mode: '' });
      await go('SaveAgent', { ...def, key: agent, name: agent, profile: 'full', provider: `replay-${agent}`, model: 'e2e-model', sandbox: false });
    }
    await go('CreateTeam', {
      key: 'heat-crew',
      name: 'Heat Crew',
      lead: 'lead',
      lead_role: 'plans the work and writes the answer',
      members: [
        { agent: 'alice', role: 'finds sources' },
        { agent: 'bob', role: 'writes summaries' },
      ],
      settings: await go('DefaultTeamSettings'),
    });
    await openBoard();
  });

  await step('the user asks the lead: it plans T-1 and T-2 (after T-1), and alice starts on T-1 by herself', async () => {
    const box = page.getByRole('textbox', { name: 'Message to the lead' });
    await box.fill(ASK);
    await box.press('Control+Enter');
    const side = page.getByRole('complementary', { name: 'Talk to the lead' });
    await side.locator('.line.lead').last().filter({ hasText: 'Planned: T-1 with alice, then T-2 with bob.' }).waitFor({ timeout: 30000 });
    await inColumn('T-1', 'in_progress');
    await inColumn('T-2', 'blocked');
    await card('T-1').getByRole('status', { name: 'working' }).waitFor();
    await card('T-2').getByText('after T-1').waitFor();
    await activity().getByText('Started with alice').first().waitFor();
    await shot('teams-live-working.png');
  });

  await step('kill -9 of the window in the middle of alice\'s turn, then start it again on the same data', async () => {
    const exited = once(warren.app, 'exit');
    process.kill(-warren.app.pid, 'SIGKILL');
    await exited;
    log('the window was killed (SIGKILL) while T-1 was in progress');
    await page.close();
    warren = await startWarren({ bin, outDir, logName: 'app-teams-live.log', home: warren.home, display: warren.display });
    ({ page, pageErrors } = await openWarrenPage(browser, warren.addr));
    t.page = page;
    await openBoard();
    // Still in progress on the board, but no run behind it any more.
    await inColumn('T-1', 'in_progress');
  });

  await step('the orphaned T-1 is dispatched again (one heartbeat later) and the cards move live to the end', async () => {
    // Progress from alice's second dispatch, pushed to the board.
    await page.waitForFunction(() => document.querySelector('article[data-task="T-1"] [role="progressbar"]')?.getAttribute('aria-valuenow') === '50', null, {
      timeout: 60000,
    });
    await activity().getByText('Started again with alice (attempt 2)').waitFor();
    await inColumn('T-1', 'completed');
    await inColumn('T-2', 'in_progress');
    await card('T-2').getByRole('status', { name: 'working' }).waitFor();
    await activity().getByText('lead → bob: Keep it under 100 words.').waitFor({ timeout: 30000 });
    await shot('teams-live-message.png');
    await inColumn('T-2', 'completed');
    const t1 = (await go('TeamTask', 'heat-crew', 'T-1')).task;
    assert.equal(t1.dispatch_count, 2, 'T-1 ran twice: once before the kill, once after');
    assert.match(t1.result, /Report A \(2024\) and Report B \(2025\)/);
    const t2 = (await go('TeamTask', 'heat-crew', 'T-2')).task;
    assert.match(t2.result, /heat pumps cut/i);
  });

  await step('the lead hears about both results; nothing is left in progress', async () => {
    // The lead's last update turn ends the scripted work; its session keeps it.
    const deadline = Date.now() + 30000;
    let sessions = [];
    while (Date.now() < deadline) {
      sessions = await go('Sessions', 'lead');
      const team = sessions.find((s) => s.title === 'Team heat-crew · lead');
      if (team) {
        const msgs = await go('SessionHistory', team.id);
        if (msgs.some((m) => m.role === 'assistant' && /All done: the summary is on the board\./.test(m.content ?? ''))) break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.ok(Date.now() < deadline, `the lead's update turn never ended; sessions: ${JSON.stringify(sessions.map((s) => s.title))}`);
    const tasks = await go('TeamTasks', 'heat-crew');
    assert.deepEqual(tasks.map((x) => `${x.id} ${x.state}`).sort(), ['T-1 completed', 'T-2 completed']);
  });

  assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
}

await t.run(main);
