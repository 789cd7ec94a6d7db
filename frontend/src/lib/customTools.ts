// The custom tool editor's model: a form draft, its validation, and the
// CustomTool sent to Go. Env values are write-only: a stored variable shows
// only its name, and a value is sent only when the user typed a new one.
import { jsonErrorText } from './jsonError';
import type { CustomTool } from './types';

export const NAME_RE = /^[a-z][a-z0-9_]{0,63}$/;
export const ENV_KEY_RE = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const MAX_TIMEOUT_SECONDS = 3600;
export const DEFAULT_TIMEOUT_SECONDS = 60;
export const DEFAULT_PARAMETERS = '{\n  "type": "object",\n  "properties": {},\n  "required": []\n}';

export interface EnvRow {
  key: string;
  /** A new value; "" for a stored variable that keeps its value. */
  value: string;
  /** Stored in Go already (its value is never shown). */
  stored: boolean;
  /** The user chose to type a new value for a stored variable. */
  replace: boolean;
}

export interface Draft {
  /** Stored variables the user removed: saved as "" (Go deletes them). */
  removed: string[];
  name: string;
  description: string;
  parameters: string;
  command: string;
  timeout: string;
  enabled: boolean;
  agent: string;
  env: EnvRow[];
}

export function toDraft(t?: CustomTool | null): Draft {
  if (!t) {
    return {
      name: '',
      description: '',
      parameters: DEFAULT_PARAMETERS,
      command: '',
      timeout: String(DEFAULT_TIMEOUT_SECONDS),
      enabled: true,
      agent: '',
      env: [],
      removed: [],
    };
  }
  return {
    name: t.name,
    description: t.description,
    parameters: prettyJSON(t.parameters),
    command: t.command,
    timeout: String(t.timeout_seconds || DEFAULT_TIMEOUT_SECONDS),
    enabled: t.enabled,
    agent: t.agent ?? '',
    env: (t.env_keys ?? []).map((key) => ({ key, value: '', stored: true, replace: false })),
    removed: [],
  };
}

function prettyJSON(s: string): string {
  try {
    return JSON.stringify(JSON.parse(s), null, 2);
  } catch {
    return s;
  }
}

/**
 * The CustomTool to save. Go merges env with the stored values: env carries
 * only what the user typed (new variables and replacements) and "" for each
 * stored variable the user removed. env_keys lists what remains.
 */
export function fromDraft(d: Draft): CustomTool {
  const env: Record<string, string> = {};
  for (const key of d.removed) env[key] = '';
  for (const row of d.env) if (!row.stored || row.replace) env[row.key.trim()] = row.value;
  const tool: CustomTool = {
    name: d.name.trim(),
    description: d.description.trim(),
    parameters: compactJSON(d.parameters),
    command: d.command,
    timeout_seconds: Number(d.timeout),
    enabled: d.enabled,
    agent: d.agent.trim(),
    env_keys: d.env.map((r) => r.key.trim()),
  };
  if (Object.keys(env).length) tool.env = env;
  return tool;
}

function compactJSON(s: string): string {
  try {
    return JSON.stringify(JSON.parse(s));
  } catch {
    return s;
  }
}

