package batching_test

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"github.com/jaxsh/jaxsh/trace/batching"
)

// The batching checker, in the style of JAX's lax_vmap_test: for every
// primitive of the table, batching an application along each operand's
// axis 0, 1 and -1 (the others unbatched: in_axes None), and along every
// operand at once, gives the per-element results stacked.

const batchSize = 3

// A primCase is one application of a primitive to check.
type primCase struct {
	prim   string
	params trace.Params
	in     []operand
}

// hostOps are checked by host_test.go (a print runs once, not once per
// element, so stacking per-element runs is not what batching means there);
// primitives without operands are never batched.
var checkedElsewhere = map[string]string{
	"debug_print": "host_test.go", "id_tap": "host_test.go", "call": "host_test.go",
	"cond": "control_test.go", "while": "control_test.go", "scan": "control_test.go", "jit": "control_test.go",
	"checkpoint": "control_test.go", "custom_jvp_call": "control_test.go", "custom_vjp_call": "control_test.go",
	// custom_lin only exists between linearization and transposition: it
	// never runs, so stacking per-element runs cannot check it.
	"custom_lin": "never run",
}

// TestEveryPrimitiveIsChecked fails for a primitive with no batching rule,
// or one the checker has no case for.
func TestEveryPrimitiveIsChecked(t *testing.T) {
	cased := map[string]bool{}
	for _, c := range primCases() {
		cased[c.prim] = true
	}
	for _, p := range trace.Primitives() {
		if p.MaxIn == 0 {
			continue // nothing to batch (iota, create_token)
		}
		if p.Batch == nil {
			t.Errorf("primitive %s has no batching rule", p.Name)
		}
		if !cased[p.Name] && checkedElsewhere[p.Name] == "" {
			t.Errorf("primitive %s has no case in the batching checker", p.Name)
		}
	}
}

func TestBatchingRulesAgreeWithStacking(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for _, c := range primCases() {
		avals := make([]string, len(c.in))
		for i, o := range c.in {
			avals[i] = o.aval.String()
		}
		t.Run(c.prim+"("+strings.Join(avals, ",")+")", func(t *testing.T) {
			j := oneEqn(t, c.prim, c.params, c.in)
			checkBatching(t, r, j, c.in)
		})
	}
}

