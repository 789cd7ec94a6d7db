// Errors as people read them: every error the UI shows leads with one
// sentence a person understands; the raw Go/CLI text is kept as the folded
// detail, and where a setting fixes it, `fix` names the section that does.

/** A section of the window an error can point to. */
export type FixTarget = 'agents' | 'sandbox' | 'mcp' | 'tools' | 'approvals' | 'schedules' | 'custom' | 'chat';

export interface HumanError {
  /** One sentence for a person, ending with a full stop. */
  sentence: string;
  /** The original text (Go error, CLI hint), shown folded; "" when it adds nothing. */
  detail: string;
  /** Where the setting that fixes it lives, when one does. */
  fix?: { target: FixTarget; label: string };
}

interface Rule {
  test: RegExp;
  sentence: string | ((m: RegExpMatchArray) => string);
  fix?: HumanError['fix'];
}

const setupAgents = { target: 'agents', label: 'Set up agents & providers' } as const;

// Order matters: the first rule that matches wins, so specific rules come first.
const rules: Rule[] = [
  // Memory (issue 13) first: its refusals name providers and models, which
  // the provider rules below would take for a chat's.
  ...memoryRules(),
  { test: /has no model provider|no model provider|providers add/i, sentence: 'This agent has no model provider yet. Choose one in Agents.', fix: setupAgents },
  { test: /no model set|model is empty|no model configured/i, sentence: 'This agent has no model chosen. Pick one in Agents.', fix: setupAgents },
  { test: /unknown (model )?provider "?([^"\s]+)"?/i, sentence: (m) => `The model provider "${m[2]}" no longer exists. Choose another in Agents.`, fix: setupAgents },
  { test: /\b(401|unauthori[sz]ed|invalid api key|incorrect api key)\b/i, sentence: 'The model provider refused the API key. Check the key in Agents.', fix: setupAgents },
  { test: /\b429\b|rate limit/i, sentence: 'The model provider is rate-limiting requests. Wait a moment and retry.' },
  { test: /model .*not found|no such model|model_not_found/i, sentence: 'The model provider does not know this model. Pick one from its list in Agents.', fix: setupAgents },
  { test: /stream dropped|unexpected EOF|connection reset/i, sentence: 'The connection to the model broke off before the reply was complete.' },
  // Warren's own errors (issue 15), ahead of the broad network, timeout,
  // sandbox and MCP rules below that would otherwise swallow them.
  ...backendRules(),
  { test: /connection refused|no such host|dial tcp|i\/o timeout|network is unreachable/i, sentence: 'Warren could not reach the server. Is it running, and is the address right?' },
  { test: /context deadline exceeded|timed out|timeout/i, sentence: 'The request took too long and was stopped.' },
  { test: /SetActiveProfile/i, sentence: 'The tool profile could not be changed.' },
  { test: /sandbox|podman/i, sentence: 'The sandbox is not working.', fix: { target: 'sandbox', label: 'Open the Sandbox check' } },
  { test: /\bmcp\b/i, sentence: 'An MCP server call failed.', fix: { target: 'mcp', label: 'Open MCP servers' } },
  { test: /database is locked|SQLITE_BUSY/i, sentence: 'Warren’s database was busy. Retry in a moment.' },
  { test: /permission denied/i, sentence: 'The operating system refused access to a file or folder.' },
  // Chat (issue 15): a deleted provider, attachments, a resend of a message that is gone.
  { test: /provider "([^"]+)": not found/i, sentence: (m) => `The model provider "${m[1]}" no longer exists. Choose another in Agents.`, fix: setupAgents },
  { test: /too large to attach/i, sentence: 'The file is too large to attach: files up to 10 MB can be attached.' },
  { test: /not a user message of this session/i, sentence: 'That message is no longer in this chat. Reopen the chat and try again.' },
  // Tools tab (issue 15): "Allow for this agent" refusals are already one sentence naming what keeps the tool out.
  { test: /^(\S+ (?:is on .+, which applies to every agent|is denied to agent .+, which covers other tools too|cannot be allowed here).*)$/s, sentence: (m) => m[1] },
];

