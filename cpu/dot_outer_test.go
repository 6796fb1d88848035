package cpu

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// Batches of outer products in every layout dotOuter takes (rows of A at
// one stride or through a table, rows of B contiguous or gathered, a
// contraction of one element, row lengths around the assembly's vector
// width), with signed zeros, infinities and NaNs among the operands,
// written into a destination full of stale values: every element must be
// T(a*b) + 0 (so a product of -0 gives +0), as the sequential reference
// computes it.
func TestDotOuterWritesEveryElement(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	special := []float64{math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), math.NaN(), -1.5, 3}
	values := func(n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			if rng.IntN(3) == 0 {
				v[i] = special[rng.IntN(len(special))]
			} else {
				v[i] = float64(float32(rng.NormFloat64()))
			}
		}
		return v
	}
	type layout struct {
		name   string
		ls, rs []int
		dn     trace.DotDimensionNumbers
	}
	var layouts []layout
	for _, n := range []int{2, 3, 4, 8, 13, 64, 70} {
		layouts = append(layouts,
			layout{"batch first", []int{6, 5}, []int{6, n}, dotDims(nil, nil, []int{0}, []int{0})},
			layout{"batch last (strided A, gathered B)", []int{5, 6}, []int{n, 6}, dotDims(nil, nil, []int{1}, []int{1})},
			layout{"A rows through a table", []int{2, 6, 3}, []int{6, n}, dotDims(nil, nil, []int{1}, []int{0})},
			layout{"contraction of one", []int{6, 5, 1}, []int{6, 1, n}, dotDims([]int{2}, []int{1}, []int{0}, []int{0})},
			layout{"unbatched", []int{7}, []int{n}, dotDims(nil, nil, nil, nil)},
		)
	}
	size := func(s []int) int {
		n := 1
		for _, d := range s {
			n *= d
		}
		return n
	}
	for _, dt := range []trace.DType{trace.Float32, trace.Float64, trace.Int32} {
		for _, tc := range layouts {
			g := newDotGeometry(tc.ls, tc.rs, tc.dn)
			if g.k != 1 || g.m == 1 || g.n == 1 { // dotTyped's choice
				t.Fatalf("%s %v×%v does not take the outer-product path", tc.name, tc.ls, tc.rs)
			}
			av, bv := values(size(tc.ls)), values(size(tc.rs))
			if dt == trace.Int32 {
				for _, v := range [][]float64{av, bv} {
					for i := range v {
						v[i] = float64(rng.IntN(201) - 100)
					}
				}
			}
			lhs, rhs := bufferOf(t, dt, tc.ls, anys(av)...), bufferOf(t, dt, tc.rs, anys(bv)...)
			out := make([]int, 0, 3)
			for _, d := range []int{g.batch, g.m, g.n} {
				out = append(out, d)
			}
			dst := newBuffer(testDevice().(*Device), trace.AVal{Shape: out, DType: dt})
			for i := range dst.data {
				dst.data[i] = 0x7f // stale bytes
			}
			p := trace.Params{"dimension_numbers": tc.dn, "precision": nil, "preferred_element_type": nil}
			if err := dotKernel(&trace.Eqn{Params: p}, []*Buffer{lhs, rhs}, []*Buffer{dst}, nil); err != nil {
				t.Fatal(err)
			}
			var want []float64
			switch dt {
			case trace.Float32:
				w := refDot(tc.ls, tc.rs, tc.dn, toFloat32s(av), toFloat32s(bv), f32MulAdd)
				for _, v := range w {
					want = append(want, float64(v))
				}
			case trace.Float64:
				want = refDot(tc.ls, tc.rs, tc.dn, av, bv, func(acc, x, y float64) float64 { return acc + x*y })
			case trace.Int32:
				toInt := func(v []float64) []int32 {
					o := make([]int32, len(v))
					for i, x := range v {
						o[i] = int32(x)
					}
					return o
				}
				w := refDot(tc.ls, tc.rs, tc.dn, toInt(av), toInt(bv), func(acc, x, y int32) int32 { return acc + x*y })
				for _, v := range w {
					want = append(want, float64(v))
				}
			}
			for i, w := range want {
				var got float64
				switch dt {
				case trace.Float32:
					got = float64(view[float32](dst)[i])
				case trace.Float64:
					got = view[float64](dst)[i]
				case trace.Int32:
					got = float64(view[int32](dst)[i])
				}
				if math.Float64bits(got) != math.Float64bits(w) && !(math.IsNaN(got) && math.IsNaN(w)) {
					t.Fatalf("%s %s %v×%v: element %d = %v, want %v", dt, tc.name, tc.ls, tc.rs, i, got, w)
				}
			}
		}
	}
}
