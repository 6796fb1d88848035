package export

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/jaxsh/jaxsh/trace"
)

// jaxpr lowers the equations of j with args for its constvars then
// invars; tokens holds the current token of each ordered effect kind and
// is updated in place. It returns the values of j's outputs.
func (w *mlirWriter) jaxpr(j *trace.Jaxpr, args []value, tokens map[string]value) ([]value, error) {
	env := map[*trace.Var]value{}
	vars := append(append([]*trace.Var(nil), j.ConstVars...), j.InVars...)
	if len(vars) != len(args) {
		return nil, fmt.Errorf("a jaxpr of %d inputs lowered with %d values", len(vars), len(args))
	}
	for i, v := range vars {
		env[v] = args[i]
	}
	read := func(a trace.Atom) value {
		switch a := a.(type) {
		case *trace.Var:
			return env[a]
		case *trace.Literal:
			return w.scalar(a.Aval().DType, a.Value())
		}
		return value{}
	}
	for _, e := range j.Eqns {
		in := make([]value, len(e.In))
		for i, a := range e.In {
			in[i] = read(a)
		}
		outs, err := w.eqn(e, in, tokens)
		if err != nil {
			return nil, fmt.Errorf("%s (at %s): %w", e.Prim.Name, e.Pos, err)
		}
		for i, v := range e.Out {
			if i < len(outs) {
				env[v] = outs[i]
			}
		}
	}
	outs := make([]value, len(j.OutVars))
	for i, a := range j.OutVars {
		outs[i] = read(a)
	}
	return outs, nil
}

// simpleOps are primitives that are one StableHLO (or CHLO) op of the
// same name pattern, applied to operands broadcast to the result's shape.
var simpleOps = map[string]string{
	"neg": "stablehlo.negate", "sin": "stablehlo.sine", "cos": "stablehlo.cosine", "tan": "stablehlo.tan",
	"exp": "stablehlo.exponential", "log": "stablehlo.log", "log1p": "stablehlo.log_plus_one",
	"expm1": "stablehlo.exponential_minus_one", "sqrt": "stablehlo.sqrt", "rsqrt": "stablehlo.rsqrt",
	"cbrt": "stablehlo.cbrt", "tanh": "stablehlo.tanh", "logistic": "stablehlo.logistic", "abs": "stablehlo.abs",
	"sign": "stablehlo.sign", "floor": "stablehlo.floor", "ceil": "stablehlo.ceil", "is_finite": "stablehlo.is_finite",
	"not": "stablehlo.not", "population_count": "stablehlo.popcnt", "real": "stablehlo.real", "imag": "stablehlo.imag",
	"complex": "stablehlo.complex",
	"asin":    "chlo.asin", "acos": "chlo.acos", "atan": "chlo.atan", "sinh": "chlo.sinh", "cosh": "chlo.cosh",
	"asinh": "chlo.asinh", "acosh": "chlo.acosh", "atanh": "chlo.atanh", "erf": "chlo.erf", "erfc": "chlo.erfc",
	"erf_inv": "chlo.erf_inv", "nextafter": "chlo.next_after",
	"add": "stablehlo.add", "sub": "stablehlo.subtract", "mul": "stablehlo.multiply", "div": "stablehlo.divide",
	"rem": "stablehlo.remainder", "max": "stablehlo.maximum", "min": "stablehlo.minimum", "atan2": "stablehlo.atan2",
	"and": "stablehlo.and", "or": "stablehlo.or", "xor": "stablehlo.xor", "shift_left": "stablehlo.shift_left",
	"shift_right_arithmetic": "stablehlo.shift_right_arithmetic", "shift_right_logical": "stablehlo.shift_right_logical",
	"convert_element_type": "stablehlo.convert", "bitcast_convert_type": "stablehlo.bitcast_convert",
}

var comparisons = map[string]string{"eq": "EQ", "ne": "NE", "lt": "LT", "le": "LE", "gt": "GT", "ge": "GE"}