// oneEqn is the jaxpr of one application.
func oneEqn(t testing.TB, prim string, params trace.Params, in []operand) *trace.Jaxpr {
	t.Helper()
	b := trace.NewBuilder()
	args := make([]trace.Atom, len(in))
	for i, o := range in {
		args[i] = b.Input(o.aval)
	}
	outs, err := b.Bind(prim, args, params, trace.Pos{File: "check.star", Line: 1, Col: 1})
	if err != nil {
		t.Fatal(err)
	}
	j, err := b.Build(atomsOf(outs))
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func atomsOf(vs []*trace.Var) []trace.Atom {
	out := make([]trace.Atom, len(vs))
	for i, v := range vs {
		out[i] = v
	}
	return out
}

// inAxes lists the configurations to check: each operand alone along axis
// 0, 1 and -1, then every operand along 0, then along -1 (axes written as
// vmap's in_axes, None for an unbatched operand).
func inAxes(in []operand) [][]any {
	var out [][]any
	seen := map[string]bool{}
	add := func(axes []any) {
		key := fmt.Sprint(canonical(in, axes))
		if !seen[key] {
			seen[key] = true
			out = append(out, axes)
		}
	}
	for i, o := range in {
		for _, ax := range []int{0, 1, -1} {
			if ax == 1 && o.aval.Rank() < 1 {
				continue
			}
			axes := make([]any, len(in))
			axes[i] = ax
			add(axes)
		}
	}
	for _, ax := range []int{0, -1} {
		axes := make([]any, len(in))
		for i := range axes {
			axes[i] = ax
		}
		add(axes)
	}
	return out
}

// canonical turns in_axes into batching.Jaxpr's dims.
func canonical(in []operand, axes []any) []int {
	dims := make([]int, len(in))
	for i, a := range axes {
		switch ax := a.(type) {
		case nil:
			dims[i] = trace.NotBatched
		case int:
			if ax < 0 {
				ax += in[i].aval.Rank() + 1
			}
			dims[i] = ax
		}
	}
	return dims
}

// checkBatching compares, for each in_axes configuration, the batched
// jaxpr's results with the stacked results of j per element.
func checkBatching(t *testing.T, r *rand.Rand, j *trace.Jaxpr, in []operand) {
	t.Helper()
	exe := compile(t, j)
	for _, axes := range inAxes(in) {
		dims := canonical(in, axes)
		outDims := make([]int, len(j.OutVars))
		bj, err := batching.Jaxpr(j, batchSize, dims, outDims)
		if err != nil {
			t.Errorf("in_axes %v: %v", fmtAxes(axes), err)
			continue
		}
		if err := bj.Verify(); err != nil {
			t.Errorf("in_axes %v: batched jaxpr does not verify: %v\n%s", fmtAxes(axes), err, bj)
			continue
		}
		per := make([][]value, batchSize)
		batched := make([]value, len(in))
		for i, o := range in {
			if dims[i] == trace.NotBatched {
				v := draw(r, o)
				for k := range per {
					per[k] = append(per[k], v)
				}
				batched[i] = v
				continue
			}
			examples := make([]value, batchSize)
			for k := range examples {
				examples[k] = draw(r, o)
				per[k] = append(per[k], examples[k])
			}
			batched[i] = stack(examples, dims[i])
		}
		want := make([][]value, len(j.OutVars))
		for k := range per {
			outs, err := run(exe, per[k])
			if err != nil {
				t.Fatalf("unbatched run: %v", err)
			}
			for o, v := range outs {
				want[o] = append(want[o], v)
			}
		}
		got, err := run(compile(t, bj), batched)
		if err != nil {
			t.Errorf("in_axes %v: %v\n%s", fmtAxes(axes), err, bj)
			continue
		}
		for o := range got {
			if err := closeTo(got[o], stack(want[o], 0)); err != nil {
				t.Errorf("in_axes %v, output %d: %v\n%s", fmtAxes(axes), o, err, bj)
			}
		}
	}
}

func fmtAxes(axes []any) string {
	parts := make([]string, len(axes))
	for i, a := range axes {
		if a == nil {
			parts[i] = "None"
		} else {
			parts[i] = fmt.Sprint(a)
		}
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func compile(t testing.TB, j *trace.Jaxpr) jit.Executable {
	t.Helper()
	_, exe, err := jit.CompileOn(device(t), j)
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, j)
	}
	return exe
}

func run(exe jit.Executable, args []value) ([]value, error) {
	return runWith(exe, jit.NoHost, args)
}

func runWith(exe jit.Executable, host jit.Host, args []value) ([]value, error) {
	dev, err := jit.LookupDevice("cpu:0")
	if err != nil {
		return nil, err
	}
	bufs := make([]jit.Buffer, len(args))
	for i, a := range args {
		if bufs[i], err = jit.FromHost(dev, a.aval, encode(a)); err != nil {
			return nil, err
		}
	}
	res, err := exe.Execute(bufs, host)
	if err != nil {
		return nil, err
	}
	out := make([]value, len(res))
	for i, b := range res {
		data, err := jit.ToHost(b)
		if err != nil {
			return nil, err
		}
		out[i] = value{b.AVal(), decode(b.AVal(), data)}
	}
	return out, nil
}

// primCases lists an application of every primitive that has operands,
// with shapes small enough to check each configuration quickly.
func primCases() []primCase {
	var cs []primCase
	add := func(prim string, params trace.Params, in []operand) {
		if params == nil {
			params = trace.Params{}
		}
		cs = append(cs, primCase{prim, params, in})
	}
	unary := map[string][]operand{
		"log": ranged(ops("f32[2,3]"), 0, 0.5, 4), "log1p": ranged(ops("f32[2,3]"), 0, 0, 4),
		"sqrt": ranged(ops("f32[2,3]"), 0, 0, 4), "rsqrt": ranged(ops("f32[2,3]"), 0, 0.5, 4),
		"acosh": ranged(ops("f32[2,3]"), 0, 1, 4), "asin": ranged(ops("f32[2,3]"), 0, -0.875, 0.875),
		"acos": ranged(ops("f32[2,3]"), 0, -0.875, 0.875), "atanh": ranged(ops("f32[2,3]"), 0, -0.875, 0.875),
		"erf_inv": ranged(ops("f32[2,3]"), 0, -0.875, 0.875),
		"not":     ops("i32[2,3]"), "population_count": ops("i32[2,3]"),
		"real": ops("c64[2,3]"), "imag": ops("c64[2,3]"), "conj": ops("c64[2,3]"),
	}
	unaryParams := map[string]trace.Params{
		"round":            {"rounding_method": trace.RoundToNearestEven},
		"integer_pow":      {"y": 3},
		"reduce_precision": {"exponent_bits": 5, "mantissa_bits": 2},
		"conj":             {"input_dtype": trace.Complex64},
	}
	binary := map[string][]operand{
		"rem":                    ranged(ops("f32[2,3]", "f32[2,3]"), 1, 0.5, 3),
		"and":                    ops("i32[2,3]", "i32[2,3]"),
		"or":                     ops("bool[2,3]", "bool[2,3]"),
		"xor":                    ops("u32[2,3]", "u32[2,3]"),
		"shift_left":             ranged(ops("i32[2,3]", "i32[2,3]"), 1, 0, 31),
		"shift_right_logical":    ranged(ops("i32[2,3]", "i32[2,3]"), 1, 0, 31),
		"shift_right_arithmetic": ranged(ops("i32[2,3]", "i32[2,3]"), 1, 0, 31),
	}
	for _, p := range trace.Primitives() {
		if !p.Has(trace.Elementwise) || p.MaxIn != p.MinIn || p.MaxIn > 2 {
			continue
		}
		switch p.MinIn {
		case 1:
			in, ok := unary[p.Name]
			if !ok {
				in = ops("f32[2,3]")
			}
			if p.Name == "convert_element_type" {
				add(p.Name, trace.Params{"new_dtype": trace.Int32, "weak_type": false}, in)
				continue
			}
			add(p.Name, unaryParams[p.Name], in)
		case 2:
			in, ok := binary[p.Name]
			if !ok {
				in = ops("f32[2,3]", "f32[2,3]")
			}
			if p.Name == "pow" {
				in = ranged(in, 0, 0.5, 3)
			}
			add(p.Name, nil, in)
		}
	}
	// Broadcasting inside elementwise rules: a scalar operand, a size-1 one.
	add("add", nil, ops("f32[2,3]", "f32[]"))
	add("mul", nil, ops("f32[1,3]", "f32[2,3]"))
	add("lt", nil, ops("f32[]", "f32[3]"))
	add("conj", trace.Params{"input_dtype": trace.Float32}, ops("f32[2,3]"))
	add("select_n", nil, ops("bool[2,3]", "f32[2,3]", "f32[2,3]"))
	add("select_n", nil, ops("bool[]", "f32[2,3]", "f32[2,3]"))
	add("select_n", nil, ranged(ops("i32[4]", "f32[4]", "f32[4]", "f32[4]"), 0, 0, 2))
	add("clamp", nil, ops("f32[]", "f32[2,3]", "f32[]"))
	add("clamp", nil, ops("f32[2,3]", "f32[2,3]", "f32[2,3]"))
	add("threefry2x32", nil, ranged(ranged(ranged(ranged(ops("u32[4]", "u32[4]", "u32[4]", "u32[4]"), 0, 0, 1e9), 1, 0, 1e9), 2, 0, 1e9), 3, 0, 1e9))
	add("threefry2x32", nil, ranged(ranged(ops("u32[]", "u32[]", "u32[5]", "u32[5]"), 0, 0, 1e9), 1, 0, 1e9))
	add("bitcast_convert_type", trace.Params{"new_dtype": trace.Int32}, ops("f32[2,3]"))
	add("bitcast_convert_type", trace.Params{"new_dtype": trace.Uint32}, ranged(ops("u8[2,4]"), 0, 0, 255))

	// Structural primitives.
	add("broadcast_in_dim", trace.Params{"shape": []int{2, 3}, "broadcast_dimensions": []int{1}}, ops("f32[3]"))
	add("broadcast_in_dim", trace.Params{"shape": []int{4, 2, 3}, "broadcast_dimensions": []int{0, 2}}, ops("f32[1,3]"))
	add("reshape", trace.Params{"new_sizes": []int{3, 2}}, ops("f32[2,3]"))
	add("transpose", trace.Params{"permutation": []int{2, 0, 1}}, ops("f32[2,3,4]"))
	add("squeeze", trace.Params{"dimensions": []int{1}}, ops("f32[2,1,3]"))
	add("rev", trace.Params{"dimensions": []int{1}}, ops("f32[2,3]"))
	add("slice", trace.Params{"start_indices": []int{1, 0}, "limit_indices": []int{5, 3}, "strides": []int{2, 1}}, ops("f32[5,3]"))
	add("slice", trace.Params{"start_indices": []int{1, 1}, "limit_indices": []int{4, 3}, "strides": nil}, ops("f32[5,3]"))
	add("dynamic_slice", trace.Params{"slice_sizes": []int{2, 3}}, ranged(ranged(ops("f32[5,4]", "i32[]", "i32[]"), 1, -1, 6), 2, -1, 6))
	add("dynamic_update_slice", nil, ranged(ranged(ops("f32[5,4]", "f32[2,3]", "i32[]", "i32[]"), 2, -1, 6), 3, -1, 6))
	add("concatenate", trace.Params{"dimension": 0}, ops("f32[2,3]", "f32[4,3]"))
	add("concatenate", trace.Params{"dimension": 1}, ops("f32[2,3]", "f32[2,1]", "f32[2,2]"))
	add("pad", trace.Params{"padding_config": trace.PaddingConfig{{Lo: 1, Hi: 2}, {Lo: 0, Hi: -1, Interior: 1}}}, ops("f32[2,3]", "f32[]"))

	// Indexing.
	add("gather", trace.Params{
		"dimension_numbers": trace.GatherDimensionNumbers{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}},
		"slice_sizes":       []int{1, 3}, "indices_are_sorted": false, "unique_indices": false,
		"mode": trace.GatherClip, "fill_value": nil,
	}, ranged(ops("f32[5,3]", "i32[4,1]"), 1, -1, 6))
	add("gather", trace.Params{
		"dimension_numbers": trace.GatherDimensionNumbers{CollapsedSliceDims: []int{0, 1}, StartIndexMap: []int{0, 1}},
		"slice_sizes":       []int{1, 1}, "indices_are_sorted": false, "unique_indices": false,
		"mode": trace.GatherFillOrDrop, "fill_value": nil,
	}, ranged(ops("f32[4,5]", "i32[3,2]"), 1, -1, 5))
	add("gather", trace.Params{
		"dimension_numbers": trace.GatherDimensionNumbers{OffsetDims: []int{1}, CollapsedSliceDims: []int{1},
			StartIndexMap: []int{1}, OperandBatchingDims: []int{0}, StartIndicesBatchingDims: []int{0}},
		"slice_sizes": []int{1, 1, 2}, "indices_are_sorted": false, "unique_indices": false,
		"mode": trace.GatherClip, "fill_value": nil,
	}, ranged(ops("f32[2,4,2]", "i32[2,1]"), 1, 0, 3))
	for _, name := range []string{"scatter", "scatter-add", "scatter-mul", "scatter-min", "scatter-max"} {
		in := ops("f32[5,3]", "i32[2,1]", "f32[2,3]")
		in[1].lo, in[1].hi, in[1].distinct = 0, 4, true
		add(name, trace.Params{
			"dimension_numbers":  trace.ScatterDimensionNumbers{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}},
			"indices_are_sorted": false, "unique_indices": false, "mode": trace.GatherFillOrDrop,
		}, in)
	}

	// Reductions.
	for _, name := range []string{"reduce_sum", "reduce_prod", "reduce_max", "reduce_min"} {
		add(name, trace.Params{"axes": []int{2, 0}}, ops("f32[2,3,4]"))
	}
	add("reduce_and", trace.Params{"axes": []int{1}}, ops("bool[2,3]"))
	add("reduce_or", trace.Params{"axes": []int{0}}, ops("bool[2,3]"))
	add("argmax", trace.Params{"axes": []int{1}, "index_dtype": trace.Int32}, ops("f32[3,4]"))
	add("argmin", trace.Params{"axes": []int{0}, "index_dtype": trace.Int32}, ops("f32[3,4]"))
	for _, name := range []string{"cumsum", "cumprod", "cummax", "cummin"} {
		add(name, trace.Params{"axis": 1, "reverse": name == "cumsum"}, ops("f32[3,4]"))
	}
	add("sort", trace.Params{"dimension": 1, "is_stable": true, "num_keys": 1}, ops("f32[3,4]"))
	add("sort", trace.Params{"dimension": 0, "is_stable": true, "num_keys": 1}, ops("f32[4,2]", "i32[4,2]"))
	dot := func(lc, rc, lb, rb []int) trace.Params {
		return trace.Params{"dimension_numbers": trace.DotDimensionNumbers{LhsContracting: lc, RhsContracting: rc, LhsBatch: lb, RhsBatch: rb},
			"precision": nil, "preferred_element_type": nil}
	}
	add("dot_general", dot([]int{1}, []int{0}, nil, nil), ops("f32[2,3]", "f32[3,4]"))
	add("dot_general", dot([]int{1}, []int{0}, nil, nil), ops("f32[2,3]", "f32[3]"))
	add("dot_general", dot([]int{2}, []int{1}, []int{0}, []int{0}), ops("f32[2,3,4]", "f32[2,4,5]"))
	add("dot_general", dot([]int{0}, []int{1}, nil, nil), ops("f32[3,2]", "f32[4,3]"))
	// Outer products: both batched, a batch of them (per-example gradients).
	add("dot_general", dot(nil, nil, nil, nil), ops("f32[2]", "f32[3]"))
	add("dot_general", dot(nil, nil, []int{1}, []int{0}), ops("f32[3,2]", "f32[2,4]"))
	add("dot_general", dot(nil, nil, nil, nil), ops("i32[2]", "i32[3]"))

	fft := func(kind trace.Ident, lengths ...int) trace.Params {
		return trace.Params{"fft_type": kind, "fft_lengths": lengths}
	}
	add("fft", fft(trace.FFTForward, 4), ops("c64[2,4]"))
	add("fft", fft(trace.FFTInverse, 2, 4), ops("c64[3,2,4]"))
	add("fft", fft(trace.FFTRealForward, 4), ops("f32[3,4]"))
	add("fft", fft(trace.FFTRealInverse, 4), ops("c64[2,3]"))

	add("cholesky", nil, ops("f32[3,3]"))
	add("lu", nil, ops("f32[3,2]"))
	add("qr", trace.Params{"full_matrices": true, "pivoting": false}, ops("f32[2,3,2]"))
	add("eigh", trace.Params{"lower": true, "sort_eigenvalues": true, "subset_by_index": nil}, ops("f32[3,3]"))
	add("eig", trace.Params{"compute_left_eigenvectors": false, "compute_right_eigenvectors": true}, ops("f32[3,3]"))
	add("svd", trace.Params{"full_matrices": false, "compute_uv": true, "subset_by_index": nil}, ops("f32[2,4,3]"))
	add("triangular_solve", trace.Params{"left_side": true, "lower": true, "transpose_a": false,
		"conjugate_a": false, "unit_diagonal": false}, ops("f32[3,3]", "f32[3,2]"))

	add("optimization_barrier", nil, ops("f32[2]", "i32[3]"))
	add("stop_gradient", nil, ops("f32[2]", "i32[3]"))
	return cs
}

