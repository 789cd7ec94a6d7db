//go:build !unix && !windows

package fs

import (
	iofs "io/fs"
	"os"
)

// nonBlock: these platforms (js, wasip1, plan9) have no FIFOs Warren meets.
const nonBlock = 0

// linkCount reports one link: Warren does not ship on these platforms, and
// they give no portable link count.
func linkCount(*os.File, iofs.FileInfo) (uint64, error) { return 1, nil }

// entryLinkCount is linkCount for a name in a root.
func entryLinkCount(*os.Root, string, iofs.FileInfo) (uint64, error) { return 1, nil }
