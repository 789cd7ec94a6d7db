#!/usr/bin/env node
// End-to-end test of Chat, Agents and Model providers against the real Go
// backend and a scripted model: llmserve replays e2e/cassettes/chat.json
// (a streamed reply that calls read_file on a file we put in the workspace,
// then the final answer) over the OpenAI-compatible API. On the way, the
// agent editor's Context files section edits SOUL.md, which the agent's own
// read_file then returns (through the binding and through the CLI).
//
// Usage: node e2e/chat.e2e.mjs   (scripts/e2e.sh builds the binaries first)
// Env:   WARREN_DEV_BIN  binary to run (default build/bin/warren-dev)
//        LLMSERVE_BIN    cassette server (default build/bin/llmserve)
//        E2E_OUT         where screenshots and logs go (default build/e2e)
//        E2E_DOCS=1      also copy chat.png to docs/screenshots when the
//                        test passes (make screenshot)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, log, openWarrenPage, repoRoot, startLlmserve, startWarren, suite } from './lib.mjs';

const bin = path.resolve(repoRoot, process.env.WARREN_DEV_BIN || 'build/bin/warren-dev');
const llmserve = path.resolve(repoRoot, process.env.LLMSERVE_BIN || 'build/bin/llmserve');
const cassette = path.join(repoRoot, 'e2e', 'cassettes', 'chat.json');
const outDir = path.resolve(repoRoot, process.env.E2E_OUT || 'build/e2e');
const PROMPT = 'What does hello.txt say?';
const FILE_TEXT = 'carrots are crunchy';
const SOUL_TEXT = 'You are a cheerful gardener.\nAnswer briefly.';

fs.mkdirSync(outDir, { recursive: true });
const t = suite('chat', { outDir });
const step = t.step;
let page;

