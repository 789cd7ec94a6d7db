//go:build !amd64 || purego

package ann

const haveDotAsm = false

func dotAsm(a, b []float32) float32 { return dotGo(a, b) }
