// The MCP client-feature part of the fake WarrenApi (fakeApi.ts spreads
// it in): server-everything's resources and prompts, and servers' questions
// the test publishes with emitElicitation, behaving like app/mcpclient.go.
import { vi } from 'vitest';
import type { ElicitationAnswer, ElicitationEvent, ElicitationRequest, McpChatPrompt, McpChatResource } from '../src/lib/mcpClient';
import type { Attachment } from '../src/lib/types';

export function mcpClientFake() {
  const prompts: McpChatPrompt[] = [
    { server: 'ev', prompt: { name: 'simple-prompt', description: 'A prompt without arguments' } },
    {
      server: 'ev',
      prompt: {
        name: 'args-prompt',
        title: 'Arguments Prompt',
        arguments: [
          { name: 'city', description: 'Name of the city', required: true },
          { name: 'state', description: 'Name of the state' },
        ],
      },
    },
  ];
  const resources: McpChatResource[] = [
    { server: 'ev', resource: { uri: 'demo://resource/static/document/features.md', name: 'features.md', mimeType: 'text/markdown' } },
  ];
  const pending: ElicitationRequest[] = [];
  const answers: ElicitationAnswer[] = [];
  const listeners = new Set<(ev: ElicitationEvent) => void>();
  const emit = (ev: ElicitationEvent) => listeners.forEach((fn) => fn(ev));

  const methods = {
    mcpResources: vi.fn(async () => ({ resources: resources.map((r) => r.resource), templates: [{ uriTemplate: 'demo://resource/dynamic/text/{index}', name: 'Dynamic Text Resource' }] })),
    readMcpResource: vi.fn(async (_server: string, _agent: string, uri: string) => [{ uri, mime_type: 'text/markdown', text: '# Everything Server - Features' }]),
    attachMcpResource: vi.fn(async (_server: string, _agent: string, uri: string): Promise<Attachment> => ({ path: `attachments/${uri.split('/').pop()}`, size: 31 })),
    mcpChatPrompts: vi.fn(async () => structuredClone(prompts)),
    mcpChatResources: vi.fn(async () => structuredClone(resources)),
    renderMcpPrompt: vi.fn(async (_server: string, _agent: string, name: string, args: Record<string, string>) => {
      if (name === 'args-prompt') {
        if (!args.city) throw 'MCP server ev: prompts/get args-prompt: city is required';
        return `What's weather in ${args.city}${args.state ? `, ${args.state}` : ''}?`;
      }
      return 'This is a simple prompt without arguments.';
    }),
    pendingElicitations: vi.fn(async () => structuredClone(pending)),
    answerElicitation: vi.fn(async (ans: ElicitationAnswer) => {
      const i = pending.findIndex((p) => p.id === ans.id);
      if (i < 0) return false;
      pending.splice(i, 1);
      answers.push(structuredClone(ans));
      emit({ topic: 'mcp.elicitation.resolved', payload: ans });
      return true;
    }),
    onElicitationEvent: vi.fn((fn: (ev: ElicitationEvent) => void) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    }),
  };
  return {
    methods,
    answers,
    /** Publishes a server's question as the backend does. */
    emitElicitation(req: ElicitationRequest) {
      pending.push(structuredClone(req));
      emit({ topic: 'mcp.elicitation', payload: req });
    },
    /** Withdraws a question (the call ended) as the backend does. */
    cancelElicitation(id: string) {
      const i = pending.findIndex((p) => p.id === id);
      if (i >= 0) pending.splice(i, 1);
      emit({ topic: 'mcp.elicitation.resolved', payload: { id, action: 'cancel' } });
    },
  };
}
