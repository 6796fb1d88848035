package numpy

import (
	"fmt"
	"math"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp's reductions over axes: sum prod max amax min amin all any, built as
// JAX builds them (jax/_src/numpy/reductions.py, _reduction): convert the
// operand to the computation dtype, mask it with where= by the reduction's
// identity, reduce with the lax primitive, fold in initial=, restore reduced
// axes for keepdims, and convert to the result dtype. Results are strongly
// typed, as JAX's final convert_element_type makes them.

// reductionSpec is one reduction as JAX's _reduction is parameterized.
type reductionSpec struct {
	name        string
	prim        string // the lax reduction primitive
	boolPrim    string // the reduction when computing in bool (sum → reduce_or)
	combine     string // the binary primitive that folds in initial=
	boolCombine string
	hasIdentity bool // max and min have none: empty reductions need initial=
	numeric     bool // bool operands first become int32 (sum, prod)
	logical     bool // operands are first tested for truth (all, any)
	promoteInts bool // small integers widen to the default int (sum, prod)
	upcastHalf  bool // float16/bfloat16 compute in float32 unless dtype= is given
}

var (
	sumSpec  = reductionSpec{"sum", "reduce_sum", "reduce_or", "add", "or", true, true, false, true, true}
	prodSpec = reductionSpec{"prod", "reduce_prod", "reduce_and", "mul", "and", true, true, false, true, true}
	maxSpec  = reductionSpec{"max", "reduce_max", "reduce_max", "max", "max", false, false, false, false, false}
	minSpec  = reductionSpec{"min", "reduce_min", "reduce_min", "min", "min", false, false, false, false, false}
	allSpec  = reductionSpec{"all", "reduce_and", "reduce_and", "and", "and", true, false, true, false, false}
	anySpec  = reductionSpec{"any", "reduce_or", "reduce_or", "or", "or", true, false, true, false, false}
)

// identity is the reduction's init value in dtype dt, as JAX's
// _reduction_init_val computes it: ±inf clamp to the integer range, and a
// bool identity is init > 0.
func (r reductionSpec) reductionIdentity(dt trace.DType) starlark.Value {
	var v float64
	switch r.prim {
	case "reduce_sum", "reduce_or":
		v = 0
	case "reduce_prod", "reduce_and":
		v = 1
	case "reduce_max":
		v = math.Inf(-1)
	case "reduce_min":
		v = math.Inf(1)
	}
	switch {
	case dt == trace.Bool:
		return starlark.Bool(v > 0)
	case dt.IsInexact():
		return starlark.Float(v)
	case math.IsInf(v, -1):
		lo, _ := intDTypeRange(dt)
		return lo
	case math.IsInf(v, 1):
		_, hi := intDTypeRange(dt)
		return hi
	}
	return starlark.MakeInt(int(v))
}

// intDTypeRange is the smallest and largest value of an integer dtype.
func intDTypeRange(dt trace.DType) (lo, hi starlark.Value) {
	bits := uint(dt.Bits())
	if dt.IsUnsigned() {
		return starlark.MakeInt(0), starlark.MakeUint64(1<<bits - 1)
	}
	return starlark.MakeInt64(-1 << (bits - 1)), starlark.MakeInt64(1<<(bits-1) - 1)
}

// promoteIntegerDType is JAX's _promote_integer_dtype: bool and integers
// narrower than the default int (int32; uint32 for unsigned) widen to it.
func promoteIntegerDType(dt trace.DType) trace.DType {
	switch {
	case dt == trace.Bool:
		return trace.Int32
	case dt.IsUnsigned() && dt.Bits() < 32:
		return trace.Uint32
	case dt.IsSigned() && dt.Bits() < 32:
		return trace.Int32
	}
	return dt
}

// upcastHalfFloat is the computation dtype of float16 and bfloat16 reductions.
func upcastHalfFloat(dt trace.DType) trace.DType {
	if dt == trace.Float16 || dt == trace.BFloat16 {
		return trace.Float32
	}
	return dt
}

// inexactDTypeFor is JAX's dtypes.to_inexact_dtype: bool and integers up to 32
// bits become float32, 64-bit integers float64; inexact dtypes stay.
func inexactDTypeFor(dt trace.DType) trace.DType {
	switch {
	case dt.IsInexact():
		return dt
	case dt.Bits() == 64:
		return trace.Float64
	}
	return trace.Float32
}

// reduceOpts are the optional arguments every reduction may take.
type reduceOpts struct {
	axes        []int
	keepdims    bool
	dtype       trace.DType // trace.InvalidDType: not given
	initial     starlark.Value
	where       *jstarlark.Array
	promoteInts bool
}

// reduce applies the reduction r to a (JAX's _reduction).
func reduceAxes(fn string, r reductionSpec, a *jstarlark.Array, o reduceOpts) (*jstarlark.Array, error) {
	if o.initial == nil && !r.hasIdentity && o.where != nil {
		return nil, fmt.Errorf("%s: reduction operation %s does not have an identity, so to use a where mask one has to specify 'initial'", fn, r.name)
	}
	var err error
	switch {
	case r.numeric && a.DType() == trace.Bool:
		a, err = jstarlark.Astype(a, trace.Int32)
	case r.logical:
		a, err = jstarlark.Astype(a, trace.Bool)
	}
	if err != nil {
		return nil, err
	}
	if o.initial == nil && !r.hasIdentity {
		for _, ax := range o.axes {
			if a.Shape()[ax] == 0 {
				return nil, fmt.Errorf("%s: zero-size array to reduction operation %s which has no identity (operand %s, axis %s)", fn, r.name, jstarlark.Describe(a), intTupleText(o.axes))
			}
		}
	}
	given := o.dtype != trace.InvalidDType
	resultDT := o.dtype
	if !given {
		resultDT = a.DType()
		if o.promoteInts {
			resultDT = promoteIntegerDType(resultDT)
		}
	}
	comp := resultDT
	if r.upcastHalf && !given {
		comp = upcastHalfFloat(comp)
	}
	if a, err = jstarlark.Astype(a, comp); err != nil {
		return nil, err
	}
	prim, combine := r.prim, r.combine
	if comp == trace.Bool {
		prim, combine = r.boolPrim, r.boolCombine
	}
	if o.where != nil {
		mask, err := broadcastWhere(fn, o.where, a)
		if err != nil {
			return nil, err
		}
		init, err := filledConst(fn, a.Device(), r.reductionIdentity(comp), comp, a.Shape())
		if err != nil {
			return nil, err
		}
		if a, err = chooseWhere(mask, init, a); err != nil {
			return nil, err
		}
	}
	out := a
	if len(o.axes) > 0 {
		if out, err = jstarlark.Bind1(prim, trace.Params{"axes": append([]int{}, o.axes...)}, a); err != nil {
			return nil, err
		}
	}
	if o.initial != nil {
		init, err := scalarOperand(fn, "initial", o.initial, comp, a)
		if err != nil {
			return nil, err
		}
		if out, err = applyBinary(combine, init, out); err != nil {
			return nil, err
		}
	}
	if o.keepdims {
		if out, err = jstarlark.InsertUnitAxes(out, o.axes); err != nil {
			return nil, err
		}
	}
	return jstarlark.Astype(out, resultDT)
}

// scalarOperand converts a 0-d argument (a Python number or 0-d array) to a
// 0-d array of dtype dt on a's device.
func scalarOperand(fn, what string, v starlark.Value, dt trace.DType, a *jstarlark.Array) (*jstarlark.Array, error) {
	if x, ok := v.(*jstarlark.Array); ok {
		if x.NDim() != 0 {
			return nil, fmt.Errorf("%s: %s value must be a scalar, got an array %s", fn, what, jstarlark.Describe(x))
		}
		return jstarlark.Astype(x, dt)
	}
	switch v.(type) {
	case starlark.Int, starlark.Float, starlark.Bool:
		return scalarConst(fn, a.Device(), v, dt)
	}
	return nil, fmt.Errorf("%s: %s must be a number, got %s", fn, what, v.Type())
}

// whereArg reads where=: None, or a bool array (or Python bool).
func whereArg(fn string, v starlark.Value, a *jstarlark.Array) (*jstarlark.Array, error) {
	if v == nil || v == starlark.None {
		return nil, nil
	}
	w, err := jstarlark.ArraylikeArg(fn, v, 0, a.Device())
	if err != nil {
		return nil, err
	}
	if w.DType() != trace.Bool {
		return nil, fmt.Errorf("%s: where must be None or a boolean array; got %s", fn, jstarlark.Describe(w))
	}
	return w, nil
}

// broadcastWhere broadcasts a where= mask to the operand's shape.
func broadcastWhere(fn string, where, a *jstarlark.Array) (*jstarlark.Array, error) {
	if _, err := trace.BroadcastShapes(where.Shape(), a.Shape()); err != nil || where.NDim() > a.NDim() {
		return nil, fmt.Errorf("%s: where of shape %s does not broadcast to the operand's shape %s", fn, where.Shape(), a.Shape())
	}
	return jstarlark.BroadcastTo(where, a.Shape())
}

// reductionArgs are the parsed common arguments of a reduction builtin.
type reductionArgs struct {
	a    *jstarlark.Array
	opts reduceOpts
}

func parseReduction(fn string, a, axis, dtype, out, initial, where starlark.Value, keepdims bool) (reductionArgs, error) {
	dev, err := jstarlark.OperandDevice(a)
	if err != nil {
		return reductionArgs{}, err
	}
	x, err := jstarlark.ArraylikeArg(fn, a, 0, dev)
	if err != nil {
		return reductionArgs{}, err
	}
	if err := rejectOutArg(fn, out); err != nil {
		return reductionArgs{}, err
	}
	axes, _, err := reductionAxesArg(fn, axis, x)
	if err != nil {
		return reductionArgs{}, err
	}
	dt, _, err := jstarlark.DTypeArg(fn, dtype)
	if err != nil {
		return reductionArgs{}, err
	}
	w, err := whereArg(fn, where, x)
	if err != nil {
		return reductionArgs{}, err
	}
	if initial == starlark.None {
		initial = nil
	}
	return reductionArgs{a: x, opts: reduceOpts{axes: axes, keepdims: keepdims, dtype: dt, initial: initial, where: w}}, nil
}

// sumLikeBuiltin is jnp.sum and jnp.prod: (a, axis, dtype, out, keepdims,
// initial, where, promote_integers).
func sumLikeBuiltin(r reductionSpec) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := b.Name()
		var a, axis, dtype, out, initial, where starlark.Value
		keepdims, promote := false, true
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis?", &axis, "dtype?", &dtype, "out?", &out,
			"keepdims?", &keepdims, "initial?", &initial, "where?", &where, "promote_integers?", &promote); err != nil {
			return nil, err
		}
		p, err := parseReduction(fn, a, axis, dtype, out, initial, where, keepdims)
		if err != nil {
			return nil, err
		}
		p.opts.promoteInts = promote
		return reduceAxes(fn, r, p.a, p.opts)
	}
}