func compareType(dt trace.DType) string {
	switch {
	case dt.IsFloat() || dt.IsComplex():
		return "FLOAT"
	case dt.IsSigned():
		return "SIGNED"
	}
	return "UNSIGNED"
}

func compareAttrs(dir string, dt trace.DType) string {
	return fmt.Sprintf("compare_type = #stablehlo<comparison_type %s>, comparison_direction = #stablehlo<comparison_direction %s>", compareType(dt), dir)
}

func (w *mlirWriter) eqn(e *trace.Eqn, in []value, tokens map[string]value) ([]value, error) {
	name := e.Prim.Name
	outAval := func(i int) trace.AVal { return e.Out[i].Aval() }
	outType := func(i int) string { return tensorType(outAval(i)) }
	inAval := func(i int) trace.AVal { return e.In[i].Aval() }
	broadcastAll := func() []value {
		shape := outAval(0).Shape
		out := make([]value, len(in))
		for i := range in {
			out[i] = w.broadcastTo(in[i], inAval(i), shape)
		}
		return out
	}
	one := func(v value) ([]value, error) { return []value{v}, nil }
	p := e.Params

	if op, ok := simpleOps[name]; ok {
		return one(w.op1(op, broadcastAll(), "", outType(0)))
	}
	if dir, ok := comparisons[name]; ok {
		return one(w.op1("stablehlo.compare", broadcastAll(), compareAttrs(dir, inAval(0).DType), outType(0)))
	}
	if e.Prim.Has(trace.Identity) { // stop_gradient: only autodiff sees it
		return in, nil
	}
	switch name {
	case "copy":
		return one(in[0])
	case "square":
		return one(w.op1("stablehlo.multiply", []value{in[0], in[0]}, "", outType(0)))
	case "exp2":
		ln2 := w.broadcastTo(w.scalar(outAval(0).DType, math.Ln2), trace.AVal{Shape: trace.Shape{}, DType: outAval(0).DType}, outAval(0).Shape)
		return one(w.op1("stablehlo.exponential", []value{w.op1("stablehlo.multiply", []value{in[0], ln2}, "", outType(0))}, "", outType(0)))
	case "conj":
		t := tensorType(trace.AVal{Shape: outAval(0).Shape, DType: outAval(0).DType.ComplexPart()})
		re := w.op1("stablehlo.real", in, "", t)
		im := w.op1("stablehlo.negate", []value{w.op1("stablehlo.imag", in, "", t)}, "", t)
		return one(w.op1("stablehlo.complex", []value{re, im}, "", outType(0)))
	case "pow":
		ops := broadcastAll()
		if inAval(1).DType != outAval(0).DType {
			ops[1] = w.op1("stablehlo.convert", ops[1:2], "", outType(0))
		}
		return one(w.op1("stablehlo.power", ops, "", outType(0)))
	case "integer_pow":
		return one(w.integerPow(in[0], outAval(0), p.Int("y")))
	case "round":
		op := "stablehlo.round_nearest_afz"
		if r, _ := trace.ParamAs[trace.RoundingMethod](p, "rounding_method"); r == trace.RoundToNearestEven {
			op = "stablehlo.round_nearest_even"
		}
		return one(w.op1(op, in, "", outType(0)))
	case "reduce_precision":
		return one(w.op1("stablehlo.reduce_precision", in,
			fmt.Sprintf("exponent_bits = %d : i32, mantissa_bits = %d : i32", p.Int("exponent_bits"), p.Int("mantissa_bits")), outType(0)))
	case "select_n":
		shape := outAval(0).Shape
		cases := make([]value, len(in)-1)
		for i := range cases {
			cases[i] = w.broadcastTo(in[i+1], inAval(i+1), shape)
		}
		which := inAval(0)
		if which.DType == trace.Bool {
			if len(cases) == 1 {
				return one(cases[0])
			}
			return one(w.op1("stablehlo.select", []value{in[0], cases[1], cases[0]}, "", outType(0)))
		}
		// cases[which], as a chain of selects from the last case down.
		r := cases[len(cases)-1]
		for k := len(cases) - 2; k >= 0; k-- {
			kv := w.broadcastTo(w.scalar(which.DType, int64(k)), trace.AVal{Shape: trace.Shape{}, DType: which.DType}, which.Shape)
			eq := w.op1("stablehlo.compare", []value{in[0], kv}, compareAttrs("EQ", which.DType),
				tensorType(trace.AVal{Shape: which.Shape, DType: trace.Bool}))
			r = w.op1("stablehlo.select", []value{eq, cases[k], r}, "", outType(0))
		}
		return one(r)
	case "clamp":
		return one(w.op1("stablehlo.clamp", in, "", outType(0)))
	case "broadcast_in_dim":
		return one(w.op1("stablehlo.broadcast_in_dim", in, "broadcast_dimensions = "+i64Array(p.Ints("broadcast_dimensions")), outType(0)))
	case "reshape", "squeeze":
		return one(w.op1("stablehlo.reshape", in, "", outType(0)))
	case "transpose":
		return one(w.op1("stablehlo.transpose", in, "permutation = "+i64Array(p.Ints("permutation")), outType(0)))
	case "rev":
		return one(w.op1("stablehlo.reverse", in, "dimensions = "+i64Array(p.Ints("dimensions")), outType(0)))
	case "slice":
		strides := p.Ints("strides")
		if strides == nil {
			strides = slices.Repeat([]int{1}, inAval(0).Rank())
		}
		return one(w.op1("stablehlo.slice", in, fmt.Sprintf("limit_indices = %s, start_indices = %s, strides = %s",
			i64Array(p.Ints("limit_indices")), i64Array(p.Ints("start_indices")), i64Array(strides)), outType(0)))
	case "concatenate":
		return one(w.op1("stablehlo.concatenate", in, fmt.Sprintf("dimension = %d : i64", p.Int("dimension")), outType(0)))
	case "pad":
		cfg, _ := trace.ParamAs[trace.PaddingConfig](p, "padding_config")
		var lo, hi, interior []int
		for _, d := range cfg {
			lo, hi, interior = append(lo, d.Lo), append(hi, d.Hi), append(interior, d.Interior)
		}
		return one(w.op1("stablehlo.pad", in, fmt.Sprintf("edge_padding_high = %s, edge_padding_low = %s, interior_padding = %s",
			i64Array(hi), i64Array(lo), i64Array(interior)), outType(0)))
	case "fft":
		kind, _ := trace.ParamAs[trace.Ident](p, "fft_type")
		return one(w.op1("stablehlo.fft", in, fmt.Sprintf("fft_length = %s, fft_type = #stablehlo<fft_type %s>",
			i64Array(p.Ints("fft_lengths")), strings.TrimPrefix(string(kind), "FftType.")), outType(0)))
	case "iota":
		return one(w.op1("stablehlo.iota", nil, fmt.Sprintf("iota_dimension = %d : i64", p.Int("dimension")), outType(0)))
	case "dynamic_slice":
		return one(w.op1("stablehlo.dynamic_slice", in, "slice_sizes = "+i64Array(p.Ints("slice_sizes")), outType(0)))
	case "dynamic_update_slice":
		return one(w.op1("stablehlo.dynamic_update_slice", in, "", outType(0)))
	case "dot_general":
		d, _ := trace.ParamAs[trace.DotDimensionNumbers](p, "dimension_numbers")
		attrs := fmt.Sprintf("dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = %s, rhs_batching_dimensions = %s, lhs_contracting_dimensions = %s, rhs_contracting_dimensions = %s>",
			intList(d.LhsBatch), intList(d.RhsBatch), intList(d.LhsContracting), intList(d.RhsContracting))
		if prec, ok := trace.ParamAs[trace.PrecisionConfig](p, "precision"); ok {
			attrs += fmt.Sprintf(", precision_config = [#stablehlo<precision %s>, #stablehlo<precision %s>]", precisionNames[prec[0]], precisionNames[prec[1]])
		}
		ops := in
		if inAval(0).DType != inAval(1).DType || inAval(0).DType != outAval(0).DType {
			// Mixed operand types: both are converted to the result's dtype.
			ops = []value{w.convert(in[0], inAval(0), outAval(0).DType), w.convert(in[1], inAval(1), outAval(0).DType)}
		}
		return one(w.op1("stablehlo.dot_general", ops, attrs, outType(0)))
	case "reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_and", "reduce_or":
		return w.reduce(name, in[0], inAval(0), outAval(0), p.Ints("axes"))
	case "cumsum", "cumprod", "cummax", "cummin":
		return w.cumulative(name, in[0], inAval(0), p.Int("axis"), p.Bool("reverse"))
	case "gather":
		return w.gather(e, in)
	case "scatter", "scatter-add", "scatter-mul", "scatter-max", "scatter-min":
		return w.scatter(e, in)
	case "sort":
		return w.sort(e, in)
	case "optimization_barrier":
		types := make([]string, len(in))
		for i := range in {
			types[i] = outType(i)
		}
		return w.op("stablehlo.optimization_barrier", in, "", types)
	case "create_token":
		return one(w.op1("stablehlo.after_all", nil, "", tokenType))
	case "jit", "checkpoint", "call_exported":
		return w.jaxpr(p.Jaxpr("jaxpr"), in, tokens)
	case "custom_jvp_call", "custom_vjp_call":
		// The primal computation; derivatives were taken before export.
		return w.jaxpr(p.Jaxpr("call_jaxpr"), in, tokens)
	case "cholesky":
		return one(w.op1("stablehlo.cholesky", in, "lower = true", outType(0)))
	case "triangular_solve":
		transpose := "NO_TRANSPOSE"
		switch {
		case p.Bool("transpose_a") && p.Bool("conjugate_a"):
			transpose = "ADJOINT"
		case p.Bool("transpose_a"):
			transpose = "TRANSPOSE"
		case p.Bool("conjugate_a"):
			return nil, fmt.Errorf("triangular_solve conjugating without transposing has no StableHLO counterpart")
		}
		return one(w.op1("stablehlo.triangular_solve", in, fmt.Sprintf("left_side = %t, lower = %t, transpose_a = #stablehlo<transpose %s>, unit_diagonal = %t",
			p.Bool("left_side"), p.Bool("lower"), transpose, p.Bool("unit_diagonal")), outType(0)))
	case "lu", "qr", "eig", "eigh", "svd":
		return nil, fmt.Errorf("%s lowers to a platform's LAPACK or cuSOLVER custom call in XLA; not lowered here", name)
	case "cond":
		return w.cond(e, in, tokens)
	case "while":
		return w.while(e, in, tokens)
	case "scan":
		return w.scan(e, in, tokens)
	case "debug_print", "id_tap", "call":
		return w.hostOp(e, in, tokens)
	}
	return nil, fmt.Errorf("no StableHLO lowering for primitive %s", name)
}

