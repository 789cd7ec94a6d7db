// The real WarrenApi's native folder dialog and the Memory tab's imported
// folders, spread into wailsApi by api.ts.
import * as App from '../../wailsjs/go/app/App';
import type { MemoryFolder } from './memoryTypes';

/** The folder dialog's and the imported folders' calls. */
export interface MemoryFoldersApi {
  // ---- Native folder dialog (imports); the text fields stay for keyboards ----
  canChooseFolders(): Promise<boolean>;
  /** The chosen folder's path, or "" when cancelled. */
  chooseFolder(title: string): Promise<string>;
  // ---- Memory's imported folders (search_documents) ----
  memoryFolders(): Promise<MemoryFolder[]>;
  /** Imports a folder for one agent ("" every agent); its vectors fill in the background. */
  importMemoryFolder(dir: string, agent: string): Promise<MemoryFolder>;
  /** Forgets an imported folder and its documents (the files stay). */
  forgetMemoryFolder(id: number): Promise<void>;
}

export function memoryFolderCalls(): MemoryFoldersApi {
  return {
    canChooseFolders: () => App.CanChooseFolders(),
    chooseFolder: (title) => App.ChooseFolder(title),
    memoryFolders: async () => ((await App.MemoryFolders()) ?? []) as unknown as MemoryFolder[],
    importMemoryFolder: async (dir, agent) => (await App.ImportMemoryFolder(dir, agent)) as unknown as MemoryFolder,
    forgetMemoryFolder: (id) => App.ForgetMemoryFolder(id),
  };
}
