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

// What the badges of a tool mean, in words people use (the title and the
// accessible description of each badge).

export interface BadgeInfo {
  label: string;
  explain: string;
}

export const dangerInfo: Record<Danger, BadgeInfo> = {
  safe: { label: 'safe', explain: 'Safe: it only reads or reports; it changes nothing.' },
  warning: {
    label: 'caution',
    explain: 'Caution: it changes files in the workspace or reaches beyond it (a message, another session).',
  },
  dangerous: {
    label: 'dangerous',
    explain: 'Dangerous: it can delete data or run programs. Risky calls wait for your approval.',
  },
  critical: { label: 'critical', explain: 'Critical: it can change this machine beyond the workspace.' },
};

/** The "asks first" badge: every call of the tool waits for an approval. */
export const confirmInfo: BadgeInfo = {
  label: 'asks first',
  explain: 'Asks first: every call waits until you allow it once, allow it always, or deny it.',
};

/**
 * The class badge, or null for the usual class: "static" tools are simply
 * always there, so saying so is noise. The others only exist inside an
 * agent's run.
 */
export function classInfo(cls: string): BadgeInfo | null {
  switch (cls) {
    case 'static':
      return null;
    case 'engine':
      return { label: 'in runs only', explain: 'In runs only: it is created for each agent run because it needs the running agent (for example to start subagents).' };
    case 'runtime':
      return { label: 'per task', explain: 'Per task: it is added to each task because it needs the live model connection.' };
    default:
      return { label: cls, explain: `Tool class ${cls}.` };
  }
}

/** What switching the global profile does to the tools shown. */
export interface ProfileChange {
  /** Allowed now, blocked after the switch; sorted. */
  blocked: string[];
  /** Blocked now, allowed after the switch; sorted. */
  allowed: string[];
}

export function profileChange(current: readonly ToolInfo[], next: readonly ToolInfo[]): ProfileChange {
  const was = new Map(current.map((t) => [t.name, t.allowed]));
  const blocked: string[] = [];
  const allowed: string[] = [];
  for (const t of next) {
    const before = was.get(t.name);
    if (before === undefined || before === t.allowed) continue;
    (t.allowed ? allowed : blocked).push(t.name);
  }
  return { blocked: blocked.sort(), allowed: allowed.sort() };
}

/** "exec, write_file and read_file" / "a, b, c, … and 5 more". */
export function nameList(names: readonly string[], max = 6): string {
  if (names.length <= 1) return names.join('');
  if (names.length <= max) return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `${names.slice(0, max).join(', ')} and ${names.length - max} more`;
}

const tools = (n: number) => `${n} ${n === 1 ? 'tool' : 'tools'}`;

/**
 * The sentences the profile confirmation leads with:
 * "Switching to minimal blocks 21 tools for every agent: exec, write_file, … and 15 more."
 */
export function profileChangeText(profile: string, c: ProfileChange): string[] {
  const out: string[] = [];
  if (c.blocked.length) out.push(`Switching to ${profile} blocks ${tools(c.blocked.length)} for every agent: ${nameList(c.blocked)}.`);
  if (c.allowed.length) {
    out.push(`${c.blocked.length ? 'It allows' : `Switching to ${profile} allows`} ${tools(c.allowed.length)} for every agent: ${nameList(c.allowed)}.`);
  }
  if (!out.length) out.push(`Switching to ${profile} changes no tool for the agent shown.`);
  return out;
}
