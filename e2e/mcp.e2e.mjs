#!/usr/bin/env node
// End-to-end test of the MCP tab against the real Go backend and the real
// @modelcontextprotocol/server-everything (installed from npm by bootstrap)
// over stdio: the first-run Claude Desktop offer with its import preview (a
// local server and an `npx -y` one: the download is marked and off, nothing
// starts before the import is confirmed), adding the server through the form
// (its id derived from the name, Test connection lists its tools, its tools
// offered to agents by default), the notice following its status, switching a
// tool off (the inventory loses it), the offer switch, killing the server
// process (its pid is in the status) and watching the status go to
// reconnecting and back, logs, an access request approved into a grant,
// import through the preview and export; then the Sandbox page, whose
// headline comes from a real test in a real container. In between, with a
// scripted model (e2e/cassettes/mcp-client.json), the client features: a slow
// tool's progress bar, a server's question as a form, a prompt from the
// composer's "/" menu. Saves mcp.png (E2E_DOCS=1:
// also to docs/screenshots), mcp-import-preview.png and sandbox.png.
//
// Usage: node e2e/mcp.e2e.mjs   (scripts/e2e.sh builds the binary first)
// Env:   WARREN_DEV_BIN, E2E_OUT, E2E_DISPLAY, E2E_DOCS as for inventory.e2e.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, log, openWarrenPage, repoRoot, startLlmserve, startWarren, suite, tempDir } from './lib.mjs';

const bin = path.resolve(repoRoot, process.env.WARREN_DEV_BIN || 'build/bin/warren-dev');
const outDir = path.resolve(repoRoot, process.env.E2E_OUT || 'build/e2e');
const everything = path.join(repoRoot, 'backend', 'mcp', 'testdata', 'servers', 'node_modules', '.bin', 'mcp-server-everything');
const llmserve = path.resolve(repoRoot, process.env.LLMSERVE_BIN || 'build/bin/llmserve');
// The scripted model calls server-everything's slow tool and its question.
const cassette = path.join(repoRoot, 'e2e', 'cassettes', 'mcp-client.json');

fs.mkdirSync(outDir, { recursive: true });
const t = suite('mcp', { outDir });
const step = t.step;

