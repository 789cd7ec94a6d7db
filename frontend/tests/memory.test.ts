import { fireEvent, render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import App from '../src/App.svelte';
import MemoryPanel from '../src/components/memory/MemoryPanel.svelte';
import { humanError } from '../src/lib/errors';
import { channelRanks, embedderLabel, embedderSetting, groupDocs, hitLines, indexStatusFromWire, ownerLabel, parseEmbedder, pathProblem, searchMode, vectorProgress } from '../src/lib/memory';
import { sectionDigit } from '../src/lib/keys';
import { buildCommands, filterCommands, shortcuts } from '../src/lib/commands';
import { fakeApi } from './fakeApi';
import { makeMemoryDoc } from './memoryFake';

function seeded() {
  const api = fakeApi();
  api.memory.seed({ agent: '', user: '', path: 'memory/house-rules.md', content: '# House rules\n\nUse metric units.' });
  api.memory.seed({ agent: 'default', user: 'local', path: 'MEMORY.md', content: '# Me\n\nThe user likes **tea**.\n<img src=x onerror="window.pwned=1">\n<script>window.pwned=2</script>' }, [
    '# Me\n\nThe user likes coffee.',
  ]);
  api.memory.seed({ agent: 'reviewer', user: '', path: 'memory/style.md', content: 'Short sentences.' });
  return api;
}

const item = (path: string) => screen.getByRole('button', { name: new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) });

async function openDoc(path: string) {
  await screen.findByText(path);
  await userEvent.click(item(path));
  return screen.findByRole('region', { name: `Document ${path}` });
}

describe('memory helpers', () => {
  it('checks paths the way the store does', () => {
    expect(pathProblem('memory/notes.md')).toBe('');
    expect(pathProblem('MEMORY.md')).toBe('');
    expect(pathProblem('')).toMatch(/Give the document a path/);
    expect(pathProblem('/etc/passwd')).toMatch(/relative/);
    expect(pathProblem('memory/../x.md')).toMatch(/"\.\."/);
    expect(pathProblem('memory//x.md')).toMatch(/empty/);
    expect(pathProblem('a\u0001b')).toMatch(/control/);
  });

  it('says owners, ranks, lines, embedders and progress in words', () => {
    expect(ownerLabel({ agent: '', user: '' })).toBe('global');
    expect(ownerLabel({ agent: 'default', user: '' })).toBe('default');
    expect(ownerLabel({ agent: 'default', user: 'local' })).toBe('default · local');
    expect(channelRanks({ keyword_rank: 2, vector_rank: 5 })).toBe('keyword #2 · vector #5');
    expect(channelRanks({ keyword_rank: 0, vector_rank: 1 })).toBe('keyword — · vector #1');
    expect(hitLines({ path: 'a.md', start_line: 3, end_line: 7 })).toBe('a.md:3-7');
    expect(hitLines({ path: 'a.md', start_line: 3, end_line: 3 })).toBe('a.md:3');
    expect(embedderLabel({ kind: 'builtin', model: 'glove-6b-100d', dims: 100 })).toBe('builtin/glove-6b-100d 100 dims');
    expect(embedderLabel(null)).toBe('keyword only');
    expect(vectorProgress({ embedded: 5, chunks: 20, embedder: { kind: 'builtin', model: 'g', dims: 100 } })).toBe(0.25);
    expect(parseEmbedder({ embedder: 'provider:local', model: 'nomic' })).toEqual({ kind: 'provider', provider: 'local', model: 'nomic' });
    expect(embedderSetting({ kind: 'provider', provider: ' local ', model: ' nomic ' })).toEqual({ embedder: 'provider:local', model: 'nomic' });
    expect(indexStatusFromWire({ topic: 'memory.index', payload: { docs: 2, chunks: 3 } })).toEqual({ docs: 2, chunks: 3 });
  });

  it('says how a search runs, short and in full', () => {
    expect(searchMode({ index: 'approximate (HNSW, 9 vectors, built)', keywords: 'in memory (BM25 over 9 chunks)' })).toEqual({
      short: 'HNSW + BM25',
      full: 'vectors: approximate (HNSW, 9 vectors, built); words: in memory (BM25 over 9 chunks)',
    });
    expect(searchMode({ index: 'exact', keywords: 'FTS5' }).short).toBe('exact + FTS5');
    expect(searchMode({ keywords: 'FTS5' })).toEqual({ short: 'FTS5', full: 'words: FTS5' });
    expect(searchMode({}).short).toBe('');
  });

  it('groups documents by owner, global first', () => {
    const g = groupDocs([
      makeMemoryDoc({ agent: 'b', user: '', path: 'z.md' }),
      makeMemoryDoc({ agent: '', user: '', path: 'g.md' }),
      makeMemoryDoc({ agent: 'b', user: 'local', path: 'a.md' }),
    ]);
    expect(g.map((x) => [x.owner, x.docs.map((d) => d.path)])).toEqual([
      ['global', ['g.md']],
      ['b', ['z.md']],
      ['b · local', ['a.md']],
    ]);
  });

  it('turns memory errors into sentences', () => {
    expect(humanError('setting memory.embedder: memory.embedder provider:nowhere: provider "nowhere": not found (kept builtin)').sentence).toBe(
      'There is no model provider "nowhere" to make the memory vectors; Warren keeps using builtin.',
    );
    expect(humanError('setting memory.embedder: memory.embedder provider:x needs memory.embed_model (the embedding model the server knows) (kept the default)').sentence).toBe(
      'A provider’s embeddings need the model’s name (for example nomic-embed-text); Warren keeps using the builtin embedder.',
    );
    expect(humanError('MemoryDoc: memory document not found').sentence).toBe('That memory document no longer exists: it may have been deleted.');
    expect(humanError(`the path "../x" has an empty, '.' or '..' segment`).sentence).toMatch(/cannot have empty/);
    expect(humanError('invalid memory search: it needs a query').sentence).toBe('Type what to search for first.');
  });

  it('gives the tenth section Alt+0', () => {
    expect([0, 8, 9].map(sectionDigit)).toEqual(['1', '9', '0']);
    const list = shortcuts(Array.from({ length: 10 }, (_, i) => ({ label: `S${i}` })));
    expect(list.find((s) => s.keys === 'Alt+0')?.what).toBe('Go to S9');
  });
});

