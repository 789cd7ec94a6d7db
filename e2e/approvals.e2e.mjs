#!/usr/bin/env node
// End-to-end test of approvals against the real Go backend: the Try-it form
// calls delete_file, the request shows up in the Approvals queue (badge,
// toast), and answers from the page (Deny, Always allow, Revoke) and from the
// native GTK dialog (Yes), shown while the window is in the background,
// reach the tool call.
//
// The page is headless Chromium on the dev server's WebSocket bridge (see
// inventory.e2e.mjs). The native dialog is a real GtkMessageDialog that the
// app's WebKit window opens on our private Xvfb; we find it with xdotool,
// screenshot the display with ImageMagick, and answer it with the keyboard.
//
// Usage: node e2e/approvals.e2e.mjs   (scripts/e2e.sh builds the binary first)
// Env:   WARREN_DEV_BIN, E2E_OUT, E2E_DISPLAY, E2E_DOCS as for inventory.e2e.mjs
//        (E2E_DOCS=1 copies approvals.png and approval-dialog.png)
// A "%" in a request must reach the native dialog as text: Wails v2.16.0 on
// Linux passes the message to gtk_message_dialog_new as a printf format, so
// main.go escapes "%" (without it "%s%n" in a file name crashed the app).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, log, openWarrenPage, repoRoot, startWarren, suite } from './lib.mjs';

const bin = path.resolve(repoRoot, process.env.WARREN_DEV_BIN || 'build/bin/warren-dev');
const outDir = path.resolve(repoRoot, process.env.E2E_OUT || 'build/e2e');
const DIALOG_TITLE = 'Warren: approve delete_file';

