package vmath

import (
	"math"
	"math/rand"
	"testing"
)

const benchLen = 64 << 10

func benchInput(lo, hi float32) []float32 {
	rng := rand.New(rand.NewSource(1))
	x := make([]float32, benchLen)
	for i := range x {
		x[i] = lo + (hi-lo)*rng.Float32()
	}
	return x
}

func runBench(b *testing.B, f func(dst, x []float32), x []float32) {
	dst := make([]float32, len(x))
	b.SetBytes(int64(4 * len(x)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f(dst, x)
	}
	b.ReportMetric(float64(b.N)*float64(len(x))/b.Elapsed().Seconds()/1e6, "Melem/s")
}

func naive(f func(float64) float64) func(dst, x []float32) {
	return func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(f(float64(v)))
		}
	}
}

func BenchmarkExp(b *testing.B) {
	x := benchInput(-80, 80)
	b.Run("vmath", func(b *testing.B) { runBench(b, Exp, x) })
	b.Run("naive", func(b *testing.B) { runBench(b, naive(math.Exp), x) })
}

func BenchmarkLog(b *testing.B) {
	x := benchInput(1e-3, 1e3)
	b.Run("vmath", func(b *testing.B) { runBench(b, Log, x) })
	b.Run("naive", func(b *testing.B) { runBench(b, naive(math.Log), x) })
}

func BenchmarkSin(b *testing.B) {
	x := benchInput(-100, 100)
	b.Run("vmath", func(b *testing.B) { runBench(b, Sin, x) })
	b.Run("naive", func(b *testing.B) { runBench(b, naive(math.Sin), x) })
}
