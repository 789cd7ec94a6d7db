// The MCP import preview's model: which servers to import and switch on
// (a server that downloads code when it starts is off until the user turns
// it on), the request sent to Go, and the words around it. Shared by the
// import dialog, the Claude Desktop offer and the first-run step.
import { idFromName } from './names';
import type { McpImportPreview, McpImportReport, McpImportRequest, McpPreviewServer } from './types';
import { plural } from './words';

/** One row's two switches: store it at all, and let Warren run it. */
export interface RowChoice {
  import: boolean;
  enabled: boolean;
}

export type Choices = Record<string, RowChoice>;

/**
 * The starting switches: import each server Warren does not have yet (one
 * it has is replaced only when ticked), switched on as Go suggests. Names
 * in `taken` (chosen in another config of the same step) start unticked.
 */
export function defaultChoices(p: McpImportPreview, taken: ReadonlySet<string> = new Set()): Choices {
  const out: Choices = {};
  for (const s of p.servers ?? []) out[s.name] = { import: !s.exists && !taken.has(s.name), enabled: s.enable };
  return out;
}

/** The servers ticked for import, in the preview's order. */
export function chosen(p: McpImportPreview, choices: Choices): McpPreviewServer[] {
  return (p.servers ?? []).filter((s) => choices[s.name]?.import);
}

/** What Go's ImportMCPSelection takes: text for pasted JSON, else the found file's path. */
export function importRequest(p: McpImportPreview, choices: Choices, opts: { text?: string; offer: boolean }): McpImportRequest {
  const servers = chosen(p, choices).map((s) => ({ name: s.name, enabled: !!choices[s.name]?.enabled }));
  return p.path ? { path: p.path, servers, offer: opts.offer } : { text: opts.text ?? '', servers, offer: opts.offer };
}

/** The confirm button: "Import 3 servers", "Import 1 server", or null when none is ticked. */
export function importLabel(n: number): string | null {
  return n ? `Import ${plural(n, 'server')}` : null;
}

/** Under the rows: "2 of 3 servers will be imported; 1 stays off until you switch it on." */
export function choiceSummary(p: McpImportPreview, choices: Choices): string {
  const all = p.servers?.length ?? 0;
  const picked = chosen(p, choices);
  if (!all) return 'The file lists no servers Warren can import.';
  if (!picked.length) return 'No server is ticked: nothing will be imported.';
  const off = picked.filter((s) => !choices[s.name]?.enabled).length;
  const replaced = picked.filter((s) => s.exists).length;
  const parts = [`${picked.length === all ? (all === 1 ? 'The server' : `All ${all} servers`) : `${picked.length} of ${plural(all, 'server')}`} will be imported`];
  if (replaced) parts.push(`${plural(replaced, 'existing server')} replaced`);
  if (off) parts.push(`${off === picked.length ? (off === 1 ? 'it stays' : 'they stay') : `${off} ${off === 1 ? 'stays' : 'stay'}`} off until you switch ${off === 1 ? 'it' : 'them'} on`);
  return `${parts.join('; ')}. Nothing starts before you confirm.`;
}

/** What a previewed server runs or reaches: its command line or URL. */
export function previewTarget(s: McpPreviewServer): string {
  if (s.transport !== 'stdio') return s.url ?? '';
  return [s.command ?? '', ...(s.args ?? [])].map(quoteArg).join(' ').trim();
}

function quoteArg(a: string): string {
  return a === '' || /[\s"'\\$`]/.test(a) ? `'${a.replace(/'/g, `'\\''`)}'` : a;
}

/** Where a preview comes from, for a heading: "Claude Desktop", "the pasted JSON". */
export function sourceLabel(p: McpImportPreview): string {
  return p.client || 'the pasted JSON';
}

/** A stable DOM id part for a server name (names may hold any character). */
export function rowId(name: string): string {
  return idFromName(name) || 'server';
}

/** The import's outcome in one sentence, including what stays off. */
export function importOutcome(r: McpImportReport): string {
  const added = r.added?.length ?? 0;
  const replaced = r.replaced?.length ?? 0;
  const off = r.disabled?.length ?? 0;
  if (!added && !replaced) return 'Nothing was imported.';
  const parts: string[] = [];
  if (added) parts.push(`added ${added} (${r.added!.join(', ')})`);
  if (replaced) parts.push(`replaced ${replaced} (${r.replaced!.join(', ')})`);
  let s = parts.join('; ');
  s = `${s[0].toUpperCase()}${s.slice(1)}.`;
  if (off) s += ` ${r.disabled!.join(', ')} ${off === 1 ? 'is' : 'are'} stored switched off.`;
  return s;
}