fs.mkdirSync(outDir, { recursive: true });
const t = suite('approvals', { outDir });
const step = t.step;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function main() {
  for (const cmd of ['xdotool', 'import']) {
    try {
      execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    } catch {
      throw new Error(`${cmd} not found: run ./scripts/bootstrap.sh (it installs xdotool and imagemagick)`);
    }
  }
  const { addr, appLog, workspace, display } = await startWarren({ bin, outDir, logName: 'app-approvals.log' });
  t.appLog = appLog;
  const xenv = { ...process.env, DISPLAY: display };
  const victim = path.join(workspace, 'victim.txt');
  const makeVictim = () => {
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(victim, 'delete me\n');
  };

  const browser = await launchChromium();
  const { page, pageErrors } = await openWarrenPage(browser, addr);
  t.page = page;
  const go = (method, ...args) => page.evaluate(([m, a]) => window.go.app.App[m](...a), [method, args]);

  const tab = (name) => page.getByRole('tab', typeof name === 'string' ? { name, exact: true } : { name });
  const badge = page.getByTestId('badge-approvals');
  const deleteRow = page.locator('li[data-tool="delete_file"]');
  const tryIt = deleteRow.getByTestId('try-it');
  const result = tryIt.getByTestId('try-result');
  const card = page.locator('#panel-approvals li[data-request]');
  const patternRows = page.locator('#panel-approvals tr[data-pattern]');

  const shoot = async (name, { doc = false } = {}) => {
    const shot = path.join(outDir, name);
    await page.screenshot({ path: shot });
    if (doc) t.docShot(shot);
    else log(`screenshot: ${path.relative(repoRoot, shot)}`);
  };

  /**
   * The window goes to the background: native dialogs are shown only then
   * (a focused window asks on its cards and toast; see inline-approval.e2e.mjs).
   * The page reports it as on a real blur; setting it directly as well makes
   * the order against the next call certain.
   */
  const toBackground = async () => {
    await page.evaluate(() => window.dispatchEvent(new FocusEvent('blur')));
    await go('SetWindowFocused', false);
  };

  /** Fills the Try-it form and clicks Run; the call then runs in the page. */
  const runDelete = async (args = '{"path": "victim.txt"}') => {
    await tab('Tools').click();
    await tryIt.getByRole('textbox', { name: /Arguments/ }).fill(args);
    await tryIt.getByRole('button', { name: 'Run' }).click();
  };

  await step('Chat is the first screen; in Tools, delete_file is dangerous and asks for confirmation', async () => {
    assert.equal(await tab('Chat').getAttribute('aria-selected'), 'true');
    await tab('Tools').click();
    await deleteRow.waitFor();
    assert.equal((await deleteRow.locator('.danger').textContent())?.trim(), 'dangerous');
    await deleteRow.locator('.confirm').waitFor();
    await deleteRow.locator('button.summary').click();
    const prefilled = await tryIt.getByRole('textbox', { name: /Arguments/ }).inputValue();
    assert.deepEqual(JSON.parse(prefilled), { path: '' }, 'Try it is prefilled with the required path');
  });

  await step('invalid JSON is refused in the page, without calling Go', async () => {
    await tryIt.getByRole('textbox', { name: /Arguments/ }).fill('{"path": victim.txt}');
    await tryIt.getByRole('button', { name: 'Run' }).click();
    const err = tryIt.getByRole('alert');
    await err.waitFor();
    assert.match((await err.textContent()) ?? '', /^Arguments are not valid JSON: line 1, column 10/);
    assert.equal(await result.count(), 0);
  });

  await step('native dialogs off, through the Approvals panel switch', async () => {
    await tab(/Approvals/).click();
    const toggle = page.getByRole('switch', { name: 'Show native dialogs' });
    await page.waitForFunction(() => {
      const el = document.querySelector('#panel-approvals input[role="switch"]');
      return el && !el.disabled;
    });
    assert.equal(await toggle.isChecked(), true, 'dialogs are on by default');
    await toggle.click();
    await page.waitForFunction(() => window.go.app.App.DialogsEnabled().then((on) => !on));
    assert.equal(await go('DialogsEnabled'), false);
    assert.equal(await go('ApprovalMode'), 'ask');
    await page.getByRole('radio', { name: /^Ask/ }).isChecked();
  });

  await step('Try it on delete_file waits for approval; the queue, badge and toast show the request', async () => {
    makeVictim();
    await runDelete();
    await tryIt.getByTestId('try-waiting').waitFor();
    assert.match((await tryIt.getByTestId('try-waiting').textContent()) ?? '', /waiting for approval…/);
    await badge.filter({ hasText: /^1$/ }).waitFor();
    const toast = page.getByTestId('approval-toast');
    await toast.waitFor();
    assert.match((await toast.textContent()) ?? '', /Approval needed: delete_file/);
    await toast.getByRole('button', { name: 'Review' }).click();
    assert.equal(await tab(/Approvals/).getAttribute('aria-selected'), 'true');
    await card.first().waitFor();
    assert.equal(await card.count(), 1);
    assert.equal(await card.getByTestId('request-summary').textContent(), 'delete_file {"path":"victim.txt"}');
    const text = (await card.textContent()) ?? '';
    assert.ok(text.includes(workspace), `the card shows the workspace (${workspace}): ${text}`);
    assert.match(text, /delete_file is dangerous and requires confirmation/);
    assert.match(text, /[12]:\d\d left/);
    // Review focuses the newest request so y / a / n work at once.
    await page.waitForFunction(() => document.activeElement?.matches('li[data-request]'));
    const pending = await go('PendingApprovals');
    assert.equal(pending.length, 1);
    await page.evaluate(() => document.querySelector('#panel-approvals .scroll')?.scrollTo(0, 0));
    await shoot('approvals.png', { doc: true });
  });

  await step('Deny → the Try-it result is PermissionDenied and the file stays', async () => {
    await card.getByRole('button', { name: /Deny/ }).click();
    await card.waitFor({ state: 'detached' });
    await badge.waitFor({ state: 'detached' });
    await tab('Tools').click();
    await result.waitFor();
    assert.equal(await result.getByTestId('try-status').textContent(), 'error');
    assert.equal(await result.getByTestId('try-code').textContent(), 'PermissionDenied');
    assert.match((await result.getByTestId('try-output').textContent()) ?? '', /not approved: denied by the user/);
    assert.ok(fs.existsSync(victim), 'the file was not deleted');
  });

  await step('again, answered with the "a" key (Always allow) → success, the file is gone', async () => {
    await runDelete();
    await tryIt.getByTestId('try-waiting').waitFor();
    await badge.filter({ hasText: /^1$/ }).waitFor();
    await tab(/Approvals/).click();
    await card.first().waitFor();
    await page.waitForFunction(() => document.activeElement?.matches('li[data-request]'));
    await page.keyboard.press('a');
    await card.waitFor({ state: 'detached' });
    await tab('Tools').click();
    await result.getByTestId('try-status').filter({ hasText: 'success' }).waitFor();
    assert.equal(await result.getByTestId('try-output').textContent(), 'Deleted victim.txt');
    assert.ok(!fs.existsSync(victim), 'the file was deleted');
  });

  await step('the pattern is listed, and the same call now runs without asking', async () => {
    await tab(/Approvals/).click();
    await patternRows.first().waitFor();
    assert.equal(await patternRows.count(), 1);
    const text = (await patternRows.first().textContent()) ?? '';
    assert.match(text, /delete_file/);
    assert.match(text, /victim\.txt/);
    // The audit lists both answers, newest first.
    const audit = page.locator('#panel-approvals tr[data-audit]');
    await audit.nth(1).waitFor();
    const decisions = await audit.locator('.decision').allTextContents();
    assert.deepEqual(decisions.slice(0, 2), ['allowed always', 'denied']);

    makeVictim();
    await runDelete();
    await result.getByTestId('try-status').filter({ hasText: 'success' }).waitFor();
    assert.ok(!fs.existsSync(victim), 'deleted under the stored pattern');
    assert.equal(await badge.count(), 0, 'nothing was asked');
  });

  await step('Revoke asks for confirmation, then removes the pattern', async () => {
    await tab(/Approvals/).click();
    await patternRows.first().getByRole('button', { name: /^Revoke/ }).click();
    assert.equal((await go('ApprovalPatterns'))?.length, 1, 'nothing revoked before confirming');
    await patternRows.first().getByRole('button', { name: 'Yes, revoke' }).click();
    await patternRows.first().waitFor({ state: 'detached' });
    assert.equal((await go('ApprovalPatterns') ?? []).length, 0);
    await page.getByText(/Revoked: delete_file will ask again/).waitFor();
  });

  await step('native dialog: with dialogs on, a GTK dialog asks; Yes (Alt+Y) allows once', async () => {
    const toggle = page.getByRole('switch', { name: 'Show native dialogs' });
    await toggle.click();
    await page.waitForFunction(() => window.go.app.App.DialogsEnabled());
    await toBackground();
    makeVictim();
    await runDelete();
    await tryIt.getByTestId('try-waiting').waitFor();

    // The app's WebKit window opens the dialog on our Xvfb display.
    let win = '';
    for (let i = 0; i < 50 && !win; i++) {
      try {
        win = execFileSync('xdotool', ['search', '--name', DIALOG_TITLE], { env: xenv }).toString().trim().split('\n').pop();
      } catch {
        await sleep(200);
      }
    }
    assert.ok(win, `a window titled "${DIALOG_TITLE}…" appeared on ${display}`);
    const title = execFileSync('xdotool', ['getwindowname', win], { env: xenv }).toString().trim();
    log(`dialog window ${win}: "${title}"; ${execFileSync('xdotool', ['getwindowgeometry', win], { env: xenv }).toString().replace(/\s+/g, ' ').trim()}`);
    assert.equal(title, 'Warren: approve delete_file?');
    await sleep(500); // let GTK finish drawing before the screenshot
    const shot = path.join(outDir, 'approval-dialog.png');
    execFileSync('import', ['-window', 'root', shot], { env: xenv });
    t.docShot(shot);

    // GTK_BUTTONS_YES_NO buttons carry the mnemonics _Yes and _No, and Wails
    // never sets a default response (DefaultButton is ignored on Linux), so
    // Return would press whichever button has focus. Alt+Y presses Yes.
    // There is no window manager on Xvfb: give the dialog the input focus
    // ourselves, then type through XTEST.
    execFileSync('xdotool', ['windowfocus', '--sync', win], { env: xenv });
    execFileSync('xdotool', ['key', '--clearmodifiers', 'alt+y'], { env: xenv });

    await result.getByTestId('try-status').filter({ hasText: 'success' }).waitFor();
    assert.equal(await result.getByTestId('try-output').textContent(), 'Deleted victim.txt');
    assert.ok(!fs.existsSync(victim), 'the file is gone');
    await badge.waitFor({ state: 'detached' });
    const gone = await new Promise((resolve) => {
      try {
        execFileSync('xdotool', ['search', '--name', DIALOG_TITLE], { env: xenv });
        resolve(false);
      } catch {
        resolve(true); // xdotool exits 1 when nothing matches
      }
    });
    assert.ok(gone, 'the dialog closed');
    const audit = await go('ApprovalAudit', 1);
    assert.equal(audit[0].decision, 'allow-once');
    assert.equal(audit[0].decided_by, 'user');
  });

  await step('mode switcher persists the mode (deny refuses without asking)', async () => {
    await tab(/Approvals/).click();
    await page.getByRole('radio', { name: /^Deny/ }).check();
    await page.waitForFunction(() => window.go.app.App.ApprovalMode().then((m) => m === 'deny'));
    makeVictim();
    await runDelete();
    await result.getByTestId('try-code').filter({ hasText: 'PermissionDenied' }).waitFor();
    assert.match((await result.getByTestId('try-output').textContent()) ?? '', /approval mode is deny/);
    assert.ok(fs.existsSync(victim));
    await tab(/Approvals/).click();
    await page.getByRole('radio', { name: /^Ask/ }).check();
    await page.waitForFunction(() => window.go.app.App.ApprovalMode().then((m) => m === 'ask'));
  });

  await step('Sandbox: says where commands run; switching to host says ON THIS MACHINE, and back', async () => {
    await tab('Sandbox').click();
    const panel = page.locator('#panel-sandbox');
    const verdict = panel.getByTestId('sandbox-verdict');
    await verdict.waitFor();
    // The page runs a real test first ("Testing the sandbox…"); its result is the headline.
    await verdict.locator('h2', { hasText: /^Commands (run|are refused)/ }).waitFor({ timeout: 90000 });
    const before = ((await verdict.locator('h2').textContent()) ?? '').trim();
    log(`sandbox verdict: ${before}`);
    assert.match(before, /^Commands (run|are refused)/);
    await shoot('sandbox.png');

    await panel.getByRole('combobox', { name: 'Where commands run' }).selectOption('host');
    await panel.getByTestId('host-warning').waitFor();
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await verdict.locator('h2', { hasText: 'Commands run ON THIS MACHINE (no sandbox)' }).waitFor();
    assert.equal((await go('SandboxStatus')).mode, 'host');
    await shoot('sandbox-host.png');

    await panel.getByRole('combobox', { name: 'Where commands run' }).selectOption('podman');
    await panel.getByRole('combobox', { name: 'If Podman is unavailable' }).selectOption('deny');
    await panel.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForFunction(() => window.go.app.App.SandboxStatus().then((s) => s.mode === 'podman' && s.fallback === 'deny'));
    await verdict.locator('h2', { hasText: /^Commands (run in|are refused)/ }).waitFor();
  });

  await step('Custom tools: validation, create with a secret env value, listed in Tools, delete', async () => {
    await tab('Custom tools').click();
    const panel = page.locator('#panel-custom');
    await panel.getByRole('button', { name: 'New tool' }).click();
    const form = panel.getByTestId('custom-tool-form');
    await form.getByRole('textbox', { name: /^Name/ }).fill('e2e_echo');
    await form.getByRole('textbox', { name: /^Description/ }).fill('Echo a message (e2e)');
    await form
      .getByRole('textbox', { name: /^Parameters/ })
      .fill('{"type": "object", "properties": {"msg": {"type": "string"}}, "required": ["msg"]}');
    await form.getByRole('textbox', { name: /^Command/ }).fill('echo {{.msg}} {{.missing}}');
    await form.getByTestId('missing-placeholders').filter({ hasText: '{{.missing}}' }).waitFor();
    await form.getByRole('button', { name: 'Create tool' }).click();
    await form.getByTestId('form-errors').waitFor();
    await form.getByRole('textbox', { name: /^Command/ }).fill('echo {{.msg}}');
    await form.getByRole('button', { name: 'Add variable' }).click();
    await form.getByRole('textbox', { name: 'Variable name' }).fill('E2E_TOKEN');
    const secret = form.getByLabel('Value for E2E_TOKEN');
    assert.equal(await secret.getAttribute('type'), 'password');
    await secret.fill('not-shown-again');
    await form.getByRole('button', { name: 'Create tool' }).click();
    await panel.getByText('Created e2e_echo.').waitFor();
    const row = panel.locator('tr[data-custom-tool="e2e_echo"]');
    await row.waitFor();
    assert.match((await row.textContent()) ?? '', /E2E_TOKEN/);
    const stored = (await go('CustomTools')).find((t) => t.name === 'e2e_echo');
    assert.deepEqual(stored.env_keys, ['E2E_TOKEN']);
    assert.equal(stored.env, undefined, 'env values are never returned');
    assert.equal(stored.parameters.type, 'object', 'parameters travel as a JSON object');
    await shoot('custom-tools.png');

    // Editing shows the stored value only as set.
    await row.getByRole('button', { name: 'Edit e2e_echo' }).click();
    await form.getByTestId('env-set').waitFor();
    assert.equal(await form.getByTestId('env-set').textContent(), '•••• (set)');
    assert.ok(!((await form.textContent()) ?? '').includes('not-shown-again'));
    await form.getByRole('button', { name: 'Cancel' }).click();

    await tab('Tools').click();
    await page.locator('li[data-tool="e2e_echo"]').waitFor();

    await tab('Custom tools').click();
    await row.getByRole('button', { name: 'Delete e2e_echo' }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await go('CustomTools')).filter((t) => t.name === 'e2e_echo').length, 0);
  });

  {
    await step('native dialog: "%" in a file name is shown as text and the app survives', async () => {
      await tab(/Approvals/).click();
      const toggle = page.getByRole('switch', { name: 'Show native dialogs' });
      if (!(await toggle.isChecked())) await toggle.click();
      await page.waitForFunction(() => window.go.app.App.DialogsEnabled());
      await toBackground();
      const name = 'pct%s%s%s%n.txt';
      fs.writeFileSync(path.join(workspace, name), 'x');
      await runDelete(JSON.stringify({ path: name }));
      await tryIt.getByTestId('try-waiting').waitFor();
      let win = '';
      for (let i = 0; i < 50 && !win; i++) {
        try {
          win = execFileSync('xdotool', ['search', '--name', DIALOG_TITLE], { env: xenv }).toString().trim().split('\n').pop();
        } catch {
          await sleep(200);
        }
      }
      assert.ok(win, 'the dialog appeared (and the app did not crash)');
      await sleep(300);
      execFileSync('import', ['-window', 'root', path.join(outDir, 'approval-dialog-percent.png')], { env: xenv });
      execFileSync('xdotool', ['windowfocus', '--sync', win], { env: xenv });
      execFileSync('xdotool', ['key', '--clearmodifiers', 'alt+n'], { env: xenv });
      await result.getByTestId('try-code').filter({ hasText: 'PermissionDenied' }).waitFor();
      assert.ok(fs.existsSync(path.join(workspace, name)));
      assert.equal(await go('Version') !== '', true, 'the app still answers');
    });
  }

  assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
}

await t.run(main);
