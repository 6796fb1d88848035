package export_test

import (
	"fmt"
	"testing"

	"github.com/jaxsh/jaxsh/export"
	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
)

// A corpus of jaxprs for the round-trip and golden tests: one program per
// primitive that takes params (built by hand), one per parameterless
// primitive (built by trying operand types until the shape rule accepts
// them), and a few programs mixing control flow, effects, constants and
// literals.

// jb builds one jaxpr, failing the test on any error.
type jb struct {
	t *testing.T
	b *trace.Builder
}

func newJB(t *testing.T) *jb { return &jb{t: t, b: trace.NewBuilder()} }

func (j *jb) in(dt trace.DType, shape ...int) *trace.Var {
	return j.b.Input(trace.NewAVal(dt, shape...))
}

func (j *jb) bind(prim string, params trace.Params, in ...trace.Atom) []*trace.Var {
	j.t.Helper()
	outs, err := j.b.Bind(prim, in, params, trace.Pos{File: "corpus.star", Line: 1, Col: 1})
	if err != nil {
		j.t.Fatalf("bind %s: %v", prim, err)
	}
	return outs
}

func (j *jb) one(prim string, params trace.Params, in ...trace.Atom) *trace.Var {
	j.t.Helper()
	return j.bind(prim, params, in...)[0]
}

func (j *jb) build(outs ...trace.Atom) *trace.Jaxpr {
	j.t.Helper()
	out, err := j.b.Build(outs)
	if err != nil {
		j.t.Fatal(err)
	}
	return out
}

func lit(t *testing.T, v any, dt trace.DType, weak bool) *trace.Literal {
	t.Helper()
	l, err := trace.NewLiteral(v, dt, weak)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// testCallback is a host callback as the embedding layer would store it:
// a name, a kind and a description.
type testCallback struct {
	name, kind string
	spec       []byte
}

func (c *testCallback) CallbackName() string        { return c.name }
func (c *testCallback) CallbackKind() string        { return c.kind }
func (c *testCallback) ExportSpec() ([]byte, error) { return c.spec, nil }

func bindTest(name string) export.BindFunc {
	return func(kind string, spec []byte) (trace.Callback, error) {
		return &testCallback{name: name, kind: kind, spec: spec}, nil
	}
}

// single wraps a one-equation program: f32[3] in, the equation's outputs out.
func single(t *testing.T, prim string, params trace.Params, in ...trace.AVal) *trace.Jaxpr {
	j := newJB(t)
	atoms := make([]trace.Atom, len(in))
	for i, a := range in {
		atoms[i] = j.b.Input(a)
	}
	var res []trace.Atom
	for _, o := range j.bind(prim, params, atoms...) {
		if !o.Aval().IsToken() { // programs return arrays; the compiler threads tokens
			res = append(res, o)
		}
	}
	return j.build(res...)
}

func av(dt trace.DType, shape ...int) trace.AVal { return trace.NewAVal(dt, shape...) }

var (
	f32 = trace.Float32
	i32 = trace.Int32
)

func gatherRows(mode trace.GatherScatterMode, fill any) trace.Params {
	return trace.Params{
		"dimension_numbers":  trace.GatherDimensionNumbers{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}},
		"slice_sizes":        []int{1, 3},
		"indices_are_sorted": false, "unique_indices": false, "mode": mode, "fill_value": fill,
	}
}

func scatterRows() trace.Params {
	return trace.Params{
		"dimension_numbers":  trace.ScatterDimensionNumbers{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}},
		"indices_are_sorted": true, "unique_indices": false, "mode": trace.GatherFillOrDrop,
	}
}

