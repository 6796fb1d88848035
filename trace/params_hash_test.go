package trace

import (
	"math"
	"testing"
)

// Params that print differently must never be Same (the eager cache would
// run the wrong program), and equal ones must hash alike.
func TestParamsSameAndHash(t *testing.T) {
	dn := func(lc, rc []int) DotDimensionNumbers {
		return DotDimensionNumbers{LhsContracting: lc, RhsContracting: rc}
	}
	differing := [][2]Params{
		{{"axes": []int{0}}, {"axes": []int{1}}},
		{{"axes": []int{0}}, {"axes": []int{0, 1}}},
		{{"axes": []int{0}}, {"dims": []int{0}}},
		{{"fill": 0.0}, {"fill": math.Copysign(0, -1)}},
		{{"fill": 1}, {"fill": 1.0}},
		{{"fill": true}, {"fill": 1}},
		{{"x": nil}, {"x": 0}},
		{{"x": nil}, {"y": nil}},
		{{"a": 1}, {"a": 1, "b": 2}},
		{{"d": dn([]int{1}, []int{0})}, {"d": dn([]int{0}, []int{0})}},
		{{"d": dn([]int{1}, []int{0})}, {"d": DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}, LhsBatch: []int{0}, RhsBatch: []int{0}}}},
		{{"p": PrecisionConfig{PrecisionHigh, PrecisionDefault}}, {"p": PrecisionConfig{PrecisionDefault, PrecisionHigh}}},
		{{"t": Float32}, {"t": Float64}},
		{{"s": "a"}, {"s": Ident("a")}},
		{{"pad": PaddingConfig{{1, 2, 0}}}, {"pad": PaddingConfig{{1, 2, 1}}}},
		{{"m": GatherClip}, {"m": GatherFillOrDrop}},
	}
	for _, c := range differing {
		if c[0].Same(c[1]) || c[1].Same(c[0]) {
			t.Errorf("%s and %s are Same", c[0], c[1])
		}
		if _, ok := c[0].Hash(); !ok {
			t.Errorf("%s: Hash refused plain params", c[0])
		}
	}
	nan := math.NaN()
	equal := [][2]Params{
		{{"a": 1, "b": []int{2, 3}, "c": Float32, "d": nil}, {"d": nil, "c": Float32, "b": []int{2, 3}, "a": 1}},
		{{"d": dn([]int{1}, []int{0}), "p": nil, "t": Float32}, {"t": Float32, "p": nil, "d": dn([]int{1}, []int{0})}},
		{{"fill": nan}, {"fill": nan}},
	}
	for _, c := range equal {
		h0, ok0 := c[0].Hash()
		h1, ok1 := c[1].Hash()
		if !c[0].Same(c[1]) || !ok0 || !ok1 || h0 != h1 {
			t.Errorf("%s and %s: Same %v, hashes %x (%v) and %x (%v)", c[0], c[1], c[0].Same(c[1]), h0, ok0, h1, ok1)
		}
		if cl := c[0].CloneValues(); !cl.Same(c[0]) {
			t.Errorf("CloneValues(%s) = %s, not Same", c[0], cl)
		}
	}
	// A jaxpr is not a plain value: such params are neither hashed nor Same.
	j := Params{"jaxpr": &Jaxpr{}}
	if _, ok := j.Hash(); ok || j.Same(j) {
		t.Errorf("params with a jaxpr: Hash ok %v, Same %v; want neither", ok, j.Same(j))
	}
	// The clone shares no slice with the original.
	orig := Params{"axes": []int{0, 1}}
	cl := orig.CloneValues()
	orig["axes"].([]int)[0] = 5
	if cl.Ints("axes")[0] != 0 {
		t.Errorf("CloneValues shares its slices: %s", cl)
	}
}
