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
  { test: /has no model provider|no model provider|providers add/i, sentence: 'This agent has no model provider yet. Choose one in Agents.', fix: setupAgents },
  { test: /no model set|model is empty|no model configured/i, sentence: 'This agent has no model chosen. Pick one in Agents.', fix: setupAgents },
  { test: /unknown (model )?provider "?([^"\s]+)"?/i, sentence: (m) => `The model provider "${m[2]}" no longer exists. Choose another in Agents.`, fix: setupAgents },
  { test: /\b(401|unauthori[sz]ed|invalid api key|incorrect api key)\b/i, sentence: 'The model provider refused the API key. Check the key in Agents.', fix: setupAgents },
  { test: /\b429\b|rate limit/i, sentence: 'The model provider is rate-limiting requests. Wait a moment and retry.' },
  { test: /model .*not found|no such model|model_not_found/i, sentence: 'The model provider does not know this model. Pick one from its list in Agents.', fix: setupAgents },
  { test: /stream dropped|unexpected EOF|connection reset/i, sentence: 'The connection to the model broke off before the reply was complete.' },
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
  for (const r of rules) {
    const m = raw.match(r.test);
    if (m) {
      const sentence = typeof r.sentence === 'function' ? r.sentence(m) : r.sentence;
      return { sentence, detail: raw, fix: r.fix };
    }
  }
  if (readsAsSentence(raw)) return { sentence: sentenceCase(raw), detail: '' };
  const sentence = doing ? `Warren could not ${doing}.` : 'Something went wrong.';
  return { sentence, detail: raw };
}
