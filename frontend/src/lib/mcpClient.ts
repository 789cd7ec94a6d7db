// MCP client features in the window: prompts offered in the chat composer,
// resources attached to a message, and the forms servers ask the user to
// fill (elicitation). Types mirror app/mcpclient.go and backend/warren.

/** mcp.PromptArgument. */
export interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

/** warren.MCPChatPrompt: one prompt offered in an agent's chat. */
export interface McpChatPrompt {
  server: string;
  prompt: { name: string; title?: string; description?: string; arguments?: McpPromptArgument[] | null };
}

/** mcp.Resource. */
export interface McpResource {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
}

/** mcp.ResourceTemplate. */
export interface McpResourceTemplate {
  uriTemplate: string;
  name: string;
  description?: string;
  mimeType?: string;
}

/** warren.MCPChatResource: one resource offered for attaching in an agent's chat. */
export interface McpChatResource {
  server: string;
  resource: McpResource;
}

/** app.MCPResourceList. */
export interface McpResourceList {
  resources: McpResource[];
  templates: McpResourceTemplate[];
}

/** app.MCPResourceContent: a read resource (binary content is not shown). */
export interface McpResourceContent {
  uri: string;
  mime_type?: string;
  text?: string;
  blob_size?: number;
}

/** warren.ElicitField: one field of a server's form. */
export interface ElicitField {
  name: string;
  title?: string;
  description?: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'unsupported' | string;
  enum?: string[] | null;
  required?: boolean;
  default?: unknown;
}

/** warren.ElicitationRequest: a server's question to the user. */
export interface ElicitationRequest {
  id: string;
  server: string;
  agent?: string;
  session?: string;
  call_id?: string;
  message: string;
  fields: ElicitField[] | null;
  created: string;
}

export type ElicitAction = 'accept' | 'decline' | 'cancel';

/** warren.ElicitationAnswer. */
export interface ElicitationAnswer {
  id: string;
  action: ElicitAction;
  content?: Record<string, unknown>;
}

/** The "mcp:elicitation" event: {topic, time, payload}. */
export interface ElicitationEvent {
  topic: 'mcp.elicitation' | 'mcp.elicitation.resolved' | string;
  time?: string;
  payload: ElicitationRequest | ElicitationAnswer;
}

/** The event name app/ emits servers' questions and their resolutions under. */
export const elicitationEventName = 'mcp:elicitation';

/** The composer's slash query: the text after a leading "/" on a one-line draft, else null. */
export function slashQuery(draft: string): string | null {
  if (!draft.startsWith('/') || draft.includes('\n')) return null;
  return draft.slice(1);
}

/** "server:prompt", how the composer names a prompt. */
export function promptLabel(p: McpChatPrompt): string {
  return `${p.server}:${p.prompt.name}`;
}

/** The prompts whose label or title contains the query (case-insensitive), in label order. */
export function matchPrompts(all: McpChatPrompt[], query: string): McpChatPrompt[] {
  const q = query.trim().toLowerCase();
  return all
    .filter((p) => !q || promptLabel(p).toLowerCase().includes(q) || (p.prompt.title ?? '').toLowerCase().includes(q))
    .sort((a, b) => promptLabel(a).localeCompare(promptLabel(b)));
}

/** The arguments a prompt still needs: the required ones left empty. */
export function missingArguments(p: McpChatPrompt, values: Record<string, string>): string[] {
  return (p.prompt.arguments ?? []).filter((a) => a.required && !values[a.name]?.trim()).map((a) => a.name);
}

/** A form's starting values: each field's default, when it has one. */
export function formDefaults(fields: ElicitField[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f.default !== undefined && f.type !== 'unsupported') out[f.name] = f.default;
  return out;
}

/**
 * The content of an accepted form, or the first problem. Empty optional
 * fields are left out; numbers must parse (integers be whole); enums must
 * be one of their values — the backend checks again and fails closed.
 */
export function formContent(fields: ElicitField[], values: Record<string, unknown>): { content?: Record<string, unknown>; error?: string } {
  const content: Record<string, unknown> = {};
  for (const f of fields) {
    if (f.type === 'unsupported') continue;
    const label = f.title || f.name;
    const v = values[f.name];
    const empty = v === undefined || v === null || (typeof v === 'string' && v.trim() === '');
    if (empty) {
      if (f.type === 'boolean' && f.required) content[f.name] = false;
      else if (f.required) return { error: `${label} is required` };
      continue;
    }
    if (f.type === 'number' || f.type === 'integer') {
      const n = typeof v === 'number' ? v : Number(String(v).trim());
      if (!Number.isFinite(n)) return { error: `${label} must be a number` };
      if (f.type === 'integer' && !Number.isInteger(n)) return { error: `${label} must be a whole number` };
      content[f.name] = n;
    } else if (f.type === 'boolean') {
      content[f.name] = Boolean(v);
    } else {
      const s = String(v);
      if (f.enum?.length && !f.enum.includes(s)) return { error: `${label} must be one of ${f.enum.join(', ')}` };
      content[f.name] = s;
    }
  }
  return { content };
}

/** What the chat composer needs for MCP prompts and resources (bound to the chat's agent). */
export interface ComposerMcp {
  prompts: () => Promise<McpChatPrompt[]>;
  renderPrompt: (p: McpChatPrompt, args: Record<string, string>) => Promise<string>;
  resources: () => Promise<McpChatResource[]>;
  attachResource: (r: McpChatResource) => Promise<import('./types').Attachment>;
}
