#!/usr/bin/env node
// End-to-end test of Schedules, messages from agents and subagents in Chat,
// against the real Go backend and a scripted model: llmserve replays
// e2e/cassettes/schedules.json. A schedule created in the UI runs now
// through the window's cron scheduler; its agent calls the message tool
// (a toast on the Schedules screen, a notice in the chat) and answers; then
// a chat turn runs a subagent with the spawn tool (the Subagents strip).
//
// Usage: node e2e/schedules.e2e.mjs   (scripts/e2e.sh builds the binaries first)
// Env:   WARREN_DEV_BIN  binary to run (default build/bin/warren-dev)
//        LLMSERVE_BIN    cassette server (default build/bin/llmserve)
//        E2E_OUT         where screenshots and logs go (default build/e2e)
//        E2E_DOCS=1      also copy schedules.png and chat-subagents.png to
//                        docs/screenshots when the test passes (make screenshot)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, openWarrenPage, repoRoot, startLlmserve, startWarren, suite } from './lib.mjs';

const bin = path.resolve(repoRoot, process.env.WARREN_DEV_BIN || 'build/bin/warren-dev');
const llmserve = path.resolve(repoRoot, process.env.LLMSERVE_BIN || 'build/bin/llmserve');
const cassette = path.join(repoRoot, 'e2e', 'cassettes', 'schedules.json');
const outDir = path.resolve(repoRoot, process.env.E2E_OUT || 'build/e2e');
const JOB = 'Backup check';
const PROMPT = "Check that last night's backups are fresh.";
const REPLY = 'Backups are fine: all 3 are fresh.';

fs.mkdirSync(outDir, { recursive: true });
const t = suite('schedules', { outDir });
const step = t.step;
let page;

/** Saves a screenshot to E2E_OUT, marked for docs/screenshots. */
async function evidence(name) {
  await page.evaluate(() => {
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
  });
  const shot = path.join(outDir, name);
  await page.screenshot({ path: shot });
  t.docShot(shot);
}

