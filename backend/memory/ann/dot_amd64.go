//go:build amd64 && !purego

package ann

import "golang.org/x/sys/cpu"

// haveDotAsm: the processor has the instructions dotAsm uses.
var haveDotAsm = cpu.X86.HasAVX2 && cpu.X86.HasFMA

// dotAsm is dot with AVX2 and FMA: 32 floats per step in four independent
// sums, then 8, then one at a time. len(b) must be at least len(a).
//
//go:noescape
func dotAsm(a, b []float32) float32
