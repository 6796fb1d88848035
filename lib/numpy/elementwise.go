package numpy

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
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
	registerBinary("add", Add)
	registerBinary("subtract", Subtract)
	registerBinary("multiply", Multiply)
	registerBinary("true_divide", TrueDivide)
	registerBinary("divide", func(x, y starlark.Value) (*jstarlark.Array, error) { return trueDivide("divide", x, y) })
	registerBinary("floor_divide", jnpFloorDivide)
	registerBinary("remainder", func(x, y starlark.Value) (*jstarlark.Array, error) { return remainder("remainder", x, y) })
	registerBinary("mod", func(x, y starlark.Value) (*jstarlark.Array, error) { return remainder("mod", x, y) })
	registerBinary("power", jnpPower)
	registerBinary("maximum", Maximum)
	registerBinary("minimum", jnpMinimum)
	registerUnary("negative", Negative)
	registerUnary("positive", jnpPositive)
}

// jnpAdd: on bool operands, addition is logical or.
func Add(x, y starlark.Value) (*jstarlark.Array, error) {
	a, b, err := jstarlark.PromoteArgs2("add", jstarlark.PromoteCommon, x, y)
	if err != nil {
		return nil, err
	}
	c := jstarlark.Composer{Fn: "add"}
	if a.DType() == trace.Bool {
		return c.Done(c.Binary("or", a, b))
	}
	return c.Done(c.Binary("add", a, b))
}

// Subtract is jnp.subtract (bool operands are an error, as in JAX).
func Subtract(x, y starlark.Value) (*jstarlark.Array, error) {
	a, b, err := jstarlark.PromoteArgs2("subtract", jstarlark.PromoteCommon, x, y)
	if err != nil {
		return nil, err
	}
	if a.DType() == trace.Bool {
		// lax.sub rejects bool too; NumPy's message says what to use instead.
		return nil, fmt.Errorf("subtract: boolean subtract is not supported (operands %s); use bitwise_xor or logical_xor", jstarlark.DescribeAll(x, y))
	}
	c := jstarlark.Composer{Fn: "subtract"}
	return c.Done(c.Binary("sub", a, b))
}

// jnpMultiply: on bool operands, multiplication is logical and.
func Multiply(x, y starlark.Value) (*jstarlark.Array, error) {
	a, b, err := jstarlark.PromoteArgs2("multiply", jstarlark.PromoteCommon, x, y)
	if err != nil {
		return nil, err
	}
	c := jstarlark.Composer{Fn: "multiply"}
	if a.DType() == trace.Bool {
		return c.Done(c.Binary("and", a, b))
	}
	return c.Done(c.Binary("mul", a, b))
}

// Maximum is jnp.maximum: NaN wins, as in NumPy.
func Maximum(x, y starlark.Value) (*jstarlark.Array, error) {
	return jstarlark.ApplyBinary("maximum", "max", jstarlark.PromoteCommon, x, y)
}
func jnpMinimum(x, y starlark.Value) (*jstarlark.Array, error) {
	return jstarlark.ApplyBinary("minimum", "min", jstarlark.PromoteCommon, x, y)
}

// TrueDivide is jnp.true_divide: integer operands divide as floats.
func TrueDivide(x, y starlark.Value) (*jstarlark.Array, error) {
	return trueDivide("true_divide", x, y)
}

func trueDivide(fn string, x, y starlark.Value) (*jstarlark.Array, error) {
	return jstarlark.ApplyBinary(fn, "div", jstarlark.PromoteInexact, x, y)
}

// jnpFloorDivide rounds the quotient toward negative infinity: lax.div
// (which truncates) corrected where the operands' signs differ, for signed
// integers; CPython's float_divmod for floats.
func jnpFloorDivide(x, y starlark.Value) (*jstarlark.Array, error) {
	const fn = "floor_divide"
	arrs, err := jstarlark.PromoteArgs(fn, jstarlark.PromoteNumeric, x, y)
	if err != nil {
		return nil, err
	}
	x1, x2 := arrs[0], arrs[1]
	c := &jstarlark.Composer{Fn: fn}
	switch dt := x1.DType(); {
	case dt.IsUnsigned():
		return c.Done(c.Binary("div", x1, x2))
	case dt.IsInteger():
		quotient := c.Binary("div", x1, x2)
		signsDiffer := c.Ufunc2(NotEqual, c.Unary("sign", x1), c.Unary("sign", x2))
		inexact := c.Ufunc2(NotEqual, c.Binary("rem", x1, x2), starlark.MakeInt(0))
		sel := c.Ufunc2(jnpLogicalAnd, signsDiffer, inexact)
		return c.Done(c.Where(sel, c.Ufunc2(Subtract, quotient, starlark.MakeInt(1)), quotient))
	case dt.IsComplex():
		return nil, fmt.Errorf("%s does not support complex-valued inputs", fn)
	}
	div, _ := floatDivmod(c, x1, x2)
	return c.Done(div)
}

