package starlark

import (
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Comparisons, logical and bitwise ufuncs, float classification, and the
// jnp functions built on them (where, clip, isclose, allclose, array_equal,
// nan_to_num).

func init() {
	for _, cmp := range []struct {
		name, prim string
		f          *binaryFunc
	}{
		{"equal", "eq", &jnpEqual}, {"not_equal", "ne", &jnpNotEqual},
		{"less", "lt", &jnpLess}, {"less_equal", "le", &jnpLessEqual},
		{"greater", "gt", &jnpGreater}, {"greater_equal", "ge", &jnpGreaterEqual},
		{"bitwise_and", "and", &jnpBitwiseAnd}, {"bitwise_or", "or", &jnpBitwiseOr},
		{"bitwise_xor", "xor", &jnpBitwiseXor},
	} {
		*cmp.f = func(x, y starlark.Value) (*Array, error) { return laxBinary(cmp.name, cmp.prim, promoteCommon, x, y) }
		registerBinary(cmp.name, *cmp.f)
	}
	registerBinary("logical_and", jnpLogicalAnd)
	registerBinary("logical_or", jnpLogicalOr)
	registerBinary("logical_xor", func(x, y starlark.Value) (*Array, error) { return logical("logical_xor", "xor", x, y) })
	registerUnary("logical_not", jnpLogicalNot)
	registerUnary("invert", func(x starlark.Value) (*Array, error) { return laxUnary("invert", "not", promoteCommon, x) })
	registerBinary("left_shift", func(x, y starlark.Value) (*Array, error) {
		return laxBinary("left_shift", "shift_left", promoteNumeric, x, y)
	})
	registerBinary("right_shift", jnpRightShift)
	registerUnary("isnan", jnpIsnan)
	registerUnary("isinf", jnpIsinf)
	registerUnary("isfinite", jnpIsfinite)
	register("jnp", "where", jnpWhereBuiltin)
	register("jnp", "clip", jnpClipBuiltin)
	register("jnp", "isclose", closeBuiltin("isclose"))
	register("jnp", "allclose", closeBuiltin("allclose"))
	register("jnp", "array_equal", jnpArrayEqualBuiltin)
	register("jnp", "nan_to_num", jnpNanToNumBuiltin)
}

// The comparison and bitwise ufuncs, set by init: other compositions call
// them as JAX's code uses ==, <, | on arrays.
var (
	jnpEqual, jnpNotEqual, jnpLess, jnpLessEqual, jnpGreater, jnpGreaterEqual binaryFunc
	jnpBitwiseAnd, jnpBitwiseOr, jnpBitwiseXor                                binaryFunc
)

func jnpLogicalAnd(x, y starlark.Value) (*Array, error) { return logical("logical_and", "and", x, y) }
func jnpLogicalOr(x, y starlark.Value) (*Array, error)  { return logical("logical_or", "or", x, y) }

// logical compares each promoted operand with zero, then applies a bitwise
// primitive to the bools.
func logical(fn, prim string, x, y starlark.Value) (*Array, error) {
	arrs, err := promoteArgs(fn, promoteCommon, x, y)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: fn}
	return c.done(c.bin(prim, c.toBool(arrs[0]), c.toBool(arrs[1])))
}

func jnpLogicalNot(x starlark.Value) (*Array, error) {
	arrs, err := promoteArgs("logical_not", promoteCommon, x)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: "logical_not"}
	return c.done(c.un("not", c.toBool(arrs[0])))
}

// jnpRightShift shifts in sign bits for signed integers and zeros for
// unsigned ones.
func jnpRightShift(x, y starlark.Value) (*Array, error) {
	arrs, err := promoteArgs("right_shift", promoteNumeric, x, y)
	if err != nil {
		return nil, err
	}
	prim := "shift_right_arithmetic"
	if arrs[0].dtype().IsUnsigned() {
		prim = "shift_right_logical"
	}
	c := &composer{fn: "right_shift"}
	return c.done(c.bin(prim, arrs[0], arrs[1]))
}

// jnpIsnan is x != x, which is false for every non-float.
func jnpIsnan(x starlark.Value) (*Array, error) {
	a, err := ensureArray("isnan", x)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: "isnan"}
	return c.done(c.bin("ne", a, a))
}

