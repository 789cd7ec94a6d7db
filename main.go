// Command warren is Warren's desktop app and CLI in one binary: with no
// command it opens the window, otherwise it runs the CLI.
package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/warren-dev/warren/app"
	"github.com/warren-dev/warren/app/cli"
	"github.com/warren-dev/warren/backend/warren"
	"github.com/warren-dev/warren/tools/messaging"
)

//go:embed all:frontend/dist
var assets embed.FS

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	// Wails dev builds take their own flags (-devserver, -assetdir…), so only
	// leading --data-dir flags are Warren's global flags.
	dataDirFlag, rest, err := takeDataDir(args)
	if err != nil {
		fmt.Fprintf(os.Stderr, "warren: %v\n", err)
		return cli.ExitUsage
	}
	dataDir, err := warren.DataDir(dataDirFlag)
	if err != nil {
		fmt.Fprintf(os.Stderr, "warren: %v\n", err)
		return cli.ExitError
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Anything that is not a flag (or is --help) is a CLI command; unknown
	// words get the CLI's usage error rather than a window.
	if len(rest) > 0 && (cli.IsCommand(rest[0]) || !strings.HasPrefix(rest[0], "-")) {
		return cli.Run(ctx, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, DataDir: dataDir}, rest)
	}
	return runWindow(ctx, dataDir)
}

func runWindow(ctx context.Context, dataDir string) int {
	if !generatingBindings && os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" && isLinux() {
		fmt.Fprintln(os.Stderr, "warren: no display found ($DISPLAY and $WAYLAND_DISPLAY are empty).")
		fmt.Fprintln(os.Stderr, "  Run the window under a virtual display:  xvfb-run -a warren")
		fmt.Fprintln(os.Stderr, "  The CLI works without a display:         warren tools, warren tool call …, warren --help")
		return cli.ExitError
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	core, err := warren.Open(ctx, warren.Options{DataDir: dataDir, Logger: logger, Process: "Warren window"})
	if err != nil {
		fmt.Fprintf(os.Stderr, "warren: %v\n", err)
		return cli.ExitError
	}
	defer func() { _ = core.Close() }()
	bound := app.New(core, app.Options{Emit: wruntime.EventsEmit, Dialog: questionDialog, SaveFile: saveFileDialog, ChooseFolder: chooseFolderDialog,
		Notify: messaging.NewDesktopNotifier(messaging.DesktopOptions{}).Notify, OpenURL: wruntime.BrowserOpenURL})
	err = wails.Run(&options.App{
		Title:            "Warren",
		Width:            1180,
		Height:           800,
		MinWidth:         720,
		MinHeight:        480,
		AssetServer:      &assetserver.Options{Assets: assets},
		BackgroundColour: &options.RGBA{R: 24, G: 24, B: 27, A: 1},
		OnStartup:        bound.Startup,
		OnShutdown:       bound.Shutdown,
		Bind:             []any{bound},
	})
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(os.Stderr, "warren: window: %v\n", err)
		return cli.ExitError
	}
	return cli.ExitOK
}

// takeDataDir consumes leading "--data-dir DIR" / "--data-dir=DIR" flags.
func takeDataDir(args []string) (string, []string, error) {
	dir := ""
	for len(args) > 0 {
		a := args[0]
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "data-dir" {
			break
		}
		if !hasVal {
			if len(args) < 2 || args[1] == "" {
				return "", nil, fmt.Errorf("--data-dir needs a directory")
			}
			val, args = args[1], args[1:]
		}
		dir, args = val, args[1:]
	}
	return dir, args, nil
}

// questionDialog is the native Yes/No dialog used for approvals. When ctx
// ends first (the request was answered in the window) it closes the dialog.
func questionDialog(ctx context.Context, title, message string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	done := make(chan struct{})
	defer close(done)
	go closeDialogOnCancel(ctx, done, title)
	if isLinux() {
		// Wails hands the message to gtk_message_dialog_new as a printf
		// format: a '%' from a file name an agent chose would crash Warren.
		message = strings.ReplaceAll(message, "%", "%%")
	}
	return wruntime.MessageDialog(ctx, wruntime.MessageDialogOptions{
		Type: wruntime.QuestionDialog, Title: title, Message: message,
		Buttons: []string{"Yes", "No"}, DefaultButton: "No", CancelButton: "No",
	})
}

// closeDialogOnCancel closes the dialog titled title once ctx ends, until
// the dialog returns (done): it may not be on screen yet when ctx ends.
// Dialogs are shown one at a time, so the title names this one. It gives up
// after a while: at shutdown GTK may be gone and the dialog never returns.
func closeDialogOnCancel(ctx context.Context, done <-chan struct{}, title string) {
	select {
	case <-done:
		return
	case <-ctx.Done():
	}
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for range 100 {
		closeNativeDialog(title)
		select {
		case <-done:
			return
		case <-tick.C:
		}
	}
}

// chooseFolderDialog asks for a folder with the native dialog.
func chooseFolderDialog(ctx context.Context, title string) (string, error) {
	return wruntime.OpenDirectoryDialog(ctx, wruntime.OpenDialogOptions{Title: title})
}

// saveFileDialog asks where to save a file with the native dialog.
func saveFileDialog(ctx context.Context, title, name string) (string, error) {
	return wruntime.SaveFileDialog(ctx, wruntime.SaveDialogOptions{Title: title, DefaultFilename: name})
}
