// The real WarrenApi's MCP client-feature calls (resources, prompts,
// elicitation), spread into wailsApi by api.ts.
import * as App from '../../wailsjs/go/app/App';
import { EventsOn } from '../../wailsjs/runtime/runtime';
import {
  elicitationEventName,
  type ElicitationAnswer,
  type ElicitationEvent,
  type ElicitationRequest,
  type McpChatPrompt,
  type McpChatResource,
  type McpResourceContent,
  type McpResourceList,
} from './mcpClient';
import type { Attachment } from './types';

/** MCP in use (issue 12 §7): the chat's resources and prompts, a server's questions. */
export interface McpClientApi {
  /** A server's resources and templates as agent may use them. */
  mcpResources(server: string, agent: string): Promise<McpResourceList>;
  readMcpResource(server: string, agent: string, uri: string): Promise<McpResourceContent[]>;
  /** Copies a resource into agent's workspace as a chat attachment. */
  attachMcpResource(server: string, agent: string, uri: string): Promise<Attachment>;
  /** The prompts of the servers agent may use, for the composer's "/" menu. */
  mcpChatPrompts(agent: string): Promise<McpChatPrompt[]>;
  /** The resources of the servers agent may use, for attaching. */
  mcpChatResources(agent: string): Promise<McpChatResource[]>;
  /** A prompt rendered as the composer's text. */
  renderMcpPrompt(server: string, agent: string, name: string, args: Record<string, string>): Promise<string>;
  pendingElicitations(): Promise<ElicitationRequest[]>;
  /** Answers a server's question; false when it is gone (answered, cancelled). */
  answerElicitation(ans: ElicitationAnswer): Promise<boolean>;
  onElicitationEvent(handler: (ev: ElicitationEvent) => void): () => void;
}

export function mcpClientCalls(): McpClientApi {
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
