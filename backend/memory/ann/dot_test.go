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

// TestDotCodeMatchesGo: the assembly dot product of a scaled query and a
// code agrees with the Go loop on every multiple of 8 up to 400.
func TestDotCodeMatchesGo(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := 0; n <= 400; n += 8 {
		q, c := make([]float32, n), make([]int8, n+5)
		var abs float64
		for i := range q {
			q[i], c[i] = float32(r.NormFloat64()), int8(r.IntN(255)-127) //nolint:gosec // in int8 range
			abs += math.Abs(float64(q[i]) * float64(c[i]))
		}
		got, want := dotCode(q, c), dotCodeGo(q, c[:n])
		if math.Abs(float64(got-want)) > 1e-5*(abs+1) {
			t.Fatalf("n=%d: dotCode %v, dotCodeGo %v", n, got, want)
		}
	}
}
