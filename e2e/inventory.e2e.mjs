#!/usr/bin/env node
// End-to-end test of the tool inventory against the real Go backend.
//
// The Wails dev build (-tags dev) runs the real window on a private Xvfb and
// also serves the UI on -devserver: a browser that loads the page from that
// address gets /wails/ipc.js in its WebSocket flavour, so window.go.* calls
// reach the real bound app.App over /wails/ipc. We drive that page with
// headless Debian Chromium via playwright-core.
//
// Usage: node e2e/inventory.e2e.mjs   (scripts/e2e.sh builds the binary first)
// Env:   WARREN_DEV_BIN  binary to run (default build/bin/warren-dev)
//        E2E_OUT         where screenshots and logs go (default build/e2e)
//        E2E_DISPLAY     use this X display instead of starting Xvfb
//        E2E_COLOR_SCHEME=dark  render with prefers-color-scheme: dark
//        E2E_DOCS=1      also copy inventory.png and inventory-why.png to
//                        docs/screenshots when the test passes (make screenshot)
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, log, openWarrenPage, repoRoot, startWarren, suite } from './lib.mjs';

const bin = path.resolve(repoRoot, process.env.WARREN_DEV_BIN || 'build/bin/warren-dev');
const outDir = path.resolve(repoRoot, process.env.E2E_OUT || 'build/e2e');
const DANGER = ['safe', 'caution', 'dangerous', 'critical'];

fs.mkdirSync(outDir, { recursive: true });
const t = suite('inventory', { outDir });
const step = t.step;
let page;

