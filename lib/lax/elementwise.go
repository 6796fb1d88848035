package lax

import (
	"fmt"
	"strings"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
	"go.starlark.net/starlarkstruct"
)

// The lax module's elementwise and conversion functions: one primitive
// each, with lax's strictness. Operands are not promoted: arrays of
// different dtypes are an error. A Python number is weakly typed and takes
// the dtype of the array operands when JAX's promotion would give that dtype
// (lax.add(f32_array, 2) is float32); otherwise it keeps its own (int32 or
// float32) and the dtypes must still agree.

func init() {
	for _, op := range []struct{ name, prim, jnpName string }{
		{"add", "add", "add"}, {"sub", "sub", "subtract"}, {"mul", "mul", "multiply"},
		{"div", "div", "divide"}, {"rem", "rem", "remainder"},
		{"max", "max", "maximum"}, {"min", "min", "minimum"},
		{"atan2", "atan2", "arctan2"}, {"nextafter", "nextafter", "nextafter"},
		{"bitwise_and", "and", "bitwise_and"}, {"bitwise_or", "or", "bitwise_or"}, {"bitwise_xor", "xor", "bitwise_xor"},
		{"shift_left", "shift_left", "left_shift"}, {"shift_right_arithmetic", "shift_right_arithmetic", "right_shift"},
		{"shift_right_logical", "shift_right_logical", "right_shift"},
	} {
		jstarlark.Register(Module, op.name, laxBinaryBuiltin(op.name, op.prim, op.jnpName))
	}
	jstarlark.Register(Module, "pow", laxPowBuiltin)
	for _, op := range []struct{ name, prim string }{
		{"neg", "neg"}, {"abs", "abs"}, {"sign", "sign"}, {"floor", "floor"}, {"ceil", "ceil"},
		{"exp", "exp"}, {"log", "log"}, {"sin", "sin"}, {"cos", "cos"}, {"tanh", "tanh"},
		{"rsqrt", "rsqrt"}, {"erf", "erf"}, {"sqrt", "sqrt"},
		{"tan", "tan"}, {"asin", "asin"}, {"acos", "acos"}, {"atan", "atan"},
		{"sinh", "sinh"}, {"cosh", "cosh"}, {"asinh", "asinh"}, {"acosh", "acosh"}, {"atanh", "atanh"},
		{"exp2", "exp2"}, {"expm1", "expm1"}, {"log1p", "log1p"}, {"logistic", "logistic"},
		{"cbrt", "cbrt"}, {"erfc", "erfc"}, {"erf_inv", "erf_inv"}, {"is_finite", "is_finite"},
		{"square", "square"}, {"population_count", "population_count"}, {"bitwise_not", "not"},
	} {
		jstarlark.Register(Module, op.name, laxUnaryBuiltin(op.name, op.prim))
	}
	jstarlark.Register(Module, "round", laxRoundBuiltin)
	jstarlark.RegisterValue(Module, "RoundingMethod", starlarkstruct.FromStringDict(starlark.String("RoundingMethod"), starlark.StringDict{
		"AWAY_FROM_ZERO":  starlark.MakeInt(int(trace.RoundAwayFromZero)),
		"TO_NEAREST_EVEN": starlark.MakeInt(int(trace.RoundToNearestEven)),
	}))
	jstarlark.Register(Module, "select", laxSelectBuiltin)
	jstarlark.Register(Module, "convert_element_type", laxConvertBuiltin)
	jstarlark.Register(Module, "iota", laxIotaBuiltin)
	jstarlark.Register(Module, "broadcast_in_dim", laxBroadcastInDimBuiltin)
	jstarlark.Register(Module, "reduce_precision", laxReducePrecisionBuiltin)
	jstarlark.Register(Module, "stop_gradient", laxStopGradientBuiltin)
}

