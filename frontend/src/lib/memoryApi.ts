// The real WarrenApi's Memory calls (issue 13 §6): documents, search, the
// index and its embedder; spread into wailsApi by api.ts. Agent "" = global,
// user "" = the agent's shared copy.
import * as App from '../../wailsjs/go/app/App';
import { indexStatusFromWire } from './memory';
import type { MemoryDoc, MemoryEmbedderSetting, MemoryIndexStatus, MemorySearchResult, MemoryVersion } from './memoryTypes';
import { subscribe } from './subscribe';

/** The Memory tab's document and search calls. */
export interface MemoryApi {
  /** Documents without content, newest first: an agent's (with the global ones), or the global ones only. */
  memoryDocs(agent: string, globalOnly: boolean): Promise<MemoryDoc[]>;
  /** One document with its content; rejects "memory document not found". */
  memoryDoc(agent: string, user: string, path: string): Promise<MemoryDoc>;
  /** Stores a document; the previous content becomes a version. */
  saveMemoryDoc(agent: string, user: string, path: string, content: string): Promise<MemoryDoc>;
  deleteMemoryDoc(agent: string, user: string, path: string): Promise<void>;
  /** Earlier versions, newest first. */
  memoryVersions(agent: string, user: string, path: string): Promise<MemoryVersion[]>;
  /** Searches as agent would for the local user; scope "" all, user, agent or global. */
  searchMemory(query: string, agent: string, maxResults: number, scope: string): Promise<MemorySearchResult>;
  memoryStatus(): Promise<MemoryIndexStatus>;
  /** Chunks everything again; the vectors rebuild in the background ("memory:index"). */
  reindexMemory(): Promise<void>;
  memoryEmbedder(): Promise<MemoryEmbedderSetting>;
  /** Rejects with the reason when the embedder cannot be put to work (the old one is kept). */
  setMemoryEmbedder(s: MemoryEmbedderSetting): Promise<void>;
  /** Subscribes to the index's progress; returns the unsubscribe function. */
  onMemoryIndex(handler: (st: MemoryIndexStatus) => void): () => void;
}

/** The event name app/ emits the memory index's progress (memory.IndexStatus) under. */
export const memoryEventName = 'memory:index';

export function memoryCalls(): MemoryApi {
  return {
    memoryDocs: async (agent, globalOnly) => ((await App.MemoryDocs(agent, globalOnly)) ?? []) as unknown as MemoryDoc[],
    memoryDoc: async (agent, user, path) => (await App.MemoryDoc(agent, user, path)) as unknown as MemoryDoc,
    saveMemoryDoc: async (agent, user, path, content) => (await App.SaveMemoryDoc(agent, user, path, content)) as unknown as MemoryDoc,
    deleteMemoryDoc: (agent, user, path) => App.DeleteMemoryDoc(agent, user, path),
    memoryVersions: async (agent, user, path) => ((await App.MemoryVersions(agent, user, path)) ?? []) as unknown as MemoryVersion[],
    searchMemory: async (query, agent, maxResults, scope) => {
      const r = (await App.SearchMemory(query, agent, maxResults, scope)) as unknown as MemorySearchResult;
      return { ...r, hits: r.hits ?? [] };
    },
    memoryStatus: async () => (await App.MemoryStatus()) as unknown as MemoryIndexStatus,
    reindexMemory: () => App.ReindexMemory(),
    memoryEmbedder: async () => (await App.MemoryEmbedder()) as unknown as MemoryEmbedderSetting,
    setMemoryEmbedder: (s) => App.SetMemoryEmbedder(s as never),
    onMemoryIndex: (handler) => subscribe(memoryEventName, (ev: unknown) => handler(indexStatusFromWire(ev))),
  };
}
