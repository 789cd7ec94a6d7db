// The Memory tab's rules (issue 13 §6): who owns a document, which paths a
// new one may have, how a hit's channel ranks and the index status read.
import { formatBytes } from './attachments';
import type { EmbedIdentity, MemoryDoc, MemoryDocRef, MemoryIndexStatus, MemorySearchResult } from './memoryTypes';

/** The desktop's one user (app/memory.go localUser). */
export const LOCAL_USER = 'local';

/** The agent filter's value for "global documents only". */
export const GLOBAL = '';

/** A document's identity as one string (for keyed lists and selection). */
export const docKey = (d: MemoryDocRef) => `${d.agent}\u0000${d.user}\u0000${d.path}`;

/** True when a and b are the same stored document. */
export const sameDoc = (a: MemoryDocRef | null, b: MemoryDocRef | null) => !!a && !!b && docKey(a) === docKey(b);

/** Who a document belongs to: "global", "agent" or "agent · user". */
export function ownerLabel(d: Pick<MemoryDoc, 'agent' | 'user'>): string {
  if (!d.agent) return 'global';
  return d.user ? `${d.agent} · ${d.user}` : d.agent;
}

/** The owner as a sentence fragment: "global", "default (shared)", "default · local". */
export function ownerTitle(d: Pick<MemoryDoc, 'agent' | 'user'>): string {
  if (!d.agent) return 'Global: every agent reads it';
  return d.user ? `Agent ${d.agent}, user ${d.user}'s copy` : `Agent ${d.agent}, shared by all its users`;
}

/** What the "owner" picker of a new document offers. */
export interface OwnerChoice {
  value: string;
  label: string;
  agent: string;
  user: string;
}

/** Global, then each agent's own copy (the local user) and its shared copy. */
export function ownerChoices(agents: string[]): OwnerChoice[] {
  const out: OwnerChoice[] = [{ value: 'global', label: 'Global (every agent)', agent: '', user: '' }];
  for (const a of agents) {
    out.push({ value: `${a}\u0000${LOCAL_USER}`, label: `${a} · ${LOCAL_USER}`, agent: a, user: LOCAL_USER });
    out.push({ value: `${a}\u0000`, label: `${a} (shared by all users)`, agent: a, user: '' });
  }
  return out;
}

/**
 * What is wrong with a new document's path, as a sentence; "" when it is
 * fine. The same rules as memory.cleanPath: relative, no empty, "." or ".."
 * segment, no control character, at most 1024 bytes.
 */
export function pathProblem(raw: string): string {
  const p = raw.trim().replaceAll('\\', '/');
  if (!p) return 'Give the document a path, like memory/notes.md.';
  if (new TextEncoder().encode(p).length > 1024) return 'The path is too long: at most 1024 bytes.';
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) return 'The path must be relative, like memory/notes.md.';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(p)) return 'The path cannot contain control characters.';
  if (p.split('/').some((s) => s === '' || s === '.' || s === '..')) return 'The path cannot have empty, "." or ".." parts: use one like memory/notes.md.';
  return '';
}

/** A channel's rank as the results say it: "#2", or "—" when it did not find the hit. */
export const rankText = (rank: number) => (rank > 0 ? `#${rank}` : '—');

/** "keyword #2 · vector #5"; "—" for a channel that did not find it. */
export function channelRanks(h: { keyword_rank: number; vector_rank: number }): string {
  return `keyword ${rankText(h.keyword_rank)} · vector ${rankText(h.vector_rank)}`;
}

/** A hit's lines: "memory/notes.md:3-7" (one line: ":3"). */
export function hitLines(h: { path: string; start_line: number; end_line: number }): string {
  if (!h.start_line) return h.path;
  return h.end_line > h.start_line ? `${h.path}:${h.start_line}-${h.end_line}` : `${h.path}:${h.start_line}`;
}

/** The search mode as a badge says it. */
export function modeLabel(r: Pick<MemorySearchResult, 'mode'>): string {
  switch (r.mode) {
    case 'hybrid':
      return 'hybrid';
    case 'keyword-only':
      return 'keyword only';
    case 'vector-only':
      return 'vector only';
  }
  return r.mode || 'unknown';
}

