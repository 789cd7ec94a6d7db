//go:build bindings

package main

// generatingBindings is true in the build `wails generate module` runs, which
// must not stop at the display check.
const generatingBindings = true