// paramPrograms builds one program for each primitive that takes params.
func paramPrograms(t *testing.T) map[string]*trace.Jaxpr {
	tap := &testCallback{name: "tap_fn", kind: "id_tap", spec: []byte("tap spec")}
	host := &testCallback{name: "host_fn", kind: "call", spec: []byte{0, 1, 2}}
	progs := map[string]*trace.Jaxpr{
		"argmax":               single(t, "argmax", trace.Params{"axes": []int{1}, "index_dtype": i32}, av(f32, 2, 3)),
		"argmin":               single(t, "argmin", trace.Params{"axes": []int{0}, "index_dtype": trace.Int64}, av(f32, 2, 3)),
		"bitcast_convert_type": single(t, "bitcast_convert_type", trace.Params{"new_dtype": trace.Uint32}, av(f32, 3)),
		"broadcast_in_dim":     single(t, "broadcast_in_dim", trace.Params{"shape": []int{2, 3}, "broadcast_dimensions": []int{1}}, av(f32, 3)),
		"call": single(t, "call", trace.Params{"callback": host, "result_avals": []trace.AVal{av(f32, 2), av(i32)},
			"call_with_device": false, "ordered": true}, av(f32, 3)),
		"concatenate":          single(t, "concatenate", trace.Params{"dimension": 0}, av(f32, 3), av(f32, 2)),
		"conj":                 single(t, "conj", trace.Params{"input_dtype": trace.Complex64}, av(trace.Complex64, 3)),
		"convert_element_type": single(t, "convert_element_type", trace.Params{"new_dtype": trace.Float64, "weak_type": false}, av(f32, 3)),
		"convert_weak":         single(t, "convert_element_type", trace.Params{"new_dtype": f32, "weak_type": true}, av(i32, 3)),
		"cummax":               single(t, "cummax", trace.Params{"axis": 0, "reverse": true}, av(f32, 4)),
		"cummin":               single(t, "cummin", trace.Params{"axis": 1, "reverse": false}, av(i32, 2, 3)),
		"cumprod":              single(t, "cumprod", trace.Params{"axis": 0, "reverse": false}, av(f32, 4)),
		"cumsum":               single(t, "cumsum", trace.Params{"axis": 0, "reverse": true}, av(f32, 4)),
		"debug_print":          single(t, "debug_print", trace.Params{"fmt": "x={} y={{}} {}", "ordered": true}, av(f32, 3), av(i32)),
		"debug_print_unord":    single(t, "debug_print", trace.Params{"fmt": "plain 'quoted' \"text\"\n", "ordered": false}),
		"dot_general": single(t, "dot_general", trace.Params{
			"dimension_numbers": trace.DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}},
			"precision":         trace.PrecisionConfig{trace.PrecisionHighest, trace.PrecisionDefault}, "preferred_element_type": nil,
		}, av(f32, 2, 3), av(f32, 3, 4)),
		"dot_general_batch": single(t, "dot_general", trace.Params{
			"dimension_numbers": trace.DotDimensionNumbers{LhsContracting: []int{2}, RhsContracting: []int{1}, LhsBatch: []int{0}, RhsBatch: []int{0}},
			"precision":         nil, "preferred_element_type": f32,
		}, av(f32, 2, 2, 3), av(f32, 2, 3, 2)),
		"dynamic_slice":    single(t, "dynamic_slice", trace.Params{"slice_sizes": []int{2}}, av(f32, 5), av(i32)),
		"gather":           single(t, "gather", gatherRows(trace.GatherClip, nil), av(f32, 4, 3), av(i32, 2, 1)),
		"gather_fill":      single(t, "gather", gatherRows(trace.GatherFillOrDrop, -1.5), av(f32, 4, 3), av(i32, 2, 1)),
		"gather_promise":   single(t, "gather", gatherRows(trace.GatherPromiseInBounds, nil), av(f32, 4, 3), av(i32, 2, 1)),
		"id_tap":           single(t, "id_tap", trace.Params{"callback": tap, "tap_with_device": true}, av(f32, 3), av(i32, 2)),
		"integer_pow":      single(t, "integer_pow", trace.Params{"y": -3}, av(f32, 3)),
		"iota":             single(t, "iota", trace.Params{"dtype": i32, "shape": []int{2, 3}, "dimension": 1}),
		"pad":              single(t, "pad", trace.Params{"padding_config": trace.PaddingConfig{{Lo: 1, Hi: -1, Interior: 2}}}, av(f32, 3), av(f32)),
		"reduce_and":       single(t, "reduce_and", trace.Params{"axes": []int{0}}, av(trace.Bool, 3)),
		"reduce_or":        single(t, "reduce_or", trace.Params{"axes": []int{0, 1}}, av(trace.Bool, 2, 3)),
		"reduce_max":       single(t, "reduce_max", trace.Params{"axes": []int{1}}, av(f32, 2, 3)),
		"reduce_min":       single(t, "reduce_min", trace.Params{"axes": []int{}}, av(i32, 2, 3)),
		"reduce_prod":      single(t, "reduce_prod", trace.Params{"axes": []int{0}}, av(f32, 3)),
		"reduce_sum":       single(t, "reduce_sum", trace.Params{"axes": []int{0, 1}}, av(f32, 2, 3)),
		"reduce_precision": single(t, "reduce_precision", trace.Params{"exponent_bits": 5, "mantissa_bits": 10}, av(f32, 3)),
		"reshape":          single(t, "reshape", trace.Params{"new_sizes": []int{3, 1}}, av(f32, 3)),
		"rev":              single(t, "rev", trace.Params{"dimensions": []int{0}}, av(f32, 3)),
		"round":            single(t, "round", trace.Params{"rounding_method": trace.RoundToNearestEven}, av(f32, 3)),
		"round_away":       single(t, "round", trace.Params{"rounding_method": trace.RoundAwayFromZero}, av(f32, 3)),
		"slice":            single(t, "slice", trace.Params{"start_indices": []int{1}, "limit_indices": []int{5}, "strides": []int{2}}, av(f32, 6)),
		"slice_nostride":   single(t, "slice", trace.Params{"start_indices": []int{0, 1}, "limit_indices": []int{2, 3}, "strides": nil}, av(f32, 2, 3)),
		"sort":             single(t, "sort", trace.Params{"dimension": 0, "is_stable": true, "num_keys": 1}, av(f32, 5), av(i32, 5)),
		"squeeze":          single(t, "squeeze", trace.Params{"dimensions": []int{0}}, av(f32, 1, 3)),
		"transpose":        single(t, "transpose", trace.Params{"permutation": []int{1, 0}}, av(f32, 2, 3)),
	}
	for _, s := range []string{"scatter", "scatter-add", "scatter-max", "scatter-min", "scatter-mul"} {
		progs[s] = single(t, s, scatterRows(), av(f32, 4, 3), av(i32, 2, 1), av(f32, 2, 3))
	}
	sq := av(f32, 3, 3)
	progs["fft"] = single(t, "fft", trace.Params{"fft_type": trace.FFTForward, "fft_lengths": []int{4}}, av(trace.Complex64, 2, 4))
	progs["rfft"] = single(t, "fft", trace.Params{"fft_type": trace.FFTRealForward, "fft_lengths": []int{2, 4}}, av(f32, 2, 4))
	progs["irfft"] = single(t, "fft", trace.Params{"fft_type": trace.FFTRealInverse, "fft_lengths": []int{6}}, av(trace.Complex64, 4))
	progs["eig"] = single(t, "eig", trace.Params{"compute_left_eigenvectors": false, "compute_right_eigenvectors": true}, sq)
	progs["eigh"] = single(t, "eigh", trace.Params{"lower": true, "sort_eigenvalues": true, "subset_by_index": nil}, sq)
	progs["qr"] = single(t, "qr", trace.Params{"full_matrices": false, "pivoting": false}, av(f32, 4, 3))
	progs["svd"] = single(t, "svd", trace.Params{"full_matrices": false, "compute_uv": true, "subset_by_index": nil}, av(f32, 4, 3))
	progs["triangular_solve"] = single(t, "triangular_solve", trace.Params{"left_side": true, "lower": true, "transpose_a": false,
		"conjugate_a": false, "unit_diagonal": false}, sq, av(f32, 3, 2))
	progs["checkpoint"] = single(t, "checkpoint", trace.Params{"jaxpr": unary(t, "sin"), "prevent_cse": true, "differentiated": false,
		"policy": trace.Ident("nothing_saveable")}, av(f32, 3))
	progs["custom_jvp_call"] = single(t, "custom_jvp_call", trace.Params{"call_jaxpr": unary(t, "sin"), "jvp_jaxpr": jvpOfSin(t),
		"num_consts": 0, "symbolic_zeros": false}, av(f32, 3))
	progs["custom_vjp_call"] = single(t, "custom_vjp_call", trace.Params{"call_jaxpr": unary(t, "sin"), "fwd_jaxpr": fwdOfSin(t),
		"bwd_jaxpr": bwdOfSin(t), "num_res": 1, "symbolic_zeros": false}, av(f32, 3))
	progs["custom_lin"] = single(t, "custom_lin", trace.Params{"bwd_jaxpr": bwdOfSin(t), "num_res": 1, "out_avals": []trace.AVal{av(f32, 3)}},
		av(f32, 3), av(f32, 3))
	progs["call_exported"] = single(t, "call_exported", trace.Params{"name": trace.Ident("g"), "jaxpr": unary(t, "cos")}, av(f32, 3))
	progs["jit"] = jitProgram(t)
	progs["cond"] = condProgram(t)
	progs["while"] = whileProgram(t)
	progs["scan"] = scanProgram(t)
	return progs
}