func (w *mlirWriter) convert(v value, a trace.AVal, to trace.DType) value {
	if a.DType == to {
		return v
	}
	return w.op1("stablehlo.convert", []value{v}, "", tensorType(trace.AVal{Shape: a.Shape, DType: to}))
}

// integerPow multiplies by repeated squaring, as JAX lowers integer_pow.
func (w *mlirWriter) integerPow(x value, a trace.AVal, y int) value {
	t := tensorType(a)
	n := y
	if n < 0 {
		n = -n
	}
	var acc *value
	base := x
	for n > 0 {
		if n&1 == 1 {
			if acc == nil {
				b := base
				acc = &b
			} else {
				m := w.op1("stablehlo.multiply", []value{*acc, base}, "", t)
				acc = &m
			}
		}
		n >>= 1
		if n > 0 {
			base = w.op1("stablehlo.multiply", []value{base, base}, "", t)
		}
	}
	scalar := trace.AVal{Shape: trace.Shape{}, DType: a.DType}
	if acc == nil {
		return w.broadcastTo(w.scalar(a.DType, int64(1)), scalar, a.Shape)
	}
	if y < 0 {
		one := w.broadcastTo(w.scalar(a.DType, int64(1)), scalar, a.Shape)
		return w.op1("stablehlo.divide", []value{one, *acc}, "", t)
	}
	return *acc
}

