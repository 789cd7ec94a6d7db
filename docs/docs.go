// Package docs ships Warren's documentation inside the binary, so agents
// can answer questions about Warren itself (search_system_knowledge)
// offline.
package docs

import "embed"

// Files holds every Markdown document of this folder.
//
//go:embed *.md
var Files embed.FS
