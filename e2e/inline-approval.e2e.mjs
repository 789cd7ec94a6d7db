#!/usr/bin/env node
// End-to-end test of approvals in the chat, against the real Go backend and
// a scripted model (llmserve replaying e2e/cassettes/inline-approval.json):
// the model calls delete_file, the call's card in the transcript says it
// waits for approval and asks right there (command, why, countdown, Allow
// once / Always allow / Deny), and the answer reaches the run.
//
// The native GTK dialog (on the app's own WebKit window, on our Xvfb) is
// shown only while the window is in the background, and it closes by itself
// once the card answered; a focused window gets no dialog at all.
//
// Usage: node e2e/inline-approval.e2e.mjs   (scripts/e2e.sh builds the binaries first)
// Env:   WARREN_DEV_BIN, LLMSERVE_BIN, E2E_OUT, E2E_DOCS as for chat.e2e.mjs
//        (E2E_DOCS=1 copies inline-approval.png)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, log, openWarrenPage, repoRoot, startLlmserve, startWarren, suite } from './lib.mjs';

const bin = path.resolve(repoRoot, process.env.WARREN_DEV_BIN || 'build/bin/warren-dev');
const llmserve = path.resolve(repoRoot, process.env.LLMSERVE_BIN || 'build/bin/llmserve');
const cassette = path.join(repoRoot, 'e2e', 'cassettes', 'inline-approval.json');
const outDir = path.resolve(repoRoot, process.env.E2E_OUT || 'build/e2e');
const DIALOG_TITLE = 'Warren: approve delete_file';