describe('MemoryPanel', () => {
  it('says what to do when there is no document yet', async () => {
    render(MemoryPanel, { api: fakeApi(), active: true, pollMs: 0 });
    expect(await screen.findByText(/agents write MEMORY.md or memory\/\*.md; or create one here/)).toBeTruthy();
  });

  it('lists documents grouped by owner with size and chunks, and filters by agent', async () => {
    const api = seeded();
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    await screen.findByText('memory/style.md');
    const groups = screen.getAllByRole('region').filter((r) => r.closest('nav'));
    expect(groups.map((g) => g.getAttribute('aria-label'))).toEqual(['global', 'default · local', 'reviewer']);
    expect(item('MEMORY.md').textContent).toMatch(/B · \d+ chunks?/);
    await userEvent.selectOptions(screen.getByLabelText('Show the documents of'), 'default');
    await waitFor(() => expect(screen.queryByText('memory/style.md')).toBeNull());
    expect(api.memoryDocs).toHaveBeenLastCalledWith('default', false);
    expect(screen.getByText('memory/house-rules.md')).toBeTruthy();
    await userEvent.selectOptions(screen.getByLabelText('Show the documents of'), '');
    await waitFor(() => expect(screen.queryByText('MEMORY.md')).toBeNull());
    expect(api.memoryDocs).toHaveBeenLastCalledWith('', true);
    // The search runs as the agent the list shows.
    await userEvent.selectOptions(screen.getByLabelText('Show the documents of'), 'reviewer');
    expect((screen.getByLabelText('Search as agent') as HTMLSelectElement).value).toBe('reviewer');
  });

  it('renders a document as safe Markdown: no raw HTML, no script', async () => {
    const api = seeded();
    const { container } = render(MemoryPanel, { api, active: true, pollMs: 0 });
    const doc = await openDoc('MEMORY.md');
    await within(doc).findByText('tea');
    expect(within(doc).getByText('tea').tagName).toBe('STRONG');
    expect(container.querySelector('img[onerror], script')).toBeNull();
    expect((window as unknown as { pwned?: number }).pwned).toBeUndefined();
    expect(within(doc).getByText(/v2 ·/)).toBeTruthy();
  });

  it('edits and saves with Ctrl+S, keeping the previous version', async () => {
    const api = seeded();
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    const doc = await openDoc('memory/house-rules.md');
    await userEvent.click(within(doc).getByRole('button', { name: 'Edit' }));
    const editor = within(doc).getByLabelText('Content of memory/house-rules.md') as HTMLTextAreaElement;
    expect(document.activeElement).toBe(editor);
    await userEvent.clear(editor);
    await userEvent.type(editor, 'Use SI units.');
    expect(within(doc).getByText(/Unsaved changes/)).toBeTruthy();
    await fireEvent.keyDown(editor, { key: 's', ctrlKey: true });
    await waitFor(() => expect(api.saveMemoryDoc).toHaveBeenCalledWith('', '', 'memory/house-rules.md', 'Use SI units.'));
    expect(await screen.findByRole('status')).toHaveProperty('textContent', expect.stringMatching(/Saved memory\/house-rules.md \(version 2\)/));
    expect(api.memory.state.versions['\u0000\u0000memory/house-rules.md'][0].content).toMatch(/metric/);
    expect(within(doc).queryByText(/Unsaved changes/)).toBeNull();
  });

  it('holds back a switch while the editor has unsaved changes', async () => {
    const api = seeded();
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    const doc = await openDoc('memory/house-rules.md');
    await userEvent.click(within(doc).getByRole('button', { name: 'Edit' }));
    await userEvent.type(within(doc).getByLabelText('Content of memory/house-rules.md'), ' More.');
    await userEvent.click(item('memory/style.md'));
    const guard = await screen.findByRole('alertdialog', { name: 'Unsaved changes' });
    await userEvent.click(within(guard).getByRole('button', { name: 'Keep editing' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByRole('region', { name: 'Document memory/house-rules.md' })).toBeTruthy();
    await userEvent.click(item('memory/style.md'));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Discard changes' }));
    expect(await screen.findByRole('region', { name: 'Document memory/style.md' })).toBeTruthy();
    expect(api.saveMemoryDoc).not.toHaveBeenCalled();
  });

  it('deletes a document only once confirmed', async () => {
    const api = seeded();
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    const doc = await openDoc('memory/style.md');
    await userEvent.click(within(doc).getByRole('button', { name: 'Delete' }));
    expect(api.deleteMemoryDoc).not.toHaveBeenCalled();
    const ask = within(doc).getByRole('group', { name: 'Delete memory/style.md and its versions?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Delete document' }));
    await waitFor(() => expect(api.deleteMemoryDoc).toHaveBeenCalledWith('reviewer', '', 'memory/style.md'));
    await waitFor(() => expect(screen.queryByText('memory/style.md')).toBeNull());
    expect(screen.getByRole('status').textContent).toMatch(/Deleted memory\/style.md/);
  });

  it('lists earlier versions, shows one and restores it as a new version', async () => {
    const api = seeded();
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    const doc = await openDoc('MEMORY.md');
    await userEvent.click(within(doc).getByRole('button', { name: /History/ }));
    const versions = within(doc).getByRole('region', { name: 'Earlier versions' });
    await userEvent.click(within(versions).getByRole('button', { name: 'View version 1' }));
    expect(within(versions).getByLabelText('Version 1').textContent).toMatch(/coffee/);
    await userEvent.click(within(versions).getByRole('button', { name: 'Restore version 1' }));
    await waitFor(() => expect(api.saveMemoryDoc).toHaveBeenCalledWith('default', 'local', 'MEMORY.md', '# Me\n\nThe user likes coffee.'));
    expect((await screen.findByRole('status')).textContent).toMatch(/Restored version 1 of MEMORY.md \(version 3\)/);
    await within(doc).findByText(/coffee/);
    expect(within(versions).getAllByRole('listitem').map((li) => li.querySelector('.v')?.textContent)).toEqual(['v2', 'v1']);
  });

  it('creates a document from the dialog after checking its path', async () => {
    const api = seeded();
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    await screen.findByText('MEMORY.md');
    await userEvent.click(screen.getAllByRole('button', { name: '+ New document' })[0]);
    const dlg = await screen.findByRole('dialog', { name: 'New memory document' });
    const path = within(dlg).getByLabelText('Path');
    await userEvent.clear(path);
    await userEvent.type(path, '../oops.md');
    await userEvent.click(within(dlg).getByRole('button', { name: 'Create document' }));
    expect(within(dlg).getByText(/cannot have empty, "\." or "\.\." parts/)).toBeTruthy();
    expect(api.saveMemoryDoc).not.toHaveBeenCalled();
    await userEvent.clear(path);
    await userEvent.type(path, 'memory/notes.md');
    await userEvent.selectOptions(within(dlg).getByLabelText('Owner'), 'reviewer (shared by all users)');
    await userEvent.type(within(dlg).getByLabelText(/Content/), 'Hello');
    await userEvent.click(within(dlg).getByRole('button', { name: 'Create document' }));
    await waitFor(() => expect(api.saveMemoryDoc).toHaveBeenCalledWith('reviewer', '', 'memory/notes.md', 'Hello'));
    expect(await screen.findByRole('region', { name: 'Document memory/notes.md' })).toBeTruthy();
  });

  it('searches as an agent and shows each channel’s rank, the score, the mode and the note; a hit opens its lines', async () => {
    const api = seeded();
    api.memory.state.nextResult = {
      mode: 'hybrid',
      note: 'vectors are still being built: 3 of 5 chunks',
      hits: [
        { path: 'MEMORY.md', agent: 'default', user: 'local', start_line: 3, end_line: 3, heading: 'Me', score: 0.82, keyword_rank: 2, vector_rank: 5, snippet: 'The user likes <b>tea</b>' },
        { path: 'memory/house-rules.md', agent: '', user: '', start_line: 1, end_line: 3, score: 0.4, keyword_rank: 0, vector_rank: 1, snippet: 'Use metric units.' },
      ],
    };
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    await screen.findByText('MEMORY.md');
    const box = screen.getByRole('searchbox', { name: 'Search memory as default' });
    await userEvent.type(box, 'what does the user drink{Enter}');
    expect(api.searchMemory).toHaveBeenCalledWith('what does the user drink', 'default', 10, '');
    expect((await screen.findByTestId('search-mode')).textContent).toBe('hybrid');
    expect(screen.getByTestId('search-note').textContent).toMatch(/still being built/);
    expect(screen.getAllByTestId('ranks').map((r) => r.textContent)).toEqual(['keyword #2 · vector #5', 'keyword — · vector #1']);
    // The snippet is text: its markup is not rendered.
    expect(screen.getByText('The user likes <b>tea</b>')).toBeTruthy();
    expect(screen.getAllByRole('meter')[0].getAttribute('aria-valuenow')).toBe('0.82');
    await userEvent.click(screen.getByRole('button', { name: 'Open MEMORY.md:3' }));
    const doc = await screen.findByRole('region', { name: 'Document MEMORY.md' });
    const source = await within(doc).findByRole('list', { name: 'Source of MEMORY.md' });
    await waitFor(() => expect(source.querySelector('li.hit')?.getAttribute('data-line')).toBe('3'));
    expect(source.querySelectorAll('li.hit')).toHaveLength(1);
  });

  it('shows a keyword-only search and the error for an empty query', async () => {
    const api = seeded();
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    await screen.findByText('MEMORY.md');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Type what to search for first/);
    await userEvent.type(screen.getByRole('searchbox'), 'metric{Enter}');
    expect((await screen.findByTestId('search-mode')).textContent).toBe('keyword only');
    expect(screen.getAllByTestId('ranks')[0].textContent).toBe('keyword #1 · vector —');
    // A narrower scope goes with the query.
    await userEvent.selectOptions(screen.getByLabelText('Search in'), 'global');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(api.searchMemory).toHaveBeenLastCalledWith('metric', 'default', 10, 'global');
  });

  it('says so when a hit’s document was deleted meanwhile', async () => {
    const api = seeded();
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    await screen.findByText('MEMORY.md');
    await userEvent.type(screen.getByRole('searchbox'), 'metric{Enter}');
    await screen.findByTestId('search-mode');
    await api.deleteMemoryDoc('', '', 'memory/house-rules.md');
    await userEvent.click(screen.getByRole('button', { name: /^Open memory\/house-rules.md/ }));
    const doc = await screen.findByRole('region', { name: 'Document memory/house-rules.md' });
    expect((await within(doc).findByRole('alert')).textContent).toMatch(/That memory document no longer exists/);
  });

  it('shows the index status and its progress live from "memory:index"', async () => {
    const api = seeded();
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    const strip = await screen.findByRole('region', { name: 'Memory index' });
    await within(strip).findByText('builtin/glove-6b-100d 100 dims');
    expect(within(strip).getByTestId('vectors').textContent).toBe('3 of 3');
    expect(within(strip).queryByRole('progressbar')).toBeNull();
    api.memory.emit({ building: true, chunks: 40, embedded: 10, docs: 7 });
    const bar = await within(strip).findByRole('progressbar', { name: 'Vectors built' });
    expect(bar.getAttribute('aria-valuenow')).toBe('10');
    expect(within(strip).getByTestId('vectors').textContent).toBe('10 of 40');
    expect(within(strip).getByText('building…')).toBeTruthy();
    expect(strip.textContent).toMatch(/7 documents/);
    api.memory.emit({ building: false, embedded: 40, last_error: 'embed batch: connection refused' });
    await waitFor(() => expect(within(strip).queryByRole('progressbar')).toBeNull());
    expect(within(strip).getByText(/Last error:/).textContent).toMatch(/could not reach the server/);
    api.memory.emit({ embedder: null, embedded: 0, last_error: '' });
    await within(strip).findByText('keyword only');
  });

  it('reloads the list when the index counts change (an agent wrote a document)', async () => {
    const api = seeded();
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    await screen.findByText('MEMORY.md');
    api.memory.seed({ agent: 'default', user: 'local', path: 'memory/agent-wrote.md', content: 'x' });
    api.memory.emit({});
    expect(await screen.findByText('memory/agent-wrote.md')).toBeTruthy();
  });

  it('rebuilds the index only once confirmed', async () => {
    const api = seeded();
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    const strip = await screen.findByRole('region', { name: 'Memory index' });
    await userEvent.click(within(strip).getByRole('button', { name: 'Rebuild index' }));
    expect(api.reindexMemory).not.toHaveBeenCalled();
    await userEvent.click(within(strip).getByRole('button', { name: 'Rebuild' }));
    await waitFor(() => expect(api.reindexMemory).toHaveBeenCalledTimes(1));
    expect((await screen.findByRole('status')).textContent).toMatch(/Rebuilding the memory index/);
  });

  it('shows a refused embedder as a sentence and keeps the setting', async () => {
    const api = seeded();
    api.state.providers = [{ name: 'claude', kind: 'anthropic', base_url: '', default_model: '', has_key: true, tool_mode: '' } as never];
    api.memory.state.refuse['provider:claude'] =
      'setting memory.embedder: memory.embedder provider:claude: Anthropic has no embeddings endpoint; pick an OpenAI-compatible provider (kept builtin)';
    render(MemoryPanel, { api, active: true, pollMs: 0 });
    const strip = await screen.findByRole('region', { name: 'Memory index' });
    await userEvent.click(await within(strip).findByRole('button', { name: 'Embedder: builtin…' }));
    const form = screen.getByRole('form', { name: 'Memory embedder' });
    await userEvent.selectOptions(within(form).getByLabelText('Embedder'), 'provider');
    await userEvent.selectOptions(within(form).getByLabelText('Provider'), 'claude');
    await userEvent.type(within(form).getByLabelText('Model'), 'x');
    await userEvent.click(within(form).getByRole('button', { name: 'Use it' }));
    expect(api.setMemoryEmbedder).toHaveBeenCalledWith({ embedder: 'provider:claude', model: 'x' });
    const alert = await within(form).findByRole('alert');
    expect(alert.textContent).toMatch(/^Anthropic providers have no embeddings: pick an OpenAI-compatible provider; Warren keeps using builtin\./);
    expect(api.memory.state.embedder.embedder).toBe('builtin');
    // Escape closes the form; switching off works.
    await fireEvent.keyDown(within(form).getByLabelText('Embedder'), { key: 'Escape' });
    expect(screen.queryByRole('form', { name: 'Memory embedder' })).toBeNull();
    await userEvent.click(within(strip).getByRole('button', { name: 'Embedder: builtin…' }));
    await userEvent.selectOptions(screen.getByLabelText('Embedder'), 'off');
    await userEvent.click(screen.getByRole('button', { name: 'Use it' }));
    expect((await screen.findByRole('status')).textContent).toMatch(/Memory embedder set to off/);
  });
});