// unary is x -> prim(x) on f32[3].
func unary(t *testing.T, prim string) *trace.Jaxpr {
	j := newJB(t)
	x := j.in(f32, 3)
	return j.build(j.one(prim, nil, x))
}

// jvpOfSin maps (x, dx) to (sin x, cos x * dx).
func jvpOfSin(t *testing.T) *trace.Jaxpr {
	j := newJB(t)
	x, dx := j.in(f32, 3), j.in(f32, 3)
	return j.build(j.one("sin", nil, x), j.one("mul", nil, j.one("cos", nil, x), dx))
}

// fwdOfSin maps x to (sin x, residual cos x).
func fwdOfSin(t *testing.T) *trace.Jaxpr {
	j := newJB(t)
	x := j.in(f32, 3)
	return j.build(j.one("sin", nil, x), j.one("cos", nil, x))
}

// bwdOfSin maps (cos x, ct) to ct * cos x.
func bwdOfSin(t *testing.T) *trace.Jaxpr {
	j := newJB(t)
	c, ct := j.in(f32, 3), j.in(f32, 3)
	return j.build(j.one("mul", nil, ct, c))
}

// jitProgram nests a jit whose body prints, as the golden jaxpr of trace.
func jitProgram(t *testing.T) *trace.Jaxpr {
	inner := newJB(t)
	x := inner.in(f32, 2, 3)
	inner.bind("debug_print", trace.Params{"fmt": "x={}", "ordered": true}, x)
	inner.bind("debug_print", trace.Params{"fmt": "again", "ordered": true})
	body := inner.build(inner.one("exp", nil, x))

	outer := newJB(t)
	a := outer.in(f32, 2, 3)
	b := outer.one("jit", trace.Params{"name": trace.Ident("printing_fn"), "jaxpr": body}, a)
	return outer.build(outer.one("mul", nil, b, lit(t, 2.0, f32, true)))
}

