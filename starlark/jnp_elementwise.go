package starlark

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// The jnp elementwise functions ("ufuncs") are compositions of lax
// primitives written after jax/_src/numpy/ufuncs.py: operands are checked,
// promoted (promote_args, promote_args_numeric or promote_args_inexact),
// brought to one rank (promote_shapes), and handed to primitives that
// broadcast scalars and size-1 dimensions themselves, as lax does. Nothing
// here computes array values on the host.
//
// Semantics where JAX leaves values to the backend, or SPEC is silent:
//
//   - Integer division by zero follows from XLA's lax.div (x / 0 is -1,
//     all bits set) through JAX's composition: floor_divide gives -2 for a
//     nonzero signed dividend, -1 for 0, and the maximum for unsigned types;
//     remainder (and mod) gives 0, since JAX divides by 1 instead of 0.
//   - x ** n with a static integer n (a Python int, or a 0-d integer array)
//     is integer_pow in x's dtype, and a negative n is an error for integer
//     x, as in JAX. With an integer array exponent, negative exponents give
//     the defined but meaningless result of JAX's square-and-multiply over
//     the exponent's low 6 bits.
//   - Integer and bool operands of floating functions (true_divide, sqrt,
//     exp, ...) become float32, int64 becomes float64 (to_inexact_dtype).
//   - Lists and tuples are not array-like for the ufuncs (JAX's
//     check_arraylike); jnp.array, asarray, array_equal and one_hot take
//     them.
//   - where(condition) alone (nonzero) has a data-dependent shape and is not
//     offered; the three-argument form is.

// The arithmetic ufuncs. Operators on arrays reach them by name (ops.go).
func init() {
	registerBinary("add", jnpAdd)
	registerBinary("subtract", jnpSubtract)
	registerBinary("multiply", jnpMultiply)
	registerBinary("true_divide", jnpTrueDivide)
	registerBinary("divide", func(x, y starlark.Value) (*Array, error) { return trueDivide("divide", x, y) })
	registerBinary("floor_divide", jnpFloorDivide)
	registerBinary("remainder", func(x, y starlark.Value) (*Array, error) { return remainder("remainder", x, y) })
	registerBinary("mod", func(x, y starlark.Value) (*Array, error) { return remainder("mod", x, y) })
	registerBinary("power", jnpPower)
	registerBinary("maximum", jnpMaximum)
	registerBinary("minimum", jnpMinimum)
	registerUnary("negative", jnpNegative)
	registerUnary("positive", jnpPositive)
}

// jnpAdd: on bool operands, addition is logical or.
func jnpAdd(x, y starlark.Value) (*Array, error) {
	arrs, err := promoteArgs("add", promoteCommon, x, y)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: "add"}
	if arrs[0].dtype() == trace.Bool {
		return c.done(c.bin("or", arrs[0], arrs[1]))
	}
	return c.done(c.bin("add", arrs[0], arrs[1]))
}

func jnpSubtract(x, y starlark.Value) (*Array, error) {
	arrs, err := promoteArgs("subtract", promoteCommon, x, y)
	if err != nil {
		return nil, err
	}
	if arrs[0].dtype() == trace.Bool {
		// lax.sub rejects bool too; NumPy's message says what to use instead.
		return nil, fmt.Errorf("subtract: boolean subtract is not supported (operands %s); use bitwise_xor or logical_xor", describeAll(x, y))
	}
	c := &composer{fn: "subtract"}
	return c.done(c.bin("sub", arrs[0], arrs[1]))
}

// jnpMultiply: on bool operands, multiplication is logical and.
func jnpMultiply(x, y starlark.Value) (*Array, error) {
	arrs, err := promoteArgs("multiply", promoteCommon, x, y)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: "multiply"}
	if arrs[0].dtype() == trace.Bool {
		return c.done(c.bin("and", arrs[0], arrs[1]))
	}
	return c.done(c.bin("mul", arrs[0], arrs[1]))
}

func jnpMaximum(x, y starlark.Value) (*Array, error) {
	return laxBinary("maximum", "max", promoteCommon, x, y)
}
func jnpMinimum(x, y starlark.Value) (*Array, error) {
	return laxBinary("minimum", "min", promoteCommon, x, y)
}

func jnpTrueDivide(x, y starlark.Value) (*Array, error) { return trueDivide("true_divide", x, y) }

func trueDivide(fn string, x, y starlark.Value) (*Array, error) {
	return laxBinary(fn, "div", promoteInexact, x, y)
}

// jnpFloorDivide rounds the quotient toward negative infinity: lax.div
// (which truncates) corrected where the operands' signs differ, for signed
// integers; CPython's float_divmod for floats.
func jnpFloorDivide(x, y starlark.Value) (*Array, error) {
	const fn = "floor_divide"
	arrs, err := promoteArgs(fn, promoteNumeric, x, y)
	if err != nil {
		return nil, err
	}
	x1, x2 := arrs[0], arrs[1]
	c := &composer{fn: fn}
	switch dt := x1.dtype(); {
	case dt.IsUnsigned():
		return c.done(c.bin("div", x1, x2))
	case dt.IsInteger():
		quotient := c.bin("div", x1, x2)
		signsDiffer := c.jnp(jnpNotEqual, c.un("sign", x1), c.un("sign", x2))
		inexact := c.jnp(jnpNotEqual, c.bin("rem", x1, x2), starlark.MakeInt(0))
		sel := c.jnp(jnpLogicalAnd, signsDiffer, inexact)
		return c.done(c.where(sel, c.jnp(jnpSubtract, quotient, starlark.MakeInt(1)), quotient))
	case dt.IsComplex():
		return nil, fmt.Errorf("%s does not support complex-valued inputs", fn)
	}
	div, _ := floatDivmod(c, x1, x2)
	return c.done(div)
}

