//go:build !race

package ann

const testN = 8000