describe('Memory in the app', () => {
  it('is the tenth tab, reached with Alt+0', async () => {
    const api = seeded();
    render(App, { api });
    const tabs = screen.getAllByRole('tab');
    expect(tabs).toHaveLength(10);
    expect(tabs[9].textContent?.trim()).toBe('Memory');
    expect(tabs[9].getAttribute('title')).toBe('Memory (Alt+0)');
    await fireEvent.keyDown(window, { key: '0', altKey: true });
    expect(screen.getByRole('tab', { name: 'Memory' }).getAttribute('aria-selected')).toBe('true');
    expect(await screen.findByText('memory/house-rules.md')).toBeTruthy();
  });

  it('is in the palette: Go to Memory (Alt+0) and Search memory, which focuses the search box', async () => {
    const sections = Array.from({ length: 10 }, (_, i) => ({ id: i === 9 ? 'memory' : `s${i}`, label: i === 9 ? 'Memory' : `S${i}` }));
    const all = buildCommands({ sections, agents: [], sessions: [] });
    expect(all.find((c) => c.id === 'section:memory')).toMatchObject({ title: 'Go to Memory', hint: 'Alt+0' });
    expect(filterCommands(all, 'search mem')[0].id).toBe('search-memory');
    const api = seeded();
    render(App, { api });
    await fireEvent.keyDown(window, { key: 'k', ctrlKey: true });
    await userEvent.type(await screen.findByRole('combobox', { name: 'Command' }), 'search memory{Enter}');
    expect(screen.getByRole('tab', { name: 'Memory' }).getAttribute('aria-selected')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search memory as default' })));
  });
});
