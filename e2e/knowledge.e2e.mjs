#!/usr/bin/env node
// End-to-end test of the Skills view and the knowledge graph view against
// the real Go backend. Skills are made on disk in the app's workspace (a
// valid one and one whose name differs from its folder), a folder is
// imported for every agent and removed; entities and links are added,
// searched, edited and removed — through the bindings the panels call,
// checked through the bindings and the CLI on the same WARREN_HOME. Then the
// two panels themselves, mounted alone by a dev-only page (frontend/harness,
// built here into E2E_OUT: App.svelte does not mount them yet), are driven
// in the browser: search, the drawing, recentering, adding and linking,
// deleting; the skills list, a skill's instructions, import and remove.
//
// Usage: node e2e/knowledge.e2e.mjs   (builds the harness page; needs make frontend's node_modules)
// Env:   WARREN_DEV_BIN  binary to run (default build/bin/warren-dev)
//        E2E_OUT         where screenshots, logs and the harness go (default build/e2e)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, openWarrenPage, repoRoot, startWarren, suite, tempDir } from './lib.mjs';

const bin = path.resolve(repoRoot, process.env.WARREN_DEV_BIN || 'build/bin/warren-dev');
const outDir = path.resolve(repoRoot, process.env.E2E_OUT || 'build/e2e');
const harnessDir = path.join(outDir, 'knowledge-harness');

fs.mkdirSync(outDir, { recursive: true });
const t = suite('knowledge', { outDir });
const step = t.step;
let page;

