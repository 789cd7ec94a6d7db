// The real WarrenApi's MCP manager calls (servers, their tools and logs,
// grants, access requests, import and export), spread into wailsApi by
// api.ts.
import * as App from '../../wailsjs/go/app/App';
import type { WarrenApi } from './api';
import type {
  ClaudeDesktopOffer,
  McpAccessRequest,
  McpAgentAccess,
  McpGrant,
  McpImportPreview,
  McpImportReport,
  McpServerView,
  McpTestResult,
  McpTool,
} from './types';

/** The MCP tab's calls. */
export function mcpServerCalls() {
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
  } satisfies Partial<WarrenApi>;
}