// floatDivmod is ufuncs._float_divmod (after CPython's float_divmod): the
// floored quotient and the remainder with the divisor's sign.
func floatDivmod(c *composer, x1, x2 *Array) (div, mod *Array) {
	mod = c.bin("rem", x1, x2)
	x2IsZero := c.jnp(jnpEqual, x2, starlark.MakeInt(0))
	corrected := c.where(x2IsZero, x1, c.bin("sub", x1, mod))
	div = c.bin("div", corrected, x2)
	modNonzero := c.jnp(jnpNotEqual, mod, starlark.MakeInt(0))
	signsDiffer := c.jnp(jnpNotEqual, c.un("sign", x2), c.un("sign", mod))
	ind := c.bin("and", modNonzero, signsDiffer)
	mod = c.select_(ind, c.jnp(jnpAdd, mod, x2), mod)
	div = c.select_(ind, c.jnp(jnpSubtract, div, starlark.Float(1)), div)
	return c.prim("round", trace.Params{"rounding_method": trace.RoundAwayFromZero}, div), mod
}

// remainder has the divisor's sign (Python's %). An integer divisor of 0 is
// replaced by 1, so x % 0 is 0 for integers, as in JAX; floats give nan.
func remainder(fn string, x, y starlark.Value) (*Array, error) {
	arrs, err := promoteArgs(fn, promoteNumeric, x, y)
	if err != nil {
		return nil, err
	}
	x1, x2 := arrs[0], arrs[1]
	c := &composer{fn: fn}
	zero := c.lit(x1, 0)
	if x2.dtype().IsInteger() {
		x2 = c.where(c.jnp(jnpEqual, x2, starlark.MakeInt(0)), c.fullLike(x2, 1, x2.dtype()), x2)
	}
	truncMod := c.bin("rem", x1, x2)
	truncModNonzero := c.bin("ne", truncMod, zero)
	signsDiffer := c.bin("ne", c.bin("lt", truncMod, zero), c.bin("lt", x2, c.lit(x2, 0)))
	doPlus := c.bin("and", signsDiffer, truncModNonzero)
	return c.done(c.select_(doPlus, c.bin("add", truncMod, x2), truncMod))
}

// jnpPower follows jnp.power: a concrete integer exponent (a Python int or
// a 0-d integer array) uses integer_pow, which rejects negative exponents
// of integers as JAX does; integer bases with array exponents multiply by
// squaring over the exponent's low 6 bits (_pow_int_int); floating bases use
// lax.pow.
func jnpPower(x, y starlark.Value) (*Array, error) {
	const fn = "power"
	if err := checkArraylike(fn, x, y); err != nil {
		return nil, err
	}
	if n, ok, err := concreteIndex(y); err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	} else if ok {
		arrs, err := promoteDTypes(fn, promoteNumeric, x)
		if err != nil {
			return nil, err
		}
		c := &composer{fn: fn}
		return c.done(c.prim("integer_pow", trace.Params{"y": n}, arrs[0]))
	}
	x1, err := ensureArray(fn, x)
	if err != nil {
		return nil, err
	}
	x2, err := ensureArray(fn, y)
	if err != nil {
		return nil, err
	}
	shaped, err := promoteShapes(fn, x1, x2)
	if err != nil {
		return nil, err
	}
	x1, x2 = shaped[0], shaped[1]
	arrs, err := promoteArgs(fn, promoteNumeric, x1, x2)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: fn}
	if dt := arrs[0].dtype(); dt.IsInteger() {
		return c.done(powIntInt(c, arrs[0], arrs[1]))
	}
	if x1.dtype().IsInexact() && x2.dtype().IsInteger() {
		return c.done(c.bin("pow", x1, x2))
	}
	return c.done(c.bin("pow", arrs[0], arrs[1]))
}

// concreteIndex is Python's operator.index on a power's exponent: Python
// ints and bools, and 0-d integer arrays, whose value is known.
func concreteIndex(v starlark.Value) (int, bool, error) {
	switch v := v.(type) {
	case starlark.Bool:
		if v {
			return 1, true, nil
		}
		return 0, true, nil
	case starlark.Int:
		n, ok := v.Int64()
		if !ok || n != int64(int(n)) {
			return 0, false, fmt.Errorf("integer exponent %s is out of range", v)
		}
		return int(n), true, nil
	case *Array:
		if v.ndim() != 0 || !v.dtype().IsInteger() {
			return 0, false, nil
		}
		s, err := v.scalarValue(0)
		if err != nil {
			return 0, false, err
		}
		n, _ := s.(starlark.Int).Int64()
		return int(n), true, nil
	}
	return 0, false, nil
}

// powIntInt is ufuncs._pow_int_int: square-and-multiply over the low 6 bits
// of the exponent (enough for any exponent that does not overflow 64 bits).
func powIntInt(c *composer, x1, x2 *Array) *Array {
	zero, one := c.lit(x2, 0), c.lit(x2, 1)
	acc := c.where(c.bin("and", c.bin("eq", x1, zero), c.bin("ne", x2, zero)), zero, one)
	for range 6 {
		acc = c.where(c.bin("and", x2, one), c.bin("mul", acc, x1), acc)
		x1 = c.bin("mul", x1, x1)
		x2 = c.bin("shift_right_logical", x2, one)
	}
	return acc
}

func jnpNegative(x starlark.Value) (*Array, error) {
	return laxUnary("negative", "neg", promoteCommon, x)
}

// jnpPositive returns its operand as an array (lax.asarray).
func jnpPositive(x starlark.Value) (*Array, error) {
	arrs, err := promoteArgs("positive", promoteCommon, x)
	if err != nil {
		return nil, err
	}
	return arrs[0], nil
}