/** Why memory.embedder was refused, as the start of a sentence. */
function embedderReason(reason: string): string {
  let m: RegExpMatchArray | null;
  if ((m = reason.match(/provider "([^"]+)": not found/i))) return `There is no model provider "${m[1]}" to make the memory vectors`;
  if (/Anthropic has no embeddings endpoint/i.test(reason)) return 'Anthropic providers have no embeddings: pick an OpenAI-compatible provider';
  if (/needs memory\.embed_model/i.test(reason)) return 'A provider’s embeddings need the model’s name (for example nomic-embed-text)';
  if (/connection refused|no such host|dial tcp|i\/o timeout|timeout|deadline/i.test(reason)) return 'The provider’s embeddings endpoint did not answer';
  if (/\b(401|403|unauthori[sz]ed)\b/i.test(reason)) return 'The provider refused the API key for embeddings';
  if (/\b404\b|not found|no such model/i.test(reason)) return 'The provider does not know that embedding model';
  return 'That embedder cannot be used';
}

/** Memory documents, search and the embedder setting (app/memory.go). */
function memoryRules(): Rule[] {
  return [
    {
      test: /setting memory\.embedder: (.*) \(kept ([^)]+)\)\s*$/s,
      sentence: (m) => `${embedderReason(m[1])}; Warren keeps using ${m[2] === 'the default' ? 'the builtin embedder' : m[2]}.`,
    },
    { test: /use builtin, off or provider:NAME/i, sentence: 'The embedder must be builtin, off or provider:NAME.' },
    { test: /memory document not found/i, sentence: 'That memory document no longer exists: it may have been deleted.' },
    { test: /a memory document needs a path/i, sentence: 'Give the document a path, like memory/notes.md.' },
    { test: /the path "[^"]*" must be relative/i, sentence: 'The path must be relative, like memory/notes.md.' },
    { test: /the path "[^"]*" has an empty, '\.' or '\.\.' segment/i, sentence: 'The path cannot have empty, "." or ".." parts: use one like memory/notes.md.' },
    { test: /the path "[^"]*" has a control character/i, sentence: 'The path cannot contain control characters.' },
    { test: /the path .* is longer than 1024 bytes/i, sentence: 'The path is too long: at most 1024 bytes.' },
    { test: /(\S+) is \d+ bytes; a memory document holds at most (\d+)/i, sentence: (m) => `${m[1]} is too large: a memory document holds at most ${kb(m[2])}.` },
    { test: /invalid memory search: it needs a query/i, sentence: 'Type what to search for first.' },
    { test: /invalid memory search: (.+)/i, sentence: (m) => `That search cannot run: ${m[1].replace(/\.$/, '')}.` },
  ];
}

/** The KB a byte count is, for "the limit is 64 KB". */
const kb = (bytes: string) => `${Math.round(Number(bytes) / 1024)} KB`;

/** What an MCP server's state means for its tools, as a clause. */
function mcpState(state: string): string {
  switch (state.toLowerCase()) {
    case 'stopped':
    case 'disabled':
      return `is ${state.toLowerCase()}`;
    case 'failed':
      return 'has failed';
    case 'not running':
      return 'is not running';
    default:
      return 'is still connecting';
  }
}

/**
 * Errors the Go side (app/, backend/, sandbox/) returns often enough for the
 * UI to show: things not found, names taken or malformed, validation the
 * forms cannot do themselves, Podman and MCP failures, files too large.
 */
