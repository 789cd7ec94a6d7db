package app

import (
	"context"
	"errors"

	"github.com/warren-dev/warren/backend/memory"
)

// ChooseFolderDialog asks for a folder with the native dialog and returns
// its path, or "" when the user cancelled. Swappable like SaveFileDialog
// (wruntime.OpenDirectoryDialog in the window, a stand-in in tests).
type ChooseFolderDialog func(ctx context.Context, title string) (string, error)

// CanChooseFolders reports whether ChooseFolder has a native dialog; the
// UI hides its "Choose…" buttons otherwise (the text fields stay).
func (a *App) CanChooseFolders() bool { return a.chooseFolder != nil }

// ChooseFolder opens the native folder dialog titled title; "" means the
// user cancelled.
func (a *App) ChooseFolder(title string) (string, error) {
	if a.chooseFolder == nil {
		return "", errors.New("no folder dialog here: type the folder's path")
	}
	if title == "" {
		title = "Choose a folder"
	}
	return a.chooseFolder(a.context(), title)
}

// The Memory tab's imported folders (search_documents, issue 13 §1):
// thin wrappers over the memory store, as warren memory import/folders/
// unimport do.

// MemoryFolders lists the imported folders.
func (a *App) MemoryFolders() ([]memory.Folder, error) {
	return a.core.Memory().Folders(a.context())
}

// ImportMemoryFolder imports dir for one agent ("" every agent), scans it
// once, and makes its vectors in the background ("memory:index" events).
func (a *App) ImportMemoryFolder(dir, agent string) (memory.Folder, error) {
	ctx := a.context()
	f, err := a.core.Memory().AddFolder(ctx, agent, dir)
	if err != nil {
		return memory.Folder{}, err
	}
	a.indexInBackground(ctx)
	return f, nil
}

// ForgetMemoryFolder forgets an imported folder and its documents (the
// files stay where they are).
func (a *App) ForgetMemoryFolder(id int64) error {
	return a.core.Memory().RemoveFolder(a.context(), id)
}
