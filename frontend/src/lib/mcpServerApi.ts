// The real WarrenApi's MCP manager calls (servers, their tools and logs,
// grants, access requests, import and export), spread into wailsApi by
// api.ts.
import * as App from '../../wailsjs/go/app/App';
import { subscribe } from './subscribe';
import type {
  ClaudeDesktopOffer,
  McpAccessRequest,
  McpAgentAccess,
  McpEvent,
  McpGrant,
  McpImportPreview,
  McpImportReport,
  McpImportRequest,
  McpServer,
  McpServerView,
  McpTestResult,
  McpTool,
} from './types';

/** The MCP tab's calls. */
export interface McpServerApi {
  /** Every MCP server with its live status, by name. */
  mcpServers(): Promise<McpServerView[]>;
  /** Stores a new server (fails when the name is taken); an enabled one starts. */
  /** offer: also offer its tools to agents (the also-allow entry group:mcp:NAME). */
  addMcpServer(srv: McpServer, offer: boolean): Promise<void>;
  /** Saves an edited server: env/header values given replace, "" deletes, absent keys stay. */
  updateMcpServer(srv: McpServer): Promise<void>;
  deleteMcpServer(name: string): Promise<void>;
  setMcpServerEnabled(name: string, on: boolean): Promise<void>;
  startMcpServer(name: string): Promise<void>;
  stopMcpServer(name: string): Promise<void>;
  restartMcpServer(name: string): Promise<void>;
  /** Connects once to a configuration (saved or not) and lists its tools; never rejects for a failed connection. */
  testMcpServer(srv: McpServer): Promise<McpTestResult>;
  /** A running server's tools with their on/off switch; rejects when it is not running. */
  mcpServerTools(name: string): Promise<McpTool[]>;
  setMcpToolEnabled(server: string, tool: string, on: boolean): Promise<void>;
  /** The last lines of a server's stderr log. */
  mcpServerLogs(name: string, lines: number): Promise<string[]>;
  /** Grants ("" = every server's). */
  mcpGrants(server: string): Promise<McpGrant[]>;
  saveMcpGrant(g: McpGrant): Promise<void>;
  deleteMcpGrant(server: string, scope: string, subject: string): Promise<void>;
  /** Access requests with status ("" = all), newest first. */
  mcpAccessRequests(status: string): Promise<McpAccessRequest[]>;
  requestMcpAccess(r: Omit<McpAccessRequest, 'id' | 'status' | 'created_at'>): Promise<number>;
  /** Approving creates the grant. */
  reviewMcpRequest(id: number, approve: boolean, note: string): Promise<void>;
  /** Imports an mcpServers JSON (Claude Desktop, Cursor, VS Code). */
  importMcpServers(text: string, replace: boolean): Promise<McpImportReport>;
  /** The servers as a Claude Desktop mcpServers JSON, secrets included. */
  exportMcpServers(): Promise<string>;
  /** Whether saveMcpExport has a native save dialog. */
  canSaveFiles(): Promise<boolean>;
  /** Asks where to save the export and writes it; "" when cancelled. */
  saveMcpExport(): Promise<string>;
  /** The first-run offer to import Claude Desktop's servers; null when none. */
  claudeDesktopOffer(): Promise<ClaudeDesktopOffer | null>;
  /** Imports (accept) or dismisses the offer; it is not shown again. */
  answerClaudeDesktopOffer(accept: boolean): Promise<McpImportReport>;
  mcpAgentAccess(server: string): Promise<McpAgentAccess>;
  /** Adds or removes the also-allow entry group:mcp:NAME. */
  setMcpOffered(server: string, on: boolean): Promise<void>;
  /** Subscribes to MCP server status changes; returns the unsubscribe function. */
  onMcpEvent(handler: (ev: McpEvent) => void): () => void;
  /** Parses a pasted mcpServers JSON; stores and starts nothing. */
  previewMcpImport(text: string): Promise<McpImportPreview>;
  /** Previews the Claude Desktop, Cursor and VS Code configs found on this machine. */
  findMcpConfigs(): Promise<McpImportPreview[]>;
  /** Imports the chosen servers of pasted text or a found config, each on or off as chosen. */
  importMcpSelection(req: McpImportRequest): Promise<McpImportReport>;
}

/** The event name app/ emits "mcp.status" bus events under. */
export const mcpEventName = 'mcp:event';

export function mcpServerCalls(): McpServerApi {
  return {
    mcpServers: async () => ((await App.MCPServers()) ?? []) as unknown as McpServerView[],
    addMcpServer: (srv, offer) => App.AddMCPServer(srv as never, offer),
    updateMcpServer: (srv) => App.UpdateMCPServer(srv as never),
    deleteMcpServer: (name) => App.DeleteMCPServer(name),
    setMcpServerEnabled: (name, on) => App.SetMCPServerEnabled(name, on),
    startMcpServer: (name) => App.StartMCPServer(name),
    stopMcpServer: (name) => App.StopMCPServer(name),
    restartMcpServer: (name) => App.RestartMCPServer(name),
    testMcpServer: async (srv) => (await App.TestMCPServer(srv as never)) as unknown as McpTestResult,
    mcpServerTools: async (name) => ((await App.MCPServerTools(name)) ?? []) as unknown as McpTool[],
    setMcpToolEnabled: (server, tool, on) => App.SetMCPToolEnabled(server, tool, on),
    mcpServerLogs: async (name, lines) => (await App.MCPServerLogs(name, lines)) ?? [],
    mcpGrants: async (server) => ((await App.MCPGrants(server)) ?? []) as unknown as McpGrant[],
    saveMcpGrant: (g) => App.SaveMCPGrant(g as never),
    deleteMcpGrant: (server, scope, subject) => App.DeleteMCPGrant(server, scope, subject),
    mcpAccessRequests: async (status) => ((await App.MCPAccessRequests(status)) ?? []) as unknown as McpAccessRequest[],
    requestMcpAccess: (r) => App.RequestMCPAccess(r as never),
    reviewMcpRequest: (id, approve, note) => App.ReviewMCPRequest(id, approve, note),
    importMcpServers: async (text, replace) => (await App.ImportMCPServers(text, replace)) as unknown as McpImportReport,
    exportMcpServers: () => App.ExportMCPServers(),
    canSaveFiles: () => App.CanSaveFiles(),
    saveMcpExport: () => App.SaveMCPExport(),
    claudeDesktopOffer: async () => ((await App.ClaudeDesktopOffer()) ?? null) as unknown as ClaudeDesktopOffer | null,
    answerClaudeDesktopOffer: async (accept) => (await App.AnswerClaudeDesktopOffer(accept)) as unknown as McpImportReport,
    mcpAgentAccess: async (server) => (await App.MCPAgentAccess(server)) as unknown as McpAgentAccess,
    setMcpOffered: (server, on) => App.SetMCPOffered(server, on),
    previewMcpImport: async (text) => (await App.PreviewMCPImport(text)) as unknown as McpImportPreview,
    findMcpConfigs: async () => ((await App.FindMCPConfigs()) ?? []) as unknown as McpImportPreview[],
    importMcpSelection: async (req) => (await App.ImportMCPSelection(req as never)) as unknown as McpImportReport,
    onMcpEvent: (handler) => subscribe(mcpEventName, handler),
  };
}