function backendRules(): Rule[] {
  const openSandbox = { target: 'sandbox', label: 'Open the Sandbox check' } as const;
  const openMcp = { target: 'mcp', label: 'Open MCP servers' } as const;
  return [
    ...skillAndGraphRules(),
    // Things that are not (or no longer) there.
    { test: /unknown agent: (?:name|choose) the agent/i, sentence: 'Choose an agent first.' },
    {
      test: /custom tool "([^"]+)": unknown agent "([^"]*)"/i,
      sentence: (m) => `The tool "${m[1]}" is bound to the agent "${m[2]}", which does not exist. Choose an existing agent, or none for every agent.`,
    },
    { test: /unknown agent "([^"]+)"|\bagent "([^"]+)": not found/i, sentence: (m) => `There is no agent "${m[1] ?? m[2]}": it may have been deleted.`, fix: setupAgents },
    { test: /\bno provider "([^"]+)"/i, sentence: (m) => `The model provider "${m[1]}" does not exist. Choose another in Agents.`, fix: setupAgents },
    { test: /mcp server "([^"]+)": not found/i, sentence: (m) => `There is no MCP server "${m[1]}": it may have been removed.`, fix: openMcp },
    { test: /session not found/i, sentence: 'That chat no longer exists: it may have been deleted.' },
    { test: /cron job not found/i, sentence: 'That schedule no longer exists: it may have been deleted.' },
    { test: /custom tool not found/i, sentence: 'That custom tool no longer exists: it may have been deleted.' },
    { test: /unknown tool "([^"]+)"/i, sentence: (m) => `There is no tool "${m[1]}". The Tools tab lists every tool.`, fix: { target: 'tools', label: 'Open Tools' } },
    { test: /unknown profile "([^"]+)"/i, sentence: (m) => `There is no tool profile "${m[1]}".` },
    { test: /(?:approval|access) request \S+: not found/i, sentence: 'That request is gone: it was answered or it expired.' },
    { test: /access request \d+ was already (\w+)/i, sentence: (m) => `That request was already ${m[1]}.` },
    // Names taken or malformed.
    { test: /MCP server already exists: "([^"]+)"/i, sentence: (m) => `An MCP server named "${m[1]}" already exists. Edit it, or pick another name.` },
    { test: /already exists|UNIQUE constraint failed/i, sentence: 'That name is already taken. Pick another name.' },
    {
      test: /"([^"]*)": use 1-64 lower-case letters, digits, _ or -/i,
      sentence: (m) => `"${m[1]}" cannot be used as a name: use 1 to 64 lower-case letters, digits, _ or -.`,
    },
    // Validation the forms leave to the backend.
    { test: /the default agent cannot be removed/i, sentence: 'The default agent cannot be deleted: Warren uses it whenever no agent is named.' },
    { test: /choose a model for the default agent/i, sentence: 'Choose a model for the default agent first.', fix: setupAgents },
    { test: /base URL "[^"]*" must be an http\(s\) URL/i, sentence: 'The base URL must start with http:// or https://, for example http://127.0.0.1:11434/v1.' },
    { test: /url "[^"]*" must be an http:\/\/ or https:\/\/ address/i, sentence: 'The server’s address must start with http:// or https://.' },
    { test: /kind "[^"]*" must be openai or anthropic/i, sentence: 'The provider’s kind must be OpenAI-compatible or Anthropic.' },
    { test: /a stdio server needs a command/i, sentence: 'A server Warren starts as a program needs a command.' },
    { test: /"([^"]*)" is not an existing directory/i, sentence: (m) => `The folder ${m[1]} does not exist. Choose an existing folder.` },
    { test: /"([^"]*)" is not an absolute path/i, sentence: (m) => `${m[1]} is not a full path: start it with / (or ~ for your home folder).` },
    { test: /invalid agent "[^"]*": (allow|deny)\b/i, sentence: (m) => `An entry in the agent’s ${m[1].toLowerCase()} list is not valid.`, fix: setupAgents },
    { test: /invalid context file: (\S+) is \d+ bytes, over the (\d+)-byte limit/i, sentence: (m) => `${m[1]} is too large to save: the limit is ${kb(m[2])}.` },
    { test: /invalid context file: "([^"]+)" is not one of/i, sentence: (m) => `"${m[1]}" is not a context file Warren knows.` },
    { test: /cron job is already running/i, sentence: 'That schedule is running now. Wait for it to finish, then try again.' },
    { test: /cron job is disabled/i, sentence: 'That schedule is paused. Resume it to run it now.' },
    { test: /never runs after now|has already passed/i, sentence: 'That schedule never runs again: pick a time in the future.' },
    { test: /^empty message$/i, sentence: 'Type a message first.' },
    { test: /only http, https and mailto links open/i, sentence: 'Only web (http, https) and mailto links can be opened.' },
    { test: /opening links is not available here/i, sentence: 'Links cannot be opened from here. Copy the address instead.' },
    { test: /no save dialog here/i, sentence: 'There is no save dialog here. Copy the exported JSON instead.' },
    { test: /is not a Claude Desktop, Cursor or VS Code MCP config/i, sentence: 'That file is not an MCP config of Claude Desktop, Cursor or VS Code.' },
    { test: /import from pasted text or from a file, not both/i, sentence: 'Import from pasted text or from a file, not both.' },
    // Runs that end badly.
    { test: /reached its iteration limit/i, sentence: 'The agent stopped after too many steps without a final answer. Ask again, or split the task.' },
    { test: /malformed tool call arguments/i, sentence: 'The model sent a tool call Warren could not read. Retry, or pick another model.' },
    { test: /warren closed while waiting/i, sentence: 'Warren closed before the reply was finished.' },
    // API keys kept in the OS keychain.
    { test: /keychain is not available|no secret service/i, sentence: 'The system keychain is locked or not available. Unlock it and retry.' },
    { test: /secrets: (?:cannot decrypt|sealed value is corrupt|not a sealed value)/i, sentence: 'A stored API key could not be read. Enter the key again in Agents.', fix: setupAgents },
    // Podman and the sandbox.
    { test: /podman is not installed/i, sentence: 'Podman is not installed, so commands cannot run in the sandbox.', fix: openSandbox },
    { test: /no running podman machine/i, sentence: 'Podman is installed but its machine is not running. Start it, then retry.', fix: openSandbox },
    { test: /image \S+ not found|image not known/i, sentence: 'The sandbox image is missing. Build it on the Sandbox page.', fix: openSandbox },
    { test: /runs in the sandbox, but Podman is unavailable/i, sentence: 'This server runs in the sandbox, but the sandbox (Podman) is not available.', fix: openSandbox },
    { test: /sandbox unavailable|Podman is unavailable|sandbox is not available/i, sentence: 'The sandbox (Podman) is not available right now.', fix: openSandbox },
    {
      test: /working directory .*(?:leaves the workspace|outside the sandbox workspace|is not in the sandbox)/i,
      sentence: 'That folder is outside the agent’s workspace, and the sandbox sees only the workspace.',
    },
    // MCP servers.
    { test: /MCP server (\S+) did not answer \S+ within ([^\s:]+)/i, sentence: (m) => `The MCP server ${m[1]} did not answer within ${m[2]}.`, fix: openMcp },
    {
      test: /MCP server (\S+) is (stopped|disabled|failed|connecting|reconnecting|not running)\b/i,
      sentence: (m) => `The MCP server ${m[1]} ${mcpState(m[2])}, so its tools cannot be used now.`,
      fix: openMcp,
    },
    { test: /no answer to initialize within|health check: no answer within/i, sentence: 'The MCP server started but did not answer in time.', fix: openMcp },
    { test: /exec: "([^"]+)": executable file not found/i, sentence: (m) => `The program "${m[1]}" is not installed, or not on the PATH.` },
    { test: /command not found: (\S+)/i, sentence: (m) => `The program "${m[1]}" is not installed, or not on the PATH.` },
    { test: /^process (?:exited|was killed)|server process (?:exited|was killed)/i, sentence: 'The MCP server’s program stopped unexpectedly.', fix: openMcp },
  ];
}

