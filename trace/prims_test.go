package trace

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// av parses an aval as jaxprs print it, with a leading ~ for weak types:
// "f32[2,3]", "~f32[]", "tok".
func av(t *testing.T, s string) AVal {
	t.Helper()
	if s == "tok" {
		return TokenAVal
	}
	weak := strings.HasPrefix(s, "~")
	s = strings.TrimPrefix(s, "~")
	name, dims, ok := strings.Cut(strings.TrimSuffix(s, "]"), "[")
	if !ok {
		t.Fatalf("bad aval %q", s)
	}
	dt, err := ParseDType(name)
	if err != nil {
		t.Fatal(err)
	}
	shape := Shape{}
	if dims != "" {
		for _, d := range strings.Split(dims, ",") {
			n, err := strconv.Atoi(d)
			if err != nil {
				t.Fatal(err)
			}
			shape = append(shape, n)
		}
	}
	return AVal{Shape: shape, DType: dt, Weak: weak}
}

func avalText(a AVal) string {
	if a.Weak {
		return "~" + a.String()
	}
	return a.String()
}

func gatherRowsParams() Params {
	return Params{
		"dimension_numbers":  GatherDimensionNumbers{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}},
		"slice_sizes":        []int{1, 3},
		"indices_are_sorted": false, "unique_indices": false, "mode": GatherClip, "fill_value": nil,
	}
}

func scatterRowsParams() Params {
	return Params{
		"dimension_numbers":  ScatterDimensionNumbers{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}},
		"indices_are_sorted": false, "unique_indices": false, "mode": GatherFillOrDrop,
	}
}

func dotParams(lc, rc, lb, rb []int, preferred any) Params {
	return Params{
		"dimension_numbers":      DotDimensionNumbers{LhsContracting: lc, RhsContracting: rc, LhsBatch: lb, RhsBatch: rb},
		"precision":              nil,
		"preferred_element_type": preferred,
	}
}

