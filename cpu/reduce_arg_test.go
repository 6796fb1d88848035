package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

func argApply(t testing.TB, name string, x *Buffer, axis int, indexDType trace.DType) *Buffer {
	t.Helper()
	return apply(t, name, trace.Params{"axes": []int{axis}, "index_dtype": indexDType}, x)[0]
}

func TestArgMaxArgMinTiesAndNaN(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, dt := range []trace.DType{trace.Float32, trace.Float64, trace.Float16, trace.BFloat16} {
		x := bufferOf(t, dt, []int{4, 5},
			1.0, 3.0, 3.0, -1.0, 3.0, // ties: the first
			2.0, nan, 5.0, nan, -inf, // first NaN
			-0.0, 0.0, -0.0, 0.0, -0.0, // zeros are equal
			-inf, -inf, -inf, -inf, -inf) // all equal: index 0
		checkElements(t, dt.String()+" argmax rows", argApply(t, "argmax", x, 1, trace.Int32), 1, 1, 0, 0)
		checkElements(t, dt.String()+" argmin rows", argApply(t, "argmin", x, 1, trace.Int32), 3, 1, 0, 0)
		// Down the columns: column 1 holds a NaN at row 1.
		checkElements(t, dt.String()+" argmax cols", argApply(t, "argmax", x, 0, trace.Int64), 1, 1, 1, 1, 0)
		checkElements(t, dt.String()+" argmin cols", argApply(t, "argmin", x, 0, trace.Int64), 3, 1, 3, 1, 1)
	}
	i := bufferOf(t, trace.Int8, []int{2, 3}, -128, 127, 127, 5, 5, -128)
	checkElements(t, "int8 argmax", argApply(t, "argmax", i, 1, trace.Int32), 1, 0)
	checkElements(t, "int8 argmin", argApply(t, "argmin", i, 1, trace.Int32), 0, 2)
	checkElements(t, "int8 argmin cols", argApply(t, "argmin", i, 0, trace.Int32), 0, 1, 1)
	u := bufferOf(t, trace.Uint32, []int{3}, int64(4000000000), 1, int64(4000000000))
	checkElements(t, "uint32 argmax", argApply(t, "argmax", u, 0, trace.Int32), 0)
	b := bufferOf(t, trace.Bool, []int{2, 3}, false, true, true, false, false, false)
	checkElements(t, "bool argmax", argApply(t, "argmax", b, 1, trace.Int32), 1, 0)
	checkElements(t, "bool argmin", argApply(t, "argmin", b, 1, trace.Int32), 0, 0)
	// Shape (2, 1, 3): a size-1 axis gives index 0 everywhere.
	one := bufferOf(t, trace.Float32, []int{2, 1, 3}, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
	checkElements(t, "size-1 axis", argApply(t, "argmax", one, 1, trace.Int32), 0, 0, 0, 0, 0, 0)
	// Middle axis of a 3-D array.
	m := bufferOf(t, trace.Int32, []int{2, 3, 2}, 1, 9, 7, 2, 7, 9, 0, 0, 0, 0, 1, 0)
	checkElements(t, "middle axis argmax", argApply(t, "argmax", m, 1, trace.Int32), 1, 0, 2, 0)
	checkElements(t, "middle axis argmin", argApply(t, "argmin", m, 1, trace.Int32), 0, 1, 0, 0)
}

func TestArgMaxIndexDTypeWraps(t *testing.T) {
	vals := make([]any, 300)
	for i := range vals {
		vals[i] = float64(i % 290)
	}
	x := bufferOf(t, trace.Float32, []int{300}, vals...)
	checkElements(t, "uint8 index", argApply(t, "argmax", x, 0, trace.Uint8), 289%256)
	checkElements(t, "int16 index", argApply(t, "argmax", x, 0, trace.Int16), 289)
}

// Long lines split across the pool: the first extreme and the first NaN
// must still win across the split.
func TestArgMaxLongLines(t *testing.T) {
	const n = 3*parallelLine + 5
	x := newBuffer(testDevice().(*Device), trace.AVal{Shape: []int{n}, DType: trace.Float32})
	v := view[float32](x)
	for i := range v {
		v[i] = float32(i % 1000)
	}
	checkElements(t, "first max", argApply(t, "argmax", x, 0, trace.Int32), 999)
	checkElements(t, "first min", argApply(t, "argmin", x, 0, trace.Int32), 0)
	v[n-3] = float32(math.NaN())
	v[parallelLine+17] = float32(math.NaN())
	checkElements(t, "first NaN", argApply(t, "argmax", x, 0, trace.Int32), parallelLine+17)
	checkElements(t, "first NaN (min)", argApply(t, "argmin", x, 0, trace.Int32), parallelLine+17)
	v[parallelLine+17] = 5000
	checkElements(t, "NaN late in the line", argApply(t, "argmax", x, 0, trace.Int32), n-3)
}

// argLine (block extremes in one vector pass, then a rescan of the block
// that improves) against the element-by-element scans, on lines of every
// length around the block and vector sizes, with many ties, signed zeros
// and NaNs placed in the vector part and in the tail.
func TestArgLineMatchesScalarScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	for _, n := range []int{1, 31, 32, 33, 100, argBlock - 1, argBlock, argBlock + 40, 3*argBlock + 7} {
		for trial := range 30 {
			x32 := make([]float32, n)
			for i := range x32 {
				x32[i] = float32(rng.IntN(9) - 4) // many ties
				if x32[i] == 0 && rng.IntN(2) == 0 {
					x32[i] = float32(math.Copysign(0, -1))
				}
			}
			if trial%3 == 0 {
				x32[rng.IntN(n)] = float32(math.NaN())
			}
			if trial%5 == 0 {
				x32[n-1] = float32(math.NaN())
			}
			x64 := make([]float64, n)
			for i, v := range x32 {
				x64[i] = float64(v)
			}
			for _, isMax := range []bool{true, false} {
				want := argMinLine(x32)
				if isMax {
					want = argMaxLine(x32)
				}
				if got := argLine(isMax, x32); got != want {
					t.Fatalf("float32 n=%d trial %d max=%v: %d, want %d", n, trial, isMax, got, want)
				}
				if got := argLine(isMax, x64); got != want {
					t.Fatalf("float64 n=%d trial %d max=%v: %d, want %d", n, trial, isMax, got, want)
				}
			}
		}
	}
}
