//go:build linux && cgo && (dev || production) && !bindings

package main

/*
#cgo pkg-config: gtk+-3.0
#include <gtk/gtk.h>
#include <stdlib.h>
#include <string.h>

// warren_close_dialog runs on GTK's thread: it answers every open dialog
// titled data as if closed by hand, which ends Wails' gtk_dialog_run.
static gboolean warren_close_dialog(gpointer data) {
	char *title = data;
	GList *wins = gtk_window_list_toplevels();
	for (GList *l = wins; l != NULL; l = l->next) {
		if (!GTK_IS_DIALOG(l->data)) continue;
		const char *t = gtk_window_get_title(GTK_WINDOW(l->data));
		if (t != NULL && strcmp(t, title) == 0) gtk_dialog_response(GTK_DIALOG(l->data), GTK_RESPONSE_DELETE_EVENT);
	}
	g_list_free(wins);
	free(title);
	return G_SOURCE_REMOVE;
}

static void warren_close_dialog_later(char *title) { g_idle_add(warren_close_dialog, title); }
*/
import "C"

// closeNativeDialog closes the open native dialog titled title, as if the
// user closed it (Wails then returns ""). GTK may only be touched on its
// own thread, so the work is queued there.
func closeNativeDialog(title string) {
	C.warren_close_dialog_later(C.CString(title)) // freed by warren_close_dialog
}
