package cpu

import (
	"fmt"
	"math"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

func cumApply(t testing.TB, name string, x *Buffer, axis int, reverse bool) *Buffer {
	t.Helper()
	return apply(t, name, trace.Params{"axis": axis, "reverse": reverse}, x)[0]
}

// refCumulative scans vals of shape along axis in float64, element by
// element.
func refCumulative(shape []int, axis int, vals []float64, name string, rev bool) []float64 {
	s := spanAround(shape, axis)
	out := make([]float64, len(vals))
	for p := 0; p < s.outer; p++ {
		for k := 0; k < s.inner; k++ {
			var acc float64
			for j := 0; j < s.n; j++ {
				r := j
				if rev {
					r = s.n - 1 - j
				}
				i := (p*s.n+r)*s.inner + k
				v := vals[i]
				switch {
				case j == 0 && name != "cumsum" && name != "cumprod":
					acc = v
				case name == "cumsum":
					acc += v
				case name == "cumprod":
					if j == 0 {
						acc = 1
					}
					acc *= v
				case name == "cummax":
					acc = max(acc, v)
				case name == "cummin":
					acc = min(acc, v)
				}
				out[i] = acc
			}
		}
	}
	return out
}

// Every axis and direction of a 3-D array, every op and dtype, against the
// reference rounded or wrapped once into the dtype (the values are small
// integers, so float accumulators are exact).
func TestCumulativeAllAxes(t *testing.T) {
	shape := []int{3, 4, 5}
	vals := make([]float64, 60)
	for i := range vals {
		vals[i] = float64((i*11)%7) - 2
	}
	dtypes := []trace.DType{trace.Int8, trace.Int32, trace.Uint16, trace.Int64, trace.Float16,
		trace.BFloat16, trace.Float32, trace.Float64, trace.Complex64, trace.Complex128}
	for _, dt := range dtypes {
		in := vals
		if dt.IsUnsigned() {
			in = make([]float64, len(vals))
			for i, v := range vals {
				in[i] = v + 2
			}
		}
		x := bufferOf(t, dt, shape, anys(in)...)
		for _, name := range []string{"cumsum", "cumprod", "cummax", "cummin"} {
			if dt.IsComplex() && (name == "cummax" || name == "cummin") {
				continue // lexicographic; checked below
			}
			for axis := range shape {
				for _, rev := range []bool{false, true} {
					what := fmt.Sprintf("%s %s axis=%d reverse=%v", name, dt, axis, rev)
					want := refCumulative(shape, axis, in, name, rev)
					got := cumApply(t, name, x, axis, rev)
					checkElements(t, what, got, elements(bufferOf(t, dt, shape, anys(want)...))...)
				}
			}
		}
	}
}

func TestCumulativeSemantics(t *testing.T) {
	nan := math.NaN()
	x := bufferOf(t, trace.Float32, []int{5}, 1.0, nan, 3.0, -1.0, 7.0)
	checkElements(t, "cummax NaN", cumApply(t, "cummax", x, 0, false), 1.0, nan, nan, nan, nan)
	checkElements(t, "cummin NaN reverse", cumApply(t, "cummin", x, 0, true), nan, nan, -1.0, -1.0, 7.0)
	checkElements(t, "cumsum NaN", cumApply(t, "cumsum", x, 0, false), 1.0, nan, nan, nan, nan)
	rows := bufferOf(t, trace.Float64, []int{3, 2}, 1.0, 2.0, nan, 0.0, 3.0, 5.0)
	checkElements(t, "cummax rows NaN", cumApply(t, "cummax", rows, 0, false), 1.0, 2.0, nan, 2.0, nan, 5.0)

	z := bufferOf(t, trace.Float32, []int{3}, -0.0, 0.0, -0.0)
	checkElements(t, "cumsum starts from +0.0", cumApply(t, "cumsum", z, 0, false), 0.0, 0.0, 0.0)
	checkElements(t, "cummax zeros", cumApply(t, "cummax", z, 0, false), -0.0, 0.0, 0.0)
	checkElements(t, "cummin zeros", cumApply(t, "cummin", z, 0, true), -0.0, -0.0, -0.0)

	w := bufferOf(t, trace.Int8, []int{3}, 100, 100, 100)
	checkElements(t, "int8 cumsum wraps", cumApply(t, "cumsum", w, 0, false), 100, -56, 44)
	checkElements(t, "int8 cumprod wraps", cumApply(t, "cumprod", w, 0, false), 100, 16, 64) // 10000 and 1600 mod 256

	// float32 runs in a float64 accumulator: 2^24 + 1 + 1 reaches 2^24 + 2,
	// which a float32 accumulator never leaves 2^24 for.
	f := bufferOf(t, trace.Float32, []int{3}, 16777216.0, 1.0, 1.0)
	checkElements(t, "float32 cumsum accumulator", cumApply(t, "cumsum", f, 0, false), 16777216.0, 16777216.0, 16777218.0)
	h := bufferOf(t, trace.Float16, []int{3}, 2048.0, 1.0, 1.0)
	checkElements(t, "float16 cumsum accumulator", cumApply(t, "cumsum", h, 0, false), 2048.0, 2048.0, 2050.0)
	hr := bufferOf(t, trace.Float16, []int{3, 1}, 2048.0, 1.0, 1.0)
	checkElements(t, "float16 rows accumulator", cumApply(t, "cumsum", hr, 0, false), 2048.0, 2048.0, 2050.0)

	c := bufferOf(t, trace.Complex64, []int{3}, complex(1, 2), complex(1, -5), complex(0, 9))
	checkElements(t, "complex cummax", cumApply(t, "cummax", c, 0, false), complex(1, 2), complex(1, 2), complex(1, 2))
	checkElements(t, "complex cummin", cumApply(t, "cummin", c, 0, false), complex(1, 2), complex(1, -5), complex(0, 9))
	checkElements(t, "complex cumprod", cumApply(t, "cumprod", c, 0, false), complex(1, 2), complex(11, -3), complex(27, 99))
	checkElements(t, "complex cumsum reverse", cumApply(t, "cumsum", c, 0, true), complex(2, 6), complex(1, 4), complex(0, 9))

	for _, shape := range [][]int{{0}, {3, 0}, {0, 4}} {
		e := bufferOf(t, trace.Int32, shape)
		if got := cumApply(t, "cumsum", e, 0, true); !got.Shape().Equal(shape) {
			t.Errorf("cumsum of empty %v: shape %v", shape, got.Shape())
		}
	}
}

// Wide rows take several column blocks, and many lines spread over the pool.
func TestCumulativeLarge(t *testing.T) {
	for _, tc := range []struct {
		shape []int
		axis  int
	}{{[]int{7, 3000}, 0}, {[]int{3000, 7}, 1}, {[]int{5, 9, 700}, 1}} {
		n := tc.shape[0] * tc.shape[1]
		if len(tc.shape) == 3 {
			n *= tc.shape[2]
		}
		vals := make([]float64, n)
		for i := range vals {
			vals[i] = float64(i%13) - 6
		}
		x := bufferOf(t, trace.Int32, tc.shape, anys(vals)...)
		for _, rev := range []bool{false, true} {
			for _, name := range []string{"cumsum", "cummax"} {
				want := refCumulative(tc.shape, tc.axis, vals, name, rev)
				checkElements(t, fmt.Sprintf("%s %v rev=%v", name, tc.shape, rev),
					cumApply(t, name, x, tc.axis, rev), ints(want)...)
			}
		}
	}
}