// laxOperands turns operands into arrays without promotion: arrays pass;
// Python numbers are weakly typed and take the first array's dtype when JAX
// would promote them to it.
func laxOperands(fn string, vals ...starlark.Value) ([]*jstarlark.Array, error) {
	if err := jstarlark.CheckArraylike(fn, vals...); err != nil {
		return nil, err
	}
	var first *jstarlark.Array
	for _, v := range vals {
		if a, ok := v.(*jstarlark.Array); ok {
			first = a
			break
		}
	}
	dev, err := jstarlark.OperandDevice(vals...)
	if err != nil {
		return nil, err
	}
	out := make([]*jstarlark.Array, len(vals))
	for i, v := range vals {
		if a, ok := v.(*jstarlark.Array); ok {
			out[i] = a
			continue
		}
		t, _ := jstarlark.ScalarType(v)
		if first != nil {
			if joined, err := trace.ResultType(first.AVal().Type(), t); err == nil && joined.DType == first.DType() {
				t.DType = first.DType()
			}
		}
		if out[i], err = jstarlark.ScalarArray(fn, v, t.DType, t.Weak, dev); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// checkSameDTypes is lax's check_same_dtypes, with its tip.
func checkSameDTypes(fn, jnpName string, arrs ...*jstarlark.Array) error {
	for _, a := range arrs[1:] {
		if a.DType() != arrs[0].DType() {
			names := make([]string, len(arrs))
			for i, b := range arrs {
				names[i] = b.DType().Name()
			}
			tip := ""
			if jnpName != "" {
				tip = fmt.Sprintf(" (Tip: jnp.%s is a similar function that does automatic type promotion on inputs)", jnpName)
			}
			return fmt.Errorf("%s requires arguments to have the same dtypes, got %s%s", fn, strings.Join(names, ", "), tip)
		}
	}
	return nil
}

func laxBinaryBuiltin(name, prim, jnpName string) jstarlark.BuiltinFunc {
	fn := "lax." + name
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x, y starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &x, &y); err != nil {
			return nil, err
		}
		arrs, err := laxOperands(fn, x, y)
		if err != nil {
			return nil, err
		}
		if err := checkSameDTypes(fn, jnpName, arrs...); err != nil {
			return nil, err
		}
		c := &jstarlark.Composer{Fn: fn}
		return c.Done(c.Binary(prim, arrs[0], arrs[1]))
	}
}

// laxPowBuiltin is lax.pow(x, y): a floating base, and an exponent of the
// base's dtype or any integer dtype; a Python int exponent stays int32.
func laxPowBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.pow"
	var x, y starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 2, &x, &y); err != nil {
		return nil, err
	}
	base, err := laxOperands(fn, x, y)
	if err != nil {
		return nil, err
	}
	if _, ok := y.(starlark.Int); ok {
		if base[1], err = jstarlark.EnsureArray(fn, y); err != nil {
			return nil, err
		}
	}
	c := &jstarlark.Composer{Fn: fn}
	return c.Done(c.Binary("pow", base[0], base[1]))
}

func laxUnaryBuiltin(name, prim string) jstarlark.BuiltinFunc {
	fn := "lax." + name
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
			return nil, err
		}
		a, err := jstarlark.EnsureArray(fn, x)
		if err != nil {
			return nil, err
		}
		c := &jstarlark.Composer{Fn: fn}
		return c.Done(c.Unary(prim, a))
	}
}

// laxRoundBuiltin is lax.round(x, rounding_method=AWAY_FROM_ZERO); 1
// (TO_NEAREST_EVEN) rounds halves to even.
func laxRoundBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.round"
	var x starlark.Value
	method := int(trace.RoundAwayFromZero)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x, "rounding_method?", &method); err != nil {
		return nil, err
	}
	if method != int(trace.RoundAwayFromZero) && method != int(trace.RoundToNearestEven) {
		return nil, fmt.Errorf("%s: rounding_method must be 0 (AWAY_FROM_ZERO) or 1 (TO_NEAREST_EVEN), got %d", fn, method)
	}
	a, err := jstarlark.EnsureArray(fn, x)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	return c.Done(c.Prim("round", trace.Params{"rounding_method": trace.RoundingMethod(method)}, a))
}

// laxSelectBuiltin is lax.select(pred, on_true, on_false): no broadcasting
// except a scalar pred; a bool pred picks on_true where true.
func laxSelectBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.select"
	var pred, onTrue, onFalse starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 3, &pred, &onTrue, &onFalse); err != nil {
		return nil, err
	}
	p, err := jstarlark.EnsureArray(fn, pred)
	if err != nil {
		return nil, err
	}
	cases, err := laxOperands(fn, onTrue, onFalse)
	if err != nil {
		return nil, err
	}
	if err := checkSameDTypes(fn, "", cases...); err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	return c.Done(c.Select(p, cases[0], cases[1]))
}

// laxConvertBuiltin is lax.convert_element_type(operand, new_dtype): the
// result is strongly typed. Python numbers start from 64-bit values, as
// NumPy's do, so that large ints wrap and floats round once.
func laxConvertBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.convert_element_type"
	var x, dtypeV starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "operand", &x, "new_dtype", &dtypeV); err != nil {
		return nil, err
	}
	dt, ok, err := jstarlark.UserDType(fn, dtypeV)
	if err != nil {
		return nil, err
	}
	if err := jstarlark.CheckArraylike(fn, x); err != nil {
		return nil, err
	}
	a, isArray := x.(*jstarlark.Array)
	if !isArray {
		src := map[string]trace.DType{"int": trace.Int64, "float": trace.Float64, "bool": trace.Bool}[x.Type()]
		dev, err := jstarlark.DefaultDevice()
		if err != nil {
			return nil, err
		}
		if a, err = jstarlark.ScalarArray(fn, x, src, false, dev); err != nil {
			return nil, err
		}
	}
	if !ok {
		dt = a.DType()
	}
	c := &jstarlark.Composer{Fn: fn}
	return c.Done(c.Convert(a, dt, false))
}