// reducer is the combining op and identity of a reduction.
func reducer(name string, dt trace.DType) (op string, init any) {
	switch name {
	case "reduce_sum", "cumsum":
		return "stablehlo.add", int64(0)
	case "reduce_prod", "cumprod":
		return "stablehlo.multiply", int64(1)
	case "reduce_and":
		return "stablehlo.and", true
	case "reduce_or":
		return "stablehlo.or", false
	case "reduce_max", "cummax":
		return "stablehlo.maximum", lowest(dt)
	}
	return "stablehlo.minimum", highest(dt)
}

func lowest(dt trace.DType) any {
	switch {
	case dt == trace.Bool:
		return false
	case dt.IsFloat():
		return math.Inf(-1)
	case dt.IsUnsigned():
		return int64(0)
	}
	return -int64(1) << (dt.Bits() - 1)
}

func highest(dt trace.DType) any {
	switch {
	case dt == trace.Bool:
		return true
	case dt.IsFloat():
		return math.Inf(1)
	case dt.IsUnsigned():
		return int64(1)<<dt.Bits() - 1
	}
	return int64(1)<<(dt.Bits()-1) - 1
}

// combiner writes the region of a reduction: two scalars in, one out.
func (w *mlirWriter) combiner(op string, dt trace.DType) func() error {
	return func() error {
		t := tensorType(trace.AVal{Shape: trace.Shape{}, DType: dt})
		args := w.block([]string{t, t})
		r := w.op1(op, args, "", t)
		_, err := w.op("stablehlo.return", []value{r}, "", nil)
		return err
	}
}

