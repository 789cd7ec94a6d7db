#!/usr/bin/env node
// End-to-end test of the Memory tab against the real Go backend: documents
// made through the bindings, in the UI and by an agent's write_file from
// another process (listed without a reload), the index status while the real
// builtin embedder fills the vectors, a hybrid search with each channel's
// rank and a hit opened at its lines, an edit saved with Ctrl+S, an earlier
// version restored, an embedder refusal shown as a sentence, a delete, and
// the tab at 900×600 in dark mode.
//
// Usage: node e2e/memory.e2e.mjs   (scripts/e2e.sh builds the binary first)
// Env:   WARREN_DEV_BIN  binary to run (default build/bin/warren-dev)
//        E2E_OUT         where screenshots and logs go (default build/e2e)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, openWarrenPage, repoRoot, startWarren, suite } from './lib.mjs';

const bin = path.resolve(repoRoot, process.env.WARREN_DEV_BIN || 'build/bin/warren-dev');
const outDir = path.resolve(repoRoot, process.env.E2E_OUT || 'build/e2e');

const RULES = '# House rules\n\nMeasure everything in metric units: kilometres, kilograms and degrees Celsius.\n\nNever book flights before 8 am.';
const ME = '# About the user\n\nThe user drinks green tea every morning and dislikes coffee.\n\n## Work\n\nThe user writes Go and reviews pull requests on Fridays.';
const TRIP = '# Trip\n\nThe summer holiday goes to Lisbon by train.';
const AGENT_NOTE = '# Agent note\n\nThe user prefers window seats.';

fs.mkdirSync(outDir, { recursive: true });
const t = suite('memory', { outDir });
const step = t.step;
let page;

async function shot(name, { doc = false } = {}) {
  const file = path.join(outDir, name);
  await page.screenshot({ path: file });
  if (doc) t.docShot(file);
}