async function main() {
  const { addr, appLog } = await startWarren({ bin, outDir, logName: 'app.log' });
  t.appLog = appLog;
  const browser = await launchChromium();
  let pageErrors;
  await step('page loads from the dev server with the Wails WebSocket bridge', async () => {
    ({ page, pageErrors } = await openWarrenPage(browser, addr, {
      colorScheme: process.env.E2E_COLOR_SCHEME === 'dark' ? 'dark' : 'light',
    }));
    t.page = page;
    const ipc = await (await page.request.get(`http://${addr}/wails/ipc.js`)).text();
    assert.match(ipc, /WebSocket/, 'a browser should get the WebSocket IPC script');
  });

  await step('title and heading say Warren; Chat is the first, selected section; Tools the second', async () => {
    assert.equal(await page.title(), 'Warren');
    await page.getByRole('heading', { level: 1, name: 'Warren' }).waitFor();
    const tabs = await page.getByRole('tab').allTextContents();
    // Sections added later come after these (their Alt+number stays put).
    assert.deepEqual(
      tabs.map((x) => x.trim().replace(/\s+.*/, '')).slice(0, 7),
      ['Chat', 'Tools', 'Approvals', 'Sandbox', 'Custom', 'Agents', 'Schedules'],
      `tabs: ${tabs.join(' | ')}`,
    );
    assert.equal(await page.getByRole('tab', { name: 'Chat', exact: true }).getAttribute('aria-selected'), 'true');
    await page.getByRole('tab', { name: 'Tools', exact: true }).click();
  });

  const row = (name) => page.locator(`li[data-tool="${name}"]`);
  const status = async (name) => (await row(name).getByTestId('status').textContent())?.trim();
  const summary = page.getByTestId('summary');
  const confirmDialog = page.getByRole('dialog', { name: 'Change the tool profile for every agent?' });
  /** Chooses a profile and confirms the global switch. */
  const switchProfile = async (name) => {
    await page.locator('.switcher label', { hasText: new RegExp(`^\\s*${name}\\s*$`) }).click();
    await confirmDialog.getByRole('button', { name: `Switch to ${name}` }).click();
    await confirmDialog.waitFor({ state: 'detached' });
    await summary.filter({ hasText: `under ${name}` }).waitFor();
  };

  await step('inventory lists real tools from the backend, grouped, with danger badges', async () => {
    const fs_ = page.getByRole('region', { name: /^fs\b/ });
    await fs_.locator('li[data-tool="read_file"]').waitFor();
    const badge = (await row('read_file').locator('.danger').textContent())?.trim();
    assert.ok(DANGER.includes(badge), `read_file danger badge is ${JSON.stringify(badge)}`);
    const names = await page.locator('li[data-tool]').evaluateAll((els) => els.map((e) => e.dataset.tool));
    assert.ok(names.length >= 5, `expected several tools, got ${names.join(', ')}`);
    assert.ok(names.includes('session_status'), 'session_status is listed');
    const text = (await summary.textContent()) ?? '';
    assert.match(text, new RegExp(`^\\s*${names.length} tools · \\d+ allowed under \\w+`), text);
    log(`backend reported ${names.length} tools; summary: ${text.trim().split('\n')[0]}`);
  });

  await step('the global profile switch asks first and says what it blocks; Cancel keeps everything', async () => {
    const before = (await summary.textContent()) ?? '';
    const allowedBefore = Number(before.match(/(\d+) allowed under coding/)?.[1]);
    await page.locator('.switcher label', { hasText: /^\s*minimal\s*$/ }).click();
    await confirmDialog.waitFor();
    const change = confirmDialog.locator('p.change').first();
    await change.waitFor();
    const text = (await change.textContent()) ?? '';
    // minimal keeps session_status only: every other tool allowed now is blocked.
    assert.match(text, new RegExp(`^Switching to minimal blocks ${allowedBefore - 1} tools for every agent: .*exec.*`), text);
    assert.match((await confirmDialog.textContent()) ?? '', /It is not a view filter/);
    const shot = path.join(outDir, 'profile-confirm.png');
    await page.screenshot({ path: shot });
    t.docShot(shot);
    await confirmDialog.getByRole('button', { name: 'Cancel' }).click();
    await confirmDialog.waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('radio', { name: 'coding' }).isChecked(), true);
    assert.equal(await page.getByRole('radio', { name: 'minimal' }).isChecked(), false);
    assert.equal(await page.evaluate(() => window.go.app.App.ActiveProfile()), 'coding', 'Cancel changed nothing');
  });

  await step('switching to the minimal profile blocks read_file and allows session_status', async () => {
    await switchProfile('minimal');
    assert.equal(await page.getByRole('radio', { name: 'minimal' }).isChecked(), true);
    await row('read_file').getByTestId('status').filter({ hasText: 'blocked' }).waitFor();
    assert.equal(await status('read_file'), 'blocked');
    assert.equal(await status('session_status'), 'allowed');
    const reason = await row('read_file').getByTestId('status').getAttribute('title');
    assert.ok(reason && reason !== 'blocked', `a blocked tool carries its reason on hover, got ${reason}`);
  });

  await step('Enter expands a tool; its schema and the Why? trace show', async () => {
    const toggle = row('read_file').locator('button.summary');
    await toggle.focus();
    await page.keyboard.press('Enter');
    assert.equal(await toggle.getAttribute('aria-expanded'), 'true');
    const table = row('read_file').getByRole('table');
    await table.waitFor();
    assert.ok((await table.locator('tbody tr').count()) >= 1, 'read_file has parameters');
    await row('read_file').getByRole('button', { name: 'Why blocked?' }).click();
    const sentence = row('read_file').getByTestId('why-sentence');
    await sentence.waitFor();
    assert.equal(await sentence.textContent(), 'read_file is blocked because the profile “minimal” does not include the fs group.');
    // The engine's trace is folded below the sentence.
    const trace = row('read_file').locator('.trace li');
    assert.equal(await trace.first().isVisible(), false, 'the trace starts folded');
    await row('read_file').getByText(/^How the policy decided \(\d+ steps\)$/).click();
    await trace.first().waitFor();
    assert.ok((await trace.count()) >= 10);
  });

  await step('"Allow for this agent" gives read_file back to default only, and can be undone', async () => {
    await row('read_file').getByRole('button', { name: 'Allow for this agent' }).click();
    await row('read_file').getByTestId('status').filter({ hasText: 'allowed' }).waitFor();
    await row('read_file').getByRole('status').filter({ hasText: 'read_file is now allowed for agent default.' }).waitFor();
    await row('read_file')
      .getByTestId('why-sentence')
      .filter({ hasText: "read_file is allowed: agent “default”'s also-allow list adds it back." })
      .waitFor();
    assert.equal(await page.evaluate(() => window.go.app.App.ActiveProfile()), 'minimal', 'the global profile is unchanged');
    const shot = path.join(outDir, 'inventory-allow-agent.png');
    await page.evaluate(() => document.querySelector('li[data-tool="read_file"]')?.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: shot });
    log(`screenshot: ${path.relative(repoRoot, shot)}`);
    await row('read_file').getByRole('button', { name: 'Stop allowing for this agent' }).click();
    await row('read_file').getByTestId('status').filter({ hasText: 'blocked' }).waitFor();
    await row('read_file').getByRole('button', { name: 'Allow for this agent' }).waitFor();
  });

  await step('"/" focuses the filter, which filters by name and description', async () => {
    await page.getByRole('heading', { level: 1 }).click();
    await page.keyboard.press('/');
    const filter = page.getByRole('searchbox', { name: 'Filter tools' });
    assert.equal(await filter.evaluate((el) => el === document.activeElement), true, 'filter has focus');
    await page.keyboard.type('session');
    await row('read_file').waitFor({ state: 'detached' });
    const shown = await page.locator('li[data-tool]').evaluateAll((els) =>
      els.map((e) => `${e.dataset.tool} ${e.querySelector('.desc')?.textContent ?? ''}`.toLowerCase()),
    );
    assert.ok(shown.length >= 1, 'something matches "session"');
    for (const s of shown) assert.ok(s.includes('session'), `${s} should match "session"`);
    await page.keyboard.press('Escape');
    await row('read_file').waitFor();
  });

  // The open Why? trace refreshes for a new profile and agrees with the row.
  const traceAgrees = () =>
    page.waitForFunction(() => {
      const r = document.querySelector('li[data-tool="read_file"]');
      const status = r?.querySelector('[data-testid="status"]')?.textContent?.trim();
      return !!status && (r?.querySelector('.verdict')?.textContent ?? '').includes(status);
    });

  await step('an open Why? trace follows profile switches', async () => {
    await switchProfile('coding');
    await traceAgrees();
    await switchProfile('minimal');
    await traceAgrees();
    assert.match((await row('read_file').locator('.verdict').textContent()) ?? '', /blocked/);
  });

  await step('screenshots: the Why? trace, then the inventory overview', async () => {
    const shoot = async (name) => {
      const shot = path.join(outDir, name);
      await page.screenshot({ path: shot });
      t.docShot(shot);
    };
    await page.evaluate(() => {
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
      document.querySelector('li[data-tool="read_file"]')?.scrollIntoView({ block: 'start' });
    });
    await shoot('inventory-why.png');
    await row('read_file').locator('button.summary').click();
    await row('read_file').getByRole('table').waitFor({ state: 'detached' });
    await page.evaluate(() => {
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
      document.querySelector('#panel-tools .scroll')?.scrollTo(0, 0);
    });
    await shoot('inventory.png');
  });

  assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
}

await t.run(main);