func jnpIsinf(x starlark.Value) (*Array, error) {
	a, err := ensureArray("isinf", x)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: "isinf"}
	if !a.dtype().IsFloat() {
		return c.done(c.fullLike(a, 0, trace.Bool))
	}
	return c.done(c.bin("eq", c.un("abs", a), c.lit(a, math.Inf(1))))
}

func jnpIsfinite(x starlark.Value) (*Array, error) {
	a, err := ensureArray("isfinite", x)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: "isfinite"}
	if !a.dtype().IsFloat() {
		return c.done(c.fullLike(a, 1, trace.Bool))
	}
	return c.done(c.un("is_finite", a))
}

// jnpWhereBuiltin is where(condition, x, y): x where condition is true
// (nonzero), else y, all broadcast together. The one-argument form is
// nonzero, whose result shape depends on the data; it is not offered.
func jnpWhereBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "where"
	for _, kv := range kwargs {
		switch name := string(kv[0].(starlark.String)); name {
		case "size", "fill_value":
			if kv[1] != starlark.None && len(args) == 3 {
				return nil, fmt.Errorf("%s: size and fill_value arguments cannot be used in three-term where function", fn)
			}
		default:
			return nil, fmt.Errorf("%s: unexpected keyword argument %q", fn, name)
		}
	}
	switch len(args) {
	case 1:
		return nil, fmt.Errorf("%s: the one-argument form (nonzero) is not supported; pass x and y: where(condition, x, y)", fn)
	case 3:
	default:
		return nil, fmt.Errorf("%s: takes 1 or 3 positional arguments, got %d", fn, len(args))
	}
	cond, x, y := args[0], args[1], args[2]
	if x == starlark.None || y == starlark.None {
		return nil, fmt.Errorf("%s: either both or neither of the x and y arguments should be provided, got %s and %s", fn, x, y)
	}
	return jnpWhere(cond, x, y)
}

func jnpWhere(cond, x, y starlark.Value) (*Array, error) {
	const fn = "where"
	if err := checkArraylike(fn, cond, x, y); err != nil {
		return nil, err
	}
	arrs := make([]*Array, 3)
	for i, v := range []starlark.Value{cond, x, y} {
		a, err := ensureArray(fn, v)
		if err != nil {
			return nil, err
		}
		arrs[i] = a
	}
	c := &composer{fn: fn}
	return c.done(c.where(arrs[0], arrs[1], arrs[2]))
}

// jnpClipBuiltin is clip(arr, min=None, max=None): maximum with min, then
// minimum with max, so the result dtype is their promotion.
func jnpClipBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var arr starlark.Value
	lo, hi := starlark.Value(starlark.None), starlark.Value(starlark.None)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "arr", &arr, "min?", &lo, "max?", &hi); err != nil {
		return nil, err
	}
	return jnpClip(arr, lo, hi)
}

func jnpClip(arr, lo, hi starlark.Value) (*Array, error) {
	out, err := ensureArray("clip", arr)
	if err != nil {
		return nil, err
	}
	if lo != starlark.None {
		if out, err = jnpMaximum(lo, out); err != nil {
			return nil, fmt.Errorf("clip: %w", err)
		}
	}
	if hi != starlark.None {
		if out, err = jnpMinimum(hi, out); err != nil {
			return nil, fmt.Errorf("clip: %w", err)
		}
	}
	return out, nil
}

// closeBuiltin is isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False)
// and allclose, which reduces it with all into a 0-d bool array.
func closeBuiltin(fn string) builtinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var a, bv starlark.Value
		var rtol, atol starlark.Value = starlark.Float(1e-05), starlark.Float(1e-08)
		equalNaN := false
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "a", &a, "b", &bv, "rtol?", &rtol, "atol?", &atol, "equal_nan?", &equalNaN); err != nil {
			return nil, err
		}
		close, err := isclose(fn, a, bv, rtol, atol, equalNaN)
		if err != nil || fn == "isclose" {
			return close, err
		}
		c := &composer{fn: fn}
		return c.done(all(c, close))
	}
}

