package numpy

import (
	"fmt"
	"math"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Comparisons, logical and bitwise ufuncs, float classification, and the
// jnp functions built on them (where, clip, isclose, allclose, array_equal,
// nan_to_num).

func init() {
	for _, cmp := range []struct {
		name, prim string
		f          *jstarlark.BinaryFunc
	}{
		{"equal", "eq", &Equal}, {"not_equal", "ne", &NotEqual},
		{"less", "lt", &Less}, {"less_equal", "le", &jnpLessEqual},
		{"greater", "gt", &jnpGreater}, {"greater_equal", "ge", &jnpGreaterEqual},
		{"bitwise_and", "and", &jnpBitwiseAnd}, {"bitwise_or", "or", &jnpBitwiseOr},
		{"bitwise_xor", "xor", &jnpBitwiseXor},
	} {
		*cmp.f = func(x, y starlark.Value) (*jstarlark.Array, error) {
			return jstarlark.ApplyBinary(cmp.name, cmp.prim, jstarlark.PromoteCommon, x, y)
		}
		registerBinary(cmp.name, *cmp.f)
	}
	registerBinary("logical_and", jnpLogicalAnd)
	registerBinary("logical_or", jnpLogicalOr)
	registerBinary("logical_xor", func(x, y starlark.Value) (*jstarlark.Array, error) { return logical("logical_xor", "xor", x, y) })
	registerUnary("logical_not", jnpLogicalNot)
	registerUnary("invert", func(x starlark.Value) (*jstarlark.Array, error) {
		return jstarlark.ApplyUnary("invert", "not", jstarlark.PromoteCommon, x)
	})
	registerBinary("left_shift", func(x, y starlark.Value) (*jstarlark.Array, error) {
		return jstarlark.ApplyBinary("left_shift", "shift_left", jstarlark.PromoteNumeric, x, y)
	})
	registerBinary("right_shift", jnpRightShift)
	registerUnary("isnan", jnpIsnan)
	registerUnary("isinf", jnpIsinf)
	registerUnary("isfinite", IsFinite)
	jstarlark.Register(Module, "where", jnpWhereBuiltin)
	jstarlark.Register(Module, "clip", jnpClipBuiltin)
	jstarlark.Register(Module, "isclose", closeBuiltin("isclose"))
	jstarlark.Register(Module, "allclose", closeBuiltin("allclose"))
	jstarlark.Register(Module, "array_equal", jnpArrayEqualBuiltin)
	jstarlark.Register(Module, "nan_to_num", jnpNanToNumBuiltin)
}

// The comparison and bitwise ufuncs, set by init: other compositions call
// them as JAX's code uses ==, <, | on arrays.
var (
	Equal, NotEqual, Less, jnpLessEqual, jnpGreater, jnpGreaterEqual jstarlark.BinaryFunc
	jnpBitwiseAnd, jnpBitwiseOr, jnpBitwiseXor                       jstarlark.BinaryFunc
)

func jnpLogicalAnd(x, y starlark.Value) (*jstarlark.Array, error) {
	return logical("logical_and", "and", x, y)
}
func jnpLogicalOr(x, y starlark.Value) (*jstarlark.Array, error) {
	return logical("logical_or", "or", x, y)
}

// logical compares each promoted operand with zero, then applies a bitwise
// primitive to the bools.
func logical(fn, prim string, x, y starlark.Value) (*jstarlark.Array, error) {
	arrs, err := jstarlark.PromoteArgs(fn, jstarlark.PromoteCommon, x, y)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	return c.Done(c.Binary(prim, c.ToBool(arrs[0]), c.ToBool(arrs[1])))
}

func jnpLogicalNot(x starlark.Value) (*jstarlark.Array, error) {
	arrs, err := jstarlark.PromoteArgs("logical_not", jstarlark.PromoteCommon, x)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: "logical_not"}
	return c.Done(c.Unary("not", c.ToBool(arrs[0])))
}

