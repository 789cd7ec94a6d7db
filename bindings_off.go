//go:build !bindings

package main

// generatingBindings is true in the build `wails generate module` runs.
const generatingBindings = false