// extremumBuiltin is jnp.max/amax/min/amin: (a, axis, out, keepdims,
// initial, where); no dtype.
func extremumBuiltin(r reductionSpec) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := b.Name()
		var a, axis, out, initial, where starlark.Value
		keepdims := false
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis?", &axis, "out?", &out,
			"keepdims?", &keepdims, "initial?", &initial, "where?", &where); err != nil {
			return nil, err
		}
		p, err := parseReduction(fn, a, axis, nil, out, initial, where, keepdims)
		if err != nil {
			return nil, err
		}
		return reduceAxes(fn, r, p.a, p.opts)
	}
}

// logicalBuiltin is jnp.all/any: (a, axis, out, keepdims, where).
func logicalBuiltin(r reductionSpec) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := b.Name()
		var a, axis, out, where starlark.Value
		keepdims := false
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis?", &axis, "out?", &out,
			"keepdims?", &keepdims, "where?", &where); err != nil {
			return nil, err
		}
		p, err := parseReduction(fn, a, axis, nil, out, nil, where, keepdims)
		if err != nil {
			return nil, err
		}
		return reduceAxes(fn, r, p.a, p.opts)
	}
}

// countNonzero is jnp.count_nonzero: the int32 sum of a != 0.
func countNonzero(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a, axis starlark.Value
	keepdims := false
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis?", &axis, "keepdims?", &keepdims); err != nil {
		return nil, err
	}
	p, err := parseReduction(fn, a, axis, nil, nil, nil, nil, keepdims)
	if err != nil {
		return nil, err
	}
	nonzero, err := applyBinaryConst(fn, "ne", p.a, starlark.MakeInt(0))
	if err != nil {
		return nil, err
	}
	p.opts.dtype = trace.Int32
	return reduceAxes(fn, sumSpec, nonzero, p.opts)
}

func init() {
	jstarlark.Register(Module, "sum", sumLikeBuiltin(sumSpec))
	jstarlark.Register(Module, "prod", sumLikeBuiltin(prodSpec))
	jstarlark.Register(Module, "max", extremumBuiltin(maxSpec))
	jstarlark.Register(Module, "amax", extremumBuiltin(maxSpec))
	jstarlark.Register(Module, "min", extremumBuiltin(minSpec))
	jstarlark.Register(Module, "amin", extremumBuiltin(minSpec))
	jstarlark.Register(Module, "all", logicalBuiltin(allSpec))
	jstarlark.Register(Module, "any", logicalBuiltin(anySpec))
	jstarlark.Register(Module, "count_nonzero", countNonzero)
}