/** "builtin/glove-6b-100d 100 dims"; "keyword only" without an embedder. */
export function embedderLabel(e: EmbedIdentity | null | undefined): string {
  if (!e) return 'keyword only';
  return `${e.kind}/${e.model} ${e.dims} dims`;
}

/** The vectors' progress: how many of the chunks have one, as a fraction 0..1. */
export function vectorProgress(st: Pick<MemoryIndexStatus, 'embedded' | 'chunks' | 'embedder'>): number {
  if (!st.embedder || st.chunks <= 0) return st.embedder ? 1 : 0;
  return Math.min(1, Math.max(0, st.embedded / st.chunks));
}

/** "12 of 40" chunks have a vector. */
export const vectorsText = (st: Pick<MemoryIndexStatus, 'embedded' | 'chunks'>) => `${st.embedded} of ${st.chunks}`;

/**
 * How a search runs, short ("HNSW + BM25"), and in full for the tooltip:
 * the vectors exact or through the approximate index, the words by FTS5 or
 * the in-memory index.
 */
export function searchMode(st: Pick<MemoryIndexStatus, 'index' | 'keywords'>): { short: string; full: string } {
  const vec = st.index ? (st.index.startsWith('approximate') ? 'HNSW' : 'exact') : '';
  const words = st.keywords ? (st.keywords.startsWith('in memory') ? 'BM25' : 'FTS5') : '';
  const full = [st.index && `vectors: ${st.index}`, st.keywords && `words: ${st.keywords}`].filter(Boolean).join('; ');
  return { short: [vec, words].filter(Boolean).join(' + '), full };
}

/** The size as people read it. */
export const sizeText = (n: number) => formatBytes(n);

/** The embedder setting's parts: a kind (builtin, off, provider) and the provider's name. */
export interface EmbedderChoice {
  kind: 'builtin' | 'off' | 'provider';
  provider: string;
  model: string;
}

/** Splits memory.embedder ("provider:NAME") for the form. */
export function parseEmbedder(s: { embedder: string; model: string }): EmbedderChoice {
  const v = (s.embedder || 'builtin').trim();
  if (v === 'off') return { kind: 'off', provider: '', model: s.model };
  if (v.startsWith('provider:')) return { kind: 'provider', provider: v.slice('provider:'.length), model: s.model };
  return { kind: 'builtin', provider: '', model: s.model };
}

/** The form's choice as memory.embedder and memory.embed_model. */
export function embedderSetting(c: EmbedderChoice): { embedder: string; model: string } {
  if (c.kind === 'provider') return { embedder: `provider:${c.provider.trim()}`, model: c.model.trim() };
  return { embedder: c.kind, model: c.model.trim() };
}

/** Sorts documents for the list: global first, then by agent, user and path. */
export function sortDocs(docs: MemoryDoc[]): MemoryDoc[] {
  return [...docs].sort(
    (a, b) => (a.agent ? 1 : 0) - (b.agent ? 1 : 0) || a.agent.localeCompare(b.agent) || a.user.localeCompare(b.user) || a.path.localeCompare(b.path),
  );
}

/** Documents grouped by owner, in list order. */
export function groupDocs(docs: MemoryDoc[]): { owner: string; title: string; docs: MemoryDoc[] }[] {
  const groups: { owner: string; title: string; docs: MemoryDoc[] }[] = [];
  for (const d of sortDocs(docs)) {
    const owner = ownerLabel(d);
    let g = groups.find((x) => x.owner === owner);
    if (!g) groups.push((g = { owner, title: ownerTitle(d), docs: [] }));
    g.docs.push(d);
  }
  return groups;
}

/** "memory:index" carries the bus event ({topic, time, payload}); the panel wants the IndexStatus. */
export function indexStatusFromWire(ev: unknown): MemoryIndexStatus {
  const w = (ev ?? {}) as { payload?: unknown; docs?: unknown };
  return (w.docs === undefined && w.payload && typeof w.payload === 'object' ? w.payload : w) as MemoryIndexStatus;
}
