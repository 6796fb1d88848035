package ad_test

import (
	"github.com/jaxsh/jaxsh/trace"
	"github.com/jaxsh/jaxsh/trace/ad"
)

// The gradient-check cases, one or more per differentiable primitive.

func unaryCase(prim string, lo, hi float64) gradCase {
	return gradCase{prim: prim, ops: []operand{in(lo, hi, 2, 3)}, order2: true}
}

func binaryCase(prim string, a, b operand) gradCase {
	return gradCase{prim: prim, ops: []operand{a, b}, order2: true}
}

func gradCases() []gradCase {
	cases := []gradCase{
		unaryCase("neg", -2, 2), unaryCase("exp", -2, 2), unaryCase("exp2", -2, 2),
		unaryCase("log", 0.2, 3), unaryCase("log1p", -0.5, 3), unaryCase("expm1", -2, 2),
		unaryCase("tanh", -2, 2), unaryCase("logistic", -3, 3), unaryCase("sin", -3, 3),
		unaryCase("cos", -3, 3), unaryCase("tan", -1.2, 1.2), unaryCase("asin", -0.9, 0.9),
		unaryCase("acos", -0.9, 0.9), unaryCase("atan", -3, 3), unaryCase("sinh", -2, 2),
		unaryCase("cosh", -2, 2), unaryCase("asinh", -3, 3), unaryCase("acosh", 1.1, 3),
		unaryCase("atanh", -0.9, 0.9), unaryCase("sqrt", 0.2, 3), unaryCase("rsqrt", 0.2, 3),
		unaryCase("cbrt", 0.2, 3), unaryCase("erf", -2, 2), unaryCase("erfc", -2, 2),
		unaryCase("erf_inv", -0.9, 0.9), unaryCase("abs", 0.1, 2), unaryCase("square", -2, 2),
		unaryCase("sign", 0.1, 2), unaryCase("floor", 0.1, 0.9), unaryCase("ceil", 0.1, 0.9),
		{prim: "round", params: trace.Params{"rounding_method": trace.RoundToNearestEven}, ops: []operand{in(0.1, 0.4, 3)}},
		{prim: "copy", ops: []operand{x64(3)}, order2: true},
		{name: "integer_pow 3", prim: "integer_pow", params: trace.Params{"y": 3}, ops: []operand{x64(4)}, order2: true},
		{name: "integer_pow -2", prim: "integer_pow", params: trace.Params{"y": -2}, ops: []operand{in(0.5, 2, 4)}, order2: true},
		{prim: "reduce_precision", params: trace.Params{"exponent_bits": 11, "mantissa_bits": 52}, ops: []operand{x64(3)}},
		binaryCase("add", x64(2, 3), x64(2, 3)),
		{name: "add scalar", prim: "add", ops: []operand{x64(2, 3), x64()}},
		{name: "add size-1", prim: "add", ops: []operand{x64(2, 1), x64(1, 3)}},
		binaryCase("sub", x64(3), x64(3)),
		binaryCase("mul", x64(3), x64(3)),
		{name: "mul scalar", prim: "mul", ops: []operand{x64(), x64(3)}},
		binaryCase("div", x64(3), in(0.5, 2, 3)),
		binaryCase("rem", in(5, 5.5, 3), in(2, 2.4, 3)),
		binaryCase("max", x64(4), x64(4)),
		binaryCase("min", x64(4), x64(4)),
		binaryCase("atan2", in(0.5, 2, 3), in(0.5, 2, 3)),
		binaryCase("nextafter", x64(3), x64(3)),
		binaryCase("pow", in(0.5, 2, 3), in(0.5, 2, 3)),
		{name: "pow integer exponent", prim: "pow", ops: []operand{in(0.5, 2, 3), fixed(trace.Int32, []int{3}, 0, 2, -3)}},
		{prim: "select_n", ops: []operand{fixed(trace.Bool, []int{4}, 1, 0, 0, 1), x64(4), x64(4)}, order2: true},
		{name: "select_n int32", prim: "select_n", ops: []operand{fixed(trace.Int32, []int{3}, 2, 0, 1), x64(3), x64(3), x64(3)}},
		{prim: "clamp", ops: []operand{in(-1, -0.5, 5), in(-2, 2, 5), in(0.5, 1, 5)}, order2: true},
		{prim: "convert_element_type", params: trace.Params{"new_dtype": trace.Float64, "weak_type": false}, ops: []operand{x64(3)}},
		{name: "convert to int", prim: "convert_element_type", params: trace.Params{"new_dtype": trace.Int32, "weak_type": false}, ops: []operand{x64(3)}},

		{prim: "broadcast_in_dim", params: trace.Params{"shape": []int{2, 3}, "broadcast_dimensions": []int{1}}, ops: []operand{x64(3)}},
		{name: "broadcast_in_dim size-1", prim: "broadcast_in_dim", params: trace.Params{"shape": []int{3, 4}, "broadcast_dimensions": []int{0, 1}}, ops: []operand{x64(3, 1)}},
		{prim: "reshape", params: trace.Params{"new_sizes": []int{3, 2}}, ops: []operand{x64(2, 3)}},
		{prim: "transpose", params: trace.Params{"permutation": []int{1, 2, 0}}, ops: []operand{x64(2, 3, 4)}},
		{prim: "squeeze", params: trace.Params{"dimensions": []int{1}}, ops: []operand{x64(3, 1)}},
		{prim: "rev", params: trace.Params{"dimensions": []int{0}}, ops: []operand{x64(2, 3)}},
		{prim: "slice", params: trace.Params{"start_indices": []int{1}, "limit_indices": []int{6}, "strides": []int{2}}, ops: []operand{x64(7)}},
		{name: "slice 2d", prim: "slice", params: trace.Params{"start_indices": []int{1, 0}, "limit_indices": []int{3, 3}, "strides": nil}, ops: []operand{x64(4, 3)}},
		{prim: "dynamic_slice", params: trace.Params{"slice_sizes": []int{3}}, ops: []operand{x64(5), fixed(trace.Int32, nil, 1)}},
		{prim: "dynamic_update_slice", ops: []operand{x64(5), x64(2), fixed(trace.Int32, nil, 2)}},
		{prim: "concatenate", params: trace.Params{"dimension": 0}, ops: []operand{x64(2), x64(3)}},
		{prim: "pad", params: trace.Params{"padding_config": trace.PaddingConfig{{Lo: 1, Hi: 2, Interior: 1}}}, ops: []operand{x64(3), x64()}},
		{name: "pad negative", prim: "pad", params: trace.Params{"padding_config": trace.PaddingConfig{{Lo: -1, Hi: 1, Interior: 0}, {Lo: 0, Hi: 0, Interior: 2}}}, ops: []operand{x64(3, 2), x64()}},

		{prim: "gather", params: trace.Params{
			"dimension_numbers": trace.GatherDimensionNumbers{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}},
			"slice_sizes":       []int{1, 3}, "indices_are_sorted": false, "unique_indices": false,
			"mode": trace.GatherClip, "fill_value": nil,
		}, ops: []operand{x64(5, 3), fixed(trace.Int32, []int{3, 1}, 3, 0, 3)}},
		{prim: "scatter-add", params: scatterParams(false), ops: []operand{x64(5), fixed(trace.Int32, []int{3, 1}, 1, 3, 1), x64(3)}},
		{prim: "scatter", params: scatterParams(false), ops: []operand{x64(5), fixed(trace.Int32, []int{3, 1}, 1, 3, 1), x64(3)}},
		{prim: "scatter-mul", params: scatterParams(true), ops: []operand{x64(5), fixed(trace.Int32, []int{2, 1}, 1, 3), x64(2)}},
		{prim: "scatter-min", params: scatterParams(false), ops: []operand{x64(5), fixed(trace.Int32, []int{3, 1}, 1, 3, 1), x64(3)}},
		{prim: "scatter-max", params: scatterParams(false), ops: []operand{x64(5), fixed(trace.Int32, []int{3, 1}, 1, 3, 1), x64(3)}},

		{prim: "reduce_sum", params: axes(1), ops: []operand{x64(2, 3)}},
		{prim: "reduce_prod", params: axes(0, 2), ops: []operand{x64(2, 3, 2)}},
		{name: "reduce_prod with a zero", prim: "reduce_prod", params: axes(0), ops: []operand{fixed(trace.Float64, []int{3}, 2, 0, 3)}, covers: nil},
		{prim: "reduce_max", params: axes(1), ops: []operand{x64(2, 4)}},
		{prim: "reduce_min", params: axes(0, 1), ops: []operand{x64(2, 4)}},
		{prim: "cumsum", params: cumulative(0, false), ops: []operand{x64(4)}},
		{name: "cumsum reverse", prim: "cumsum", params: cumulative(1, true), ops: []operand{x64(2, 4)}},
		{prim: "cumprod", params: cumulative(0, false), ops: []operand{in(0.5, 2, 4)}},
		{name: "cumprod through zeros", prim: "cumprod", params: cumulative(0, false),
			ops: []operand{fixed(trace.Float64, []int{7}, 0.5, 0, 1.5, -1, 0, 2, 0.75)}},
		{name: "cumprod reverse through a zero", prim: "cumprod", params: cumulative(1, true),
			ops: []operand{fixed(trace.Float64, []int{2, 6}, 0.5, 1.25, 0, 1.5, -1, 2, 1, 0.5, -2, 0, 1.5, 0.25)}},
		{prim: "cummax", params: cumulative(1, false), ops: []operand{x64(2, 5)}},
		{name: "cummax reverse", prim: "cummax", params: cumulative(0, true), ops: []operand{x64(5)}},
		{prim: "cummin", params: cumulative(0, false), ops: []operand{x64(5)}},
		{name: "cummin reverse", prim: "cummin", params: cumulative(0, true), ops: []operand{x64(5, 2)}},
		{prim: "sort", params: trace.Params{"dimension": 0, "is_stable": true, "num_keys": 1}, ops: []operand{x64(5)}},
		{name: "sort two operands", prim: "sort", params: trace.Params{"dimension": 1, "is_stable": true, "num_keys": 1}, ops: []operand{x64(2, 4), x64(2, 4)}},
		{prim: "dot_general", params: dot([]int{1}, []int{0}, nil, nil), ops: []operand{x64(2, 3), x64(3, 4)}},
		{name: "dot_general batched", prim: "dot_general", params: dot([]int{2}, []int{1}, []int{0}, []int{0}), ops: []operand{x64(2, 3, 4), x64(2, 4, 5)}},
		{name: "dot_general rhs first", prim: "dot_general", params: dot([]int{0}, []int{1}, nil, nil), ops: []operand{x64(3, 2), x64(4, 3)}},
		{name: "complex", prim: "complex", covers: []string{"real", "imag", "conj"}, ops: []operand{x64(3), x64(3)}, order2: true,
			body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
				z := e.Bind1("complex", nil, a[0], a[1])
				w := e.Mul(e.Mul(z, z), e.Bind1("conj", trace.Params{"input_dtype": trace.Complex128}, z))
				r := e.Bind1("conj", trace.Params{"input_dtype": trace.Float64}, a[1])
				return []trace.Atom{e.Bind1("real", nil, w), e.Bind1("imag", nil, e.Mul(w, r))}
			}},
		// The holomorphic primitives on complex operands (z in the first
		// quadrant, off every branch cut): their JVP is f'(z)·t, which the
		// real and imaginary parts check against differences in x and y.
		{name: "analytic functions of complex", prim: "complex", ops: []operand{in(0.3, 0.9, 3), in(0.2, 0.6, 3)},
			body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
				z := e.Bind1("complex", nil, a[0], a[1])
				var outs []trace.Atom
				for _, name := range []string{"neg", "exp", "exp2", "log", "log1p", "expm1", "tanh", "logistic",
					"sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh",
					"sqrt", "rsqrt", "square"} {
					w := e.Unary(name, z)
					outs = append(outs, e.Bind1("real", nil, w), e.Bind1("imag", nil, w))
				}
				w := e.Bind1("integer_pow", trace.Params{"y": 3}, z)
				return append(outs, e.Bind1("real", nil, w), e.Bind1("imag", nil, w))
			}},
		fftCase("fft", trace.FFTForward, []int{2, 4}, []int{2, 4}),
		fftCase("fft inverse", trace.FFTInverse, []int{4}, []int{4}),
		{name: "fft real", prim: "fft", ops: []operand{x64(2, 5)}, body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
			w := e.Bind1("fft", trace.Params{"fft_type": trace.FFTRealForward, "fft_lengths": []int{5}}, a[0])
			return []trace.Atom{e.Bind1("real", nil, w), e.Bind1("imag", nil, w)}
		}},
		fftCase("fft real inverse", trace.FFTRealInverse, []int{3, 3}, []int{3, 4}),
		fftCase("fft real inverse odd", trace.FFTRealInverse, []int{3}, []int{5}),
		{prim: "optimization_barrier", ops: []operand{x64(3), x64()}},
		{prim: "triangular_solve", params: triParams(true, true, false, false), ops: []operand{x64(3, 3), x64(3, 2)},
			body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
				return []trace.Atom{e.Bind1("triangular_solve", triParams(true, true, false, false), e.Add(a[0], e.Lit(4, trace.Float64)), a[1])}
			}},
		{name: "triangular_solve right upper transposed unit", prim: "triangular_solve", ops: []operand{x64(2, 3, 3), x64(2, 4, 3)},
			body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
				return []trace.Atom{e.Bind1("triangular_solve", triParams(false, false, true, true), a[0], a[1])}
			}},
		{prim: "cholesky", ops: []operand{x64(3, 4)}, body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
			return []trace.Atom{e.Bind1("cholesky", nil, e.Bind1("dot_general", dot([]int{1}, []int{1}, nil, nil), a[0], a[0]))}
		}},
		{prim: "eigh", ops: []operand{x64(3, 3)}, body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
			out := e.Bind("eigh", a, trace.Params{"lower": true, "sort_eigenvalues": true, "subset_by_index": nil})
			return []trace.Atom{e.Mul(out[0], out[0]), out[1]} // eigenvectors up to sign
		}},
		{name: "eigh upper", prim: "eigh", ops: []operand{x64(2, 3, 3)}, body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
			return e.Bind("eigh", a, trace.Params{"lower": false, "sort_eigenvalues": true, "subset_by_index": nil})[1:]
		}},
		{prim: "qr", ops: []operand{x64(4, 3)}, body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
			return e.Bind("qr", a, trace.Params{"full_matrices": false, "pivoting": false})
		}},
		{prim: "svd", ops: []operand{x64(4, 3)}, body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
			out := e.Bind("svd", a, trace.Params{"full_matrices": false, "compute_uv": true, "subset_by_index": nil})
			return []trace.Atom{out[0], e.Mul(out[1], out[1]), e.Mul(out[2], out[2])} // vectors up to sign
		}},
		{name: "svd wide, values only", prim: "svd", ops: []operand{x64(2, 3, 5)}, body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
			return e.Bind("svd", a, trace.Params{"full_matrices": false, "compute_uv": false, "subset_by_index": nil})
		}},
		{prim: "lu", ops: []operand{x64(3, 3)}, body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
			return e.Bind("lu", a, nil)[:1]
		}},
		{prim: "eig", ops: []operand{x64(3, 3)}, covers: []string{"real", "imag"}, body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
			w := e.Bind("eig", a, trace.Params{"compute_left_eigenvectors": false, "compute_right_eigenvectors": false})[0]
			return []trace.Atom{e.Bind1("real", nil, w), e.Bind1("imag", nil, w)}
		}},
		{prim: "id_tap", params: trace.Params{"callback": testCallback("tap"), "tap_with_device": false}, ops: []operand{x64(3), x64()}, host: true},
		{name: "debug_print", prim: "sin", host: true, ops: []operand{x64(3)}, body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
			e.Bind("debug_print", a, trace.Params{"fmt": "x {}", "ordered": true})
			return []trace.Atom{e.Unary("sin", a[0])}
		}},
		{prim: "call", params: trace.Params{"callback": testCallback("f"), "result_avals": []trace.AVal{trace.NewAVal(trace.Float64, 3)},
			"call_with_device": false, "ordered": false}, ops: []operand{x64(3)},
			noJVP: "call has no differentiation rule", noVJP: "custom_vjp"},
	}
	return append(cases, callCases()...)
}