func condProgram(t *testing.T) *trace.Jaxpr {
	branch := func(prim string) *trace.Jaxpr {
		j := newJB(t)
		x := j.in(f32, 3)
		j.bind("debug_print", trace.Params{"fmt": prim + " {}", "ordered": true}, x)
		return j.build(j.one(prim, nil, x))
	}
	j := newJB(t)
	idx, x := j.in(i32), j.in(f32, 3)
	out := j.one("cond", trace.Params{"branches": []*trace.Jaxpr{branch("sin"), branch("cos"), branch("neg")}}, idx, x)
	return j.build(out)
}

func whileProgram(t *testing.T) *trace.Jaxpr {
	c := newJB(t)
	limit, i, _ := c.in(i32), c.in(i32), c.in(f32, 3)
	cond := c.build(c.one("lt", nil, i, limit))

	b := newJB(t)
	i2, acc := b.in(i32), b.in(f32, 3)
	b.bind("id_tap", trace.Params{"callback": &testCallback{name: "loop_tap", kind: "id_tap"}, "tap_with_device": false}, acc)
	body := b.build(b.one("add", nil, i2, lit(t, int64(1), i32, true)), b.one("mul", nil, acc, lit(t, 1.5, f32, true)))

	j := newJB(t)
	n, x := j.in(i32), j.in(f32, 3)
	outs := j.bind("while", trace.Params{"cond_jaxpr": cond, "cond_nconsts": 1, "body_jaxpr": body, "body_nconsts": 0},
		n, lit(t, int64(0), i32, false), x)
	return j.build(outs[0], outs[1])
}

func scanProgram(t *testing.T) *trace.Jaxpr {
	b := newJB(t)
	scale, carry, x := b.in(f32), b.in(f32), b.in(f32, 2)
	next := b.one("add", nil, carry, b.one("reduce_sum", trace.Params{"axes": []int{0}}, x))
	y := b.one("mul", nil, x, scale)
	body := b.build(next, y)

	j := newJB(t)
	s, c0, xs := j.in(f32), j.in(f32), j.in(f32, 4, 2)
	outs := j.bind("scan", trace.Params{"jaxpr": body, "length": 4, "reverse": true, "num_consts": 1, "num_carry": 1, "unroll": 2},
		s, c0, xs)
	return j.build(outs[0], outs[1])
}