func TestShapeRules(t *testing.T) {
	identityJaxpr := func() *Jaxpr {
		tr := newTracer(t)
		x := tr.in(Float32, 3)
		return tr.build(tr.bind1("neg", nil, x))
	}
	tests := []struct {
		prim   string
		in     string // avals separated by spaces
		params Params
		want   string // output avals, or "error: <substring>"
	}{
		// Elementwise unary.
		{"neg", "i32[3]", nil, "i32[3]"},
		{"neg", "~f32[]", nil, "~f32[]"},
		{"neg", "bool[2]", nil, "error: does not accept dtype bool"},
		{"is_finite", "~f32[2]", nil, "bool[2]"},
		{"abs", "c64[2]", nil, "f32[2]"},
		{"abs", "~f32[]", nil, "~f32[]"},
		{"abs", "u8[2]", nil, "error: does not accept dtype uint8"},
		{"sin", "i32[3]", nil, "error: sin(i32[3]): does not accept dtype int32; accepted: floating, complex"},
		{"cbrt", "c64[]", nil, "error: does not accept dtype complex64"},
		{"not", "bool[2]", nil, "bool[2]"},
		{"not", "f32[2]", nil, "error: does not accept"},
		{"round", "bf16[2]", Params{"rounding_method": RoundToNearestEven}, "bf16[2]"},
		{"integer_pow", "f32[2]", Params{"y": -2}, "f32[2]"},
		{"integer_pow", "i32[2]", Params{"y": -2}, "error: integers cannot be raised to negative powers"},
		{"reduce_precision", "f32[2]", Params{"exponent_bits": 5, "mantissa_bits": 10}, "f32[2]"},
		{"reduce_precision", "f32[2]", Params{"exponent_bits": 0, "mantissa_bits": 10}, "error: exponent_bits must be positive"},
		{"population_count", "u32[2]", nil, "u32[2]"},
		{"copy", "bool[2]", nil, "bool[2]"},
		{"sin", "tok", nil, "error: does not accept dtype token"},
		// Elementwise binary: lax broadcasting of scalars and size-1 dims.
		{"add", "f32[3] f32[]", nil, "f32[3]"},
		{"add", "f32[1] f32[2]", nil, "f32[2]"},
		{"add", "f32[3] f32[4]", nil, "error: add(f32[3], f32[4]): incompatible shapes for broadcasting: (3,) and (4,)"},
		{"add", "f32[3] f32[2,3]", nil, "error: arrays must have the same number of dimensions, got (3,) and (2, 3)"},
		{"add", "f32[3] i32[3]", nil, "error: requires arguments to have the same dtypes, got float32, int32"},
		{"add", "~f32[] ~f32[]", nil, "~f32[]"},
		{"add", "~f32[3] f32[3]", nil, "f32[3]"},
		{"add", "bool[3] bool[3]", nil, "error: does not accept dtype bool at position 0"},
		{"max", "bool[3] bool[3]", nil, "bool[3]"},
		{"rem", "c64[3] c64[3]", nil, "error: does not accept dtype complex64"},
		{"eq", "~f32[] ~f32[]", nil, "bool[]"},
		{"lt", "c64[] c64[]", nil, "error: does not accept dtype complex64"},
		{"shift_left", "f32[] f32[]", nil, "error: does not accept dtype float32"},
		{"and", "bool[2] bool[2]", nil, "bool[2]"},
		{"pow", "f32[3] i32[]", nil, "f32[3]"},
		{"pow", "f32[3] f32[3]", nil, "f32[3]"},
		{"pow", "f32[] f64[]", nil, "error: the base must be floating or complex"},
		{"pow", "i32[] i32[]", nil, "error: the base must be floating or complex"},
		{"add", "f32[3]", nil, "error: add(f32[3]): takes 2 operands, got 1"},
		// select_n, clamp, conversions.
		{"select_n", "bool[3] f32[3] f32[3]", nil, "f32[3]"},
		{"select_n", "i32[] ~f32[2] ~f32[2] ~f32[2]", nil, "~f32[2]"},
		{"select_n", "bool[] f32[2] f32[2] f32[2]", nil, "error: a bool which selects between at most 2 cases"},
		{"select_n", "bool[2] f32[3] f32[3]", nil, "error: which must be a scalar or have the cases' shape"},
		{"select_n", "bool[] f32[3] i32[3]", nil, "error: same dtypes"},
		{"select_n", "f32[] f32[3] f32[3]", nil, "error: which must be bool or an integer"},
		{"clamp", "f32[] f32[3] f32[]", nil, "f32[3]"},
		{"clamp", "f32[2] f32[3] f32[]", nil, "error: min must be a scalar or have the operand's shape"},
		{"convert_element_type", "~f32[3]", Params{"new_dtype": Int32, "weak_type": false}, "i32[3]"},
		{"convert_element_type", "i32[3]", Params{"new_dtype": Float32, "weak_type": true}, "~f32[3]"},
		{"convert_element_type", "i32[3]", Params{"new_dtype": Bool, "weak_type": true}, "bool[3]"},
		{"convert_element_type", "i32[3]", Params{"new_dtype": Token, "weak_type": false}, "error: cannot convert to token"},
		{"bitcast_convert_type", "f32[3]", Params{"new_dtype": Int32}, "i32[3]"},
		{"bitcast_convert_type", "f32[3]", Params{"new_dtype": Uint8}, "u8[3,4]"},
		{"bitcast_convert_type", "u8[3,4]", Params{"new_dtype": Float32}, "f32[3]"},
		{"bitcast_convert_type", "u8[3,3]", Params{"new_dtype": Float32}, "error: needs a last dimension of 4"},
		{"threefry2x32", "u32[4] u32[4] u32[] u32[4]", nil, "u32[4] u32[4]"},
		{"threefry2x32", "u32[4] u32[4] u32[4] i32[4]", nil, "error: does not accept dtype int32"},
		// Shapes.
		{"broadcast_in_dim", "f32[3]", Params{"shape": []int{2, 3}, "broadcast_dimensions": []int{1}}, "f32[2,3]"},
		{"broadcast_in_dim", "~f32[1]", Params{"shape": []int{4}, "broadcast_dimensions": []int{0}}, "~f32[4]"},
		{"broadcast_in_dim", "f32[3]", Params{"shape": []int{4}, "broadcast_dimensions": []int{0}}, "error: operand dimension 0 has size 3"},
		{"broadcast_in_dim", "f32[1,1]", Params{"shape": []int{2, 2}, "broadcast_dimensions": []int{1, 0}}, "error: strictly increasing"},
		{"broadcast_in_dim", "f32[3]", Params{"shape": []int{3}, "broadcast_dimensions": []int{}}, "error: one entry per operand dimension"},
		{"reshape", "f32[2,3]", Params{"new_sizes": []int{6}}, "f32[6]"},
		{"reshape", "f32[2,3]", Params{"new_sizes": []int{4}}, "error: cannot reshape 6 elements into shape (4,)"},
		{"transpose", "f32[2,3,4]", Params{"permutation": []int{2, 0, 1}}, "f32[4,2,3]"},
		{"transpose", "f32[2,3,4]", Params{"permutation": []int{0, 0, 1}}, "error: is not a permutation"},
		{"squeeze", "f32[1,3,1]", Params{"dimensions": []int{0, 2}}, "f32[3]"},
		{"squeeze", "f32[1,3,1]", Params{"dimensions": []int{1}}, "error: cannot squeeze dimension 1 of size 3"},
		{"squeeze", "f32[1,3,1]", Params{"dimensions": []int{-1}}, "error: out of range"},
		{"rev", "f32[2,3]", Params{"dimensions": []int{1}}, "f32[2,3]"},
		{"rev", "f32[2,3]", Params{"dimensions": []int{2}}, "error: out of range for rank 2"},
		{"slice", "f32[10]", Params{"start_indices": []int{2}, "limit_indices": []int{8}, "strides": []int{3}}, "f32[2]"},
		{"slice", "f32[10,4]", Params{"start_indices": []int{2, 0}, "limit_indices": []int{8, 4}, "strides": nil}, "f32[6,4]"},
		{"slice", "f32[10]", Params{"start_indices": []int{2}, "limit_indices": []int{11}, "strides": nil}, "error: needs 0 <= start <= limit <= size"},
		{"slice", "f32[10]", Params{"start_indices": []int{2}, "limit_indices": []int{8}, "strides": []int{0}}, "error: strides must be positive"},
		{"dynamic_slice", "f32[10,4] i32[] i32[]", Params{"slice_sizes": []int{3, 4}}, "f32[3,4]"},
		{"dynamic_slice", "f32[10,4] f32[] f32[]", Params{"slice_sizes": []int{3, 4}}, "error: start indices must be integer scalars"},
		{"dynamic_slice", "f32[10,4] i32[] i64[]", Params{"slice_sizes": []int{3, 4}}, "error: of one dtype"},
		{"dynamic_slice", "f32[10,4] i32[] i32[]", Params{"slice_sizes": []int{3, 5}}, "error: must lie within the operand shape"},
		{"dynamic_slice", "f32[10,4] i32[]", Params{"slice_sizes": []int{3, 4}}, "error: one start index and one slice size per dimension"},
		{"dynamic_update_slice", "f32[10] f32[3] i32[]", nil, "f32[10]"},
		{"dynamic_update_slice", "f32[10] f32[11] i32[]", nil, "error: must fit in operand shape"},
		{"dynamic_update_slice", "f32[10] i32[3] i32[]", nil, "error: same dtypes"},
		{"concatenate", "f32[2,3] f32[4,3]", Params{"dimension": 0}, "f32[6,3]"},
		{"concatenate", "f32[2,3] f32[4,2]", Params{"dimension": 0}, "error: shapes differ outside dimension 0"},
		{"concatenate", "f32[2,3] f32[3]", Params{"dimension": 0}, "error: different ranks"},
		{"pad", "f32[3] f32[]", Params{"padding_config": PaddingConfig{{1, 2, 1}}}, "f32[8]"},
		{"pad", "f32[3] f32[]", Params{"padding_config": PaddingConfig{{-1, -1, 0}}}, "f32[1]"},
		{"pad", "f32[3] f32[]", Params{"padding_config": PaddingConfig{{-2, -2, 0}}}, "error: negative size -1"},
		{"pad", "f32[3] f32[]", Params{"padding_config": PaddingConfig{{0, 0, -1}}}, "error: interior padding must be non-negative"},
		{"pad", "f32[3] f32[1]", Params{"padding_config": PaddingConfig{{0, 0, 0}}}, "error: padding value must be a scalar"},
		{"iota", "", Params{"dtype": Int32, "shape": []int{2, 3}, "dimension": 1}, "i32[2,3]"},
		{"iota", "", Params{"dtype": Bool, "shape": []int{2}, "dimension": 0}, "error: does not accept dtype bool"},
		{"iota", "", Params{"dtype": Int32, "shape": []int{2}, "dimension": 1}, "error: dimension 1 out of range"},
		// Reductions.
		{"reduce_sum", "f32[2,3]", Params{"axes": []int{1}}, "f32[2]"},
		{"reduce_sum", "~f32[2,3]", Params{"axes": []int{0, 1}}, "~f32[]"},
		{"reduce_sum", "bool[2]", Params{"axes": []int{0}}, "error: does not accept dtype bool"},
		{"reduce_sum", "f32[2,3]", Params{"axes": []int{2}}, "error: axes (2,) out of range for rank 2"},
		{"reduce_max", "f32[2,3]", Params{"axes": []int{1, 1}}, "error: axes (1, 1) repeat 1"},
		{"reduce_max", "bool[2,3]", Params{"axes": []int{1}}, "bool[2]"},
		{"reduce_or", "~i32[4]", Params{"axes": []int{0}}, "i32[]"},
		{"reduce_and", "f32[4]", Params{"axes": []int{0}}, "error: does not accept dtype float32"},
		{"argmax", "f32[2,3]", Params{"axes": []int{1}, "index_dtype": Int32}, "i32[2]"},
		{"argmin", "~f32[2,3]", Params{"axes": []int{0}, "index_dtype": Int64}, "i64[3]"},
		{"argmax", "f32[2,3]", Params{"axes": []int{0, 1}, "index_dtype": Int32}, "error: reduces exactly one axis"},
		{"argmax", "f32[2,3]", Params{"axes": []int{1}, "index_dtype": Float32}, "error: index_dtype must be an integer type"},
		{"argmax", "f32[2,0]", Params{"axes": []int{1}, "index_dtype": Int32}, "error: needs a non-empty reduced dimension"},
		{"cumsum", "f32[3]", Params{"axis": 0, "reverse": true}, "f32[3]"},
		{"cummax", "i8[3,2]", Params{"axis": 1, "reverse": false}, "i8[3,2]"},
		{"cumsum", "f32[3]", Params{"axis": 1, "reverse": false}, "error: axis (1,) out of range for rank 1"},
		{"cumprod", "bool[3]", Params{"axis": 0, "reverse": false}, "error: does not accept dtype bool"},
		{"sort", "f32[3] i32[3]", Params{"dimension": 0, "is_stable": true, "num_keys": 1}, "f32[3] i32[3]"},
		{"sort", "f32[3] i32[4]", Params{"dimension": 0, "is_stable": true, "num_keys": 1}, "error: operands must have equal shapes"},
		{"sort", "f32[3] i32[3]", Params{"dimension": 0, "is_stable": true, "num_keys": 3}, "error: num_keys must lie in [1, 2]"},
		// dot_general.
		{"dot_general", "f32[2,3] f32[3,4]", dotParams([]int{1}, []int{0}, nil, nil, Float32), "f32[2,4]"},
		{"dot_general", "f32[5,2,3] f32[5,3,4]", dotParams([]int{2}, []int{1}, []int{0}, []int{0}, nil), "f32[5,2,4]"},
		{"dot_general", "f32[3] f32[4]", dotParams(nil, nil, nil, nil, nil), "f32[3,4]"},
		{"dot_general", "f32[2,3] f32[4,4]", dotParams([]int{1}, []int{0}, nil, nil, nil), "error: contracting dimensions must have the same sizes, got (3,) and (4,)"},
		{"dot_general", "f32[5,2,3] f32[6,3,4]", dotParams([]int{2}, []int{1}, []int{0}, []int{0}, nil), "error: batch dimensions must have the same sizes"},
		{"dot_general", "f32[2,3] f32[3,4]", dotParams([]int{1}, []int{0}, []int{1}, []int{1}, nil), "error: both a batch and a contracting dimension"},
		{"dot_general", "i8[2,3] f32[3]", dotParams([]int{1}, []int{0}, nil, nil, nil), "f32[2]"},
		{"dot_general", "i8[2,3] i8[3]", dotParams([]int{1}, []int{0}, nil, nil, Int32), "i32[2]"},
		{"dot_general", "i32[2,3] i32[3]", dotParams([]int{1}, []int{0}, nil, nil, Int8), "error: must not be narrower"},
		{"dot_general", "bool[3] i8[3]", dotParams([]int{0}, []int{0}, nil, nil, nil), "i8[]"},
		{"dot_general", "u8[3] i8[3]", dotParams([]int{0}, []int{0}, nil, nil, nil), "i8[]"},
		// Indexing.
		{"gather", "f32[5,3] i32[4,1]", gatherRowsParams(), "f32[4,3]"},
		{"gather", "f32[5,3] f32[4,1]", gatherRowsParams(), "error: indices must have an integer dtype"},
		{"gather", "f32[5,3] i32[4,2]", gatherRowsParams(), "error: start_index_map (0,) has 1 entries but the index vector dimension"},
		{"scatter-add", "f32[5,3] i32[4,1] f32[4,3]", scatterRowsParams(), "f32[5,3]"},
		{"scatter", "bool[5,3] i32[4,1] bool[4,3]", scatterRowsParams(), "bool[5,3]"},
		{"scatter-add", "f32[5,3] i32[4,1] f32[4]", scatterRowsParams(), "error: updates must have rank 2, got 1"},
		{"scatter-mul", "f32[5,3] i32[4,1] f32[2,3]", scatterRowsParams(), "error: scatter dimension 0 of the updates has size 2"},
		{"scatter-max", "f32[5,3] i32[4,1] f32[4,4]", scatterRowsParams(), "error: window dimension 1 of the updates has size 4"},
		// Host operations and calls.
		{"debug_print", "f32[3] i32[]", Params{"fmt": "{} and {}", "ordered": true}, "tok"},
		{"debug_print", "tok f32[3]", Params{"fmt": "x={}", "ordered": true}, "tok"},
		{"debug_print", "", Params{"fmt": "{{literal}}", "ordered": false}, "tok"},
		{"debug_print", "f32[3]", Params{"fmt": "no fields", "ordered": true}, "error: has 0 {} fields for 1 arrays"},
		{"debug_print", "f32[3]", Params{"fmt": "{x}", "ordered": true}, "error: only automatic fields such as {}, {!r} and {:.3f} are supported"},
		{"debug_print", "f32[3] f32[]", Params{"fmt": "{!r:>30} loss {:+.4f}", "ordered": true}, "tok"},
		{"debug_print", "f32[3]", Params{"fmt": "{!q}", "ordered": true}, "error: only automatic fields"},
		{"debug_print", "f32[3]", Params{"fmt": "{0}", "ordered": true}, "error: only automatic fields"},
		{"id_tap", "f32[3] ~i32[]", Params{"callback": namedCallback("f"), "tap_with_device": true}, "f32[3] ~i32[]"},
		{"call", "f32[3]", Params{"callback": namedCallback("f"), "result_avals": []AVal{NewAVal(Int32, 2)}, "call_with_device": false, "ordered": false}, "i32[2]"},
		{"call", "f32[3]", Params{"callback": namedCallback("f"), "result_avals": []AVal{TokenAVal}, "call_with_device": false, "ordered": false}, "error: result_avals must be array avals"},
		{"jit", "f32[3]", Params{"name": Ident("f"), "jaxpr": identityJaxpr()}, "f32[3]"},
		{"jit", "~f32[3]", Params{"name": Ident("f"), "jaxpr": identityJaxpr()}, "f32[3]"},
		{"jit", "f32[4]", Params{"name": Ident("f"), "jaxpr": identityJaxpr()}, "error: operand 0 is f32[4] but the jaxpr's input is f32[3]"},
		{"jit", "f32[3] f32[3]", Params{"name": Ident("f"), "jaxpr": identityJaxpr()}, "error: jaxpr takes 1 inputs, got 2"},
		{"optimization_barrier", "f32[3] tok", nil, "f32[3] tok"},
		{"create_token", "", nil, "tok"},
		{"call", "tok f32[3]", Params{"callback": namedCallback("f"), "result_avals": []AVal{NewAVal(Int32, 2)}, "call_with_device": false, "ordered": true}, "tok i32[2]"},
		// Params checking.
		{"reduce_sum", "f32[3]", nil, "error: missing param axes"},
		{"reduce_sum", "f32[3]", Params{"axes": []int{0}, "keepdims": true}, "error: unknown param keepdims"},
		{"reduce_sum", "f32[3]", Params{"axes": 0}, "error: param axes must be a []int, got int"},
		{"reduce_sum", "f32[3]", Params{"axes": nil}, "error: param axes must not be None"},
		{"gather", "f32[5,3] i32[4,1]", Params{"dimension_numbers": GatherDimensionNumbers{}, "slice_sizes": []int{1, 3}, "indices_are_sorted": false, "unique_indices": false, "mode": GatherScatterMode(0), "fill_value": nil}, "error: param mode must be a GatherScatterMode"},
	}
	for _, tt := range tests {
		t.Run(tt.prim+"("+tt.in+")", func(t *testing.T) {
			var in []AVal
			for _, s := range strings.Fields(tt.in) {
				in = append(in, av(t, s))
			}
			p := Lookup(tt.prim)
			if p == nil {
				t.Fatalf("no primitive %s", tt.prim)
			}
			params := tt.params
			if params == nil {
				params = Params{}
			}
			out, _, err := p.Infer(in, params)
			if want, isErr := strings.CutPrefix(tt.want, "error: "); isErr {
				var typeErr *TypeError
				if err == nil || !errors.As(err, &typeErr) || typeErr.Prim != tt.prim || !strings.Contains(err.Error(), want) {
					t.Fatalf("got %v, %v; want a TypeError containing %q", out, err, want)
				}
				if !strings.HasPrefix(err.Error(), tt.prim+"(") {
					t.Errorf("error %q does not start with the primitive and its operands", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := make([]string, len(out))
			for i, a := range out {
				got[i] = avalText(a)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("got %s, want %s", strings.Join(got, " "), tt.want)
			}
		})
	}
}

func TestEffectRules(t *testing.T) {
	tests := []struct {
		prim   string
		in     []AVal
		params Params
		want   Effects
	}{
		{"debug_print", nil, Params{"fmt": "", "ordered": true}, Effects{OrderedPrint}},
		{"debug_print", nil, Params{"fmt": "", "ordered": false}, Effects{UnorderedPrint}},
		{"call", nil, Params{"callback": namedCallback("f"), "result_avals": []AVal{}, "call_with_device": false, "ordered": true}, Effects{OrderedCall}},
		{"call", nil, Params{"callback": namedCallback("f"), "result_avals": []AVal{}, "call_with_device": false, "ordered": false}, Effects{UnorderedCall}},
		{"id_tap", []AVal{NewAVal(Float32)}, Params{"callback": namedCallback("f"), "tap_with_device": false}, Effects{TapEffect}},
		{"add", []AVal{NewAVal(Float32), NewAVal(Float32)}, nil, nil},
	}
	for _, tt := range tests {
		params := tt.params
		if params == nil {
			params = Params{}
		}
		_, effects, err := Lookup(tt.prim).Infer(tt.in, params)
		if err != nil || !effects.Equal(tt.want) {
			t.Errorf("%s: effects %v, %v; want %v", tt.prim, effects, err, tt.want)
		}
	}
}

// The table must hold every primitive jnp, lax and nn lower to, each with a
// rule, and the properties passes rely on.
func TestPrimitiveTable(t *testing.T) {
	want := strings.Fields(`neg sign floor ceil round is_finite exp exp2 log log1p expm1 tanh logistic
		sin cos tan asin acos atan sinh cosh asinh acosh atanh sqrt rsqrt cbrt abs not erf erfc erf_inv
		integer_pow population_count square copy reduce_precision
		add sub mul div rem pow max min atan2 nextafter and or xor shift_left shift_right_logical
		shift_right_arithmetic eq ne lt le gt ge select_n clamp convert_element_type bitcast_convert_type
		threefry2x32 broadcast_in_dim reshape transpose squeeze slice dynamic_slice dynamic_update_slice
		gather scatter scatter-add scatter-mul scatter-min scatter-max concatenate pad rev iota
		reduce_sum reduce_prod reduce_max reduce_min reduce_and reduce_or argmax argmin
		cumsum cumprod cummax cummin dot_general sort debug_print id_tap call jit optimization_barrier create_token
		cond while scan real imag conj complex fft stop_gradient checkpoint custom_jvp_call custom_vjp_call custom_lin
		cholesky lu qr eigh eig svd triangular_solve`)
	for _, name := range want {
		p := Lookup(name)
		if p == nil {
			t.Errorf("primitive %s is missing", name)
			continue
		}
		if p.Name != name || p.Rule == nil {
			t.Errorf("primitive %s: bad row", name)
		}
	}
	if got := len(Primitives()); got != len(want) {
		t.Errorf("table has %d primitives, test lists %d", got, len(want))
	}
	props := []struct {
		name string
		has  Props
		not  Props
	}{
		{"add", Elementwise | Commutative, Reduction},
		{"sub", Elementwise, Commutative},
		{"lt", Elementwise | Comparison, Commutative},
		{"exp", Elementwise | Transcendental, 0},
		{"neg", Elementwise, Transcendental},
		{"reduce_sum", Reduction, Elementwise},
		{"cumsum", Cumulative, Reduction},
		{"reshape", Structural, Elementwise},
		{"debug_print", HostOp, 0},
		{"jit", CallsJaxpr, HostOp},
	}
	for _, tt := range props {
		p := Lookup(tt.name)
		if !p.Has(tt.has) || (tt.not != 0 && p.Props&tt.not != 0) {
			t.Errorf("%s: props %b, want %b and not %b", tt.name, p.Props, tt.has, tt.not)
		}
	}
	if err := Register(&Primitive{Name: "add", Rule: func([]AVal, Params) ([]AVal, error) { return nil, nil }}); err == nil {
		t.Error("registering a second add succeeded")
	}
	if err := Register(&Primitive{Name: "no_rule"}); err == nil {
		t.Error("registering a primitive without a rule succeeded")
	}
}

func TestParamsPrinting(t *testing.T) {
	p := Params{
		"fmt":        "x: {}",
		"ordered":    true,
		"axes":       []int{0, 1},
		"single":     []int{3},
		"dtype":      BFloat16,
		"fill_value": nil,
		"scale":      0.5,
		"method":     RoundToNearestEven,
		"precision":  PrecisionConfig{PrecisionHighest, PrecisionHighest},
		"padding":    PaddingConfig{{1, 2, 0}},
		"name":       Ident("<lambda>"),
		"avals":      []AVal{NewAVal(Float32, 3), {Shape: Shape{}, DType: Int32, Weak: true}},
		"dims":       DotDimensionNumbers{LhsContracting: []int{1}, RhsContracting: []int{0}},
		"mode":       GatherClip,
		"callback":   namedCallback("<function f>"),
		"body":       &Jaxpr{},
	}
	want := "[avals=(ShapedArray(float32[3]), ShapedArray(int32[], weak_type=True)) axes=(0, 1) body={...} " +
		"callback=<function f> dims=(([1], [0]), ([], [])) dtype=bfloat16 fill_value=None fmt='x: {}' " +
		"method=1 mode=GatherScatterMode.CLIP name=<lambda> ordered=True padding=((1, 2, 0),) " +
		"precision=(Precision.HIGHEST, Precision.HIGHEST) scale=0.5 single=(3,)]"
	if got := p.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := (Params{}).String(); got != "" {
		t.Errorf("empty params print %q", got)
	}
	if p.Bool("ordered") != true || p.Str("fmt") != "x: {}" || p.DType("dtype") != BFloat16 || p.Int("missing") != 0 || p.Ints("single")[0] != 3 {
		t.Error("typed getters")
	}
}