async function main() {
  const url = await startLlmserve({ bin: llmserve, cassette, outDir });
  const { addr, appLog, home, workspace: ws } = await startWarren({ bin, outDir, logName: 'app-chat.log' });
  t.appLog = appLog;
  fs.mkdirSync(ws, { recursive: true });
  fs.writeFileSync(path.join(ws, 'hello.txt'), `${FILE_TEXT}\n`);

  const browser = await launchChromium();
  let pageErrors;
  await step('page loads; Chat is the first tab', async () => {
    ({ page, pageErrors } = await openWarrenPage(browser, addr));
    t.page = page;
    const tabs = (await page.getByRole('tab').allTextContents()).map((x) => x.trim().replace(/\s+.*/, ''));
    assert.deepEqual(tabs.slice(0, 2), ['Chat', 'Tools'], `tabs: ${tabs.join(' | ')}`);
    assert.ok(tabs.includes('Agents'), `tabs: ${tabs.join(' | ')}`);
  });

  await step('without a provider, Chat reports it and offers the settings', async () => {
    await page.getByRole('tab', { name: 'Chat' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('hello?');
    await box.press('Enter');
    const banner = page.getByTestId('chat-error');
    await banner.waitFor();
    assert.match((await banner.textContent()) ?? '', /has no model provider/);
    await banner.getByRole('button', { name: 'Set up agents & providers' }).click();
    assert.equal(await page.getByRole('tab', { name: 'Agents' }).getAttribute('aria-selected'), 'true');
  });

  await step('add the provider; Test connection lists the cassette models', async () => {
    await page.getByRole('button', { name: 'New provider' }).click();
    const form = page.getByRole('form', { name: 'New provider' });
    await form.getByRole('textbox', { name: 'Name' }).fill('replay');
    await form.getByRole('button', { name: 'Ollama' }).click();
    assert.equal(await form.getByRole('textbox', { name: 'Base URL' }).inputValue(), 'http://127.0.0.1:11434/v1');
    await form.getByRole('textbox', { name: 'Base URL' }).fill(`${url}/v1`);
    await form.getByRole('button', { name: 'Test connection' }).click();
    const models = form.getByTestId('test-models');
    await models.getByRole('button', { name: 'e2e-model' }).waitFor();
    assert.match((await models.textContent()) ?? '', /2 models found/);
    await models.getByRole('button', { name: 'e2e-model' }).click();
    await form.getByRole('button', { name: 'Save provider' }).click();
    await form.waitFor({ state: 'detached' });
    const row = page.locator('tr[data-provider="replay"]');
    await row.filter({ hasText: 'e2e-model' }).waitFor();
  });

  await step('set the provider on the default agent', async () => {
    await page.getByRole('button', { name: 'Edit agent default' }).click();
    const form = page.getByRole('form', { name: 'Edit agent default' });
    await form.getByRole('combobox', { name: 'Provider' }).selectOption('replay');
    await form.getByRole('button', { name: 'Save agent' }).click();
    await form.waitFor({ state: 'detached' });
    await page.locator('tr[data-agent="default"]').filter({ hasText: 'replay' }).waitFor();
  });

  await step('edit SOUL.md in the agent editor; the agent reads it back', async () => {
    await page.getByRole('button', { name: 'Edit agent default' }).click();
    const form = page.getByRole('form', { name: 'Edit agent default' });
    const files = form.getByRole('tablist', { name: 'Context files' });
    const soulTab = files.locator('[data-file="SOUL.md"]');
    assert.equal(await soulTab.getAttribute('data-marker'), 'missing');
    assert.deepEqual(await files.getByRole('tab').evaluateAll((tabs) => tabs.map((t) => t.dataset.file)), [
      'SOUL.md', 'IDENTITY.md', 'AGENTS.md', 'TOOLS.md', 'USER.md', 'BOOTSTRAP.md',
    ]);
    await soulTab.click();
    const area = form.getByRole('textbox', { name: 'SOUL.md content' });
    await area.fill(SOUL_TEXT);
    await area.press('Control+s');
    await form.getByRole('status').filter({ hasText: 'Saved SOUL.md.' }).waitFor();
    assert.equal(await soulTab.getAttribute('data-marker'), 'set');
    await form.getByText('in the system prompt', { exact: true }).waitFor();

    // What the agent's read_file returns, through the binding the UI uses…
    const viaBinding = await page.evaluate(() => window.go.app.App.CallTool('read_file', JSON.stringify({ path: 'SOUL.md' }), 'default'));
    assert.equal(viaBinding.status, 'success', JSON.stringify(viaBinding));
    assert.equal(viaBinding.for_llm, SOUL_TEXT);
    // …and through the CLI on the same data directory.
    const cli = execFileSync(bin, ['tool', 'call', 'read_file', '{"path":"SOUL.md"}', '--agent', 'default', '--json'], {
      env: { ...process.env, WARREN_HOME: home, DISPLAY: '' },
    }).toString();
    assert.equal(JSON.parse(cli).for_llm, SOUL_TEXT, cli);
    const listed = execFileSync(bin, ['agents', 'context', 'default'], { env: { ...process.env, WARREN_HOME: home, DISPLAY: '' } }).toString();
    log(`warren agents context default:\n${listed.trimEnd()}`);
    assert.match(listed, /SOUL\.md\s+\d+ B\s+per user\s+yes/);

    // An unsaved edit is guarded when the form closes; discarding keeps the saved text.
    await area.press('End');
    await area.pressSequentially(' Unsaved.');
    await form.getByRole('button', { name: 'Cancel' }).click();
    const guard = form.getByRole('group', { name: 'Unsaved changes' });
    assert.match((await guard.textContent()) ?? '', /SOUL\.md has unsaved changes/);
    const shot = path.join(outDir, 'context-files.png');
    await page.screenshot({ path: shot });
    log(`screenshot: ${path.relative(repoRoot, shot)}`);
    await guard.getByRole('button', { name: 'Discard changes' }).click();
    await form.waitFor({ state: 'detached' });
    const after = await page.evaluate(() => window.go.app.App.AgentContextFiles('default'));
    assert.equal(after.find((f) => f.name === 'SOUL.md')?.content, SOUL_TEXT);
  });

  await step('send a message: the reply streams and the read_file card shows its result', async () => {
    await page.getByRole('tab', { name: 'Chat' }).click();
    await page.getByRole('button', { name: 'New chat' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill(PROMPT);
    await box.press('Enter');
    const card = page.locator('[data-tool-call="read_file"]');
    await card.getByTestId('tool-status').filter({ hasText: /^ok$/ }).waitFor();
    // The dev server's WebSocket delivers each event from its own goroutine,
    // so unnumbered text pieces may arrive out of order here (the real
    // window keeps the order): wait for every piece, check exact text after
    // the reload from history below.
    const replies = page.locator('[data-role="assistant"]');
    await page.getByTestId('turn-usage').waitFor();
    await page.waitForFunction(
      (pieces) => {
        const text = [...document.querySelectorAll('[data-role="assistant"]')].map((e) => e.textContent).join('|');
        return pieces.every((p) => text.includes(p));
      },
      ['Let me ', 'read the ', 'file first.', 'The file says: ', 'carrots are ', 'crunchy.'],
    );
    log(`streamed replies: ${JSON.stringify(await replies.allTextContents())}`);
    await card.getByRole('button').first().click();
    assert.match((await card.getByTestId('tool-args').textContent()) ?? '', /"path": "hello\.txt"/);
    assert.match((await card.getByTestId('tool-result').textContent()) ?? '', new RegExp(FILE_TEXT));
    const usage = (await page.getByTestId('turn-usage').textContent()) ?? '';
    assert.match(usage, /300 in · 23 out · 323 tokens this turn/, usage);
    assert.equal(await page.getByRole('button', { name: 'Stop' }).count(), 0);
  });

  await step('the session is listed; reopening it rebuilds the transcript from history', async () => {
    const item = page.locator('[data-session]').first();
    await item.waitFor();
    assert.match((await item.textContent()) ?? '', /tokens/);
    await page.getByRole('button', { name: 'New chat' }).click();
    await page.locator('[data-tool-call]').first().waitFor({ state: 'detached' });
    await item.locator('button.open').click();
    const card = page.locator('[data-tool-call="read_file"]');
    await card.waitFor();
    const replies = page.locator('[data-role="assistant"]');
    await replies.filter({ hasText: `The file says: ${FILE_TEXT}.` }).waitFor();
    assert.deepEqual(
      (await replies.allTextContents()).map((x) => x.trim()),
      ['Let me read the file first.', `The file says: ${FILE_TEXT}.`],
    );
    await page.locator('[data-role="user"]').filter({ hasText: PROMPT }).waitFor();
    await card.getByRole('button').first().click();
    assert.match((await card.getByTestId('tool-result').textContent()) ?? '', new RegExp(FILE_TEXT));
    assert.equal(await item.getAttribute('class').then((c) => /current/.test(c ?? '')), true);
  });

  await step('screenshot: chat.png', async () => {
    await page.evaluate(() => {
      if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    });
    const shot = path.join(outDir, 'chat.png');
    await page.screenshot({ path: shot });
    t.docShot(shot);
  });

  // ---- The chat as good as the best peers' (issue 15) ----
  const box = page.getByRole('textbox', { name: 'Message' });
  const history = (id) => page.evaluate((s) => window.go.app.App.SessionHistory(s), id);
  const shownSession = () => page.locator('[data-session][class*="current"]').getAttribute('data-session');

  await step('entering Chat focuses the message box', async () => {
    await page.getByRole('tab', { name: 'Agents' }).click();
    await page.getByRole('tab', { name: 'Chat' }).click();
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'Message');
  });

  await step('pick a model; the reply renders a Markdown table, highlighted code and a link, and names its model', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    const picker = page.getByRole('combobox', { name: 'Chat model' });
    await picker.locator('option', { hasText: 'e2e-small' }).waitFor({ state: 'attached' });
    assert.equal(await picker.inputValue(), 'e2e-model');
    await picker.selectOption('e2e-small');
    await box.fill('Compare read_file and exec');
    await box.press('Enter');
    const reply = page.locator('[data-role="assistant"]').last();
    await reply.locator('a', { hasText: 'the guide' }).waitFor();
    await page.getByTestId('turn-usage').waitFor();
    assert.equal((await reply.locator('h2').textContent())?.trim(), 'Two tools');
    const rows = await reply.locator('table tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent.trim())));
    assert.deepEqual(rows, [
      ['Tool', 'What it does', 'Risk'],
      ['read_file', 'reads a file in the workspace', 'low'],
      ['exec', 'runs a command', 'high'],
    ]);
    assert.equal(await reply.locator('td code').first().textContent(), 'read_file');
    assert.equal(await reply.locator('td strong').textContent(), 'high');
    const block = reply.locator('.code-block');
    assert.equal((await block.locator('.code-lang').textContent())?.trim(), 'python');
    assert.ok((await block.locator('pre [class^="hljs-"]').count()) > 0, 'highlighted tokens');
    assert.equal(await reply.locator('a', { hasText: 'the guide' }).getAttribute('href'), 'https://example.org/warren/tools');
    assert.equal(await page.getByTestId('reply-model').last().textContent(), 'e2e-small');
    const stored = await history(await shownSession());
    assert.deepEqual(stored.map((m) => [m.role, m.model ?? '']), [['user', ''], ['assistant', 'e2e-small']]);
  });

  await step('Copy puts the code, or the reply as Markdown, on the clipboard', async () => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://${addr}` });
    const reply = page.locator('[data-role="assistant"]').last();
    await reply.getByRole('button', { name: 'Copy code' }).click();
    await reply.getByRole('button', { name: 'Copy code' }).filter({ hasText: 'Copied' }).waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'for tool in ["read_file", "exec"]:\n    print(tool)\n');
    await page.getByRole('button', { name: 'Copy reply' }).last().click();
    const text = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(text, /^## Two tools\n\n\| Tool \| What it does \| Risk \|/);
  });

  await step('a link opens outside the app; the window stays on Warren', async () => {
    const before = page.url();
    await page.evaluate(() => {
      window.__opened = [];
      window.open = (u) => {
        window.__opened.push(String(u));
        return null;
      };
    });
    await page.locator('[data-role="assistant"] a', { hasText: 'the guide' }).click();
    assert.deepEqual(await page.evaluate(() => window.__opened), ['https://example.org/warren/tools']);
    assert.equal(page.url(), before);
  });

  await step('screenshots: chat-markdown.png, light and dark', async () => {
    await page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
    await page.screenshot({ path: path.join(outDir, 'chat-markdown.png') });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: path.join(outDir, 'chat-markdown-dark.png') });
    await page.emulateMedia({ colorScheme: 'light' });
    log('screenshots: chat-markdown.png, chat-markdown-dark.png');
  });

  await step('Regenerate replaces the newest reply', async () => {
    await page.getByRole('button', { name: 'Regenerate reply' }).click();
    await page.locator('[data-role="assistant"]').filter({ hasText: 'Second take: both are tools.' }).waitFor();
    await page.getByTestId('turn-usage').waitFor();
    assert.equal(await page.locator('[data-role="assistant"]').count(), 1);
    const stored = await history(await shownSession());
    assert.deepEqual(stored.map((m) => m.content), ['Compare read_file and exec', 'Second take: **both** are tools.']);
  });

  await step('Edit sends the edited message in place of the old turn', async () => {
    await page.locator('[data-role="user"]').hover();
    await page.getByRole('button', { name: 'Edit message' }).click();
    const edit = page.getByRole('textbox', { name: 'Edited message' });
    await edit.fill('Compare glob and grep');
    await page.screenshot({ path: path.join(outDir, 'chat-edit.png') });
    await edit.press('Enter');
    await page.locator('[data-role="assistant"]').filter({ hasText: 'glob matches names; grep searches contents.' }).waitFor();
    await page.getByTestId('turn-usage').waitFor();
    const stored = await history(await shownSession());
    assert.deepEqual(stored.map((m) => m.content), ['Compare glob and grep', '`glob` matches names; `grep` searches contents.']);
  });

  await step('a reply cut by a dropped connection is marked, and Retry completes it', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    await box.fill('Tell me a story');
    await box.press('Enter');
    const banner = page.getByTestId('chat-error');
    await banner.waitFor();
    assert.match((await banner.textContent()) ?? '', /The connection to the model broke off/);
    assert.equal(await page.getByTestId('incomplete').textContent(), 'Incomplete — the connection broke off');
    assert.equal((await page.locator('[data-role="assistant"]').textContent())?.trim(), 'Once upon');
    await page.screenshot({ path: path.join(outDir, 'chat-incomplete.png') });
    const sid = await shownSession();
    const cut = await history(sid);
    assert.deepEqual(cut.map((m) => [m.content, m.incomplete ?? '']), [['Tell me a story', ''], ['Once upon ', 'dropped']]);
    await banner.getByRole('button', { name: 'Retry' }).click();
    await page.locator('[data-role="assistant"]').filter({ hasText: 'Once upon a time.' }).waitFor();
    await page.getByTestId('turn-usage').waitFor();
    assert.equal(await page.getByTestId('incomplete').count(), 0);
    const fixed = await history(sid);
    assert.deepEqual(fixed.map((m) => [m.content, m.incomplete ?? '']), [['Tell me a story', ''], ['Once upon a time.', '']]);
  });

  await step('a file dropped on the chat lands in the workspace and the agent reads it', async () => {
    await page.getByRole('button', { name: 'New chat' }).click();
    const dt = await page.evaluateHandle(() => {
      const d = new DataTransfer();
      d.items.add(new File(['beans need sun\n'], 'notes.txt', { type: 'text/plain' }));
      return d;
    });
    await page.dispatchEvent('section[aria-label="Conversation"]', 'dragover', { dataTransfer: dt });
    await page.dispatchEvent('section[aria-label="Conversation"]', 'drop', { dataTransfer: dt });
    await page.locator('[data-attachment="attachments/notes.txt"]').waitFor();
    assert.equal(fs.readFileSync(path.join(ws, 'attachments', 'notes.txt'), 'utf8'), 'beans need sun\n');
    await box.fill('What do my notes say?');
    await box.press('Enter');
    await page.locator('[data-role="assistant"]').filter({ hasText: 'Your notes say: beans need sun.' }).waitFor();
    await page.locator('[data-tool-call="read_file"]').getByTestId('tool-status').filter({ hasText: /^ok$/ }).waitFor();
    assert.match((await page.locator('[data-role="user"]').textContent()) ?? '', /- attachments\/notes\.txt \(15 B\)/);
    await page.screenshot({ path: path.join(outDir, 'chat-attachment.png') });
  });

  await step('search finds a chat by its words', async () => {
    const search = page.getByRole('searchbox', { name: 'Search chats' });
    await search.fill('crunchy');
    const results = page.getByRole('list', { name: 'Search results' });
    await results.locator('mark', { hasText: 'crunchy' }).first().waitFor();
    assert.equal(await results.getByRole('listitem').count(), 1);
    await page.screenshot({ path: path.join(outDir, 'chat-search.png') });
    await results.getByRole('button').click();
    await page.locator('[data-role="assistant"]').filter({ hasText: `The file says: ${FILE_TEXT}.` }).waitFor();
    await search.fill('');
    await results.waitFor({ state: 'detached' });
  });

  assert.deepEqual(pageErrors, [], 'no uncaught errors in the page');
}

await t.run(main);
