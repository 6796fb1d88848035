package vmath

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// Benchmarks run each function over a 64K-element slice (256 KiB in and
// out: cache resident) and report elements per second, next to a naive
// loop that calls the float64 math function per element. BenchmarkSummary
// prints both as a table with their ratio.

const benchLen = 64 << 10

type benchCase struct {
	name   string
	lo, hi float32 // input range, uniform
	vmath  func(dst, x []float32)
	naive  func(float64) float64
}

// Binary functions are benchmarked with y fixed by a closure.
var benchCases = []benchCase{
	{"Exp", -80, 80, Exp, math.Exp},
	{"Exp2", -120, 120, Exp2, math.Exp2},
	{"Expm1", -5, 5, Expm1, math.Expm1},
	{"Log", 1e-3, 1e3, Log, math.Log},
	{"Log2", 1e-3, 1e3, Log2, math.Log2},
	{"Log10", 1e-3, 1e3, Log10, math.Log10},
	{"Log1p", -0.9, 10, Log1p, math.Log1p},
	{"Sin", -100, 100, Sin, math.Sin},
	{"Cos", -100, 100, Cos, math.Cos},
	{"Tan", -100, 100, Tan, math.Tan},
	{"Tanh", -5, 5, Tanh, math.Tanh},
	{"Sinh", -5, 5, Sinh, math.Sinh},
	{"Cosh", -5, 5, Cosh, math.Cosh},
	{"Asin", -1, 1, Asin, math.Asin},
	{"Acos", -1, 1, Acos, math.Acos},
	{"Atan", -10, 10, Atan, math.Atan},
	{"Asinh", -100, 100, Asinh, math.Asinh},
	{"Acosh", 1, 100, Acosh, math.Acosh},
	{"Atanh", -0.99, 0.99, Atanh, math.Atanh},
	{"Erf", -4, 4, Erf, math.Erf},
	{"Sqrt", 0, 100, Sqrt, math.Sqrt},
	{"Cbrt", -100, 100, Cbrt, math.Cbrt},
	{"Atan2", -10, 10, atan2ByBenchY, func(x float64) float64 { return math.Atan2(benchY(x), x) }},
	{"Pow", 0.01, 10, powByBenchY, func(x float64) float64 { return math.Pow(x, benchY(x)) }},
}

// benchY derives the second operand of binary functions from the first,
// so every element sees a different pair.
func benchY(x float64) float64 { return float64(float32(x*1.7 - 3)) }

var benchYs = func() []float32 {
	ys := make([]float32, benchLen)
	return ys
}()

func atan2ByBenchY(dst, x []float32) { Atan2(dst, fillBenchY(x), x) }
func powByBenchY(dst, x []float32)   { Pow(dst, x, fillBenchY(x)) }

// fillBenchY's cost (one multiply-add per element) is counted against
// vmath only, which understates its lead slightly.
func fillBenchY(x []float32) []float32 {
	ys := benchYs[:len(x)]
	for i, v := range x {
		ys[i] = float32(benchY(float64(v)))
	}
	return ys
}

func benchInput(lo, hi float32) []float32 {
	rng := rand.New(rand.NewSource(1))
	x := make([]float32, benchLen)
	for i := range x {
		x[i] = lo + (hi-lo)*rng.Float32()
	}
	return x
}

func naiveLoop(f func(float64) float64) func(dst, x []float32) {
	return func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(f(float64(v)))
		}
	}
}

// runBench times f over x and returns its rate in Melem/s (of the last,
// longest run, when the framework calls it repeatedly).
func runBench(b *testing.B, f func(dst, x []float32), x []float32) float64 {
	dst := make([]float32, len(x))
	b.SetBytes(int64(4 * len(x)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f(dst, x)
	}
	rate := float64(b.N) * float64(len(x)) / b.Elapsed().Seconds() / 1e6
	b.ReportMetric(rate, "Melem/s")
	return rate
}

// BenchmarkFunctions has a vmath and a naive sub-benchmark per function
// (select one with e.g. -bench 'Functions/Exp/') and, at the end, prints a
// table of both rates and their ratio for the functions that ran. With
// -count > 1 the table shows the last run of each.
func BenchmarkFunctions(b *testing.B) {
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n| function | vmath Melem/s | naive Melem/s | ratio |\n|---|---:|---:|---:|\n")
	for _, c := range benchCases {
		x := benchInput(c.lo, c.hi)
		var v, n float64
		b.Run(c.name+"/vmath", func(b *testing.B) { v = runBench(b, c.vmath, x) })
		b.Run(c.name+"/naive", func(b *testing.B) { n = runBench(b, naiveLoop(c.naive), x) })
		if v > 0 && n > 0 {
			fmt.Fprintf(&sb, "| %s | %.0f | %.0f | %.1f× |\n", c.name, v, n, v/n)
		}
	}
	// Printed rather than logged: b.Log output of a benchmark that only
	// runs sub-benchmarks is shown only with -v.
	fmt.Print(sb.String())
}
