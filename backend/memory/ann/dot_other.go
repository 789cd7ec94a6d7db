//go:build !amd64 || purego

package ann

const haveDotAsm = false

func dotAsm(a, b []float32) float32 { return dotGo(a, b) }

func prefetch([]float32) {}

func dotCodeAsm(q []float32, c []int8) float32 { return dotCodeGo(q, c) }

func prefetchCode([]int8) {}

func prefetchLinks([]uint32) {}