// jnpRightShift shifts in sign bits for signed integers and zeros for
// unsigned ones.
func jnpRightShift(x, y starlark.Value) (*jstarlark.Array, error) {
	arrs, err := jstarlark.PromoteArgs("right_shift", jstarlark.PromoteNumeric, x, y)
	if err != nil {
		return nil, err
	}
	prim := "shift_right_arithmetic"
	if arrs[0].DType().IsUnsigned() {
		prim = "shift_right_logical"
	}
	c := &jstarlark.Composer{Fn: "right_shift"}
	return c.Done(c.Binary(prim, arrs[0], arrs[1]))
}

// jnpIsnan is x != x, which is false for every non-float.
func jnpIsnan(x starlark.Value) (*jstarlark.Array, error) {
	a, err := jstarlark.EnsureArray("isnan", x)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: "isnan"}
	return c.Done(c.Binary("ne", a, a))
}

func jnpIsinf(x starlark.Value) (*jstarlark.Array, error) {
	a, err := jstarlark.EnsureArray("isinf", x)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: "isinf"}
	if a.DType().IsComplex() { // either part infinite
		re, im := c.Unary("real", a), c.Unary("imag", a)
		inf := c.Lit(re, math.Inf(1))
		return c.Done(c.Binary("or", c.Binary("eq", c.Unary("abs", re), inf), c.Binary("eq", c.Unary("abs", im), inf)))
	}
	if !a.DType().IsFloat() {
		return c.Done(c.FullLike(a, 0, trace.Bool))
	}
	return c.Done(c.Binary("eq", c.Unary("abs", a), c.Lit(a, math.Inf(1))))
}

// IsFinite is jnp.isfinite.
func IsFinite(x starlark.Value) (*jstarlark.Array, error) {
	a, err := jstarlark.EnsureArray("isfinite", x)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: "isfinite"}
	if a.DType().IsComplex() { // both parts finite
		return c.Done(c.Binary("and", c.Unary("is_finite", c.Unary("real", a)), c.Unary("is_finite", c.Unary("imag", a))))
	}
	if !a.DType().IsFloat() {
		return c.Done(c.FullLike(a, 1, trace.Bool))
	}
	return c.Done(c.Unary("is_finite", a))
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
	return Where(cond, x, y)
}

