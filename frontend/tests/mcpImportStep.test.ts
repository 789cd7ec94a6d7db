import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import McpImportStep from '../src/components/mcp/import/McpImportStep.svelte';
import type { McpImportPreview, McpPreviewServer } from '../src/lib/types';
import { fakeApi } from './fakeApi';

// The first-run setup's MCP step (FirstRun renders it with {api, ondone}).

const server = (over: Partial<McpPreviewServer>): McpPreviewServer => ({
  name: 's',
  transport: 'stdio',
  command: '/usr/bin/s',
  args: [],
  env_keys: [],
  header_keys: [],
  exists: false,
  enable: true,
  notes: [],
  ...over,
});

const CLAUDE: McpImportPreview = {
  client: 'Claude Desktop',
  path: '/home/me/.config/Claude/claude_desktop_config.json',
  servers: [
    server({ name: 'filesystem', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me'], downloads: 'npx downloads the package @modelcontextprotocol/server-filesystem when it starts', enable: false }),
    server({ name: 'notes', command: '/home/me/bin/notes-mcp', env_keys: ['NOTES_TOKEN'], notes: ['args[0] has ${workspaceFolder}, which Warren keeps as written (it does not fill in placeholders): replace it with the real value after import'] }),
  ],
  warnings: [],
};
const CURSOR: McpImportPreview = {
  client: 'Cursor',
  path: '/home/me/.cursor/mcp.json',
  servers: [server({ name: 'notes', command: '/opt/notes' }), server({ name: 'web', transport: 'streamable-http', command: undefined, url: 'https://h/mcp' })],
  warnings: [],
};

function renderStep(configs: McpImportPreview[]) {
  const api = fakeApi();
  api.mcp.configs = structuredClone(configs);
  const ondone = vi.fn();
  render(McpImportStep, { api, ondone });
  return { api, ondone, user: userEvent.setup() };
}

const row = (name: string, within_: HTMLElement) =>
  [...within_.querySelectorAll<HTMLElement>('[data-import-server]')].find((el) => el.dataset.importServer === name)!;

describe('first-run MCP step', () => {
  it('says when no config is found, and Continue moves on', async () => {
    const { api, ondone, user } = renderStep([]);
    expect((await screen.findByTestId('mcp-step-none')).textContent).toContain('No MCP server configurations found on this machine');
    expect(screen.getByTestId('mcp-step-none').textContent).toContain('Claude Desktop, Cursor and VS Code');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(ondone).toHaveBeenCalledTimes(1);
    expect(api.importMcpSelection).not.toHaveBeenCalled();
  });

  it('previews each config with switches and imports only the chosen servers', async () => {
    const { api, ondone, user } = renderStep([CLAUDE, CURSOR]);
    const claude = await screen.findByRole('region', { name: /Claude Desktop/ });
    const cursor = screen.getByRole('region', { name: /Cursor/ });
    // Nothing imported or started yet; the npx server is marked and off.
    expect(api.importMcpSelection).not.toHaveBeenCalled();
    const fs = row('filesystem', claude);
    expect(within(fs).getByTestId('downloads-mark')).toBeTruthy();
    expect((within(fs).getByRole('switch', { name: 'Start filesystem' }) as HTMLInputElement).checked).toBe(false);
    expect(row('notes', claude).textContent).toContain('${workspaceFolder}');
    expect(row('notes', claude).textContent).toContain('env NOTES_TOKEN');
    // "notes" is in both: ticked in the first config only.
    expect((within(row('notes', cursor)).getByRole('checkbox', { name: 'Import notes' }) as HTMLInputElement).checked).toBe(false);

    // Switch the npx server on after reading its mark; leave "web" out.
    await user.click(within(fs).getByRole('switch', { name: 'Start filesystem' }));
    await user.click(within(row('web', cursor)).getByRole('checkbox', { name: 'Import web' }));
    await user.click(screen.getByRole('button', { name: 'Import 2 servers' }));
    await waitFor(() => expect(ondone).toHaveBeenCalledTimes(1));
    expect(api.importMcpSelection).toHaveBeenCalledTimes(1); // Cursor had nothing left to import
    expect(api.importMcpSelection).toHaveBeenCalledWith({
      path: CLAUDE.path,
      servers: [
        { name: 'filesystem', enabled: true },
        { name: 'notes', enabled: true },
      ],
      offer: true,
    });
  });

  it('shows a failed import and stays', async () => {
    const { api, ondone, user } = renderStep([CURSOR]);
    await screen.findByRole('region', { name: /Cursor/ });
    api.importMcpSelection.mockRejectedValueOnce('database is locked');
    await user.click(screen.getByRole('button', { name: 'Import 2 servers' }));
    expect((await screen.findByTestId('error-banner')).textContent).toContain('Warren’s database was busy');
    expect(ondone).not.toHaveBeenCalled();
    // Skip still moves on.
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    expect(ondone).toHaveBeenCalledTimes(1);
  });

  it('says which configs could not be read', async () => {
    renderStep([{ client: 'VS Code', path: '/home/me/.config/Code/User/mcp.json', servers: [], warnings: [], error: 'invalid JSON at line 2, column 5' }]);
    await screen.findByTestId('mcp-step-none');
    const line = screen.getByText('Warren could not read VS Code’s config at /home/me/.config/Code/User/mcp.json.');
    expect(line.parentElement?.querySelector('details')?.textContent).toContain('invalid JSON at line 2, column 5');
  });
});
