import { describe, expect, it } from 'vitest';
import { errorText, humanError } from '../src/lib/errors';

describe('humanError', () => {
  it('turns known Go/CLI errors into a sentence, keeps the raw text as detail and names the fix', () => {
    const e = humanError(new Error('agent default has no model provider: add one (warren providers add …) or pass --base-url and --model'));
    expect(e.sentence).toBe('This agent has no model provider yet. Choose one in Agents.');
    expect(e.detail).toContain('warren providers add');
    expect(e.fix?.target).toBe('agents');
    expect(humanError('stream dropped before completion: unexpected EOF').sentence).toMatch(/broke off/);
    expect(humanError('SetActiveProfile("minimal"): no such profile').sentence).toBe('The tool profile could not be changed.');
    expect(humanError('dial tcp 127.0.0.1:11434: connect: connection refused').sentence).toMatch(/could not reach/);
  });

  it('keeps a message that already reads as a sentence and folds nothing', () => {
    expect(humanError('Name is required')).toEqual({ sentence: 'Name is required.', detail: '' });
  });

  it('says what failed for an unknown technical error', () => {
    const e = humanError('store: scan row 3: sql: converting NULL', 'load the tools');
    expect(e.sentence).toBe('Warren could not load the tools.');
    expect(e.detail).toBe('store: scan row 3: sql: converting NULL');
    expect(humanError(undefined).sentence).toBe('Something went wrong.');
  });

  it('reads anything thrown', () => {
    expect(errorText(new Error('x'))).toBe('x');
    expect(errorText({ message: 'y' })).toBe('y');
    expect(errorText('z')).toBe('z');
  });
});

describe('humanError: call prefixes added for debugging', () => {
  it('never shows them as the sentence, and keeps them in the detail', () => {
    const e = humanError('Sessions("default"): store: scan: sql: no rows', 'list the chats');
    expect(e.sentence).toBe('Warren could not list the chats.');
    expect(e.detail).toBe('Sessions("default"): store: scan: sql: no rows');
    expect(humanError('StopRun: run r-1 is not running', 'stop the reply').sentence).toBe('Warren could not stop the reply.');
    expect(humanError('SetMCPToolEnabled("a", "b"): Tool b is not listed', 'switch b').sentence).toBe('Tool b is not listed.');
    expect(humanError('SetMCPToolEnabled("a", "b"): Tool b is not listed').detail).toBe('SetMCPToolEnabled("a", "b"): Tool b is not listed');
  });

  it('matches rules on the text behind the prefix', () => {
    expect(humanError('MCPGrants("x"): mcp server "x": not found').sentence).toBe('There is no MCP server "x": it may have been removed.');
    expect(humanError('CronJobs(): database is locked').sentence).toBe('Warren’s database was busy. Retry in a moment.');
  });

  it('folds nothing when the detail only repeats the sentence', () => {
    const refusal = 'exec cannot be allowed here: the profile denies it.';
    expect(humanError(refusal)).toEqual({ sentence: refusal, detail: '', fix: undefined });
  });
});