/** The Skills tab's and the knowledge graph's errors (backend/skills, backend/memory/kg.go). */
function skillAndGraphRules(): Rule[] {
  return [
    { test: /import skill (.+): file does not exist/i, sentence: (m) => `The folder ${m[1]} does not exist. Choose a skill folder (one holding SKILL.md).` },
    {
      test: /skill \S+: its name "([^"]+)" must equal its folder's name "([^"]+)"/i,
      sentence: (m) => `The skill’s SKILL.md names it “${m[1]}”, but its folder is “${m[2]}”: a skill’s name must equal its folder’s name.`,
    },
    { test: /skill (\S+): no SKILL\.md in the folder/i, sentence: (m) => `The folder ${m[1]} has no SKILL.md, so it is not a skill.` },
    { test: /SKILL\.md: name "([^"]*)" must be lowercase/i, sentence: (m) => `“${m[1]}” cannot be a skill’s name: use lowercase letters, digits and single hyphens (like pdf-forms).` },
    { test: /SKILL\.md: the frontmatter needs a (name|description)/i, sentence: (m) => `The skill’s SKILL.md has no ${m[1]} in its frontmatter.` },
    { test: /SKILL\.md must start with a --- frontmatter block/i, sentence: 'The skill’s SKILL.md must start with a --- block holding its name and description.' },
    { test: /no published skill "([^"]+)"/i, sentence: (m) => `There is no published skill “${m[1]}”: it may have been removed.` },
    { test: /^skill not found$/i, sentence: 'That skill is gone: it may have been removed or renamed.' },
    { test: /entity[_ ]type "([^"]*)": use one of (.+)$/i, sentence: (m) => `“${m[1]}” is not an entity type: use one of ${m[2]}.` },
    { test: /relation type "([^"]*)": use one of (.+)$/i, sentence: (m) => `“${m[1]}” is not a relation type: use one of ${m[2]}.` },
    { test: /no entity (\d+)/i, sentence: (m) => `Entity ${m[1]} no longer exists: it may have been deleted or merged.` },
    { test: /no relation (\d+)/i, sentence: 'That link no longer exists: it may have been removed.' },
    { test: /an entity cannot be related to itself/i, sentence: 'An entity cannot be linked to itself: pick two different entities.' },
    { test: /"([^"]*)" is not a date: use/i, sentence: (m) => `“${m[1]}” is not a date: use one like 2026-11-01.` },
    { test: /valid_from \S+ is after valid_to \S+/i, sentence: 'The start date is after the end date.' },
    { test: /an entity needs a name of 1 to 200 characters/i, sentence: 'Give the entity a name of up to 200 characters.' },
    { test: /the query has no searchable words|give a query or an entity_id/i, sentence: 'Type a word to search for, or pick an entity to start from.' },
    { test: /max_depth must be between 1 and 5/i, sentence: 'The depth must be between 1 and 5 hops.' },
  ];
}