func (w *mlirWriter) reduce(name string, x value, a, out trace.AVal, axes []int) ([]value, error) {
	op, init := reducer(name, a.DType)
	iv := w.scalar(a.DType, init)
	return w.op("stablehlo.reduce", []value{x, iv}, "dimensions = "+i64Array(axes), []string{tensorType(out)}, w.combiner(op, a.DType))
}

// cumulative is a reduce_window whose window covers everything before
// (or, reversed, after) each element along axis.
func (w *mlirWriter) cumulative(name string, x value, a trace.AVal, axis int, reverse bool) ([]value, error) {
	op, init := reducer(name, a.DType)
	iv := w.scalar(a.DType, init)
	window := slices.Repeat([]int{1}, a.Rank())
	n := a.Shape[axis]
	window[axis] = n
	pads := make([]string, a.Rank())
	for i := range pads {
		lo, hi := 0, 0
		if i == axis && n > 0 {
			if reverse {
				hi = n - 1
			} else {
				lo = n - 1
			}
		}
		pads[i] = fmt.Sprintf("[%d, %d]", lo, hi)
	}
	attrs := fmt.Sprintf("padding = dense<[%s]> : tensor<%dx2xi64>, window_dimensions = %s",
		strings.Join(pads, ", "), a.Rank(), i64Array(window))
	return w.op("stablehlo.reduce_window", []value{x, iv}, attrs, []string{tensorType(a)}, w.combiner(op, a.DType))
}

