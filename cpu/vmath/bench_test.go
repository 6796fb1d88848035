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
// loop that calls the float64 math function per element.

const benchLen = 64 << 10

type benchCase struct {
	name   string
	lo, hi float32 // input range, uniform
	vmath  func(dst, x []float32)
	naive  func(dst, x []float32)
}

// The naive loops are written out, each calling its math function
// directly (so math.Sqrt, say, still compiles to one instruction).
var benchCases = []benchCase{
	{"Exp", -80, 80, Exp, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Exp(float64(v)))
		}
	}},
	{"Exp2", -120, 120, Exp2, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Exp2(float64(v)))
		}
	}},
	{"Expm1", -5, 5, Expm1, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Expm1(float64(v)))
		}
	}},
	{"Log", 1e-3, 1e3, Log, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Log(float64(v)))
		}
	}},
	{"Log2", 1e-3, 1e3, Log2, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Log2(float64(v)))
		}
	}},
	{"Log10", 1e-3, 1e3, Log10, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Log10(float64(v)))
		}
	}},
	{"Log1p", -0.9, 10, Log1p, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Log1p(float64(v)))
		}
	}},
	{"Sin", -100, 100, Sin, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Sin(float64(v)))
		}
	}},
	{"Cos", -100, 100, Cos, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Cos(float64(v)))
		}
	}},
	{"Tan", -100, 100, Tan, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Tan(float64(v)))
		}
	}},
	{"Tanh", -5, 5, Tanh, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Tanh(float64(v)))
		}
	}},
	{"Sinh", -5, 5, Sinh, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Sinh(float64(v)))
		}
	}},
	{"Cosh", -5, 5, Cosh, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Cosh(float64(v)))
		}
	}},
	{"Asin", -1, 1, Asin, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Asin(float64(v)))
		}
	}},
	{"Acos", -1, 1, Acos, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Acos(float64(v)))
		}
	}},
	{"Atan", -10, 10, Atan, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Atan(float64(v)))
		}
	}},
	{"Asinh", -100, 100, Asinh, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Asinh(float64(v)))
		}
	}},
	{"Acosh", 1, 100, Acosh, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Acosh(float64(v)))
		}
	}},
	{"Atanh", -0.99, 0.99, Atanh, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Atanh(float64(v)))
		}
	}},
	{"Erf", -4, 4, Erf, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Erf(float64(v)))
		}
	}},
	{"Sqrt", 0, 100, Sqrt, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Sqrt(float64(v)))
		}
	}},
	{"Cbrt", -100, 100, Cbrt, func(dst, x []float32) {
		for i, v := range x {
			dst[i] = float32(math.Cbrt(float64(v)))
		}
	}},
	// Binary functions take y derived from x (benchY), counted in both.
	{"Atan2", -10, 10, func(dst, x []float32) { Atan2(dst, fillBenchY(x), x) }, func(dst, x []float32) {
		ys := fillBenchY(x)
		for i, v := range x {
			dst[i] = float32(math.Atan2(float64(ys[i]), float64(v)))
		}
	}},
	{"Pow", 0.01, 10, func(dst, x []float32) { Pow(dst, x, fillBenchY(x)) }, func(dst, x []float32) {
		ys := fillBenchY(x)
		for i, v := range x {
			dst[i] = float32(math.Pow(float64(v), float64(ys[i])))
		}
	}},
}

// benchY derives the second operand of binary functions from the first,
// so every element sees a different pair.
func benchY(x float64) float64 { return float64(float32(x*1.7 - 3)) }

var benchYs = make([]float32, benchLen)

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
		b.Run(c.name+"/naive", func(b *testing.B) { n = runBench(b, c.naive, x) })
		if v > 0 && n > 0 {
			fmt.Fprintf(&sb, "| %s | %.0f | %.0f | %.1f× |\n", c.name, v, n, v/n)
		}
	}
	// Printed rather than logged: b.Log output of a benchmark that only
	// runs sub-benchmarks is shown only with -v.
	fmt.Print(sb.String())
}
