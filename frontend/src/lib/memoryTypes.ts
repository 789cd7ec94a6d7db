// Memory shapes (issue 13, "memory:index", app/memory.go → backend/memory),
// split from types.ts, which re-exports them. Times are RFC 3339.

/** memory.Doc: one stored document (content only from MemoryDoc). */
export interface MemoryDoc {
  id: number;
  /** "" for a global document every agent reads. */
  agent: string;
  /** "" for the agent's copy shared by all its users; the desktop user is "local". */
  user: string;
  path: string;
  /** "memory" (file tools or the UI) or "import" (a folder the user imported). */
  source: string;
  folder?: string;
  content?: string;
  hash: string;
  version: number;
  size: number;
  chunks: number;
  created: string;
  updated: string;
}

/** memory.Version: an earlier version of a document. */
export interface MemoryVersion {
  version: number;
  content: string;
  hash: string;
  saved: string;
}

/** embed.Identity: what made a vector table. */
export interface EmbedIdentity {
  /** "builtin" or "openai". */
  kind: string;
  model: string;
  dims: number;
}

/** memory.IndexStatus: documents, chunks and how far the vectors are. */
export interface MemoryIndexStatus {
  docs: number;
  chunks: number;
  /** The current embedder; absent when search is keyword only. */
  embedder?: EmbedIdentity | null;
  /** Chunks in the current embedder's vector table. */
  embedded: number;
  /** Set while a new vector table fills. */
  building: boolean;
  /** What the ready vector table holds. */
  ready?: EmbedIdentity | null;
  /** How the vectors are searched: "exact", or "approximate (HNSW, …)". */
  index?: string;
  /** How words are searched: "FTS5", or "in memory (BM25 over N chunks)". */
  keywords?: string;
  last_error?: string;
}

/** memory.Hit: one search result with its rank in each channel (0: not found there). */
export interface MemoryHit {
  path: string;
  agent: string;
  user: string;
  start_line: number;
  end_line: number;
  heading?: string;
  /** The fused score, 0..1. */
  score: number;
  keyword_rank: number;
  vector_rank: number;
  exact?: boolean;
  snippet: string;
}

/** How a search ran: both channels, or one of them. */
export type MemorySearchMode = 'hybrid' | 'keyword-only' | 'vector-only' | string;

/** memory.Result: a search's answer. */
export interface MemorySearchResult {
  mode: MemorySearchMode;
  hits: MemoryHit[];
  /** Why a channel did not run, or that nothing matched. */
  note?: string;
}

/** app.MemoryEmbedderSetting: builtin, off or provider:NAME with its model. */
export interface MemoryEmbedderSetting {
  embedder: string;
  model: string;
}

/** Where a document is stored: (agent, user, path). */
export interface MemoryDocRef {
  agent: string;
  user: string;
  path: string;
}

/** memory.Folder: a folder imported for search_documents. */
export interface MemoryFolder {
  id: number;
  /** "" when every agent searches it. */
  agent: string;
  path: string;
  added: string;
  scanned?: string;
  files: number;
  skipped: number;
  error?: string;
}