func (w *mlirWriter) gather(e *trace.Eqn, in []value) ([]value, error) {
	p := e.Params
	if m, _ := trace.ParamAs[trace.GatherScatterMode](p, "mode"); m == trace.GatherFillOrDrop {
		return nil, fmt.Errorf("gather with mode FILL_OR_DROP has no StableHLO lowering here yet")
	}
	g, _ := trace.ParamAs[trace.GatherDimensionNumbers](p, "dimension_numbers")
	attrs := fmt.Sprintf("dimension_numbers = #stablehlo.gather<offset_dims = %s, collapsed_slice_dims = %s, operand_batching_dims = %s, start_indices_batching_dims = %s, start_index_map = %s, index_vector_dim = %d>, indices_are_sorted = %t, slice_sizes = %s",
		intList(g.OffsetDims), intList(g.CollapsedSliceDims), intList(g.OperandBatchingDims), intList(g.StartIndicesBatchingDims),
		intList(g.StartIndexMap), e.In[1].Aval().Rank()-1, p.Bool("indices_are_sorted"), i64Array(p.Ints("slice_sizes")))
	return w.op("stablehlo.gather", in, attrs, []string{tensorType(e.Out[0].Aval())})
}

func (w *mlirWriter) scatter(e *trace.Eqn, in []value) ([]value, error) {
	p := e.Params
	if m, _ := trace.ParamAs[trace.GatherScatterMode](p, "mode"); m == trace.GatherClip {
		return nil, fmt.Errorf("scatter with mode CLIP has no StableHLO lowering here yet")
	}
	s, _ := trace.ParamAs[trace.ScatterDimensionNumbers](p, "dimension_numbers")
	attrs := fmt.Sprintf("indices_are_sorted = %t, scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = %s, inserted_window_dims = %s, input_batching_dims = %s, scatter_indices_batching_dims = %s, scatter_dims_to_operand_dims = %s, index_vector_dim = %d>, unique_indices = %t",
		p.Bool("indices_are_sorted"), intList(s.UpdateWindowDims), intList(s.InsertedWindowDims), intList(s.OperandBatchingDims),
		intList(s.ScatterIndicesBatchingDims), intList(s.ScatterDimsToOperandDims), e.In[1].Aval().Rank()-1, p.Bool("unique_indices"))
	dt := e.In[0].Aval().DType
	t := tensorType(trace.AVal{Shape: trace.Shape{}, DType: dt})
	region := func() error {
		args := w.block([]string{t, t})
		r := args[1]
		if op, ok := map[string]string{"scatter-add": "stablehlo.add", "scatter-mul": "stablehlo.multiply",
			"scatter-max": "stablehlo.maximum", "scatter-min": "stablehlo.minimum"}[e.Prim.Name]; ok {
			r = w.op1(op, args, "", t)
		}
		_, err := w.op("stablehlo.return", []value{r}, "", nil)
		return err
	}
	return w.op("stablehlo.scatter", in, attrs, []string{tensorType(e.Out[0].Aval())}, region)
}

func (w *mlirWriter) sort(e *trace.Eqn, in []value) ([]value, error) {
	if e.Params.Int("num_keys") != 1 {
		return nil, fmt.Errorf("sort lowers with one key only")
	}
	var scalars, outs []string
	for i := range in {
		t := tensorType(trace.AVal{Shape: trace.Shape{}, DType: e.In[i].Aval().DType})
		scalars = append(scalars, t, t)
		outs = append(outs, tensorType(e.Out[i].Aval()))
	}
	key := e.In[0].Aval().DType
	region := func() error {
		args := w.block(scalars)
		ct := compareType(key)
		if key.IsFloat() {
			ct = "TOTALORDER" // NaNs last, as lax.sort orders them
		}
		lt := w.op1("stablehlo.compare", args[:2],
			fmt.Sprintf("compare_type = #stablehlo<comparison_type %s>, comparison_direction = #stablehlo<comparison_direction LT>", ct), "tensor<i1>")
		_, err := w.op("stablehlo.return", []value{lt}, "", nil)
		return err
	}
	return w.op("stablehlo.sort", in, fmt.Sprintf("dimension = %d : i64, is_stable = %t", e.Params.Int("dimension"), e.Params.Bool("is_stable")), outs, region)
}