async function main() {
  const { addr, appLog, home } = await startWarren({ bin, outDir, logName: 'app-memory.log' });
  t.appLog = appLog;
  const browser = await launchChromium();
  let pageErrors;
  ({ page, pageErrors } = await openWarrenPage(browser, addr));
  t.page = page;
  const go = (method, ...args) => page.evaluate(([m, a]) => window.go.app.App[m](...a), [method, args]);
  const panel = page.locator('#panel-memory');
  const strip = panel.getByRole('region', { name: 'Memory index' });
  const item = (p) => panel.getByRole('navigation', { name: 'Memory documents' }).getByRole('button', { name: new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `) });
  const docView = (p) => panel.getByRole('region', { name: `Document ${p}` });
  const status = () => panel.getByRole('status').filter({ hasText: /./ }).first();
  /** Leaves and reopens the tab, which reloads it. */
  const reopen = async () => {
    await page.keyboard.press('Alt+1');
    await page.keyboard.press('Alt+0');
  };

  await step('Memory is the tenth tab (Alt+0) and says what to do while empty', async () => {
    const tabs = (await page.getByRole('tab').allTextContents()).map((x) => x.trim().replace(/\s+.*/, ''));
    assert.equal(tabs[9], 'Memory', `tabs: ${tabs.join(' | ')}`);
    await page.keyboard.press('Alt+0');
    assert.equal(await page.getByRole('tab', { name: 'Memory' }).getAttribute('aria-selected'), 'true');
    await panel.getByText('agents write MEMORY.md or memory/*.md; or create one here').waitFor();
    await strip.getByText(/^builtin\/.+ \d+ dims$/).waitFor();
  });

  await step('documents made through the bindings are listed by owner', async () => {
    await go('SaveMemoryDoc', '', '', 'memory/house-rules.md', RULES);
    await go('SaveMemoryDoc', 'default', 'local', 'MEMORY.md', ME);
    await reopen();
    await item('memory/house-rules.md').waitFor();
    await item('MEMORY.md').waitFor();
    const groups = await panel.getByRole('navigation', { name: 'Memory documents' }).getByRole('region').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    assert.deepEqual(groups, ['global', 'default · local']);
  });

  await step('an agent writing memory/*.md with its file tools (from another process) shows up live as its local copy', async () => {
    execFileSync(bin, ['tool', 'call', 'write_file', JSON.stringify({ path: 'memory/agent-note.md', content: AGENT_NOTE }), '--agent', 'default', '--json'], {
      env: { ...process.env, WARREN_HOME: home, DISPLAY: '' },
      stdio: 'pipe',
    });
    // No reload: the tab notices the index counts changed (its status poll).
    await item('memory/agent-note.md').waitFor({ timeout: 15000 });
    const d = await go('MemoryDoc', 'default', 'local', 'memory/agent-note.md');
    assert.equal(d.content, AGENT_NOTE);
  });

  await step('a document made in the UI: the path is checked, then it is stored for its owner', async () => {
    await panel.getByRole('button', { name: '+ New document' }).first().click();
    const dlg = page.getByRole('dialog', { name: 'New memory document' });
    await dlg.getByLabel('Path').fill('memory/../trip.md');
    await dlg.getByRole('button', { name: 'Create document' }).click();
    await dlg.getByText('The path cannot have empty, "." or ".." parts').waitFor();
    await dlg.getByLabel('Path').fill('memory/trip.md');
    await dlg.getByLabel('Owner').selectOption({ label: 'default · local' });
    await dlg.getByLabel(/Content/).fill(TRIP);
    await shot('memory-new.png');
    await dlg.getByRole('button', { name: 'Create document' }).click();
    await dlg.waitFor({ state: 'detached' });
    await docView('memory/trip.md').getByRole('heading', { name: 'Trip', exact: true }).waitFor();
    const d = await go('MemoryDoc', 'default', 'local', 'memory/trip.md');
    assert.equal(d.content, TRIP);
    assert.equal(d.version, 1);
  });

  await step('the index status shows the builtin embedder filling every chunk with a vector', async () => {
    let st;
    for (let i = 0; i < 120; i++) {
      st = await go('MemoryStatus');
      if (st.docs === 4 && st.embedder && !st.building && st.embedded === st.chunks && st.chunks > 0) break;
      await page.waitForTimeout(500);
    }
    assert.ok(st.embedder && st.embedded === st.chunks, `status: ${JSON.stringify(st)}`);
    await strip.getByTestId('vectors').filter({ hasText: `${st.chunks} of ${st.chunks}` }).waitFor({ timeout: 15000 });
    assert.match(await strip.textContent(), /4 documents/);
    // The window searches words with its in-memory BM25 index.
    await strip.getByTestId('search-engines').filter({ hasText: 'BM25' }).waitFor({ timeout: 15000 });
  });

  await step('a search as the default agent is hybrid, with each channel’s rank; a hit opens at its lines', async () => {
    const box = panel.getByRole('searchbox', { name: 'Search memory as default' });
    await box.fill('what does the user drink in the morning');
    await box.press('Enter');
    const mode = panel.getByTestId('search-mode');
    await mode.waitFor();
    assert.equal(await mode.textContent(), 'hybrid');
    const ranks = await panel.getByTestId('ranks').allTextContents();
    assert.ok(ranks.length >= 1, 'hits');
    for (const r of ranks) assert.match(r, /^keyword (#\d+|—) · vector (#\d+|—)$/);
    assert.ok(ranks.some((r) => /vector #\d+/.test(r)), `a vector rank: ${ranks}`);
    const first = panel.getByRole('button', { name: /^Open MEMORY\.md:\d+/ }).first();
    await first.waitFor();
    await shot('memory.png', { doc: true });
    await first.click();
    const source = docView('MEMORY.md').getByRole('list', { name: 'Source of MEMORY.md' });
    await source.locator('li.hit').first().waitFor();
    assert.match(await source.locator('li.hit').allTextContents().then((x) => x.join('\n')), /green tea/);
  });

  await step('an edit saved with Ctrl+S makes version 2', async () => {
    const view = docView('MEMORY.md');
    await view.getByRole('button', { name: 'Edit' }).click();
    const editor = view.getByLabel('Content of MEMORY.md');
    await editor.press('End');
    await editor.press('Control+End');
    await editor.type('\n\nThe user moved to Porto.');
    await view.getByText(/Unsaved changes/).waitFor();
    await shot('memory-edit.png');
    await editor.press('Control+s');
    await status().filter({ hasText: 'Saved MEMORY.md (version 2).' }).waitFor();
    const d = await go('MemoryDoc', 'default', 'local', 'MEMORY.md');
    assert.equal(d.version, 2);
    assert.match(d.content, /moved to Porto\.$/);
  });

  await step('an earlier version is restored as a new one', async () => {
    const view = docView('MEMORY.md');
    await view.getByRole('button', { name: /^History/ }).click();
    const versions = view.getByRole('region', { name: 'Earlier versions' });
    await versions.getByRole('button', { name: 'View version 1' }).click();
    assert.doesNotMatch(await versions.getByLabel('Version 1', { exact: true }).textContent(), /Porto/);
    await versions.getByRole('button', { name: 'Restore version 1' }).click();
    await status().filter({ hasText: 'Restored version 1 of MEMORY.md (version 3).' }).waitFor();
    const d = await go('MemoryDoc', 'default', 'local', 'MEMORY.md');
    assert.equal(d.version, 3);
    assert.equal(d.content, ME);
    const vs = await go('MemoryVersions', 'default', 'local', 'MEMORY.md');
    assert.deepEqual(
      vs.map((v) => v.version),
      [2, 1],
    );
  });

  await step('an embedder that cannot work is refused with a sentence, and builtin is kept', async () => {
    await strip.getByRole('button', { name: /^Embedder/ }).click();
    const form = panel.getByRole('form', { name: 'Memory embedder' });
    await form.getByLabel('Embedder').selectOption('provider');
    await form.getByRole('textbox', { name: 'Provider' }).fill('nowhere');
    await form.getByRole('textbox', { name: 'Model' }).fill('nomic-embed-text');
    await form.getByRole('button', { name: 'Use it' }).click();
    // Nothing was stored for memory.embedder yet: what is kept is the default, builtin.
    await form.getByRole('alert').getByText('There is no model provider "nowhere" to make the memory vectors; Warren keeps using the builtin embedder.').waitFor();
    assert.equal((await go('MemoryEmbedder')).embedder, 'builtin');
    await form.getByRole('textbox', { name: 'Model' }).press('Escape');
    await form.waitFor({ state: 'detached' });
  });

  await step('Rebuild index (confirmed) re-chunks everything; "memory:index" events bring the vectors back to all of them', async () => {
    await page.evaluate(() => {
      window.__memoryEvents = [];
      window.runtime.EventsOn('memory:index', (ev) => window.__memoryEvents.push(ev));
    });
    await strip.getByRole('button', { name: 'Rebuild index' }).click();
    await strip.getByRole('button', { name: 'Rebuild', exact: true }).click();
    await status().filter({ hasText: 'Rebuilding the memory index' }).waitFor();
    let st;
    for (let i = 0; i < 120; i++) {
      st = await go('MemoryStatus');
      if (!st.building && st.embedded === st.chunks) break;
      await page.waitForTimeout(250);
    }
    await strip.getByTestId('vectors').filter({ hasText: `${st.chunks} of ${st.chunks}` }).waitFor({ timeout: 15000 });
    const events = await page.evaluate(() => window.__memoryEvents);
    assert.ok(events.length >= 1, 'progress events arrived');
    const last = events.at(-1).payload ?? events.at(-1);
    assert.equal(last.embedded, last.chunks, `last event: ${JSON.stringify(last)}`);
  });

  await step('a document is deleted once confirmed', async () => {
    await item('memory/trip.md').click();
    const view = docView('memory/trip.md');
    await view.getByRole('button', { name: 'Delete', exact: true }).click();
    await view.getByRole('button', { name: 'Delete document' }).click();
    await status().filter({ hasText: 'Deleted memory/trip.md.' }).waitFor();
    await item('memory/trip.md').waitFor({ state: 'detached' });
    const docs = await go('MemoryDocs', '', false);
    assert.deepEqual(docs.map((d) => d.path).sort(), ['MEMORY.md', 'memory/agent-note.md', 'memory/house-rules.md']);
  });

  await step('the tab works at 900×600 in dark mode', async () => {
    await item('memory/house-rules.md').click();
    await docView('memory/house-rules.md').getByRole('heading', { name: 'House rules', exact: true }).waitFor();
    await page.setViewportSize({ width: 900, height: 600 });
    await page.emulateMedia({ colorScheme: 'dark' });
    const box = await panel.getByRole('button', { name: '+ New document' }).first().boundingBox();
    assert.ok(box && box.x + box.width <= 900, `the New button is on screen: ${JSON.stringify(box)}`);
    await shot('memory-dark-900.png');
    assert.deepEqual(pageErrors, []);
  });
}

t.run(main);
