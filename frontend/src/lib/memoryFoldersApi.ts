// The real WarrenApi's native folder dialog and the Memory tab's imported
// folders, spread into wailsApi by api.ts.
import * as App from '../../wailsjs/go/app/App';
import type { WarrenApi } from './api';
import type { MemoryFolder } from './memoryTypes';

/** The folder dialog's and the imported folders' calls. */
export function memoryFolderCalls(): Pick<WarrenApi, 'canChooseFolders' | 'chooseFolder' | 'memoryFolders' | 'importMemoryFolder' | 'forgetMemoryFolder'> {
  return {
    canChooseFolders: () => App.CanChooseFolders(),
    chooseFolder: (title) => App.ChooseFolder(title),
    memoryFolders: async () => ((await App.MemoryFolders()) ?? []) as unknown as MemoryFolder[],
    importMemoryFolder: async (dir, agent) => (await App.ImportMemoryFolder(dir, agent)) as unknown as MemoryFolder,
    forgetMemoryFolder: (id) => App.ForgetMemoryFolder(id),
  };
}
