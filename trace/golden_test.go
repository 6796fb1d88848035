package trace

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// Golden jaxpr texts: each case builds a jaxpr and compares its text with
// testdata/<name>.jaxpr. Run `go test ./trace -run TestGolden -update` to
// rewrite them after an intended change, and read the diff.
func TestGolden(t *testing.T) {
	tests := []struct {
		name  string
		build func(t *testing.T) *Jaxpr
	}{
		{"spec_example", goldenSpecExample},
		{"constvars_and_effects", goldenConstvarsAndEffects},
		{"nested_jaxpr_with_effects", goldenNestedEffects},
		{"indexing", goldenIndexing},
		{"shapes_and_reductions", goldenShapesAndReductions},
		{"many_variables", goldenManyVariables},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.build(t).String() + "\n"
			path := filepath.Join("testdata", tt.name+".jaxpr")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs; got:\n%s\nwant:\n%s", path, got, want)
			}
		})
	}
}

// SPEC §4's example: sin, a scalar mul, and an ordered print whose token
// nothing uses.
func goldenSpecExample(t *testing.T) *Jaxpr {
	tr := newTracer(t)
	a, b := tr.in(Float32, 3), tr.in(Float32)
	c := tr.bind1("sin", nil, a)
	d := tr.bind1("mul", nil, c, b)
	tr.bind("debug_print", Params{"fmt": "x: {}", "ordered": true}, d)
	return tr.build(d)
}

// A captured array becomes a constvar before the `;`; host operations of
// every kind give the jaxpr their effects.
func goldenConstvarsAndEffects(t *testing.T) *Jaxpr {
	tr := newTracer(t)
	table := tr.b.Const(&struct{ name string }{"weights"}, NewAVal(Float32, 1000))
	x := tr.in(Float32, 1000)
	y := tr.bind1("add", nil, x, table)
	tapped := tr.bind1("id_tap", Params{"callback": namedCallback("<function log>"), "tap_with_device": false}, y)
	got := tr.bind("call", Params{
		"callback":         namedCallback("<function host_fn>"),
		"result_avals":     []AVal{NewAVal(Float32, 1000), {Shape: Shape{}, DType: Int32}},
		"call_with_device": false,
		"ordered":          true,
	}, tapped)
	tr.bind("debug_print", Params{"fmt": "it's {} and {{braces}}", "ordered": false}, got[1])
	return tr.build(got[0], tr.bind1("reduce_sum", Params{"axes": []int{0}}, got[0]))
}

// A jit whose body prints: the equation and both jaxprs carry the effect,
// and the body's own effects follow its closing brace.
func goldenNestedEffects(t *testing.T) *Jaxpr {
	body := newTracer(t)
	x := body.in(Float32, 2, 3)
	tok := body.bind1("debug_print", Params{"fmt": "x={}", "ordered": true}, x)
	body.bind("debug_print", Params{"fmt": "again", "ordered": true}, tok)
	y := body.bind1("exp", nil, x)
	bodyJ := body.build(y)

	tr := newTracer(t)
	a := tr.in(Float32, 2, 3)
	b := tr.jitCall("printing_fn", bodyJ, a)[0]
	return tr.build(tr.bind1("mul", nil, b, lit(t, 2.0, Float32, true)))
}

// NumPy indexing x[idx] as a gather, and x.at[idx].add(v) as a scatter-add;
// their long params wrap as JAX wraps them.
func goldenIndexing(t *testing.T) *Jaxpr {
	tr := newTracer(t)
	x := tr.in(Float32, 5, 3)
	idx := tr.in(Int32, 4)
	v := tr.in(Float32, 4, 3)
	idx2 := tr.bind1("broadcast_in_dim", Params{"shape": []int{4, 1}, "broadcast_dimensions": []int{0}}, idx)
	rows := tr.bind1("gather", Params{
		"dimension_numbers":  GatherDimensionNumbers{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}},
		"slice_sizes":        []int{1, 3},
		"indices_are_sorted": false,
		"unique_indices":     false,
		"mode":               GatherPromiseInBounds,
		"fill_value":         nil,
	}, x, idx2)
	updated := tr.bind1("scatter-add", Params{
		"dimension_numbers":  ScatterDimensionNumbers{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}},
		"indices_are_sorted": true,
		"unique_indices":     true,
		"mode":               GatherFillOrDrop,
	}, x, idx2, v)
	return tr.build(rows, updated)
}

// jnp-style lowering of several shape and reduction operations.
func goldenShapesAndReductions(t *testing.T) *Jaxpr {
	tr := newTracer(t)
	a := tr.in(Float32, 2, 3)
	b := tr.in(Float32, 3, 4)
	i := tr.in(Int32)
	ab := tr.bind1("dot_general", Params{
		"dimension_numbers":      DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}},
		"precision":              nil,
		"preferred_element_type": Float32,
	}, a, b)
	abT := tr.bind1("transpose", Params{"permutation": []int{1, 0}}, ab)
	flat := tr.bind1("reshape", Params{"new_sizes": []int{8}}, abT)
	padded := tr.bind1("pad", Params{"padding_config": PaddingConfig{{Lo: 1, Hi: 2, Interior: 0}}}, flat, lit(t, 0.0, Float32, false))
	both := tr.bind1("concatenate", Params{"dimension": 0}, padded, flat)
	part := tr.bind1("slice", Params{"start_indices": []int{1}, "limit_indices": []int{9}, "strides": []int{2}}, both)
	window := tr.bind1("dynamic_slice", Params{"slice_sizes": []int{2}}, part, i)
	iota := tr.bind1("iota", Params{"dtype": Int32, "shape": []int{4}, "dimension": 0})
	asFloat := tr.bind1("convert_element_type", Params{"new_dtype": Float32, "weak_type": false}, iota)
	positive := tr.bind1("gt", nil, part, lit(t, 0.0, Float32, true))
	chosen := tr.bind1("select_n", nil, positive, asFloat, part)
	clamped := tr.bind1("clamp", nil, lit(t, -1.0, Float32, false), chosen, lit(t, 1.0, Float32, false))
	sums := tr.bind1("cumsum", Params{"axis": 0, "reverse": false}, clamped)
	best := tr.bind1("argmax", Params{"axes": []int{0}, "index_dtype": Int32}, sums)
	sorted := tr.bind("sort", Params{"dimension": 0, "is_stable": true, "num_keys": 1}, sums, iota)
	updated := tr.bind1("dynamic_update_slice", nil, sorted[0], window, best)
	return tr.build(updated, sorted[1])
}

// More than 26 variables are named ba, bb, ...; unused outputs print as _.
func goldenManyVariables(t *testing.T) *Jaxpr {
	tr := newTracer(t)
	x := tr.in(Float32, 4)
	for k := range 28 {
		prim := []string{"sin", "cos", "exp", "tanh"}[k%4]
		x = tr.bind1(prim, nil, x)
	}
	outs := tr.bind("sort", Params{"dimension": 0, "is_stable": false, "num_keys": 1}, x, tr.in(Int32, 4))
	return tr.build(outs[0])
}