/**
 * The text without the call names added for debugging at the front
 * ("Sessions(\"x\"): ", "StopRun: "): they say which call failed, which
 * helps a bug report, not a person. They stay in the detail.
 */
function withoutCallPrefix(text: string): string {
  const call = /^(?:[A-Z][A-Za-z]*\((?:[^()]|\([^()]*\))*\)|[A-Z][a-z]+(?:[A-Z][A-Za-z]*)+):\s+/;
  let t = text;
  for (let m = call.exec(t); m; m = call.exec(t)) t = t.slice(m[0].length);
  return t;
}

/** A Go/JS error, a string or anything thrown, as text. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (typeof err === 'string') return err;
  if (err && typeof err === 'object' && 'message' in err) return String((err as { message: unknown }).message);
  return String(err ?? '');
}

/** True when text already reads as a sentence for a person (short, no Go call syntax). */
function readsAsSentence(text: string): boolean {
  return (
    text.length > 0 &&
    text.length <= 160 &&
    !/[{}()]|\w+\.\w+\(|: \w+: |\bnil\b|\berr(or)?=|^\w+:\s/.test(text) &&
    /^[A-Z]/.test(text)
  );
}

function sentenceCase(text: string): string {
  const t = text.trim();
  if (!t) return t;
  const s = t[0].toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/**
 * Turns anything thrown into a HumanError. `doing` names what failed, as a
 * verb phrase ("save the agent"), for errors no rule knows.
 */
export function humanError(err: unknown, doing = ''): HumanError {
  const raw = errorText(err).trim();
  const text = withoutCallPrefix(raw);
  // Folding text that only repeats the sentence would hide nothing.
  const detailFor = (sentence: string) => (sentence.replace(/\.$/, '') === raw.replace(/\.$/, '') ? '' : raw);
  for (const r of rules) {
    const m = text.match(r.test) ?? raw.match(r.test);
    if (m) {
      const sentence = typeof r.sentence === 'function' ? r.sentence(m) : r.sentence;
      return { sentence, detail: detailFor(sentence), fix: r.fix };
    }
  }
  if (readsAsSentence(text)) {
    const sentence = sentenceCase(text);
    return { sentence, detail: detailFor(sentence) };
  }
  const sentence = doing ? `Warren could not ${doing}.` : 'Something went wrong.';
  return { sentence, detail: raw };
}