// Where is jnp.where(condition, x, y).
func Where(cond, x, y starlark.Value) (*jstarlark.Array, error) {
	const fn = "where"
	if err := jstarlark.CheckArraylike(fn, cond, x, y); err != nil {
		return nil, err
	}
	arrs := make([]*jstarlark.Array, 3)
	for i, v := range []starlark.Value{cond, x, y} {
		a, err := jstarlark.EnsureArray(fn, v)
		if err != nil {
			return nil, err
		}
		arrs[i] = a
	}
	c := &jstarlark.Composer{Fn: fn}
	return c.Done(c.Where(arrs[0], arrs[1], arrs[2]))
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

func jnpClip(arr, lo, hi starlark.Value) (*jstarlark.Array, error) {
	out, err := jstarlark.EnsureArray("clip", arr)
	if err != nil {
		return nil, err
	}
	if lo != starlark.None {
		if out, err = Maximum(lo, out); err != nil {
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
func closeBuiltin(fn string) jstarlark.BuiltinFunc {
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
		c := &jstarlark.Composer{Fn: fn}
		return c.Done(all(c, close))
	}
}

// isclose: |a - b| <= atol + rtol*|b| where b is finite, or a == b (equal
// infinities). Operands compute in their promoted floating type; rtol and
// atol are converted to it.
func isclose(fn string, a, b, rtol, atol starlark.Value, equalNaN bool) (*jstarlark.Array, error) {
	arrs, err := jstarlark.PromoteArgs(fn, jstarlark.PromoteCommon, a, b)
	if err != nil {
		return nil, err
	}
	if arrs, err = jstarlark.PromoteArgs(fn, jstarlark.PromoteInexact, arrs[0], arrs[1]); err != nil {
		return nil, err
	}
	x, y := arrs[0], arrs[1]
	c := &jstarlark.Composer{Fn: fn}
	// Tolerances compare with magnitudes: real for complex operands.
	rt, at := asDType(c, rtol, x, x.DType().ComplexPart()), asDType(c, atol, x, x.DType().ComplexPart())
	bothNaN := c.Ufunc2(jnpLogicalAnd, c.Ufunc1(jnpIsnan, x), c.Ufunc1(jnpIsnan, y))
	finite := c.Ufunc1(IsFinite, y)
	inRange := c.Binary("le", c.Unary("abs", c.Binary("sub", x, y)), c.Binary("add", at, c.Binary("mul", rt, c.Unary("abs", y))))
	out := c.Ufunc2(jnpLogicalOr, c.Binary("eq", x, y), c.Ufunc2(jnpLogicalAnd, finite, inRange))
	if equalNaN {
		out = c.Ufunc2(jnpLogicalOr, out, bothNaN)
	}
	return c.Done(out)
}

// asDType is lax.convert_element_type(v, dt) of a Python number or an
// array, on like's device.
func asDType(c *jstarlark.Composer, v starlark.Value, like *jstarlark.Array, dt trace.DType) *jstarlark.Array {
	if !c.OK(like) {
		return nil
	}
	if err := jstarlark.CheckArraylike(c.Fn, v); err != nil {
		return c.Fail(err)
	}
	if a, ok := v.(*jstarlark.Array); ok {
		return c.Convert(a, dt, false)
	}
	a, err := jstarlark.ScalarArray(c.Fn, v, dt, false, like.Device())
	if err != nil {
		return c.Fail(err)
	}
	return a
}

// all reduces a bool array over every axis to a 0-d bool array.
func all(c *jstarlark.Composer, x *jstarlark.Array) *jstarlark.Array {
	if !c.OK(x) || x.NDim() == 0 {
		return x
	}
	return c.Prim("reduce_and", trace.Params{"axes": trace.AllAxes(x.NDim())}, x)
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
	x, err := jstarlark.AsarrayValue(fn, a1, trace.InvalidDType)
	if err != nil {
		return nil, err
	}
	y, err := jstarlark.AsarrayValue(fn, a2, trace.InvalidDType)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	if !x.Shape().Equal(y.Shape()) {
		return c.Done(c.Scalar(x, trace.Bool, 0, false))
	}
	eq := c.Ufunc2(Equal, x, y)
	if equalNaN {
		eq = c.Ufunc2(jnpLogicalOr, eq, c.Ufunc2(jnpLogicalAnd, c.Ufunc1(jnpIsnan, x), c.Ufunc1(jnpIsnan, y)))
	}
	return c.Done(all(c, eq))
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
	a, err := jstarlark.EnsureArray(fn, x)
	if err != nil {
		return nil, err
	}
	return nanToNum(fn, a, nan, posinf, neginf)
}

// nanToNum replaces NaNs and infinities of a's floating (or, for complex,
// each part's) values.
func nanToNum(fn string, a *jstarlark.Array, nan, posinf, neginf starlark.Value) (*jstarlark.Array, error) {
	dt := a.DType()
	if dt.IsComplex() {
		parts := make([]*jstarlark.Array, 2)
		for i, part := range []string{"real", "imag"} {
			p, err := complexPart(fn, part, a)
			if err != nil {
				return nil, err
			}
			if parts[i], err = nanToNum(fn, p, nan, posinf, neginf); err != nil {
				return nil, err
			}
		}
		return jstarlark.Bind1("complex", nil, parts[0], parts[1])
	}
	if !dt.IsFloat() {
		return a, nil
	}
	info := FinfoOf(dt)
	if posinf == starlark.None {
		posinf = starlark.Float(info.max)
	}
	if neginf == starlark.None {
		neginf = starlark.Float(-info.max)
	}
	c := &jstarlark.Composer{Fn: fn}
	out := c.Where(c.Ufunc1(jnpIsnan, a), asDType(c, nan, a, dt), a)
	out = c.Where(isPosInf(c, out), asDType(c, posinf, a, dt), out)
	out = c.Where(isNegInf(c, out), asDType(c, neginf, a, dt), out)
	return c.Done(out)
}
