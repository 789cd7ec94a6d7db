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

// prefetch asks the processor to load v into its caches (every 64-byte
// line), so the distances a search computes next wait for memory together,
// not one after the other. v must not be empty.
//
//go:noescape
func prefetch(v []float32)

// dotCodeAsm is dotCode with AVX2 and FMA, 32 dimensions per step in four
// sums, then 8. len(q) is a multiple of 8, len(c) at least len(q).
//
//go:noescape
func dotCodeAsm(q []float32, c []int8) float32

// prefetchCode is prefetch for a code. c must not be empty.
//
//go:noescape
func prefetchCode(c []int8)

// prefetchLinks is prefetch for a neighbour list. ls must not be empty.
//
//go:noescape
func prefetchLinks(ls []uint32)