// fftCase transforms complex(x, y) of shape and returns the result's real
// and imaginary parts (or the real result).
func fftCase(name string, kind trace.Ident, shape, lengths []int) gradCase {
	return gradCase{name: name, prim: "fft", ops: []operand{x64(shape...), x64(shape...)}, covers: []string{"real", "imag"},
		body: func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
			w := e.Bind1("fft", trace.Params{"fft_type": kind, "fft_lengths": lengths}, e.Bind1("complex", nil, a[0], a[1]))
			if !w.Aval().DType.IsComplex() {
				return []trace.Atom{w}
			}
			return []trace.Atom{e.Bind1("real", nil, w), e.Bind1("imag", nil, w)}
		}}
}

func triParams(left, lower, transpose, unit bool) trace.Params {
	return trace.Params{"left_side": left, "lower": lower, "transpose_a": transpose, "conjugate_a": false, "unit_diagonal": unit}
}

func axes(a ...int) trace.Params { return trace.Params{"axes": a} }

func cumulative(axis int, reverse bool) trace.Params {
	return trace.Params{"axis": axis, "reverse": reverse}
}

func dot(lc, rc, lb, rb []int) trace.Params {
	return trace.Params{"dimension_numbers": trace.DotDimensionNumbers{LhsContracting: lc, RhsContracting: rc, LhsBatch: lb, RhsBatch: rb},
		"precision": nil, "preferred_element_type": nil}
}