async function main() {
  const url = await startLlmserve({ bin: llmserve, cassette, outDir, logName: 'llmserve-schedules.log' });
  const { addr, appLog } = await startWarren({ bin, outDir, logName: 'app-schedules.log' });
  t.appLog = appLog;
  const browser = await launchChromium();
  let pageErrors;
  ({ page, pageErrors } = await openWarrenPage(browser, addr));
  t.page = page;
  const go = (method, ...args) => page.evaluate(([m, a]) => window.go.app.App[m](...a), [method, args]);

  await step('setup through the bindings: the replay provider, and the full profile for the default agent', async () => {
    // Providers and agents have their own UI test (chat.e2e.mjs). The
    // default global profile (coding) has no message tool; full has it.
    await go('SaveModelProvider', { name: 'replay', kind: 'openai', base_url: `${url}/v1`, default_model: 'e2e-model', has_key: false, tool_mode: '' });
    const agents = await go('Agents');
    const def = agents.find((a) => a.key === 'default');
    await go('SaveAgent', { ...def, provider: 'replay', profile: 'full' });
    const tools = await go('Tools', 'full', 'default'); // the agent's profile, as its runs see it
    // spawn is injected into each run, so it is not in the inventory.
    const message = tools.find((x) => x.name === 'message');
    assert.ok(message?.allowed, `message must be allowed for default: ${message?.reason}`);
  });

  await step('Schedules is the seventh tab (Alt+7) and starts empty', async () => {
    const tabs = (await page.getByRole('tab').allTextContents()).map((x) => x.trim().replace(/\s+.*/, ''));
    assert.equal(tabs[6], 'Schedules', `tabs: ${tabs.join(' | ')}`);
    await page.keyboard.press('Alt+7');
    assert.equal(await page.getByRole('tab', { name: 'Schedules' }).getAttribute('aria-selected'), 'true');
    await page.getByText(/No schedules yet/).waitFor();
  });

  const form = page.getByRole('form', { name: 'New schedule' });
  const scheduleBox = form.getByRole('textbox', { name: 'Schedule' });

  await step("a bad schedule shows the Go parser's error under the Schedule field", async () => {
    await page.getByRole('button', { name: 'New schedule' }).click();
    await form.getByRole('textbox', { name: 'Name' }).fill(JOB);
    await form.getByRole('button', { name: 'Create schedule' }).click();
    assert.equal(await form.getByRole('textbox', { name: 'Prompt' }).getAttribute('aria-invalid'), 'true');
    await scheduleBox.fill('61 9 * * *');
    const err = form.getByTestId('schedule-error');
    await err.filter({ hasText: /minute field/i }).waitFor();
    assert.match((await err.textContent()) ?? '', /Minute field "61": value 61 out of range 0-59/);
    assert.equal(await scheduleBox.getAttribute('aria-invalid'), 'true');
    await scheduleBox.fill('0 9 * *');
    await err.filter({ hasText: /has 4 fields, want 5/ }).waitFor();
  });

  await step('a preset fixes it; the preview shows the next runs; Ctrl+Enter creates the schedule', async () => {
    await form.getByRole('button', { name: 'Every day 09:00' }).click();
    const preview = form.getByTestId('schedule-preview');
    await preview.waitFor();
    assert.match((await preview.textContent()) ?? '', /^Every day at 09:00\. Next: (today|tomorrow) 09:00, /);
    const prompt = form.getByRole('textbox', { name: 'Prompt' });
    await prompt.fill(PROMPT);
    await prompt.press('Control+Enter');
    await form.waitFor({ state: 'detached' });
    await page.getByText(`Created schedule ${JOB}.`).waitFor();
    const card = page.locator('[data-job]').filter({ hasText: JOB });
    assert.equal(await card.getByTestId('job-schedule').textContent(), '0 9 * * *');
    assert.match((await card.getByTestId('job-next').textContent()) ?? '', /(today|tomorrow) 09:00 · in /);
    assert.match((await card.getByTestId('job-last').textContent()) ?? '', /never run/);
    assert.equal(await card.getByRole('switch', { name: `Enabled ${JOB}` }).isChecked(), true);
  });

  await step('a schedule left unnamed is named after its prompt (the form says so first), not after its id', async () => {
    await page.getByRole('button', { name: 'New schedule' }).click();
    await scheduleBox.fill('@daily');
    await form.getByRole('textbox', { name: 'Prompt' }).fill('summarise what changed in my notes since yesterday.');
    const derived = form.getByTestId('sched-derived-name');
    assert.equal(await derived.textContent(), 'Left empty, it is called “Summarise what changed in my notes since yesterday”.');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await form.waitFor({ state: 'detached' });
    const named = 'Summarise what changed in my notes since yesterday';
    await page.getByText(`Created schedule ${named}.`).waitFor();
    const jobs = await go('CronJobs');
    const job = jobs.find((j) => j.prompt.startsWith('summarise'));
    assert.equal(job.name, named);
    assert.doesNotMatch(job.name, /^cron-/);
    await page.getByRole('button', { name: `Delete ${named}` }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.locator('[data-job]').filter({ hasText: named }).waitFor({ state: 'detached' });
  });

  const card = page.locator('[data-job]').filter({ hasText: JOB });

  await step("Run now: the scheduler runs it; the agent's message pops a toast; the result shows", async () => {
    await card.getByRole('button', { name: `Run ${JOB} now` }).click();
    const toast = page.getByTestId('message-toast').filter({ hasText: 'Backup check' });
    await toast.waitFor({ timeout: 30000 });
    assert.match((await toast.textContent()) ?? '', /All 3 backups are fresh\./);
    assert.equal(await toast.getAttribute('data-level'), 'success');
    await card.getByTestId('job-status').filter({ hasText: /^ok$/ }).waitFor({ timeout: 30000 });
    assert.equal(await card.getByTestId('job-result').textContent(), REPLY);
    // The notice follows the run: it no longer says "started" once the run ended.
    await page.getByRole('status').filter({ hasText: `${JOB} ran: its result is below.` }).waitFor();
    assert.match((await card.getByTestId('job-last').textContent()) ?? '', /today \d\d:\d\d · (just now|in under a minute)/);
    assert.match((await card.getByTestId('job-next').textContent()) ?? '', /09:00/);
    await page.mouse.move(640, 200); // keep the pointer off the toast, as a user reading the list would
    await evidence('schedules.png');
  });

  await step('Open chat on the toast shows the run: prompt, the notice bubble and the reply', async () => {
    await page.getByTestId('message-toast').filter({ hasText: 'Backup check' }).getByRole('button', { name: 'Open chat' }).click();
    assert.equal(await page.getByRole('tab', { name: 'Chat' }).getAttribute('aria-selected'), 'true');
    const chat = page.getByRole('tabpanel', { name: 'Chat' });
    const notice = chat.locator('[data-role="notice"]');
    await notice.filter({ hasText: 'All 3 backups are fresh.' }).waitFor();
    assert.match((await notice.textContent()) ?? '', /Backup check/);
    await chat.locator('[data-role="user"]').filter({ hasText: PROMPT }).waitFor();
    await chat.locator('[data-role="assistant"]').filter({ hasText: REPLY }).waitFor();
    assert.equal(await page.getByTestId('message-toast').count(), 0, 'the toast went away once its chat was shown');
  });

  await step('pause and resume with the switch; delete after confirming', async () => {
    await page.getByRole('tab', { name: 'Schedules' }).click();
    const sw = card.getByRole('switch', { name: `Enabled ${JOB}` });
    await sw.click();
    await card.getByTestId('job-next').filter({ hasText: /^paused$/ }).waitFor();
    assert.equal(await card.getByRole('button', { name: `Run ${JOB} now` }).isDisabled(), true);
    await sw.press('Space');
    await card.getByTestId('job-next').filter({ hasText: /09:00/ }).waitFor();
    assert.equal((await go('CronJobs'))[0].enabled, true);
    await card.getByRole('button', { name: `Delete ${JOB}` }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await card.waitFor({ state: 'detached' });
    assert.deepEqual(await go('CronJobs'), []);
  });

  await step('a chat turn that runs a subagent shows it in the Subagents strip with its result', async () => {
    await page.getByRole('tab', { name: 'Chat' }).click();
    await page.getByRole('button', { name: 'New chat' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('Ask a subagent for the answer.');
    await box.press('Enter');
    const strip = page.getByTestId('subagents');
    const child = strip.locator('[data-subagent]').filter({ hasText: 'researcher' });
    await child.getByTestId('subagent-status').filter({ hasText: /^done$/ }).waitFor({ timeout: 30000 });
    assert.equal(await child.getByTestId('subagent-result').textContent(), 'The answer is 42.');
    assert.match((await child.getByTestId('subagent-duration').textContent()) ?? '', /^(<0\.1|\d+(\.\d)?) s$/);
    assert.equal(await strip.getByTestId('subagent-summary').textContent(), '1 done');
    await page.getByTestId('turn-usage').waitFor();
    await page.waitForFunction(
      (pieces) => {
        const text = [...document.querySelectorAll('[data-role="assistant"]')].map((e) => e.textContent).join('|');
        return pieces.every((p) => text.includes(p));
      },
      ['The researcher says ', 'the answer is 42.'],
    );
    await child.getByTestId('subagent-result').click();
    await evidence('chat-subagents.png');
  });

  assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
}

await t.run(main);
