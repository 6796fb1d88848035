package cpu

import (
	"fmt"
	"testing"

	"github.com/jaxsh/jaxsh/trace"
)

// Eager calls that differ only in a param value must run different
// programs: the eager cache finds programs by comparing params, and a hit
// on the wrong one would return the first call's values. Each case runs
// its params in turn, twice, so the second round finds every program
// already cached.
func TestEagerCallsDifferingInParams(t *testing.T) {
	a := bufferOf(t, trace.Float32, []int{2, 2}, 1, 2, 3, 4)
	b := bufferOf(t, trace.Float32, []int{2, 2}, 5, 6, 7, 8)
	dims := func(lc, rc int) trace.DotDimensionNumbers {
		return trace.DotDimensionNumbers{LhsContracting: []int{lc}, RhsContracting: []int{rc}}
	}
	dot := func(dn trace.DotDimensionNumbers) trace.Params {
		return trace.Params{"dimension_numbers": dn, "precision": nil, "preferred_element_type": trace.Float32}
	}
	cases := []struct {
		prim   string
		params trace.Params
		in     []*Buffer
		want   string
	}{
		{"dot_general", dot(dims(1, 0)), []*Buffer{a, b}, "[19 22 43 50]"}, // a @ b
		{"dot_general", dot(dims(0, 0)), []*Buffer{a, b}, "[26 30 38 44]"}, // a.T @ b
		{"dot_general", dot(dims(1, 1)), []*Buffer{a, b}, "[17 23 39 53]"}, // a @ b.T
		{"dot_general", trace.Params{"dimension_numbers": dims(1, 0), "precision": nil, "preferred_element_type": trace.Float64},
			[]*Buffer{a, b}, "[19 22 43 50] float64"},
		{"reduce_sum", trace.Params{"axes": []int{0}}, []*Buffer{a}, "[4 6]"},
		{"reduce_sum", trace.Params{"axes": []int{1}}, []*Buffer{a}, "[3 7]"},
		{"reduce_sum", trace.Params{"axes": []int{0, 1}}, []*Buffer{a}, "10"},
		{"reduce_max", trace.Params{"axes": []int{1}}, []*Buffer{a}, "[2 4]"},
	}
	for round := range 2 {
		for _, c := range cases {
			out := apply(t, c.prim, c.params, c.in...)
			got := fmt.Sprint(elements(out[0])...)
			if out[0].Len() != 1 {
				got = fmt.Sprint(elements(out[0]))
			}
			if dt := out[0].DType(); dt != trace.Float32 {
				got += " " + dt.String()
			}
			if got != c.want {
				t.Errorf("round %d: %s %s = %s, want %s", round, c.prim, c.params, got, c.want)
			}
		}
	}
}