// isclose: |a - b| <= atol + rtol*|b| where b is finite, or a == b (equal
// infinities). Operands compute in their promoted floating type; rtol and
// atol are converted to it.
func isclose(fn string, a, b, rtol, atol starlark.Value, equalNaN bool) (*Array, error) {
	arrs, err := promoteArgs(fn, promoteCommon, a, b)
	if err != nil {
		return nil, err
	}
	if arrs, err = promoteArgs(fn, promoteInexact, arrs[0], arrs[1]); err != nil {
		return nil, err
	}
	x, y := arrs[0], arrs[1]
	c := &composer{fn: fn}
	rt, at := asDType(c, rtol, x, x.dtype()), asDType(c, atol, x, x.dtype())
	bothNaN := c.jnp(jnpLogicalAnd, c.jnp1(jnpIsnan, x), c.jnp1(jnpIsnan, y))
	finite := c.jnp1(jnpIsfinite, y)
	inRange := c.bin("le", c.un("abs", c.bin("sub", x, y)), c.bin("add", at, c.bin("mul", rt, c.un("abs", y))))
	out := c.jnp(jnpLogicalOr, c.bin("eq", x, y), c.jnp(jnpLogicalAnd, finite, inRange))
	if equalNaN {
		out = c.jnp(jnpLogicalOr, out, bothNaN)
	}
	return c.done(out)
}

// asDType is lax.convert_element_type(v, dt) of a Python number or an
// array, on like's device.
func asDType(c *composer, v starlark.Value, like *Array, dt trace.DType) *Array {
	if !c.ok(like) {
		return nil
	}
	if err := checkArraylike(c.fn, v); err != nil {
		return c.fail(err)
	}
	if a, ok := v.(*Array); ok {
		return c.convert(a, dt, false)
	}
	a, err := scalarArray(c.fn, v, dt, false, like.Device())
	if err != nil {
		return c.fail(err)
	}
	return a
}

// all reduces a bool array over every axis to a 0-d bool array.
func all(c *composer, x *Array) *Array {
	if !c.ok(x) || x.ndim() == 0 {
		return x
	}
	return c.prim("reduce_and", trace.Params{"axes": trace.AllAxes(x.ndim())}, x)
}

// jnpArrayEqualBuiltin is array_equal(a1, a2, equal_nan=False): a 0-d bool
// array, False when the shapes differ. Lists are accepted (asarray).
func jnpArrayEqualBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "array_equal"
	var a1, a2 starlark.Value
	equalNaN := false
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "a1", &a1, "a2", &a2, "equal_nan?", &equalNaN); err != nil {
		return nil, err
	}
	x, err := asarrayValue(fn, a1, trace.InvalidDType)
	if err != nil {
		return nil, err
	}
	y, err := asarrayValue(fn, a2, trace.InvalidDType)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: fn}
	if !x.shape().Equal(y.shape()) {
		return c.done(c.scalar(x, trace.Bool, 0, false))
	}
	eq := c.jnp(jnpEqual, x, y)
	if equalNaN {
		eq = c.jnp(jnpLogicalOr, eq, c.jnp(jnpLogicalAnd, c.jnp1(jnpIsnan, x), c.jnp1(jnpIsnan, y)))
	}
	return c.done(all(c, eq))
}

// jnpNanToNumBuiltin is nan_to_num(x, copy=True, nan=0.0, posinf=None,
// neginf=None): nan and infinities replaced by finite values, the largest
// finite magnitudes of x's dtype by default. Non-float arrays pass through.
func jnpNanToNumBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "nan_to_num"
	var x starlark.Value
	copyArg := true
	var nan starlark.Value = starlark.Float(0)
	posinf, neginf := starlark.Value(starlark.None), starlark.Value(starlark.None)
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x, "copy?", &copyArg, "nan?", &nan, "posinf?", &posinf, "neginf?", &neginf); err != nil {
		return nil, err
	}
	a, err := ensureArray(fn, x)
	if err != nil {
		return nil, err
	}
	dt := a.dtype()
	if !dt.IsFloat() {
		return a, nil
	}
	info := finfoOf(dt)
	if posinf == starlark.None {
		posinf = starlark.Float(info.max)
	}
	if neginf == starlark.None {
		neginf = starlark.Float(-info.max)
	}
	c := &composer{fn: fn}
	out := c.where(c.jnp1(jnpIsnan, a), asDType(c, nan, a, dt), a)
	out = c.where(isPosInf(c, out), asDType(c, posinf, a, dt), out)
	out = c.where(isNegInf(c, out), asDType(c, neginf, a, dt), out)
	return c.done(out)
}
