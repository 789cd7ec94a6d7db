//go:build race

package ann

// The race detector slows graph building about twentyfold: smaller sets.
const testN = 2500
