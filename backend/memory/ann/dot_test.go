package ann

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestDotMatchesGo: the assembly dot (where the processor has it) agrees
// with the Go loop on every length up to 400, the remainders of 32 and 8
// included, and on a b longer than a.
func TestDotMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for n := range 401 {
		a, b := make([]float32, n), make([]float32, n+3)
		var abs float64
		for i := range a {
			a[i], b[i] = float32(r.NormFloat64()), float32(r.NormFloat64())
			abs += math.Abs(float64(a[i] * b[i]))
		}
		got, want := dot(a, b), dotGo(a, b)
		if math.Abs(float64(got-want)) > 1e-5*(abs+1) {
			t.Fatalf("n=%d: dot %v, dotGo %v", n, got, want)
		}
	}
}

func BenchmarkDot(b *testing.B) {
	for _, n := range []int{100, 384} {
		x, y := make([]float32, n), make([]float32, n)
		for i := range x {
			x[i], y[i] = float32(i), float32(n-i)
		}
		b.Run(fmt.Sprintf("asm-%dd", n), func(b *testing.B) {
			for range b.N {
				_ = dot(x, y)
			}
		})
		b.Run(fmt.Sprintf("go-%dd", n), func(b *testing.B) {
			for range b.N {
				_ = dotGo(x, y)
			}
		})
	}
}
