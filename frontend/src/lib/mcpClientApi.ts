// The real WarrenApi's MCP client-feature calls (resources, prompts,
// elicitation), spread into wailsApi by api.ts.
import * as App from '../../wailsjs/go/app/App';
import { EventsOn } from '../../wailsjs/runtime/runtime';
import type { WarrenApi } from './api';
import {
  elicitationEventName,
  type ElicitationEvent,
  type ElicitationRequest,
  type McpChatPrompt,
  type McpChatResource,
  type McpResourceContent,
  type McpResourceList,
} from './mcpClient';
import type { Attachment } from './types';

export function mcpClientCalls(): Pick<
  WarrenApi,
  | 'mcpResources'
  | 'readMcpResource'
  | 'attachMcpResource'
  | 'mcpChatPrompts'
  | 'mcpChatResources'
  | 'renderMcpPrompt'
  | 'pendingElicitations'
  | 'answerElicitation'
  | 'onElicitationEvent'
> {
  return {
    mcpResources: async (server, agent) => {
      const l = (await App.MCPResources(server, agent)) as unknown as McpResourceList;
      return { resources: l?.resources ?? [], templates: l?.templates ?? [] };
    },
    readMcpResource: async (server, agent, uri) => ((await App.ReadMCPResource(server, agent, uri)) ?? []) as unknown as McpResourceContent[],
    attachMcpResource: async (server, agent, uri) => (await App.AttachMCPResource(server, agent, uri)) as unknown as Attachment,
    mcpChatPrompts: async (agent) => ((await App.MCPChatPrompts(agent)) ?? []) as unknown as McpChatPrompt[],
    mcpChatResources: async (agent) => ((await App.MCPChatResources(agent)) ?? []) as unknown as McpChatResource[],
    renderMcpPrompt: (server, agent, name, args) => App.RenderMCPPrompt(server, agent, name, args),
    pendingElicitations: async () => ((await App.PendingElicitations()) ?? []) as unknown as ElicitationRequest[],
    answerElicitation: (ans) => App.AnswerElicitation(ans as never),
    onElicitationEvent: (handler) => {
      const off = EventsOn(elicitationEventName, (ev: ElicitationEvent) => handler(ev));
      return typeof off === 'function' ? off : () => {};
    },
  };
}