// autoPrograms builds a program for each primitive without params, with
// the first operand count and dtype its shape rule accepts.
func autoPrograms(t *testing.T) (map[string]*trace.Jaxpr, []string) {
	progs := map[string]*trace.Jaxpr{}
	var missed []string
	dtypes := []trace.DType{f32, i32, trace.Uint32, trace.Bool, trace.Complex64}
	for _, p := range trace.Primitives() {
		if len(p.Params) > 0 || p.Name == "create_token" { // a token result: see mixedPrograms
			continue
		}
		found := false
		for n := p.MinIn; !found && n <= 4 && (p.MaxIn < 0 || n <= p.MaxIn); n++ {
			for _, try := range dtypes {
				dt, shape := try, []int{3}
				if p.Name == "cholesky" || p.Name == "lu" { // square matrices
					shape = []int{3, 3}
				}
				in := make([]trace.AVal, n)
				for i := range in {
					in[i] = av(dt, shape...)
				}
				if p.Name == "select_n" && n > 1 {
					in[0] = av(trace.Bool, 3)
				}
				if p.Name == "dynamic_update_slice" && n == 3 {
					in[1], in[2] = av(dt, 2), av(i32)
				}
				if _, _, err := p.Infer(in, trace.Params{}); err != nil {
					continue
				}
				progs[p.Name] = single(t, p.Name, trace.Params{}, in...)
				found = true
				break
			}
		}
		if !found {
			missed = append(missed, p.Name)
		}
	}
	return progs, missed
}

// mixedPrograms combine features: constants, literals of every kind,
// effects of every kind, nested control flow.
func mixedPrograms(t *testing.T) map[string]*trace.Jaxpr {
	dev, err := jit.LookupDevice("cpu")
	if err != nil {
		t.Fatal(err)
	}
	data := make([]byte, 4*4)
	for i := range 4 {
		data[4*i+3] = 0x3f // 0.5 0.5 0.5 0.5 as float32 bits 0x3f000000
	}
	buf, err := jit.FromHost(dev, av(f32, 4), data)
	if err != nil {
		t.Fatal(err)
	}
	j := newJB(t)
	c := j.b.Const(buf, av(f32, 4))
	x, z := j.in(f32, 4), j.in(trace.Complex64)
	y := j.one("add", nil, x, c)
	y = j.one("mul", nil, y, lit(t, 3.25, f32, false))
	k := j.one("convert_element_type", trace.Params{"new_dtype": f32, "weak_type": false}, lit(t, int64(-7), i32, false))
	y = j.one("add", nil, y, k)
	zz := j.one("add", nil, z, lit(t, complex(1.5, -2), trace.Complex64, false))
	flag := j.one("and", nil, lit(t, true, trace.Bool, false), lit(t, false, trace.Bool, false))
	j.bind("debug_print", trace.Params{"fmt": "y={} z={} flag={}", "ordered": true}, y, zz, flag)
	j.bind("id_tap", trace.Params{"callback": &testCallback{name: "tap_fn", kind: "id_tap", spec: []byte("{}")}, "tap_with_device": false}, y)
	r := j.bind("call", trace.Params{"callback": &testCallback{name: "host_fn", kind: "call"}, "result_avals": []trace.AVal{av(f32, 4)},
		"call_with_device": true, "ordered": false}, y)
	mixed := j.build(r[0], zz, flag)

	// create_token starts a chain of tokens where an effect takes one.
	k2 := newJB(t)
	x2 := k2.in(f32, 2)
	k2.bind("debug_print", trace.Params{"fmt": "start {}", "ordered": true}, k2.one("create_token", nil), x2)
	return map[string]*trace.Jaxpr{"mixed": mixed, "create_token": k2.build(x2)}
}

// corpus is every program above, by name.
func corpus(t *testing.T) map[string]*trace.Jaxpr {
	all := paramPrograms(t)
	auto, missed := autoPrograms(t)
	if len(missed) > 0 {
		t.Logf("no automatic example for %v", missed)
	}
	for name, j := range auto {
		if _, dup := all[name]; dup {
			t.Fatalf("%s twice", name)
		}
		all[name] = j
	}
	for name, j := range mixedPrograms(t) {
		all[name] = j
	}
	return all
}

func mustExport(t *testing.T, name string, j *trace.Jaxpr) *export.Exported {
	t.Helper()
	e, err := export.New(name, j, nil, nil, "cpu", export.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func callbackBindings(e *export.Exported) map[string]export.BindFunc {
	binds := map[string]export.BindFunc{}
	for _, n := range e.CallbackNames() {
		binds[n] = bindTest(n)
	}
	return binds
}

var _ = fmt.Sprint