async function main() {
  if (!fs.existsSync(everything)) throw new Error(`${everything} is missing: run ./scripts/bootstrap.sh (it installs the test MCP servers)`);
  // A Claude Desktop config for the first-run offer: the app finds it
  // through XDG_CONFIG_HOME, which startWarren passes on from our env.
  const xdg = tempDir('warren-e2e-xdg-');
  fs.mkdirSync(path.join(xdg, 'Claude'), { recursive: true });
  // One local server, and one that npx would download when it starts.
  fs.writeFileSync(
    path.join(xdg, 'Claude', 'claude_desktop_config.json'),
    JSON.stringify({
      mcpServers: {
        'from-claude': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] },
        'claude-local': { command: everything, args: ['stdio'], env: { CLAUDE_TOKEN: 'claude-secret-value' } },
      },
    }),
  );
  process.env.XDG_CONFIG_HOME = xdg;

  const llmURL = await startLlmserve({ bin: llmserve, cassette, outDir, logName: 'llmserve-mcp.log' });
  const { addr, appLog } = await startWarren({ bin, outDir, logName: 'app-mcp.log' });
  t.appLog = appLog;
  const browser = await launchChromium();
  let page, pageErrors;
  const section = (name) => page.getByRole('tablist', { name: 'Sections' }).getByRole('tab', { name, exact: true });
  const go = (method, ...args) => page.evaluate(([m, a]) => window.go.app.App[m](...a), [method, args]);
  const card = () => page.locator('[data-server="everything"]');
  const state = () => card().locator('.top [data-testid="mcp-state"]');

  await step('first run offers the Claude Desktop servers: a preview first, the npx server marked and off', async () => {
    ({ page, pageErrors } = await openWarrenPage(browser, addr));
    t.page = page;
    const offer = page.getByTestId('claude-offer');
    await offer.waitFor();
    assert.match((await offer.textContent()) ?? '', /Import 2 servers from Claude Desktop\?\s*claude-local, from-claude/);
    await offer.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import from Claude Desktop' });
    const preview = dialog.getByTestId('mcp-import-preview');
    await preview.waitFor();
    const row = (name) => preview.locator(`[data-import-server="${name}"]`);
    // The npx server: marked, with what it downloads, and off.
    assert.match((await row('from-claude').getByTestId('downloads-mark').textContent()) ?? '', /downloads a package when it starts/);
    assert.match((await row('from-claude').textContent()) ?? '', /npx downloads the package @modelcontextprotocol\/server-memory when it starts/);
    assert.equal(await row('from-claude').getByRole('switch', { name: 'Start from-claude' }).isChecked(), false);
    // The local one: on; its env key shown, never the value.
    assert.equal(await row('claude-local').getByRole('switch', { name: 'Start claude-local' }).isChecked(), true);
    assert.match((await row('claude-local').textContent()) ?? '', /env CLAUDE_TOKEN/);
    assert.doesNotMatch((await dialog.textContent()) ?? '', /claude-secret-value/);
    await page.screenshot({ path: path.join(outDir, 'mcp-import-preview.png') });
    // Nothing is stored, started or downloaded before the import is confirmed.
    assert.deepEqual(await go('MCPServers'), []);
    assert.equal(await go('ClaudeDesktopOffer').then((o) => o?.servers?.length), 2, 'the offer is still open');

    await dialog.getByRole('button', { name: 'Import 2 servers' }).click();
    const report = dialog.getByTestId('mcp-import-report');
    await report.waitFor();
    assert.match((await report.textContent()) ?? '', /Added 2 \(claude-local, from-claude\)\. from-claude is stored switched off\./);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.match((await page.getByTestId('claude-offer-done').textContent()) ?? '', /from-claude is stored switched off/);
    await page.getByTestId('claude-offer-done').getByRole('button', { name: 'Dismiss' }).click();
    assert.equal(await go('ClaudeDesktopOffer'), null, 'importing answers the offer for good');
  });

  await step('the imported local server connects; the npx one stays stopped, with no process', async () => {
    await section('MCP').click();
    await page.waitForFunction(
      () => document.querySelector('[data-server="claude-local"] .top [data-testid="mcp-state"]')?.getAttribute('data-state') === 'connected',
      null,
      { timeout: 45000 },
    );
    const fetched = page.locator('[data-server="from-claude"]');
    assert.equal((await fetched.locator('.top [data-testid="mcp-state"]').textContent())?.trim(), 'Disabled');
    assert.equal(await fetched.getByTestId('mcp-pid').count(), 0);
    const views = await go('MCPServers');
    const v = views.find((x) => x.server.name === 'from-claude');
    assert.equal(v.server.enabled, false);
    assert.equal(v.status.state, 'stopped');
    assert.ok(!v.status.pid, `from-claude has a process: ${JSON.stringify(v.status)}`);
    // Imported with "Offer their tools to agents" on.
    assert.equal((await go('MCPAgentAccess', 'claude-local')).also_allowed, true);
  });

  await step('add server-everything over stdio: id from the name, Test connection lists its tools, Enter saves', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('form', { name: 'New MCP server' });
    await form.getByRole('button', { name: 'Add server' }).click();
    await form.getByTestId('mcp-form-errors').waitFor();
    const name = form.getByRole('textbox', { name: /^Name/ });
    await name.fill('Every Thing');
    assert.match((await form.getByTestId('mcp-form-id').textContent()) ?? '', /Saved as every-thing; its tools are named mcp_every-thing_<tool>\./);
    await name.fill('Everything');
    assert.match((await form.getByTestId('mcp-form-id').textContent()) ?? '', /Saved as everything/);
    assert.equal(await form.getByRole('checkbox', { name: /Offer its tools to agents/ }).isChecked(), true);
    await form.getByRole('textbox', { name: /^Command/ }).fill(everything);
    await form.getByRole('button', { name: 'Add argument' }).click();
    await form.getByRole('textbox', { name: 'Argument 1' }).fill('stdio');
    await form.getByRole('button', { name: 'Test connection' }).click();
    const result = form.getByTestId('mcp-test-result');
    await result.getByRole('list', { name: 'Tools found' }).waitFor({ timeout: 30000 });
    const text = ((await result.textContent()) ?? '').replace(/\s+/g, ' ');
    assert.match(text, /Connected to .*\(protocol [\d-]+\) in [\d.]+ ms: \d+ tools found/, text);
    assert.match(text, /\becho\b/);
    await page.screenshot({ path: path.join(outDir, 'mcp-form.png'), fullPage: true });
    await name.press('Enter');
    await form.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Added everything.' }).waitFor();
  });

  let pid = 0;
  await step('it connects: live status, tool count, pid, its tools listed, and the notice says so', async () => {
    await page.waitForFunction(
      () => document.querySelector('[data-server="everything"] .top [data-testid="mcp-state"]')?.getAttribute('data-state') === 'connected',
      null,
      { timeout: 45000 },
    );
    // The notice follows the status: no stale "Warren is starting it." once connected.
    await page.getByRole('status').filter({ hasText: /Added everything\. It is connected with \d+ tools\./ }).waitFor();
    assert.match((await card().getByTestId('mcp-tools-count').textContent()) ?? '', /^\d+ tools$/);
    pid = Number(await card().getByTestId('mcp-pid').getAttribute('data-pid'));
    assert.ok(pid > 1, `pid ${pid}`);
    const tools = card().getByTestId('mcp-tools');
    await tools.getByRole('switch', { name: 'Tool echo' }).waitFor();
    assert.match((await tools.textContent()) ?? '', /mcp_everything_echo/);
  });

  await step('switch echo off: the row greys out and the backend denies it', async () => {
    const echo = card().getByRole('switch', { name: 'Tool echo' });
    await echo.click();
    await page.waitForFunction(() => document.querySelector('tr[data-mcp-tool="echo"]')?.classList.contains('off'));
    assert.equal(await echo.isChecked(), false);
    const listed = await go('MCPServerTools', 'everything');
    assert.equal(listed.find((x) => x.name === 'echo')?.enabled, false);
    assert.equal(listed.find((x) => x.name !== 'echo')?.enabled, true);
  });

  await step("its tools are offered to agents by default (without echo); the switch takes them away and back", async () => {
    const offer = card().getByRole('switch', { name: "Offer this server's tools to agents" });
    await card().getByTestId('mcp-offer-text').filter({ hasText: 'group:mcp:everything' }).waitFor();
    assert.equal(await offer.isChecked(), true);
    let inv = await go('Tools', '', 'default');
    assert.equal(inv.find((x) => x.name === 'mcp_everything_get-sum')?.allowed, true);
    const echo = inv.find((x) => x.name === 'mcp_everything_echo');
    assert.ok(!echo || !echo.allowed, `echo is switched off: ${JSON.stringify(echo)}`);
    await offer.click();
    await card().getByTestId('mcp-offer-text').filter({ hasText: /Agents do not see these tools: profile coding does not include MCP tools/ }).waitFor();
    assert.doesNotMatch((await card().getByTestId('mcp-offer-text').textContent()) ?? '', /warren policy/);
    assert.equal((await go('Tools', '', 'default')).find((x) => x.name === 'mcp_everything_get-sum')?.allowed, false);
    await offer.click();
    await card().getByTestId('mcp-offer-text').filter({ hasText: 'group:mcp:everything' }).waitFor();
    inv = await go('Tools', '', 'default');
    const add = inv.find((x) => x.name === 'mcp_everything_get-sum');
    assert.equal(add?.allowed, true, JSON.stringify(add));
  });

  await step('screenshot: mcp.png', async () => {
    await page.getByRole('status').filter({ hasText: 'Added everything.' }).getByRole('button', { name: 'Dismiss' }).click();
    await page.evaluate(() => {
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    });
    await page.mouse.move(640, 845); // off the buttons: no hover highlight
    const shot = path.join(outDir, 'mcp.png');
    await page.screenshot({ path: shot });
    t.docShot(shot);
  });

  // Client features (issue 12 §7) in the chat, with a scripted model.
  const chatBox = () => page.getByRole('textbox', { name: 'Message' });
  await step('a slow MCP tool shows a progress bar on its running card', async () => {
    await go('SaveModelProvider', { name: 'replay', kind: 'openai', base_url: `${llmURL}/v1`, default_model: 'e2e-model', has_key: false, tool_mode: '' });
    const def = (await go('Agents')).find((a) => a.key === 'default');
    await go('SaveAgent', { ...def, provider: 'replay', model: 'e2e-model' });
    await section('Chat').click();
    await chatBox().fill('Run the slow operation');
    await chatBox().press('Enter');
    const slow = page.locator('[data-call-id="call_slow"]');
    const bar = slow.getByTestId('tool-progress');
    await bar.waitFor({ timeout: 20000 });
    assert.match((await bar.textContent()) ?? '', /\d+%/);
    assert.ok(Number(await bar.locator('progress').getAttribute('value')) > 0, 'the bar moved');
    await page.screenshot({ path: path.join(outDir, 'mcp-progress.png') });
    await slow.getByTestId('tool-status').filter({ hasText: 'ok' }).waitFor({ timeout: 20000 });
    assert.equal(await bar.count(), 0, 'the bar goes with the call');
    await page.getByText('The operation finished.').waitFor();
  });

  await step("a server's question is a form in the window; the answer reaches the server and the model", async () => {
    await chatBox().fill('Ask me for my details');
    await chatBox().press('Enter');
    const form = page.getByTestId('mcp-elicitation');
    await form.waitFor({ timeout: 20000 });
    assert.match((await form.textContent()) ?? '', /Please provide inputs/);
    await form.getByLabel('String *', { exact: true }).fill('Ada Lovelace');
    await page.screenshot({ path: path.join(outDir, 'mcp-elicitation.png') });
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.waitFor({ state: 'detached' });
    const ask = page.locator('[data-call-id="call_ask"]');
    await ask.getByTestId('tool-status').filter({ hasText: 'ok' }).waitFor({ timeout: 20000 });
    await page.getByText('Thanks, Ada.').waitFor();
  });

  await step("the composer offers the server's prompts on '/': arguments asked, the rendered text inserted", async () => {
    await chatBox().fill('/everything:args');
    const menu = page.getByTestId('mcp-prompt-menu');
    await menu.locator('[data-prompt="everything:args-prompt"]').click();
    await menu.getByLabel('city *').fill('Paris');
    await menu.getByRole('button', { name: 'Insert' }).click();
    await menu.waitFor({ state: 'detached' });
    assert.equal(await chatBox().inputValue(), "What's weather in Paris?");
    await chatBox().fill('');
    await section('MCP').click();
  });

  await step('kill the server process: reconnecting with the attempt, then connected again', async () => {
    log(`kill -KILL ${pid} (server-everything)`);
    process.kill(pid, 'SIGKILL');
    // The badge says reconnecting and, under it, when the next attempt is.
    const why = await page.waitForFunction(
      () => {
        const c = document.querySelector('[data-server="everything"]');
        const st = c?.querySelector('.top [data-testid="mcp-state"]')?.getAttribute('data-state');
        const text = c?.querySelector('[data-testid="mcp-state-detail"]')?.textContent ?? '';
        return st === 'reconnecting' && /attempt 1\/10/.test(text) && text;
      },
      null,
      { timeout: 15000 },
    );
    const text = await why.jsonValue();
    await page.screenshot({ path: path.join(outDir, 'mcp-reconnecting.png') });
    log(`status detail: ${text}`);
    assert.match(text, /next attempt 1\/10 in \d s|attempt 1\/10 now/, text);
    assert.match(text, /killed|exited|lost/, text);
    await page.waitForFunction(
      () => document.querySelector('[data-server="everything"] .top [data-testid="mcp-state"]')?.getAttribute('data-state') === 'connected',
      null,
      { timeout: 45000 },
    );
    assert.match((await card().getByTestId('mcp-facts').textContent()) ?? '', /1 restart\b/);
    const newPid = Number(await card().getByTestId('mcp-pid').getAttribute('data-pid'));
    assert.ok(newPid > 1 && newPid !== pid, `new pid ${newPid}`);
  });

  await step('logs show the server start', async () => {
    await card().getByRole('tab', { name: 'Logs' }).click();
    const logs = card().getByTestId('mcp-logs');
    await logs.getByLabel('Log of everything').waitFor();
    await logs.getByRole('button', { name: 'Refresh' }).click();
    assert.match((await logs.getByLabel('Log of everything').textContent()) ?? '', /warren: starting everything/);
  });

  await step('an access request, approved, becomes a grant', async () => {
    const id = await go('RequestMCPAccess', { server: 'everything', scope: 'agent', subject: 'default', tool_allow: ['get-sum'], reason: 'sums' });
    assert.ok(id > 0);
    // Reopen the tab: the panel reloads servers and requests.
    await section('Tools').click();
    await section('MCP').click();
    await card().getByRole('button', { name: '1 access request' }).click();
    const access = card().getByTestId('mcp-access');
    assert.match((await access.textContent()) ?? '', /agent default asks for get-sum/);
    await access.getByRole('button', { name: 'Approve' }).click();
    await access.locator('[data-grant="agent:default"]').waitFor();
    assert.deepEqual((await go('MCPGrants', 'everything')).map((g) => [g.subject, g.tool_allow]), [['default', ['get-sum']]]);
    assert.equal((await go('MCPAccessRequests', 'pending')).length, 0);
  });

  await step('an agent grant with an env override gives the agent its own connection', async () => {
    const access = card().getByTestId('mcp-access');
    await access.getByRole('button', { name: 'Edit grant for agent default' }).click();
    const form = access.getByRole('form', { name: 'Edit grant for default' });
    const overrides = form.getByTestId('grant-overrides-form');
    await overrides.getByRole('button', { name: 'Add variable' }).click();
    await overrides.getByLabel('Variable name').fill('WARREN_E2E_TOKEN');
    await overrides.getByLabel('Value for WARREN_E2E_TOKEN').fill('agent-own-value');
    await form.getByRole('button', { name: 'Save grant' }).click();
    await form.waitFor({ state: 'detached' });
    await page.waitForFunction(() => /overrides: env WARREN_E2E_TOKEN/.test(document.querySelector('[data-grant="agent:default"]')?.textContent ?? ''));
    const [g] = await go('MCPGrants', 'everything');
    assert.deepEqual(g.config_overrides.env_keys, ['WARREN_E2E_TOKEN']);
    assert.equal(g.config_overrides.env, undefined, 'secret values are never read back');
    // A call as that agent starts its connection; the card lists it.
    const res = await go('CallTool', 'mcp_everything_get-sum', '{"a":2,"b":3}', 'default');
    assert.match(JSON.stringify(res), /5/);
    await card().locator('[data-agent-connection="default"]').waitFor({ timeout: 30000 });
    await page.screenshot({ path: path.join(outDir, 'mcp-grant-overrides.png') });
  });

  await step('import pasted JSON through the preview (report), export (secrets warning), delete with confirmation', async () => {
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import MCP servers' });
    // The config found on this machine is listed too.
    assert.match((await dialog.getByRole('region', { name: 'Found on this machine' }).textContent()) ?? '', /Claude Desktop\s*2 servers/);
    await dialog
      .getByRole('textbox', { name: 'mcpServers JSON' })
      .fill(JSON.stringify({ mcpServers: { everything: { command: 'x' }, notes: { command: everything, args: ['stdio'], env: { TOKEN: 't0k' }, disabled: true } } }));
    await dialog.getByRole('button', { name: 'Preview', exact: true }).click();
    const preview = dialog.getByTestId('mcp-import-preview');
    await preview.waitFor();
    // "everything" exists: not replaced unless ticked. "notes" is disabled in the file: stays off.
    assert.equal(await preview.getByRole('checkbox', { name: 'Import everything' }).isChecked(), false);
    assert.equal(await preview.getByRole('switch', { name: 'Start notes' }).isChecked(), false);
    await dialog.getByRole('button', { name: 'Import 1 server' }).click();
    const report = dialog.getByTestId('mcp-import-report');
    await report.waitFor();
    assert.match((await report.textContent()) ?? '', /Added 1 \(notes\)\. notes is stored switched off\./);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.locator('[data-server="notes"]').waitFor();
    assert.equal(await page.locator('[data-server="notes"] .top [data-testid="mcp-state"]').textContent().then((s) => s?.trim()), 'Disabled');
    // The existing server was left as it was.
    assert.equal((await go('MCPServers')).find((v) => v.server.name === 'everything').server.command, everything);

    await page.getByRole('button', { name: 'Export…' }).click();
    const exp = page.getByRole('dialog', { name: 'Export MCP servers' });
    const area = exp.getByRole('textbox', { name: 'Exported JSON' });
    await page.waitForFunction(() => /"notes"/.test(document.querySelector('textarea[aria-label="Exported JSON"]')?.value ?? ''));
    assert.match(await area.inputValue(), /"TOKEN": "t0k"/);
    assert.match((await exp.textContent()) ?? '', /plain text/);
    await exp.getByRole('button', { name: 'Close', exact: true }).click();

    await page.getByRole('button', { name: 'Delete notes' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.locator('[data-server="notes"]').waitFor({ state: 'detached' });
    assert.deepEqual((await go('MCPServers')).map((v) => v.server.name), ['claude-local', 'everything', 'from-claude']);
  });

  await step('the Sandbox page: its headline comes from a real test, a failing check is named with its fix, Re-test', async () => {
    await section('Sandbox').click();
    const verdict = page.getByTestId('sandbox-verdict');
    await verdict.waitFor();
    // The first visit runs the real test (a command in a real container).
    await page.waitForFunction(() => /^Tested at /.test(document.querySelector('[data-testid="sandbox-tested"]')?.textContent?.trim() ?? ''), null, { timeout: 120_000 });
    const test = await go('LastSandboxTest');
    log(`sandbox test: ok=${test.ok} failed=${test.failed?.name ?? '-'} in ${test.seconds.toFixed(1)} s`);
    const heading = (await verdict.getByRole('heading').textContent())?.trim();
    if (test.ok) {
      assert.equal(heading, 'Commands run in rootless Podman containers');
      assert.equal(await page.getByTestId('sandbox-failed-check').count(), 0);
      assert.match((await page.getByTestId('sandbox-podman-fact').textContent()) ?? '', /works \(tested\)/);
    } else {
      // Never "ready" while the test fails: the check is named, with its fix.
      assert.notEqual(heading, 'Commands run in rootless Podman containers');
      assert.equal(await page.getByTestId('sandbox-failed-check').getAttribute('data-check'), test.failed.name);
    }
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    const shot = path.join(outDir, 'sandbox.png');
    await page.screenshot({ path: shot });
    t.docShot(shot);

    // A missing image: the test fails on it, says so, and offers the build; the default image works again.
    const image = page.getByRole('textbox', { name: 'Image' });
    await image.fill('localhost/warren-e2e-no-such-image:latest');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const failed = page.getByTestId('sandbox-failed-check');
    await failed.waitFor({ timeout: 120_000 });
    if (test.ok) {
      assert.equal(await failed.getAttribute('data-check'), 'image');
      assert.match((await failed.textContent()) ?? '', /Failing check: image\. The sandbox image is missing\./);
      assert.equal((await verdict.getByRole('heading').textContent())?.trim(), 'Commands are refused: the sandbox test failed');
      assert.match((await failed.getByTestId('sandbox-fix').textContent()) ?? '', /“Build the image” below makes it here/);
      await verdict.getByRole('button', { name: 'Build the image' }).waitFor();
      await verdict.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.screenshot({ path: path.join(outDir, 'sandbox-failed.png') });
    }
    await image.fill('');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await verdict.getByRole('button', { name: 'Re-test' }).click();
    await page.waitForFunction(() => /^Tested at /.test(document.querySelector('[data-testid="sandbox-tested"]')?.textContent?.trim() ?? ''), null, { timeout: 120_000 });
    const again = await go('LastSandboxTest');
    assert.equal(again.ok, test.ok, 'the default image tests as before');
    if (again.ok) await failed.waitFor({ state: 'detached' });
  });

  assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
}

await t.run(main);
