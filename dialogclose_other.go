//go:build !linux || !cgo || !(dev || production) || bindings

package main

// closeNativeDialog cannot close a native dialog on this platform: one
// already open stays until clicked, and its answer then changes nothing.
func closeNativeDialog(string) {}