describe('humanError: Warren’s own errors', () => {
  // [raw Go error text, the sentence, the section that fixes it]
  const cases: [string, string, string?][] = [
    // Not found.
    ['unknown agent: name the agent', 'Choose an agent first.'],
    ['unknown agent "ghost" (known: default, coder)', 'There is no agent "ghost": it may have been deleted.', 'agents'],
    ['agent "ghost": not found', 'There is no agent "ghost": it may have been deleted.', 'agents'],
    [
      'custom tool "lint": unknown agent "ghost": choose an existing agent, or none for every agent',
      'The tool "lint" is bound to the agent "ghost", which does not exist. Choose an existing agent, or none for every agent.',
    ],
    ['invalid agent "coder": provider: no provider "gone"', 'The model provider "gone" does not exist. Choose another in Agents.', 'agents'],
    ['mcp server "files": not found', 'There is no MCP server "files": it may have been removed.', 'mcp'],
    ['session not found: s-123', 'That chat no longer exists: it may have been deleted.'],
    ['cron job not found: cron-1', 'That schedule no longer exists: it may have been deleted.'],
    ['custom tool not found: "lint"', 'That custom tool no longer exists: it may have been deleted.'],
    ['unknown tool "nonexistent_tool" (see `warren tools`)', 'There is no tool "nonexistent_tool". The Tools tab lists every tool.', 'tools'],
    ['invalid agent "a": profile: unknown profile "nope" (want one of minimal, coding, full)', 'There is no tool profile "nope".'],
    ['approval request r-9: not found', 'That request is gone: it was answered or it expired.'],
    ['access request 4 was already approved', 'That request was already approved.'],
    // Names taken or malformed.
    ['MCP server already exists: "files" (edit it, or pick another name)', 'An MCP server named "files" already exists. Edit it, or pick another name.'],
    ["team 'ops' already exists", 'That name is already taken. Pick another name.'],
    ['UNIQUE constraint failed: providers.name', 'That name is already taken. Pick another name.'],
    ['invalid agent: key "Research Bot": use 1-64 lower-case letters, digits, _ or -', '"Research Bot" cannot be used as a name: use 1 to 64 lower-case letters, digits, _ or -.'],
    ['provider name "My LLM": use 1-64 lower-case letters, digits, _ or -', '"My LLM" cannot be used as a name: use 1 to 64 lower-case letters, digits, _ or -.'],
    // Validation.
    ['the default agent cannot be removed', 'The default agent cannot be deleted: Warren uses it whenever no agent is named.'],
    ['choose a model for the default agent', 'Choose a model for the default agent first.', 'agents'],
    ['provider local: base URL "localhost:11434" must be an http(s) URL such as http://127.0.0.1:11434/v1', 'The base URL must start with http:// or https://, for example http://127.0.0.1:11434/v1.'],
    ['server "web": url "ftp://x" must be an http:// or https:// address', 'The server’s address must start with http:// or https://.'],
    ['provider p: kind "gemini" must be openai or anthropic', 'The provider’s kind must be OpenAI-compatible or Anthropic.'],
    ['server "x": a stdio server needs a command', 'A server Warren starts as a program needs a command.'],
    ['invalid agent "a": workspace: "/no/such" is not an existing directory', 'The folder /no/such does not exist. Choose an existing folder.'],
    ['invalid agent "a": workspace: "docs" is not an absolute path', 'docs is not a full path: start it with / (or ~ for your home folder).'],
    ['invalid agent "a": deny[0]: invalid policy entry "grp:x"', 'An entry in the agent’s deny list is not valid.', 'agents'],
    ['invalid context file: SOUL.md is 70000 bytes, over the 65536-byte limit', 'SOUL.md is too large to save: the limit is 64 KB.'],
    ['invalid context file: "NOTES.md" is not one of AGENTS.md, SOUL.md', '"NOTES.md" is not a context file Warren knows.'],
    ['cron job is already running: Digest started at 09:00:00', 'That schedule is running now. Wait for it to finish, then try again.'],
    ['cron job is disabled: enable Digest to run it', 'That schedule is paused. Resume it to run it now.'],
    ['invalid cron job: schedule "at 2020-01-01T00:00:00Z" never runs after now', 'That schedule never runs again: pick a time in the future.'],
    ['empty message', 'Type a message first.'],
    ['only http, https and mailto links open in the browser, not "file:///etc/passwd"', 'Only web (http, https) and mailto links can be opened.'],
    ['opening links is not available here', 'Links cannot be opened from here. Copy the address instead.'],
    ['no save dialog here: copy the exported JSON instead', 'There is no save dialog here. Copy the exported JSON instead.'],
    ['/tmp/x.json is not a Claude Desktop, Cursor or VS Code MCP config', 'That file is not an MCP config of Claude Desktop, Cursor or VS Code.'],
    ['import from pasted text or from a file, not both', 'Import from pasted text or from a file, not both.'],
    // Runs.
    ['the agent reached its iteration limit without a final answer', 'The agent stopped after too many steps without a final answer. Ask again, or split the task.'],
    ['malformed tool call arguments: unexpected end of JSON input', 'The model sent a tool call Warren could not read. Retry, or pick another model.'],
    ['warren closed while waiting for session s-1', 'Warren closed before the reply was finished.'],
    // Keychain.
    ['secrets: the master key is in the OS keychain (marker k) but the keychain is not available; unlock it and retry', 'The system keychain is locked or not available. Unlock it and retry.'],
    ['provider p API key: secrets: cannot decrypt (wrong key or tampered value)', 'A stored API key could not be read. Enter the key again in Agents.', 'agents'],
    // Podman and the sandbox.
    ['podman is not installed (Debian/Ubuntu: apt-get install podman runc uidmap catatonit)', 'Podman is not installed, so commands cannot run in the sandbox.', 'sandbox'],
    ['no running podman machine: start it with `podman machine start`', 'Podman is installed but its machine is not running. Start it, then retry.', 'sandbox'],
    ['image localhost/warren-sandbox:1 not found: pull it (`warren sandbox image build --from x`) or use the default image', 'The sandbox image is missing. Build it on the Sandbox page.', 'sandbox'],
    ['server files runs in the sandbox, but Podman is unavailable: sandbox unavailable: podman: no socket', 'This server runs in the sandbox, but the sandbox (Podman) is not available.', 'sandbox'],
    ['sandbox unavailable: podman: no socket', 'The sandbox (Podman) is not available right now.', 'sandbox'],
    ['working directory /etc is outside the sandbox workspace /home/me/ws', 'That folder is outside the agent’s workspace, and the sandbox sees only the workspace.'],
    // MCP servers.
    ['MCP server files did not answer read_file within 30s: call timed out', 'The MCP server files did not answer within 30s.', 'mcp'],
    ['MCP server files is stopped: not connected', 'The MCP server files is stopped, so its tools cannot be used now.', 'mcp'],
    ['MCP server files is reconnecting (last error: connection lost); next attempt 2/10 in 4s: not connected', 'The MCP server files is still connecting, so its tools cannot be used now.', 'mcp'],
    ['MCP server files is failed: not connected', 'The MCP server files has failed, so its tools cannot be used now.', 'mcp'],
    ['no answer to initialize within 30s', 'The MCP server started but did not answer in time.', 'mcp'],
    ['start npx: exec: "npx": executable file not found in $PATH', 'The program "npx" is not installed, or not on the PATH.'],
    ['command not found: uvx (searched PATH /usr/bin)', 'The program "uvx" is not installed, or not on the PATH.'],
    ['server process exited with code 1: Error: Cannot find module', 'The MCP server’s program stopped unexpectedly.', 'mcp'],
    ['process exited: signal: killed', 'The MCP server’s program stopped unexpectedly.', 'mcp'],
  ];

  it.each(cases)('%s', (raw, sentence, fix) => {
    const e = humanError(raw, 'do it');
    expect(e.sentence).toBe(sentence);
    expect(e.detail).toBe(raw);
    expect(e.fix?.target).toBe(fix);
  });

  it('leaves the rules that were there first as they were', () => {
    expect(humanError('dial tcp 127.0.0.1:11434: connect: connection refused').sentence).toMatch(/could not reach/);
    expect(humanError('MCP server files: initialize: EOF').sentence).toBe('An MCP server call failed.');
    expect(humanError('statfs /ws: permission denied').sentence).toBe('The operating system refused access to a file or folder.');
    expect(humanError('the file is too large to attach: a.iso is 12.0 MB, the limit is 10 MB').sentence).toBe(
      'The file is too large to attach: files up to 10 MB can be attached.',
    );
    expect(humanError('provider "gone": not found').sentence).toBe('The model provider "gone" no longer exists. Choose another in Agents.');
  });
});
