package vmath

import (
	"math"
	"math/rand"
	"strings"
	"testing"
)

// unaryFuncs lists every one-input slice function with its scalar form.
var unaryFuncs = []struct {
	name   string
	slice  func(dst, x []float32)
	scalar func(float32) float32
}{
	{"Exp", Exp, Exp32}, {"Exp2", Exp2, Exp2_32}, {"Expm1", Expm1, Expm1_32},
	{"Log", Log, Log32}, {"Log2", Log2, Log2_32}, {"Log10", Log10, Log10_32}, {"Log1p", Log1p, Log1p32},
	{"Sin", Sin, Sin32}, {"Cos", Cos, Cos32}, {"Tan", Tan, Tan32},
	{"Asin", Asin, Asin32}, {"Acos", Acos, Acos32}, {"Atan", Atan, Atan32},
	{"Sinh", Sinh, Sinh32}, {"Cosh", Cosh, Cosh32}, {"Tanh", Tanh, Tanh32},
	{"Asinh", Asinh, Asinh32}, {"Acosh", Acosh, Acosh32}, {"Atanh", Atanh, Atanh32},
	{"Erf", Erf, Erf32}, {"Sqrt", Sqrt, Sqrt32}, {"Cbrt", Cbrt, Cbrt32},
}

// mixedInput is ordinary values with special ones scattered among them,
// so that runs, bad chunks and the tail all occur.
func mixedInput(n int) []float32 {
	x := benchInput(-3, 3)[:n]
	specials := []float32{nan, inf, -inf, 0, negZ, 1e30, -1e30, tiny, maxF, 1, -1}
	for i, s := range specials {
		x[(i*397+11)%n] = s
	}
	return x
}

// TestInPlaceAndLengths checks that each slice function gives the scalar
// form's results out of place and in place (dst == x), for lengths that
// exercise the tail loop, one chunk, and runs longer than maxRun.
func TestInPlaceAndLengths(t *testing.T) {
	for _, f := range unaryFuncs {
		for _, n := range []int{0, 1, 15, 16, 17, 100, maxRun + 3*chunk + 5} {
			x := mixedInput(max(n, 1))[:n]
			out := make([]float32, n)
			f.slice(out, x)
			inPlace := append([]float32(nil), x...)
			f.slice(inPlace, inPlace)
			for i, v := range x {
				want := f.scalar(v)
				if !sameFloat(out[i], want) || !sameFloat(inPlace[i], want) {
					t.Fatalf("%s n=%d x[%d]=%g: out of place %g, in place %g, scalar %g", f.name, n, i, v, out[i], inPlace[i], want)
				}
			}
		}
	}
	x := mixedInput(300)
	y := append([]float32(nil), x...)
	for i := range y {
		y[i] = y[i]*0.7 + 0.3
	}
	for _, f := range []struct {
		name   string
		slice  func(dst, a, b []float32)
		scalar func(a, b float32) float32
	}{{"Atan2", Atan2, Atan2_32}, {"Pow", Pow, Pow32}} {
		out := make([]float32, len(x))
		f.slice(out, x, y)
		inPlace := append([]float32(nil), x...)
		f.slice(inPlace, inPlace, y)
		for i := range x {
			want := f.scalar(x[i], y[i])
			if !sameFloat(out[i], want) || !sameFloat(inPlace[i], want) {
				t.Fatalf("%s(%g, %g): out of place %g, in place %g, scalar %g", f.name, x[i], y[i], out[i], inPlace[i], want)
			}
		}
	}
}

func TestLengthMismatchPanics(t *testing.T) {
	for _, call := range []func(){
		func() { Exp(make([]float32, 3), make([]float32, 4)) },
		func() { Sin(make([]float32, 4), make([]float32, 3)) },
		func() { Sqrt(make([]float32, 4), make([]float32, 3)) },
		func() { Pow(make([]float32, 4), make([]float32, 4), make([]float32, 3)) },
		func() { Atan2(make([]float32, 4), make([]float32, 3), make([]float32, 4)) },
	} {
		func() {
			defer func() {
				msg, _ := recover().(string)
				if !strings.Contains(msg, "vmath: len(dst)") {
					t.Errorf("panic %q, want a length mismatch message", msg)
				}
			}()
			call()
		}()
	}
}

// TestRangeChecks compares the SWAR chunk checks with plain per-element
// predicates on chunks mixing random bit patterns with values at and
// around each limit.
func TestRangeChecks(t *testing.T) {
	edges := []float32{0, negZ, tiny, -tiny, minNrm, -minNrm, 1, -1, math.Nextafter32(1, 0), -math.Nextafter32(1, 0),
		0x1p52, math.Nextafter32(0x1p52, inf), maxF, -maxF, inf, -inf, nan, -nan, 150, -150, 0.5, -0.5}
	rng := rand.New(rand.NewSource(2))
	for trial := 0; trial < 20000; trial++ {
		var xs [chunk]float32
		for j := range xs {
			if rng.Intn(3) == 0 {
				xs[j] = edges[rng.Intn(len(edges))]
			} else {
				xs[j] = math.Float32frombits(rng.Uint32())
			}
		}
		if trial%2 == 0 { // mostly ordinary chunks with one odd value
			for j := range xs {
				xs[j] = 1 + float32(j)/16
			}
			xs[rng.Intn(chunk)] = edges[rng.Intn(len(edges))]
		}
		all := func(p func(b uint32) bool) bool {
			for _, v := range xs {
				if !p(math.Float32bits(v)) {
					return false
				}
			}
			return true
		}
		abs := func(b uint32) uint32 { return b & 0x7fffffff }
		for _, c := range []struct {
			name      string
			got, want bool
		}{
			{"allAbsAtMost", allAbsAtMost(&xs, 150), all(func(b uint32) bool { return abs(b) <= math.Float32bits(150) })},
			{"allPositiveIn", allPositiveIn(&xs, 0x00800000, 0x7f7fffff), all(func(b uint32) bool { return b >= 0x00800000 && b <= 0x7f7fffff })},
			{"allAbsAtMostBySign", allAbsAtMostBySign(&xs, 0x59800000, 0x3f7fffff), all(func(b uint32) bool {
				if b>>31 == 0 {
					return b <= 0x59800000
				}
				return abs(b) <= 0x3f7fffff
			})},
		} {
			if c.got != c.want {
				t.Fatalf("%s(%v) = %v, want %v", c.name, xs, c.got, c.want)
			}
		}
	}
}