// laxIotaBuiltin is lax.iota(dtype, size): 0, 1, ..., size-1.
func laxIotaBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.iota"
	var dtypeV, sizeV starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "dtype", &dtypeV, "size", &sizeV); err != nil {
		return nil, err
	}
	dt, err := jstarlark.DTypeOf(fn, dtypeV)
	if err != nil {
		return nil, err
	}
	n, err := jstarlark.IntArg(fn, "size", sizeV)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, fmt.Errorf("%s: size must be non-negative, got %d", fn, n)
	}
	c := &jstarlark.Composer{Fn: fn}
	return c.Done(c.Iota(dt, trace.Shape{n}, 0))
}

// laxBroadcastInDimBuiltin is lax.broadcast_in_dim(operand, shape,
// broadcast_dimensions): operand dimension i becomes output dimension
// broadcast_dimensions[i].
func laxBroadcastInDimBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.broadcast_in_dim"
	var x, shapeV, dimsV starlark.Value
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "operand", &x, "shape", &shapeV, "broadcast_dimensions", &dimsV); err != nil {
		return nil, err
	}
	a, err := jstarlark.EnsureArray(fn, x)
	if err != nil {
		return nil, err
	}
	shape, err := jstarlark.ShapeArg(fn, shapeV)
	if err != nil {
		return nil, err
	}
	if _, ok := dimsV.(starlark.Int); ok {
		return nil, fmt.Errorf("%s: broadcast_dimensions must be a sequence of ints, got %s", fn, dimsV)
	}
	dims, err := jstarlark.ShapeArg(fn, dimsV)
	if err != nil {
		return nil, fmt.Errorf("%s: broadcast_dimensions must be a sequence of non-negative ints, got %s", fn, dimsV)
	}
	c := &jstarlark.Composer{Fn: fn}
	return c.Done(c.Prim("broadcast_in_dim", trace.Params{"shape": []int(shape), "broadcast_dimensions": []int(dims)}, a))
}

// laxReducePrecisionBuiltin is lax.reduce_precision(operand, exponent_bits,
// mantissa_bits): rounds to a float format with fewer bits, keeping the
// dtype.
func laxReducePrecisionBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "lax.reduce_precision"
	var x starlark.Value
	var exponentBits, mantissaBits int
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "operand", &x, "exponent_bits", &exponentBits, "mantissa_bits", &mantissaBits); err != nil {
		return nil, err
	}
	a, err := jstarlark.EnsureArray(fn, x)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	return c.Done(c.Prim("reduce_precision", trace.Params{"exponent_bits": exponentBits, "mantissa_bits": mantissaBits}, a))
}

// laxStopGradientBuiltin is lax.stop_gradient(x): the identity on a pytree
// of arrays (containers are rebuilt, as tree_map does) whose derivatives
// are zero. A traced array goes through the stop_gradient primitive, which
// autodiff treats as non-differentiable and the compiler removes; a
// concrete one is already a constant to every transformation.
func laxStopGradientBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	if err := starlark.UnpackPositionalArgs(b.Name(), args, kwargs, 1, &x); err != nil {
		return nil, err
	}
	return stopGradientTree(x)
}

func stopGradientTree(v starlark.Value) (starlark.Value, error) {
	switch x := v.(type) {
	case *jstarlark.Array:
		if x.Traced() {
			return jstarlark.Bind1("stop_gradient", nil, x)
		}
		return v, nil
	case starlark.Int, starlark.Float, starlark.Bool, starlark.NoneType:
		return v, nil
	case starlark.Tuple:
		out := make(starlark.Tuple, len(x))
		for i, it := range x {
			var err error
			if out[i], err = stopGradientTree(it); err != nil {
				return nil, err
			}
		}
		return out, nil
	case *starlark.List:
		items := make([]starlark.Value, x.Len())
		for i := range items {
			var err error
			if items[i], err = stopGradientTree(x.Index(i)); err != nil {
				return nil, err
			}
		}
		return starlark.NewList(items), nil
	case *starlark.Dict:
		out := starlark.NewDict(x.Len())
		for _, kv := range x.Items() {
			if _, ok := kv[0].(starlark.String); !ok {
				return nil, fmt.Errorf("lax.stop_gradient: pytree dict keys must be strings, got %s", kv[0].Type())
			}
			leaf, err := stopGradientTree(kv[1])
			if err != nil {
				return nil, err
			}
			if err := out.SetKey(kv[0], leaf); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, fmt.Errorf("lax.stop_gradient: %s is not a valid pytree leaf (arrays and numbers are)", v.Type())
}
