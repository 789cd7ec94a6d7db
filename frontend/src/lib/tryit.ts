// The "Try it" form's logic: arguments prefilled from a tool's schema, and
// client-side validation with messages a person can act on.
import { jsonErrorText } from './jsonError';
import type { CallResult, SchemaProperty, ToolSchema } from './types';

function emptyValue(p: SchemaProperty | undefined): unknown {
  const t = Array.isArray(p?.type) ? p.type.find((x) => x !== 'null') : p?.type;
  switch (t) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return null;
  }
}

/** Pretty JSON with every required property set to an empty value of its type. */
export function prefillArgs(schema: ToolSchema | null | undefined): string {
  const props = schema?.properties ?? {};
  const required = Array.isArray(schema?.required) ? schema.required : [];
  const args: Record<string, unknown> = {};
  for (const name of required) args[name] = emptyValue(props[name]);
  return JSON.stringify(args, null, 2);
}

export type ParsedArgs = { ok: true; json: string } | { ok: false; error: string };

/** Validates the textarea: a JSON object that has every required property. */
export function parseArgs(text: string, schema?: ToolSchema | null): ParsedArgs {
  const src = text.trim() === '' ? '{}' : text;
  let value: unknown;
  try {
    value = JSON.parse(src);
  } catch (err) {
    return { ok: false, error: `Arguments are not valid JSON: ${jsonErrorText(src, err)}.` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { ok: false, error: `Arguments must be a JSON object such as {"path": "notes.txt"}, not ${kind}.` };
  }
  const required = Array.isArray(schema?.required) ? schema.required : [];
  const missing = required.filter((k) => !(k in (value as Record<string, unknown>)));
  if (missing.length) {
    return { ok: false, error: `Missing required ${missing.length === 1 ? 'argument' : 'arguments'}: ${missing.join(', ')}.` };
  }
  return { ok: true, json: JSON.stringify(value) };
}

/** The text to show for a result: what the user should read first. */
export function resultOutput(r: CallResult): string {
  if (r.status !== 'success') return r.message || r.for_user || r.for_llm || '';
  return r.for_user || r.for_llm || '';
}

/** 0.42 → "0.42 ms", 1234.5 → "1.23 s". */
export function formatDuration(ms: number | undefined): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return '';
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(2) : Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}