// The same pattern as tools/custom's placeholderRE: {{.key}} or {{ .key }}.
const PLACEHOLDER_RE = /\{\{\s*\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;

/** Placeholder names used in a command template, once each, in order. */
export function placeholders(command: string): string[] {
  const seen = new Set<string>();
  for (const m of command.matchAll(PLACEHOLDER_RE)) seen.add(m[1]);
  return [...seen];
}

/** Template text that is not a plain placeholder ({{.a | x}}, {{if}}, a stray }}). */
export function otherTemplateActions(command: string): boolean {
  const rest = command.replace(PLACEHOLDER_RE, '');
  return rest.includes('{{') || rest.includes('}}');
}

export interface ParsedParameters {
  properties: string[];
  error?: string;
}

/** Checks the parameters text is a JSON object schema and lists its properties. */
export function parseParameters(text: string): ParsedParameters {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { properties: [], error: `Not valid JSON: ${jsonErrorText(text, err)}.` };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) {
    return { properties: [], error: 'Must be a JSON object (a JSON schema), for example {"type": "object", "properties": {}}.' };
  }
  const o = v as Record<string, unknown>;
  if (o.type !== 'object') {
    return { properties: [], error: `The schema's "type" must be "object" (got ${o.type === undefined ? 'nothing' : JSON.stringify(o.type)}).` };
  }
  const props = o.properties ?? {};
  if (props === null || typeof props !== 'object' || Array.isArray(props)) {
    return { properties: [], error: '"properties" must be an object mapping names to schemas.' };
  }
  if (o.required !== undefined && (!Array.isArray(o.required) || o.required.some((x) => typeof x !== 'string'))) {
    return { properties: Object.keys(props), error: '"required" must be an array of property names.' };
  }
  const unknownRequired = ((o.required as string[] | undefined) ?? []).filter((k) => !(k in props));
  if (unknownRequired.length) {
    return { properties: Object.keys(props), error: `"required" names properties that do not exist: ${unknownRequired.join(', ')}.` };
  }
  return { properties: Object.keys(props) };
}

export type DraftErrors = Partial<Record<'name' | 'description' | 'parameters' | 'command' | 'timeout' | 'env', string>>;

export interface Validation {
  errors: DraftErrors;
  /** Placeholders in the command that parameters does not define. */
  missing: string[];
  ok: boolean;
}

export interface ToolId {
  name: string;
  agent: string;
}

export function validateDraft(d: Draft, opts: { existing?: readonly ToolId[]; creating?: boolean } = {}): Validation {
  const errors: DraftErrors = {};
  const name = d.name.trim();
  const agent = d.agent.trim();
  if (!name) errors.name = 'A name is required.';
  else if (!NAME_RE.test(name))
    errors.name = 'Use 1–64 characters: a lowercase letter first, then lowercase letters, digits or _.';
  else if (opts.creating && opts.existing?.some((t) => t.name === name && (t.agent ?? '') === agent))
    errors.name = `A custom tool named ${name} already exists ${agent ? `for agent ${agent}` : 'for all agents'}.`;

  if (!d.description.trim()) errors.description = 'Say what the tool does: the model reads this to decide when to call it.';

  const params = parseParameters(d.parameters);
  if (params.error) errors.parameters = params.error;

  let missing: string[] = [];
  if (!d.command.trim()) errors.command = 'A command is required.';
  else if (otherTemplateActions(d.command))
    errors.command = 'Only {{.name}} placeholders are allowed: no pipes, functions or other template actions.';
  else if (!params.error) {
    missing = placeholders(d.command).filter((k) => !params.properties.includes(k));
    if (missing.length) {
      errors.command = `Not defined in parameters: ${missing.map((k) => `{{.${k}}}`).join(', ')}.`;
    }
  }

  const t = d.timeout.trim();
  const n = Number(t);
  if (!/^\d+$/.test(t) || n < 1 || n > MAX_TIMEOUT_SECONDS)
    errors.timeout = `Whole seconds from 1 to ${MAX_TIMEOUT_SECONDS}.`;

  const keys = new Set<string>();
  for (const row of d.env) {
    const k = row.key.trim();
    if (!k) {
      errors.env = 'Give each variable a name, or remove the empty row.';
      break;
    }
    if (!ENV_KEY_RE.test(k)) {
      errors.env = `Variable name ${JSON.stringify(k)} is not valid: letters, digits and _, not starting with a digit.`;
      break;
    }
    if (keys.has(k)) {
      errors.env = `Variable ${k} is listed twice.`;
      break;
    }
    keys.add(k);
    if ((!row.stored || row.replace) && row.value === '') {
      errors.env = `Type a value for ${k}${row.stored ? ', or keep the stored one' : ''}.`;
      break;
    }
  }

  return { errors, missing, ok: Object.keys(errors).length === 0 };
}