// floatDivmod is ufuncs._float_divmod (after CPython's float_divmod): the
// floored quotient and the remainder with the divisor's sign.
func floatDivmod(c *jstarlark.Composer, x1, x2 *jstarlark.Array) (div, mod *jstarlark.Array) {
	mod = c.Binary("rem", x1, x2)
	x2IsZero := c.Ufunc2(Equal, x2, starlark.MakeInt(0))
	corrected := c.Where(x2IsZero, x1, c.Binary("sub", x1, mod))
	div = c.Binary("div", corrected, x2)
	modNonzero := c.Ufunc2(NotEqual, mod, starlark.MakeInt(0))
	signsDiffer := c.Ufunc2(NotEqual, c.Unary("sign", x2), c.Unary("sign", mod))
	ind := c.Binary("and", modNonzero, signsDiffer)
	mod = c.Select(ind, c.Ufunc2(Add, mod, x2), mod)
	div = c.Select(ind, c.Ufunc2(Subtract, div, starlark.Float(1)), div)
	return c.Prim("round", trace.Params{"rounding_method": trace.RoundAwayFromZero}, div), mod
}

// remainder has the divisor's sign (Python's %). An integer divisor of 0 is
// replaced by 1, so x % 0 is 0 for integers, as in JAX; floats give nan.
func remainder(fn string, x, y starlark.Value) (*jstarlark.Array, error) {
	arrs, err := jstarlark.PromoteArgs(fn, jstarlark.PromoteNumeric, x, y)
	if err != nil {
		return nil, err
	}
	x1, x2 := arrs[0], arrs[1]
	c := &jstarlark.Composer{Fn: fn}
	zero := c.Lit(x1, 0)
	if x2.DType().IsInteger() {
		x2 = c.Where(c.Ufunc2(Equal, x2, starlark.MakeInt(0)), c.FullLike(x2, 1, x2.DType()), x2)
	}
	truncMod := c.Binary("rem", x1, x2)
	truncModNonzero := c.Binary("ne", truncMod, zero)
	signsDiffer := c.Binary("ne", c.Binary("lt", truncMod, zero), c.Binary("lt", x2, c.Lit(x2, 0)))
	doPlus := c.Binary("and", signsDiffer, truncModNonzero)
	return c.Done(c.Select(doPlus, c.Binary("add", truncMod, x2), truncMod))
}

// jnpPower follows jnp.power: a concrete integer exponent (a Python int or
// a 0-d integer array) uses integer_pow, which rejects negative exponents
// of integers as JAX does; integer bases with array exponents multiply by
// squaring over the exponent's low 6 bits (_pow_int_int); floating bases use
// lax.pow.
func jnpPower(x, y starlark.Value) (*jstarlark.Array, error) {
	const fn = "power"
	if err := jstarlark.CheckArraylike(fn, x, y); err != nil {
		return nil, err
	}
	if n, ok, err := concreteIndex(y); err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	} else if ok {
		arrs, err := jstarlark.PromoteDTypes(fn, jstarlark.PromoteNumeric, x)
		if err != nil {
			return nil, err
		}
		c := &jstarlark.Composer{Fn: fn}
		return c.Done(c.Prim("integer_pow", trace.Params{"y": n}, arrs[0]))
	}
	x1, err := jstarlark.EnsureArray(fn, x)
	if err != nil {
		return nil, err
	}
	x2, err := jstarlark.EnsureArray(fn, y)
	if err != nil {
		return nil, err
	}
	shaped, err := jstarlark.PromoteShapes(fn, x1, x2)
	if err != nil {
		return nil, err
	}
	x1, x2 = shaped[0], shaped[1]
	arrs, err := jstarlark.PromoteArgs(fn, jstarlark.PromoteNumeric, x1, x2)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	if dt := arrs[0].DType(); dt.IsInteger() {
		return c.Done(powIntInt(c, arrs[0], arrs[1]))
	}
	if x1.DType().IsInexact() && x2.DType().IsInteger() {
		return c.Done(c.Binary("pow", x1, x2))
	}
	return c.Done(c.Binary("pow", arrs[0], arrs[1]))
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
	case *jstarlark.Array:
		if v.NDim() != 0 || !v.DType().IsInteger() {
			return 0, false, nil
		}
		s, err := v.ScalarValue(0)
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
func powIntInt(c *jstarlark.Composer, x1, x2 *jstarlark.Array) *jstarlark.Array {
	zero, one := c.Lit(x2, 0), c.Lit(x2, 1)
	acc := c.Where(c.Binary("and", c.Binary("eq", x1, zero), c.Binary("ne", x2, zero)), zero, one)
	for range 6 {
		acc = c.Where(c.Binary("and", x2, one), c.Binary("mul", acc, x1), acc)
		x1 = c.Binary("mul", x1, x1)
		x2 = c.Binary("shift_right_logical", x2, one)
	}
	return acc
}

// Negative is jnp.negative.
func Negative(x starlark.Value) (*jstarlark.Array, error) {
	return jstarlark.ApplyUnary("negative", "neg", jstarlark.PromoteCommon, x)
}

// jnpPositive returns its operand as an array (lax.asarray).
func jnpPositive(x starlark.Value) (*jstarlark.Array, error) {
	arrs, err := jstarlark.PromoteArgs("positive", jstarlark.PromoteCommon, x)
	if err != nil {
		return nil, err
	}
	return arrs[0], nil
}
