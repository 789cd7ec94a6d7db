// The Memory part of the fake WarrenApi (fakeApi.ts spreads it in):
// documents in memory with the store's main rules (versions kept on save,
// paths checked, global/agent/user owners), a keyword search that reports
// channel ranks, and "memory:index" events on demand.
import { vi } from 'vitest';
import type { MemoryDoc, MemoryEmbedderSetting, MemoryFolder, MemoryIndexStatus, MemorySearchResult, MemoryVersion } from '../src/lib/memoryTypes';

const NOW = '2026-01-02T03:04:05Z';

export interface MemoryFakeState {
  docs: MemoryDoc[];
  versions: Record<string, MemoryVersion[]>;
  status: MemoryIndexStatus;
  embedder: MemoryEmbedderSetting;
  /** When set, the next searchMemory answers it instead of searching. */
  nextResult: MemorySearchResult | null;
  /** Embedders setMemoryEmbedder refuses, with the Go error text. */
  refuse: Record<string, string>;
  reindexed: number;
  folders: MemoryFolder[];
  /** Paths importMemoryFolder accepts (others "no such file or directory"), with their file count. */
  dirs: Record<string, number>;
  /** What the native folder dialog answers ("" = cancelled); null: the window has none. */
  chosenFolder: string | null;
}

const key = (agent: string, user: string, path: string) => `${agent}\u0000${user}\u0000${path}`;

export function makeMemoryDoc(over: Partial<MemoryDoc> = {}): MemoryDoc {
  const content = over.content ?? '# Notes\n\nSome text.';
  return {
    id: 1,
    agent: 'default',
    user: 'local',
    path: 'MEMORY.md',
    source: 'memory',
    content,
    hash: 'h',
    version: 1,
    size: content.length,
    chunks: 1,
    created: NOW,
    updated: NOW,
    ...over,
  };
}