// TestOutAxes moves the batch axis of results where out_axes says, and
// refuses a batched result whose out_axes is None.
func TestOutAxes(t *testing.T) {
	j := oneEqn(t, "sin", nil, ops("f32[2,3]"))
	r := rand.New(rand.NewSource(2))
	x := draw(r, operand{aval: av("f32[2,3,3]")})
	for _, out := range []int{0, 1, 2} {
		bj, err := batching.Jaxpr(j, 3, []int{2}, []int{out})
		if err != nil {
			t.Fatal(err)
		}
		got, err := run(compile(t, bj), []value{x})
		if err != nil {
			t.Fatal(err)
		}
		var per []value
		for k := range 3 {
			outs, err := run(compile(t, j), []value{unstack(x, 2, k)})
			if err != nil {
				t.Fatal(err)
			}
			per = append(per, outs[0])
		}
		if err := closeTo(got[0], stack(per, out)); err != nil {
			t.Errorf("out axis %d: %v", out, err)
		}
	}
	if _, err := batching.Jaxpr(j, 3, []int{0}, []int{trace.NotBatched}); err == nil ||
		!strings.Contains(err.Error(), "vmap has mapped output (output 0) but out_axes is None") {
		t.Errorf("batched output with out_axes None: got %v", err)
	}
	// An unbatched output may have out_axes None, and is broadcast for 0.
	c := oneEqn(t, "add", nil, ops("f32[2]", "f32[2]"))
	bj, err := batching.Jaxpr(c, 4, []int{0, trace.NotBatched}, []int{0})
	if err != nil || !slices.Equal([]int(bj.OutAvals()[0].Shape), []int{4, 2}) {
		t.Errorf("batched add: %v %v", err, bj)
	}
}
