#!/usr/bin/env node
// End-to-end test of the Skills view and the knowledge graph view against
// the real Go backend. Skills are made on disk in the app's workspace (a
// valid one and one whose name differs from its folder), a folder is
// imported for every agent and removed; entities and links are added,
// searched, edited and removed — through the bindings the panels call,
// checked through the bindings and the CLI on the same WARREN_HOME. Then the
// Memory tab's Knowledge graph and Skills views are driven in the real app:
// search, the drawing, recentering, adding and linking, deleting; the skills
// list, a skill's instructions, import, which agents have it, remove.
//
// Usage: node e2e/knowledge.e2e.mjs   (scripts/e2e.sh builds the binary first)
// Env:   WARREN_DEV_BIN  binary to run (default build/bin/warren-dev)
//        E2E_OUT         where screenshots and logs go (default build/e2e)
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { launchChromium, openWarrenPage, repoRoot, startWarren, suite, tempDir } from './lib.mjs';

const bin = path.resolve(repoRoot, process.env.WARREN_DEV_BIN || 'build/bin/warren-dev');
const outDir = path.resolve(repoRoot, process.env.E2E_OUT || 'build/e2e');

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
  const { addr, appLog, home, workspace } = await startWarren({ bin, outDir, logName: 'app-knowledge.log' });
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

  // The Memory tab (Alt+0) holds the two views; the harness page that
  // mounted them alone before the tab existed is gone.
  const memory = page.locator('#panel-memory');
  const graph = memory.locator('[aria-label="Knowledge graph"]');
  const skillsView = memory.locator('[aria-label="Skills"]');
  const openView = async (name) => {
    await page.keyboard.press('Alt+0');
    await memory.getByRole('group', { name: 'Memory views' }).getByRole('button', { name, exact: true }).click();
  };
  const node = (name) => graph.locator(`[data-testid="kg-drawing"] g.node[aria-label^="${name},"]`);
  await step('UI: the Memory tab’s graph view: search draws the graph; a click recenters; the list says the same facts', async () => {
    await openView('Knowledge graph');
    await graph.getByRole('searchbox', { name: 'Search words' }).fill('Ada');
    await graph.getByRole('button', { name: 'Search', exact: true }).click();
    await node('Ada').waitFor();
    await node('Golang').waitFor();
    assert.equal(await graph.locator('[data-testid="kg-drawing"] g.edge').count(), 2);
    await graph.getByRole('region', { name: 'Links' }).getByText('works on').waitFor();
    await node('Golang').hover();
    await graph.getByTestId('kg-peek').getByText('The language of the backend').waitFor();
    await node('Golang').click();
    await graph.locator('.summary b', { hasText: 'Golang' }).waitFor();
    await node('Golang').focus();
    await page.keyboard.press('Tab');
    assert.match((await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))) ?? '', /search around it/);
    await page.screenshot({ path: path.join(outDir, 'knowledge-graph.png') });
  });

  await step('UI: add an entity and link it; the bindings and the CLI see them', async () => {
    await graph.getByRole('button', { name: '+ Entity' }).click();
    const form = page.getByRole('form', { name: 'Add an entity' }); // a modal, outside the view
    await form.getByLabel('Name').fill('Grace');
    await form.getByLabel('Type', { exact: true }).selectOption('person');
    await form.getByLabel('Description').fill('Reviews the runtime');
    await form.getByRole('button', { name: 'Add entity' }).click();
    await graph.getByText('Added Grace.').waitFor();
    await node('Grace').waitFor();
    const grace = (await go('SearchKnowledge', 'default', 'Grace', '', 0, 1, '')).seeds[0];
    assert.equal(grace.agent, 'default');
    // Both on show, link Grace to Warren.
    await graph.getByRole('searchbox', { name: 'Search words' }).fill('Warren Grace');
    await graph.getByRole('button', { name: 'Search', exact: true }).click();
    await node('Grace').waitFor();
    await graph.getByRole('button', { name: 'Link Grace to…' }).click();
    const link = page.getByRole('form', { name: 'Link two entities' });
    await link.getByLabel('Relation', { exact: true }).selectOption('works_on');
    await link.getByLabel('To', { exact: true }).selectOption({ label: 'Warren (project)' });
    await link.getByRole('button', { name: 'Link' }).click();
    await graph.getByText('Linked: Grace works on Warren.').waitFor();
    const shown = JSON.parse(cli('kg', 'show', String(grace.id), '--agent', 'default', '--json'));
    assert.ok(shown.relations.some((r) => r.type === 'works_on' && r.dst_name === 'Warren'), JSON.stringify(shown.relations));
  });

  await step('UI: delete an entity after confirming; it is gone for the CLI', async () => {
    const entities = graph.getByRole('region', { name: 'Entities' });
    await entities.getByRole('button', { name: 'Delete Grace' }).click();
    await entities.getByRole('button', { name: 'Delete entity' }).click();
    await graph.getByText('Deleted Grace.').waitFor();
    await node('Grace').waitFor({ state: 'detached' });
    assert.deepEqual(names(await go('SearchKnowledge', 'default', 'Grace', '', 0, 1, '')), []);
  });

  await step('UI: the Skills view lists skills and problems, shows instructions, imports, grants per agent and removes', async () => {
    await openView('Skills');
    await skillsView.getByRole('button', { name: /release-notes/ }).click();
    const detail = skillsView.getByRole('region', { name: 'Skill release-notes' });
    await detail.locator('strong', { hasText: 'merged' }).waitFor();
    await skillsView.getByRole('region', { name: 'Folders that are not skills' }).locator('[data-problem="Bad_Name"]').waitFor();
    await skillsView.getByRole('button', { name: 'Import a skill folder…' }).click();
    const form = skillsView.getByRole('form', { name: 'Import a skill folder' });
    await form.getByLabel('Skill folder').fill(path.join(imports, 'weekly-report'));
    await form.getByRole('button', { name: 'Import' }).click();
    await skillsView.getByText(/Imported weekly-report \(v\d+\) for every agent\./).waitFor();
    assert.match(cli('skills', 'list'), /weekly-report\s+managed v\d+\s+every agent/);
    await page.screenshot({ path: path.join(outDir, 'skills.png') });
    const imported = skillsView.getByRole('region', { name: 'Skill weekly-report' });
    // Which agents have it: every agent off, then default on, seen by the CLI.
    const grants = imported.getByRole('group', { name: 'Agents with weekly-report' });
    await grants.getByRole('checkbox', { name: 'every agent' }).uncheck();
    await skillsView.getByRole('region', { name: 'Published skills default does not have' }).getByRole('button', { name: /weekly-report/ }).waitFor();
    assert.match(cli('skills', 'show', 'weekly-report'), /granted to:\s+no agent/);
    await grants.getByRole('checkbox', { name: 'default', exact: true }).check();
    await imported.locator('dd', { hasText: /^default$/ }).waitFor();
    assert.match(cli('skills', 'list'), /weekly-report\s+managed v\d+\s+default/);
    await imported.getByRole('button', { name: 'Remove weekly-report' }).click();
    await imported.getByRole('button', { name: 'Remove skill' }).click();
    await skillsView.getByText('Removed weekly-report.').waitFor();
    assert.doesNotMatch(cli('skills', 'list'), /weekly-report/);
  });

  await step('UI: the palette opens the Memory views and imports a folder for search_documents; the CLI lists it', async () => {
    const palette = async (words) => {
      await page.keyboard.press('Control+k');
      await page.getByRole('combobox', { name: 'Command' }).fill(words);
      await page.keyboard.press('Enter');
    };
    const views = memory.getByRole('group', { name: 'Memory views' });
    await palette('knowledge graph');
    assert.equal(await views.getByRole('button', { name: 'Knowledge graph' }).getAttribute('aria-pressed'), 'true');
    await palette('memory: skills');
    assert.equal(await views.getByRole('button', { name: 'Skills', exact: true }).getAttribute('aria-pressed'), 'true');
    const notes = tempDir('warren-e2e-notes-');
    fs.writeFileSync(path.join(notes, 'boiler.md'), '# Boiler\n\nThe boiler is serviced every March.\n');
    await palette('import a folder');
    const form = memory.getByRole('form', { name: 'Import a folder' });
    await form.getByLabel('Folder', { exact: true }).fill(notes);
    await form.getByRole('button', { name: 'Import' }).click();
    const folders = memory.getByRole('region', { name: 'Imported folders' });
    await folders.getByText(/every agent · 1 file/).waitFor();
    assert.ok(cli('memory', 'folders').includes(notes));
    await folders.getByRole('button', { name: `Forget ${notes}` }).click();
    await folders.getByRole('button', { name: 'Forget folder' }).click();
    await folders.waitFor({ state: 'detached' });
    assert.match(cli('memory', 'folders'), /no imported folders/);
  });

  await step('UI at 900×600 in dark mode: the graph and the list both show', async () => {
    await page.setViewportSize({ width: 900, height: 600 });
    await page.emulateMedia({ colorScheme: 'dark' });
    await openView('Knowledge graph');
    await graph.getByRole('searchbox', { name: 'Search words' }).fill('Ada');
    await graph.getByRole('searchbox', { name: 'Search words' }).press('Enter');
    await node('Warren').waitFor();
    assert.ok(await graph.getByRole('button', { name: 'Edit Ada' }).isVisible());
    await page.screenshot({ path: path.join(outDir, 'knowledge-graph-small-dark.png') });
  });

  assert.deepEqual(pageErrors, [], `page errors: ${pageErrors.join('; ')}`);
}

t.run(main);
