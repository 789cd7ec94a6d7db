#!/usr/bin/env node
// End-to-end test of the MCP tab against the real Go backend and the real
// @modelcontextprotocol/server-everything (installed from npm by bootstrap)
// over stdio: the first-run Claude Desktop offer, adding the server through
// the form (Test connection lists its tools), seeing it connect, switching a
// tool off (the inventory loses it), offering the server's tools to agents,
// killing the server process (its pid is in the status) and watching the
// status go to reconnecting and back, logs, an access request approved into
// a grant, import and export. Saves mcp.png (E2E_DOCS=1: also to docs/screenshots).
//
// Usage: node e2e/mcp.e2e.mjs   (scripts/e2e.sh builds the binary first)
// Env:   WARREN_DEV_BIN, E2E_OUT, E2E_DISPLAY, E2E_DOCS as for inventory.e2e.mjs
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, log, openWarrenPage, repoRoot, startWarren, suite, tempDir } from './lib.mjs';

const bin = path.resolve(repoRoot, process.env.WARREN_DEV_BIN || 'build/bin/warren-dev');
const outDir = path.resolve(repoRoot, process.env.E2E_OUT || 'build/e2e');
const everything = path.join(repoRoot, 'backend', 'mcp', 'testdata', 'servers', 'node_modules', '.bin', 'mcp-server-everything');

fs.mkdirSync(outDir, { recursive: true });
const t = suite('mcp', { outDir });
const step = t.step;

async function main() {
  if (!fs.existsSync(everything)) throw new Error(`${everything} is missing: run ./scripts/bootstrap.sh (it installs the test MCP servers)`);
  // A Claude Desktop config for the first-run offer: the app finds it
  // through XDG_CONFIG_HOME, which startWarren passes on from our env.
  const xdg = tempDir('warren-e2e-xdg-');
  fs.mkdirSync(path.join(xdg, 'Claude'), { recursive: true });
  fs.writeFileSync(
    path.join(xdg, 'Claude', 'claude_desktop_config.json'),
    JSON.stringify({ mcpServers: { 'from-claude': { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } } }),
  );
  process.env.XDG_CONFIG_HOME = xdg;

  const { addr, appLog } = await startWarren({ bin, outDir, logName: 'app-mcp.log' });
  t.appLog = appLog;
  const browser = await launchChromium();
  let page, pageErrors;
  const section = (name) => page.getByRole('tablist', { name: 'Sections' }).getByRole('tab', { name, exact: true });
  const go = (method, ...args) => page.evaluate(([m, a]) => window.go.app.App[m](...a), [method, args]);
  const card = () => page.locator('[data-server="everything"]');
  const state = () => card().locator('.top [data-testid="mcp-state"]');

  await step('first run offers the Claude Desktop servers once; Not now dismisses it', async () => {
    ({ page, pageErrors } = await openWarrenPage(browser, addr));
    t.page = page;
    const offer = page.getByTestId('claude-offer');
    await offer.waitFor();
    assert.match((await offer.textContent()) ?? '', /Import 1 server from Claude Desktop\?\s*from-claude/);
    await offer.getByRole('button', { name: 'Not now' }).click();
    await offer.waitFor({ state: 'detached' });
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => typeof window.go?.app?.App?.ClaudeDesktopOffer === 'function');
    assert.equal(await go('ClaudeDesktopOffer'), null, 'the offer is answered for good');
    assert.equal(await page.getByTestId('claude-offer').count(), 0);
  });

  await step('the MCP tab starts empty', async () => {
    await section('MCP').click();
    await page.getByText('No MCP servers yet.').waitFor();
  });

  await step('add server-everything over stdio: validation, Test connection lists its tools, Enter saves', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('form', { name: 'New MCP server' });
    await form.getByRole('button', { name: 'Add server' }).click();
    await form.getByTestId('mcp-form-errors').waitFor();
    const name = form.getByRole('textbox', { name: /^Name/ });
    await name.fill('every thing');
    assert.match((await form.textContent()) ?? '', /" " is not allowed/);
    await name.fill('everything');
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
  await step('it connects: live status, tool count, pid, and its tools listed', async () => {
    await page.waitForFunction(
      () => document.querySelector('[data-server="everything"] .top [data-testid="mcp-state"]')?.getAttribute('data-state') === 'connected',
      null,
      { timeout: 45000 },
    );
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

  await step("offer the server's tools to agents: the inventory allows them, without echo", async () => {
    const offer = card().getByRole('switch', { name: "Offer this server's tools to agents" });
    await card().getByTestId('mcp-offer-text').filter({ hasText: /Agents do not see these tools. Profile coding does not offer MCP tools/ }).waitFor();
    assert.equal(await offer.isChecked(), false);
    assert.equal((await go('Tools', '', 'default')).find((x) => x.name === 'mcp_everything_get-sum')?.allowed, false);
    await offer.click();
    await card().getByTestId('mcp-offer-text').filter({ hasText: 'group:mcp:everything' }).waitFor();
    const inv = await go('Tools', '', 'default');
    const add = inv.find((x) => x.name === 'mcp_everything_get-sum');
    assert.equal(add?.allowed, true, JSON.stringify(add));
    const echo = inv.find((x) => x.name === 'mcp_everything_echo');
    assert.ok(!echo || !echo.allowed, `echo is switched off: ${JSON.stringify(echo)}`);
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

  await step('import a pasted mcpServers JSON (report), export (secrets warning), delete with confirmation', async () => {
    await page.getByRole('button', { name: 'Import…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import MCP servers' });
    await dialog
      .getByRole('textbox', { name: 'mcpServers JSON' })
      .fill(JSON.stringify({ mcpServers: { everything: { command: 'x' }, notes: { command: everything, args: ['stdio'], env: { TOKEN: 't0k' }, disabled: true } } }));
    await dialog.getByRole('button', { name: 'Import' }).click();
    const report = dialog.getByTestId('mcp-import-report');
    await report.waitFor();
    assert.match((await report.textContent()) ?? '', /Added 1 \(notes\); skipped 1 that exist already \(everything\)/);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.locator('[data-server="notes"]').waitFor();
    assert.equal(await page.locator('[data-server="notes"] .top [data-testid="mcp-state"]').textContent().then((s) => s?.trim()), 'Disabled');

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
    assert.deepEqual((await go('MCPServers')).map((v) => v.server.name), ['everything']);
  });

  assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
}

await t.run(main);