func scatterParams(unique bool) trace.Params {
	return trace.Params{
		"dimension_numbers":  trace.ScatterDimensionNumbers{InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}},
		"indices_are_sorted": false, "unique_indices": unique, "mode": trace.GatherFillOrDrop,
	}
}

// jaxprOf traces a body for the cases of primitives holding jaxprs.
func jaxprOf(in []trace.AVal, f func(e *trace.Emitter, args []trace.Atom) []trace.Atom) *trace.Jaxpr {
	b := trace.NewBuilder()
	args := make([]trace.Atom, len(in))
	for i, a := range in {
		args[i] = b.Input(a)
	}
	var outs []trace.Atom
	e := &trace.Emitter{B: b}
	if err := trace.Catch(func() { outs = f(e, args) }); err != nil {
		panic(err)
	}
	j, err := b.Build(outs)
	if err != nil {
		panic(err)
	}
	return j
}

func avals(shapes ...[]int) []trace.AVal {
	out := make([]trace.AVal, len(shapes))
	for i, s := range shapes {
		out[i] = trace.NewAVal(trace.Float64, s...)
	}
	return out
}

var s3 = []int{3}

func callCases() []gradCase {
	sinTimes := jaxprOf(avals(s3, s3), func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
		return []trace.Atom{e.Mul(e.Unary("sin", a[0]), a[1]), e.Unary("exp", a[1])}
	})
	branch := func(prim string) *trace.Jaxpr {
		return jaxprOf(avals(s3, s3), func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
			return []trace.Atom{e.Mul(e.Unary(prim, a[0]), a[1])}
		})
	}
	constBranch := jaxprOf(avals(s3, s3), func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
		return []trace.Atom{e.Full(2, a[0].Aval())}
	})
	// scan body: consts w; carry c; xs x -> carry c*sin(x) + w, ys c*x
	scanBody := jaxprOf(avals(s3, s3, s3), func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
		w, c, x := a[0], a[1], a[2]
		return []trace.Atom{e.Add(e.Mul(c, e.Unary("sin", x)), w), e.Mul(c, x)}
	})
	// while: carry (i, x) -> (i + 1, x * sin(x) + 1) while i < 3
	whileCond := jaxprOf([]trace.AVal{trace.NewAVal(trace.Int32), trace.NewAVal(trace.Float64, 3)}, func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
		return []trace.Atom{e.Compare("lt", a[0], e.Lit(3, trace.Int32))}
	})
	whileBody := jaxprOf([]trace.AVal{trace.NewAVal(trace.Int32), trace.NewAVal(trace.Float64, 3)}, func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
		return []trace.Atom{e.Add(a[0], e.Lit(1, trace.Int32)), e.Add(e.Mul(a[1], e.Unary("sin", a[1])), e.Lit(1, trace.Float64))}
	})
	mlp := jaxprOf(avals([]int{2, 3}, []int{3, 3}), func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
		h := e.Unary("tanh", e.Bind1("dot_general", dot([]int{1}, []int{0}, nil, nil), a[0], a[1]))
		h = e.Unary("sin", e.Bind1("dot_general", dot([]int{1}, []int{0}, nil, nil), h, a[1]))
		return []trace.Atom{h}
	})
	sin := jaxprOf(avals(s3), func(e *trace.Emitter, a []trace.Atom) []trace.Atom { return []trace.Atom{e.Unary("sin", a[0])} })
	sinJVP := jaxprOf(avals(s3, s3), func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
		return []trace.Atom{e.Unary("sin", a[0]), e.Mul(e.Unary("cos", a[0]), a[1])}
	})
	sinFwd := jaxprOf(avals(s3), func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
		return []trace.Atom{e.Unary("sin", a[0]), e.Unary("cos", a[0])}
	})
	sinBwd := jaxprOf(avals(s3, s3), func(e *trace.Emitter, a []trace.Atom) []trace.Atom {
		return []trace.Atom{e.Mul(a[0], a[1])}
	})
	checkpoint := func(policy any) trace.Params {
		return trace.Params{"jaxpr": mlp, "prevent_cse": true, "differentiated": false, "policy": policy}
	}
	return []gradCase{
		{prim: "jit", params: trace.Params{"name": trace.Ident("f"), "jaxpr": sinTimes}, ops: []operand{x64(3), x64(3)}, order2: true},
		{prim: "cond", ops: []operand{fixed(trace.Int32, nil, 1), x64(3), x64(3)}, order2: true,
			params: trace.Params{"branches": []*trace.Jaxpr{branch("sin"), branch("exp")}}},
		{name: "cond branch 0", prim: "cond", ops: []operand{fixed(trace.Int32, nil, 0), x64(3), x64(3)},
			params: trace.Params{"branches": []*trace.Jaxpr{branch("sin"), constBranch}}},
		{name: "cond constant branch", prim: "cond", ops: []operand{fixed(trace.Int32, nil, 1), x64(3), x64(3)},
			params: trace.Params{"branches": []*trace.Jaxpr{branch("sin"), constBranch}}},
		{prim: "scan", ops: []operand{x64(3), x64(3), x64(4, 3)}, order2: true,
			params: trace.Params{"jaxpr": scanBody, "length": 4, "reverse": false, "num_consts": 1, "num_carry": 1, "unroll": 1}},
		{name: "scan reverse", prim: "scan", ops: []operand{x64(3), x64(3), x64(4, 3)},
			params: trace.Params{"jaxpr": scanBody, "length": 4, "reverse": true, "num_consts": 1, "num_carry": 1, "unroll": 2}},
		{prim: "while", ops: []operand{fixed(trace.Int32, nil, 0), in(0.2, 1, 3)}, noVJP: ad.ErrWhileReverse,
			params: trace.Params{"cond_jaxpr": whileCond, "cond_nconsts": 0, "body_jaxpr": whileBody, "body_nconsts": 0}},
		{prim: "checkpoint", params: checkpoint(nil), ops: []operand{x64(2, 3), x64(3, 3)}, order2: true},
		{name: "checkpoint dots_saveable", prim: "checkpoint", params: checkpoint(trace.Ident("dots_saveable")), ops: []operand{x64(2, 3), x64(3, 3)}},
		{name: "checkpoint everything_saveable", prim: "checkpoint", params: checkpoint(trace.Ident("everything_saveable")), ops: []operand{x64(2, 3), x64(3, 3)}},
		{prim: "custom_jvp_call", ops: []operand{x64(3)}, order2: true,
			params: trace.Params{"call_jaxpr": sin, "jvp_jaxpr": sinJVP, "num_consts": 0, "symbolic_zeros": false}},
		{prim: "custom_vjp_call", ops: []operand{x64(3)}, noJVP: ad.ErrJVPOfCustomVJP.Error(), covers: []string{"custom_lin"},
			params: trace.Params{"call_jaxpr": sin, "fwd_jaxpr": sinFwd, "bwd_jaxpr": sinBwd, "num_res": 1, "symbolic_zeros": false}},
	}
}