/** Writes DIR/SKILL.md with the given frontmatter name and description. */
function skillFolder(dir, name, description, body) {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

/** The names a search shows, sorted: its seeds and what the walk reached (listed apart). */
const names = (g) => [...new Set([...(g.seeds ?? []), ...(g.entities ?? [])].map((e) => e.name))].sort();

async function main() {
  await step('the harness page builds (the two panels on the real bindings)', async () => {
    execFileSync('npx', ['vite', 'build', 'harness', '--config', 'vite.config.ts', '--outDir', harnessDir, '--emptyOutDir', '--logLevel', 'warn'], {
      cwd: path.join(repoRoot, 'frontend'),
      stdio: 'pipe',
    });
    assert.ok(fs.existsSync(path.join(harnessDir, 'index.html')));
  });

  const { addr, appLog, home, workspace } = await startWarren({ bin, outDir, assetDir: harnessDir, logName: 'app-knowledge.log' });
  t.appLog = appLog;
  const browser = await launchChromium();
  let pageErrors;
  ({ page, pageErrors } = await openWarrenPage(browser, addr));
  t.page = page;
  const go = (method, ...args) => page.evaluate(([m, a]) => window.go.app.App[m](...a), [method, args]);
  /** A binding call that must fail: its error text. */
  const goFails = (method, ...args) =>
    page.evaluate(([m, a]) => window.go.app.App[m](...a).then(() => null, (e) => String(e?.message ?? e)), [method, args]);
  const cli = (...args) => execFileSync(bin, args, { env: { ...process.env, WARREN_HOME: home, DISPLAY: '' }, stdio: 'pipe' }).toString();

  const imports = tempDir('warren-e2e-skill-import-');
  await step('skills on disk: a workspace skill is listed, a folder with the wrong name is a problem', async () => {
    skillFolder(path.join(workspace, 'skills', 'release-notes'), 'release-notes', 'Write release notes from merged changes.', '# Release notes\n\nList the **merged** changes in {baseDir}.');
    skillFolder(path.join(workspace, 'skills', 'Bad_Name'), 'bad-name', 'A skill whose folder is named wrongly.', 'Nothing.');
    const list = await go('AgentSkills', 'default', '');
    const rn = list.skills.find((s) => s.name === 'release-notes');
    assert.equal(rn?.source, 'workspace', JSON.stringify(list));
    assert.ok(list.problems.some((p) => p.dir.endsWith('Bad_Name') && /must equal its folder's name/.test(p.error)), JSON.stringify(list.problems));
    const detail = await go('Skill', 'default', 'release-notes');
    assert.match(detail.body, /List the \*\*merged\*\* changes in \//);
    assert.doesNotMatch(detail.body, /\{baseDir\}/);
    assert.match(cli('skills', 'list'), /release-notes\s+workspace/);
  });

  await step('import a folder for every agent, see it published and granted, remove it', async () => {
    skillFolder(path.join(imports, 'weekly-report'), 'weekly-report', 'Write the weekly report.', 'Steps for the report.');
    const s = await go('ImportSkill', path.join(imports, 'weekly-report'), '*');
    assert.equal(s.source, 'managed');
    assert.equal(s.version, 1);
    assert.ok((await go('PublishedSkills')).some((x) => x.name === 'weekly-report'));
    const d = await go('Skill', 'default', 'weekly-report');
    assert.deepEqual(d.grants, ['*']);
    assert.match(cli('skills', 'list'), /weekly-report\s+managed v1/);
    assert.match(await goFails('ImportSkill', path.join(imports, 'missing'), '*'), /does not exist|no such file/);
    await go('RemoveSkill', 'weekly-report');
    assert.ok(!(await go('PublishedSkills')).some((x) => x.name === 'weekly-report'));
    assert.doesNotMatch(cli('skills', 'list'), /weekly-report/);
  });

  const ids = {};
  await step('the graph: add entities and links, search and walk them, as the CLI sees them', async () => {
    const vocab = await go('KnowledgeVocabulary');
    assert.ok(vocab.entity_types.includes('person') && vocab.relation_types.includes('works_on'));
    for (const [key, name, type, description] of [
      ['ada', 'Ada', 'person', 'Leads the compiler work'],
      ['warren', 'Warren', 'project', 'A desktop agent app'],
      ['go', 'Golang', 'tool', 'The language of the backend'],
    ]) {
      ids[key] = (await go('AddKnowledgeEntity', { id: 0, agent: 'default', name, type, description, confidence: 1 })).id;
    }
    await go('LinkKnowledge', { id: 0, src: ids.ada, dst: ids.warren, type: 'works_on', src_name: '', dst_name: '', confidence: 1, depth: 0 });
    ids.uses = (await go('LinkKnowledge', { id: 0, src: ids.warren, dst: ids.go, type: 'uses', src_name: '', dst_name: '', confidence: 1, depth: 0 })).id;
    const g = await go('SearchKnowledge', 'default', 'Ada', '', 0, 2, '');
    assert.deepEqual(g.seeds.map((e) => e.name), ['Ada']);
    assert.deepEqual(names(g), ['Ada', 'Golang', 'Warren']);
    assert.equal(g.relations.length, 2);
    const one = await go('SearchKnowledge', 'default', '', '', ids.go, 1, '');
    assert.deepEqual(names(one), ['Golang', 'Warren']);
    const fromCli = JSON.parse(cli('kg', 'search', 'Ada', '--agent', 'default', '--json'));
    assert.deepEqual(names(fromCli), ['Ada', 'Golang', 'Warren']);
    assert.match(await goFails('AddKnowledgeEntity', { id: 0, agent: 'default', name: 'X', type: 'alien', confidence: 1 }), /entity type "alien": use one of/);
    assert.match(await goFails('SearchKnowledge', 'default', '', '', 99999, 2, ''), /no entity 99999/);
  });

  await step('edit, unlink and delete through the bindings', async () => {
    const ada = (await go('SearchKnowledge', 'default', 'Ada', '', 0, 1, '')).seeds[0];
    await go('UpdateKnowledgeEntity', { ...ada, description: 'Leads the compiler and the runtime' });
    assert.match(cli('kg', 'show', String(ids.ada), '--agent', 'default', '--json'), /compiler and the runtime/);
    await go('UnlinkKnowledge', ids.uses);
    const g = await go('SearchKnowledge', 'default', 'Ada', '', 0, 3, '');
    assert.deepEqual(names(g), ['Ada', 'Warren']);
    // Linked again for the UI steps.
    await go('LinkKnowledge', { id: 0, src: ids.warren, dst: ids.go, type: 'uses', src_name: '', dst_name: '', confidence: 1, depth: 0 });
  });

  const node = (name) => page.locator(`[data-testid="kg-drawing"] g.node[aria-label^="${name},"]`);
  await step('UI: search draws the graph; a click recenters; the list says the same facts', async () => {
    await page.getByRole('searchbox', { name: 'Search words' }).fill('Ada');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await node('Ada').waitFor();
    await node('Golang').waitFor();
    assert.equal(await page.locator('[data-testid="kg-drawing"] g.edge').count(), 2);
    await page.getByRole('region', { name: 'Links' }).getByText('works on').waitFor();
    await node('Golang').hover();
    await page.getByTestId('kg-peek').getByText('The language of the backend').waitFor();
    await node('Golang').click();
    await page.locator('.summary b', { hasText: 'Golang' }).waitFor();
    await node('Golang').focus();
    await page.keyboard.press('Tab');
    assert.match((await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '', /search around it/);
    await page.screenshot({ path: path.join(outDir, 'knowledge-graph.png') });
  });

  await step('UI: add an entity and link it; the bindings and the CLI see them', async () => {
    await page.getByRole('button', { name: '+ Entity' }).click();
    const form = page.getByRole('form', { name: 'Add an entity' });
    await form.getByLabel('Name').fill('Grace');
    await form.getByLabel('Type', { exact: true }).selectOption('person');
    await form.getByLabel('Description').fill('Reviews the runtime');
    await form.getByRole('button', { name: 'Add entity' }).click();
    await page.getByText('Added Grace.').waitFor();
    await node('Grace').waitFor();
    const grace = (await go('SearchKnowledge', 'default', 'Grace', '', 0, 1, '')).seeds[0];
    assert.equal(grace.agent, 'default');
    // Both on show, link Grace to Warren.
    await page.getByRole('searchbox', { name: 'Search words' }).fill('Warren Grace');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await node('Grace').waitFor();
    await page.getByRole('button', { name: 'Link Grace to…' }).click();
    const link = page.getByRole('form', { name: 'Link two entities' });
    await link.getByLabel('Relation', { exact: true }).selectOption('works_on');
    await link.getByLabel('To', { exact: true }).selectOption({ label: 'Warren (project)' });
    await link.getByRole('button', { name: 'Link' }).click();
    await page.getByText('Linked: Grace works on Warren.').waitFor();
    const shown = JSON.parse(cli('kg', 'show', String(grace.id), '--agent', 'default', '--json'));
    assert.ok(shown.relations.some((r) => r.type === 'works_on' && r.dst_name === 'Warren'), JSON.stringify(shown.relations));
  });

  await step('UI: delete an entity after confirming; it is gone for the CLI', async () => {
    const entities = page.getByRole('region', { name: 'Entities' });
    await entities.getByRole('button', { name: 'Delete Grace' }).click();
    await entities.getByRole('button', { name: 'Delete entity' }).click();
    await page.getByText('Deleted Grace.').waitFor();
    await node('Grace').waitFor({ state: 'detached' });
    assert.deepEqual(names(await go('SearchKnowledge', 'default', 'Grace', '', 0, 1, '')), []);
  });

  await step('UI: the Skills panel lists skills and problems, shows instructions, imports and removes', async () => {
    await page.goto(`http://${addr}/?panel=skills`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => typeof window.go?.app?.App?.AgentSkills === 'function');
    await page.getByRole('button', { name: /release-notes/ }).click();
    const detail = page.getByRole('region', { name: 'Skill release-notes' });
    await detail.locator('strong', { hasText: 'merged' }).waitFor();
    await page.getByRole('region', { name: 'Folders that are not skills' }).locator('[data-problem="Bad_Name"]').waitFor();
    await page.getByRole('button', { name: 'Import a skill folder…' }).click();
    const form = page.getByRole('form', { name: 'Import a skill folder' });
    await form.getByLabel('Skill folder').fill(path.join(imports, 'weekly-report'));
    await form.getByRole('button', { name: 'Import' }).click();
    await page.getByText(/Imported weekly-report \(v\d+\) for every agent\./).waitFor();
    assert.match(cli('skills', 'list'), /weekly-report\s+managed v\d+/);
    await page.screenshot({ path: path.join(outDir, 'skills.png') });
    const imported = page.getByRole('region', { name: 'Skill weekly-report' });
    await imported.getByRole('button', { name: 'Remove weekly-report' }).click();
    await imported.getByRole('button', { name: 'Remove skill' }).click();
    await page.getByText('Removed weekly-report.').waitFor();
    assert.doesNotMatch(cli('skills', 'list'), /weekly-report/);
  });

  await step('UI at 900×600 in dark mode: the graph and the list both show', async () => {
    await page.setViewportSize({ width: 900, height: 600 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`http://${addr}/?panel=knowledge`, { waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => typeof window.go?.app?.App?.SearchKnowledge === 'function');
    await page.getByRole('searchbox', { name: 'Search words' }).fill('Ada');
    await page.getByRole('searchbox', { name: 'Search words' }).press('Enter');
    await node('Warren').waitFor();
    assert.ok(await page.getByRole('button', { name: 'Edit Ada' }).isVisible());
    await page.screenshot({ path: path.join(outDir, 'knowledge-graph-small-dark.png') });
  });

  assert.deepEqual(pageErrors, [], `page errors: ${pageErrors.join('; ')}`);
}

t.run(main);