export function memoryFake() {
  const state: MemoryFakeState = {
    docs: [],
    versions: {},
    status: { docs: 0, chunks: 0, embedder: { kind: 'builtin', model: 'glove-6b-100d', dims: 100 }, embedded: 0, building: false },
    embedder: { embedder: 'builtin', model: '' },
    nextResult: null,
    refuse: {},
    reindexed: 0,
    folders: [],
    dirs: {},
    chosenFolder: null,
  };
  let listener: ((st: MemoryIndexStatus) => void) | null = null;
  let seq = 0;

  function find(agent: string, user: string, path: string): MemoryDoc {
    const d = state.docs.find((x) => key(x.agent, x.user, x.path) === key(agent, user, path));
    if (!d) throw `memory document not found: ${path}`;
    return d;
  }

  function recount() {
    state.status.docs = state.docs.length;
    state.status.chunks = state.docs.reduce((n, d) => n + d.chunks, 0);
    state.status.embedded = state.status.embedder ? state.status.chunks : 0;
  }

  function put(agent: string, user: string, path: string, content: string): MemoryDoc {
    if (!path.trim()) throw 'a memory document needs a path, e.g. memory/notes.md';
    if (path.startsWith('/')) throw `the path "${path}" must be relative (like memory/notes.md)`;
    if (path.split('/').some((s) => s === '' || s === '.' || s === '..')) throw `the path "${path}" has an empty, '.' or '..' segment`;
    const chunks = Math.max(1, content.split('\n\n').length);
    const old = state.docs.find((x) => key(x.agent, x.user, x.path) === key(agent, user, path));
    if (old) {
      if (old.content !== content) {
        (state.versions[key(agent, user, path)] ??= []).unshift({ version: old.version, content: old.content ?? '', hash: old.hash, saved: old.updated });
        Object.assign(old, { content, version: old.version + 1, size: content.length, chunks, hash: `h${++seq}`, updated: NOW });
      }
      recount();
      return structuredClone(old);
    }
    const d = makeMemoryDoc({ id: ++seq, agent, user, path, content, size: content.length, chunks, hash: `h${seq}` });
    state.docs.push(d);
    recount();
    return structuredClone(d);
  }

  const list = (d: MemoryDoc) => {
    const c = structuredClone(d);
    delete c.content;
    return c;
  };

  const methods = {
    memoryDocs: vi.fn(async (agent: string, globalOnly: boolean) =>
      state.docs.filter((d) => (globalOnly ? d.agent === '' : !agent || d.agent === agent || d.agent === '')).map(list),
    ),
    memoryDoc: vi.fn(async (agent: string, user: string, path: string) => structuredClone(find(agent, user, path))),
    saveMemoryDoc: vi.fn(async (agent: string, user: string, path: string, content: string) => put(agent, user, path, content)),
    deleteMemoryDoc: vi.fn(async (agent: string, user: string, path: string) => {
      find(agent, user, path);
      state.docs = state.docs.filter((x) => key(x.agent, x.user, x.path) !== key(agent, user, path));
      delete state.versions[key(agent, user, path)];
      recount();
    }),
    memoryVersions: vi.fn(async (agent: string, user: string, path: string) => structuredClone(state.versions[key(agent, user, path)] ?? [])),
    searchMemory: vi.fn(async (query: string, agent: string, _max: number, _scope: string): Promise<MemorySearchResult> => {
      if (!query.trim()) throw 'invalid memory search: it needs a query';
      if (state.nextResult) {
        const r = state.nextResult;
        state.nextResult = null;
        return structuredClone(r);
      }
      const words = query.toLowerCase().split(/\s+/);
      const hits = state.docs
        .filter((d) => (d.agent === '' || d.agent === agent) && words.some((w) => (d.content ?? '').toLowerCase().includes(w)))
        .map((d, i) => ({
          path: d.path,
          agent: d.agent,
          user: d.user,
          start_line: 1,
          end_line: (d.content ?? '').split('\n').length,
          score: 1 / (i + 1),
          keyword_rank: i + 1,
          vector_rank: 0,
          snippet: (d.content ?? '').slice(0, 80),
        }));
      return { mode: 'keyword-only', hits, note: hits.length ? undefined : 'nothing matched' };
    }),
    memoryStatus: vi.fn(async () => structuredClone(state.status)),
    reindexMemory: vi.fn(async () => {
      state.reindexed++;
    }),
    canChooseFolders: vi.fn(async () => state.chosenFolder !== null),
    chooseFolder: vi.fn(async (_title: string) => {
      if (state.chosenFolder === null) throw "no folder dialog here: type the folder's path";
      return state.chosenFolder;
    }),
    memoryFolders: vi.fn(async () => structuredClone(state.folders)),
    // Like memory.Store.AddFolder: an existing folder, once per agent.
    importMemoryFolder: vi.fn(async (dir: string, agent: string) => {
      const path = dir.trim();
      if (!(path in state.dirs)) throw `import ${path}: stat ${path}: no such file or directory`;
      if (state.folders.some((f) => f.path === path && f.agent === agent))
        throw `import: ${path} is already imported ${agent ? `for agent ${agent}` : 'for every agent'}`;
      const f: MemoryFolder = { id: ++seq, agent, path, added: NOW, scanned: NOW, files: state.dirs[path], skipped: 0 };
      state.folders.push(f);
      return structuredClone(f);
    }),
    forgetMemoryFolder: vi.fn(async (id: number) => {
      if (!state.folders.some((f) => f.id === id)) throw `not found: no imported folder ${id}`;
      state.folders = state.folders.filter((f) => f.id !== id);
    }),
    memoryEmbedder: vi.fn(async () => ({ ...state.embedder })),
    setMemoryEmbedder: vi.fn(async (s: MemoryEmbedderSetting) => {
      const why = state.refuse[s.embedder];
      if (why) throw why;
      state.embedder = { ...s };
    }),
    onMemoryIndex: vi.fn((handler: (st: MemoryIndexStatus) => void) => {
      listener = handler;
      return () => {
        listener = null;
      };
    }),
  };

  /** Stores a document (and its earlier versions, oldest first) without events. */
  function seed(d: Partial<MemoryDoc>, earlier: string[] = []) {
    const doc = makeMemoryDoc({ id: ++seq, ...d });
    doc.size = (doc.content ?? '').length;
    doc.version = earlier.length + 1;
    state.docs.push(doc);
    state.versions[key(doc.agent, doc.user, doc.path)] = earlier
      .map((content, i) => ({ version: i + 1, content, hash: `v${i + 1}`, saved: NOW }))
      .reverse();
    recount();
    return doc;
  }

  /** Publishes a "memory:index" progress event. */
  function emit(st: Partial<MemoryIndexStatus>) {
    state.status = { ...state.status, ...st };
    listener?.(structuredClone(state.status));
  }

  return { state, methods, seed, emit };
}
