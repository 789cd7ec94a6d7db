// Pure helpers behind the inventory view: grouping, filtering, counting and
// flattening a JSON schema into table rows. Kept free of Svelte so they are
// trivially unit-tested.
import type { Danger, SchemaProperty, ToolInfo, ToolSchema } from './types';

export interface ToolGroup {
  name: string;
  tools: ToolInfo[];
  allowed: number;
}

/** Groups tools by their group, groups and tools sorted by name. */
export function groupTools(tools: readonly ToolInfo[]): ToolGroup[] {
  const byGroup = new Map<string, ToolInfo[]>();
  for (const t of tools) {
    const g = t.group || 'ungrouped';
    let list = byGroup.get(g);
    if (!list) byGroup.set(g, (list = []));
    list.push(t);
  }
  return [...byGroup.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, list]) => {
      const sorted = [...list].sort((a, b) => a.name.localeCompare(b.name));
      return { name, tools: sorted, allowed: sorted.filter((t) => t.allowed).length };
    });
}

/** Case-insensitive match of every whitespace-separated term against name or description. */
export function filterTools(tools: readonly ToolInfo[], query: string): ToolInfo[] {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [...tools];
  return tools.filter((t) => {
    const hay = `${t.name}\n${t.description}`.toLowerCase();
    return terms.every((term) => hay.includes(term));
  });
}

export interface Counts {
  total: number;
  allowed: number;
  blocked: number;
  byDanger: Record<Danger, number>;
}

export function countTools(tools: readonly ToolInfo[]): Counts {
  const byDanger: Record<Danger, number> = { safe: 0, warning: 0, dangerous: 0, critical: 0 };
  let allowed = 0;
  for (const t of tools) {
    if (t.allowed) allowed++;
    if (t.danger in byDanger) byDanger[t.danger]++;
  }
  return { total: tools.length, allowed, blocked: tools.length - allowed, byDanger };
}

/** "23 tools · 19 allowed under coding" */
export function summaryLine(c: Counts, profile: string): string {
  const tools = `${c.total} ${c.total === 1 ? 'tool' : 'tools'}`;
  return profile ? `${tools} · ${c.allowed} allowed under ${profile}` : `${tools} · ${c.allowed} allowed`;
}

export interface ParamRow {
  name: string;
  type: string;
  required: boolean;
  description: string;
  values: string;
}

function typeLabel(p: SchemaProperty | undefined): string {
  if (!p) return 'any';
  const t = Array.isArray(p.type) ? p.type.join(' | ') : p.type;
  if (t === 'array' && p.items) return `${typeLabel(p.items)}[]`;
  return t || 'any';
}

/** Flattens an object schema's top-level properties into table rows, required first. */
export function schemaRows(schema: ToolSchema | null | undefined): ParamRow[] {
  const props = schema?.properties;
  if (!props || typeof props !== 'object') return [];
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  return Object.entries(props)
    .map(([name, p]) => ({
      name,
      type: typeLabel(p),
      required: required.has(name),
      description: p?.description ?? '',
      values: Array.isArray(p?.enum) ? p.enum.map((v) => JSON.stringify(v)).join(', ') : '',
    }))
    .sort((a, b) => Number(b.required) - Number(a.required) || a.name.localeCompare(b.name));
}

export const dangerLevels: readonly Danger[] = ['safe', 'warning', 'dangerous', 'critical'];