fs.mkdirSync(outDir, { recursive: true });
const t = suite('inline-approval', { outDir });
const step = t.step;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  try {
    execFileSync('sh', ['-c', 'command -v xdotool'], { stdio: 'ignore' });
  } catch {
    throw new Error('xdotool not found: run ./scripts/bootstrap.sh');
  }
  const url = await startLlmserve({ bin: llmserve, cassette, outDir, logName: 'llmserve-inline.log' });
  const { addr, appLog, workspace: ws, display } = await startWarren({ bin, outDir, logName: 'app-inline-approval.log' });
  t.appLog = appLog;
  const xenv = { ...process.env, DISPLAY: display };
  fs.mkdirSync(ws, { recursive: true });
  const oldNotes = path.join(ws, 'old-notes.txt');
  const keep = path.join(ws, 'keep.txt');
  fs.writeFileSync(oldNotes, 'outdated\n');
  fs.writeFileSync(keep, 'precious\n');

  /** The ids of the windows titled like the approval dialog ([] when none). */
  const dialogs = () => {
    try {
      return execFileSync('xdotool', ['search', '--name', DIALOG_TITLE], { env: xenv }).toString().trim().split('\n').filter(Boolean);
    } catch {
      return []; // xdotool exits 1 when nothing matches
    }
  };

  const browser = await launchChromium();
  const { page, pageErrors } = await openWarrenPage(browser, addr);
  t.page = page;
  const go = (method, ...args) => page.evaluate(([m, a]) => window.go.app.App[m](...a), [method, args]);
  const box = page.getByRole('textbox', { name: 'Message' });
  const card = (id) => page.locator(`[data-call-id="${id}"]`);
  const send = async (text) => {
    await page.getByRole('tab', { name: 'Chat', exact: true }).click();
    await box.fill(text);
    await box.press('Enter');
  };
  /** What the window reports when it goes to the background or comes back (ApprovalQueue). */
  const windowFocus = async (focused) => {
    await page.evaluate((f) => window.dispatchEvent(new FocusEvent(f ? 'focus' : 'blur')), focused);
    // The report travels on the same bridge; also set it directly so the
    // order against the next call is certain.
    await go('SetWindowFocused', focused);
  };

  await step('the default agent talks to the scripted model', async () => {
    await go('SaveModelProvider', { name: 'replay', kind: 'openai', base_url: `${url}/v1`, default_model: 'e2e-model', has_key: false, tool_mode: '' });
    const def = (await go('Agents')).find((a) => a.key === 'default');
    await go('SaveAgent', { ...def, provider: 'replay', model: 'e2e-model' });
    assert.ok(await go('DialogsEnabled'), 'native dialogs are on by default');
  });

  await step('a call that needs approval waits on its card; the card shows the command, why, and the time left', async () => {
    await windowFocus(false); // in the background: the native dialog asks too
    await send('Please delete old-notes.txt');
    const c = card('call_del_1');
    await c.getByTestId('tool-status').filter({ hasText: 'waiting for your approval' }).waitFor();
    const ask = c.getByTestId('inline-approval');
    assert.match((await ask.getByTestId('inline-command').textContent()) ?? '', /^delete_file \{"path":"old-notes\.txt"\}$/);
    assert.equal(await ask.getByTestId('inline-reason').textContent(), 'delete_file is dangerous and requires confirmation');
    assert.match((await ask.getByTestId('inline-countdown').textContent())?.trim() ?? '', /^[12]:\d\d left$/);
    assert.match((await ask.textContent()) ?? '', new RegExp(ws.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'the card names the directory');
    for (const name of ['Allow once', 'Always allow', 'Deny']) await ask.getByRole('button', { name }).waitFor();
    assert.ok(fs.existsSync(oldNotes), 'nothing ran before the answer');
    const shot = path.join(outDir, 'inline-approval.png');
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await page.screenshot({ path: shot });
    t.docShot(shot);
  });

  await step('in the background the native dialog asks as well; Allow once on the card runs the call and closes the dialog', async () => {
    let open = [];
    for (let i = 0; i < 50 && !open.length; i++) {
      open = dialogs();
      if (!open.length) await sleep(200);
    }
    assert.ok(open.length, `a native dialog "${DIALOG_TITLE}?" appeared on ${display}`);
    const c = card('call_del_1');
    await c.getByTestId('inline-approval').getByRole('button', { name: 'Allow once' }).click();
    await c.getByTestId('tool-status').filter({ hasText: /^ok$/ }).waitFor();
    assert.ok(!fs.existsSync(oldNotes), 'the file was deleted');
    await page.locator('[data-role="assistant"]', { hasText: 'Done: old-notes.txt is gone.' }).waitFor();
    // The dialog of the answered request closes by itself.
    for (let i = 0; i < 50 && dialogs().length; i++) await sleep(200);
    assert.deepEqual(dialogs(), [], 'the native dialog of the answered request closed');
    const [audit] = await go('ApprovalAudit', 1);
    assert.equal(audit.decision, 'allow-once');
    assert.equal(audit.decided_by, 'user');
  });

  await step('a focused window gets no native dialog; Deny on the card refuses and the file stays', async () => {
    await windowFocus(true);
    await send('Now delete keep.txt');
    const c = card('call_del_2');
    await c.getByTestId('tool-status').filter({ hasText: 'waiting for your approval' }).waitFor();
    const [pending] = await go('PendingApprovals');
    assert.equal(pending.call_id, 'call_del_2', 'the request names the call it holds up');
    // A dialog would have been started with the request, before the card
    // could show it; give GTK a moment to map one anyway.
    await sleep(1500);
    assert.deepEqual(dialogs(), [], 'no native dialog while the window is in front');
    await c.getByTestId('inline-approval').getByRole('button', { name: 'Deny' }).click();
    await c.getByTestId('tool-status').filter({ hasText: 'PermissionDenied' }).waitFor();
    await page.locator('[data-role="assistant"]', { hasText: 'OK, I left keep.txt alone.' }).waitFor();
    assert.ok(fs.existsSync(keep), 'the denied call deleted nothing');
    assert.equal((await go('PendingApprovals'))?.length ?? 0, 0);
    assert.equal(await page.getByTestId('badge-approvals').count(), 0, 'the Approvals badge cleared');
  });

  assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
}

await t.run(main);
