package starlark

import (
	"errors"
	"fmt"
	"math"

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

// checkArraylike rejects what JAX's ufuncs reject: anything but arrays and
// Python numbers. Lists and tuples are array-like only for jnp.array and
// jnp.asarray, as in JAX.
func checkArraylike(fn string, vals ...starlark.Value) error {
	for i, v := range vals {
		switch v.(type) {
		case *Array, starlark.Int, starlark.Float, starlark.Bool:
			continue
		}
		return fmt.Errorf("%s requires ndarray or scalar arguments, got %s at position %d", fn, v.Type(), i)
	}
	return nil
}

// A promotion is one of JAX's three ways of choosing the dtype that
// elementwise operands compute in.
type promotion uint8

const (
	promoteCommon  promotion = iota // promote_args: the operands' result type
	promoteNumeric                  // promote_args_numeric: bool becomes int32
	promoteInexact                  // promote_args_inexact: integers and bool become floating
)

func (p promotion) apply(t trace.Type) trace.Type {
	switch {
	case p == promoteNumeric && t.DType == trace.Bool:
		return trace.Type{DType: trace.Int32}
	case p == promoteInexact && !t.DType.IsInexact():
		return trace.Type{DType: inexactOf(t.DType), Weak: t.Weak}
	}
	return t
}

// inexactOf is JAX's to_inexact_dtype for a non-inexact dtype: int64
// becomes float64 and every narrower integer (and bool) the default float32.
func inexactOf(dt trace.DType) trace.DType {
	if dt == trace.Int64 {
		return trace.Float64
	}
	return trace.Float32
}

// promoteDTypes converts the operands to their promoted type, without
// touching shapes (JAX's promote_dtypes*).
func promoteDTypes(fn string, p promotion, vals ...starlark.Value) ([]*Array, error) {
	if err := checkArraylike(fn, vals...); err != nil {
		return nil, err
	}
	t, err := resultType(fn, vals...)
	if err != nil {
		return nil, err
	}
	return promoteTo(fn, p.apply(t), vals...)
}

// promoteArgs is JAX's promote_args family: promoted dtypes, then NumPy rank
// promotion.
func promoteArgs(fn string, p promotion, vals ...starlark.Value) ([]*Array, error) {
	arrs, err := promoteDTypes(fn, p, vals...)
	if err != nil {
		return nil, err
	}
	return promoteShapes(fn, arrs...)
}

// promoteShapes is JAX's promote_shapes: when operands of different nonzero
// ranks meet, each gets leading size-1 dimensions up to the broadcast rank;
// lax's primitives broadcast scalars and size-1 dimensions themselves. The
// shapes are checked here so that the error names the jnp function.
func promoteShapes(fn string, arrs ...*Array) ([]*Array, error) {
	if len(arrs) < 2 {
		return arrs, nil
	}
	shapes := make([]trace.Shape, len(arrs))
	sameRank := true
	nonscalarRanks := map[int]bool{}
	for i, a := range arrs {
		shapes[i] = a.shape()
		sameRank = sameRank && a.ndim() == arrs[0].ndim()
		if a.ndim() > 0 {
			nonscalarRanks[a.ndim()] = true
		}
	}
	shape, err := trace.BroadcastShapes(shapes...)
	if err != nil {
		return nil, fmt.Errorf("%s: %v (operands %s)", fn, err, describeArrays(arrs))
	}
	if sameRank || len(nonscalarRanks) < 2 {
		return arrs, nil
	}
	out := make([]*Array, len(arrs))
	for i, a := range arrs {
		if out[i], err = broadcastToRank(a, len(shape)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// broadcastToRank prepends size-1 dimensions (lax.broadcast_to_rank).
func broadcastToRank(a *Array, rank int) (*Array, error) {
	lead := rank - a.ndim()
	if lead == 0 {
		return a, nil
	}
	shape := make([]int, 0, rank)
	for range lead {
		shape = append(shape, 1)
	}
	shape = append(shape, a.shape()...)
	dims := make([]int, a.ndim())
	for i := range dims {
		dims[i] = lead + i
	}
	return bind1("broadcast_in_dim", trace.Params{"shape": shape, "broadcast_dimensions": dims}, a)
}

func describeArrays(arrs []*Array) string {
	vals := make([]starlark.Value, len(arrs))
	for i, a := range arrs {
		vals[i] = a
	}
	return describeAll(vals...)
}

// ensureArray is JAX's ensure_arraylike for one operand: arrays pass, a
// Python number becomes a weakly typed 0-d array, anything else is an error.
func ensureArray(fn string, v starlark.Value) (*Array, error) {
	if err := checkArraylike(fn, v); err != nil {
		return nil, err
	}
	dev, err := operandDevice(v)
	if err != nil {
		return nil, err
	}
	return asArray(fn, v, dev)
}

// A composer applies the primitives of one jnp, lax or nn function. The
// first failure sticks: later steps return nil without binding, and done
// reports the failure under the function's name, so a composition reads
// like the JAX code it mirrors.
type composer struct {
	fn  string
	err error
}

func (c *composer) fail(err error) *Array {
	if c.err == nil {
		c.err = fmt.Errorf("%s: %w", c.fn, err)
	}
	return nil
}

// ok reports whether every step so far succeeded and every array is set.
func (c *composer) ok(arrs ...*Array) bool {
	if c.err != nil {
		return false
	}
	for _, a := range arrs {
		if a == nil {
			c.fail(errors.New("internal error: an operand is missing after a step that did not fail"))
			return false
		}
	}
	return true
}

func (c *composer) done(x *Array) (*Array, error) {
	if !c.ok(x) {
		return nil, c.err
	}
	return x, nil
}

// take records the outcome of a Go call that returns an array.
func (c *composer) take(a *Array, err error) *Array {
	if c.err != nil {
		return nil
	}
	if err != nil {
		c.err = err // nested jnp functions already name themselves
		return nil
	}
	return a
}

func (c *composer) prim(name string, params trace.Params, args ...*Array) *Array {
	if !c.ok(args...) {
		return nil
	}
	out, err := bind1(name, params, args...)
	if err != nil {
		return c.fail(err)
	}
	return out
}

// Unary and binary lax primitives, by lax's names.
func (c *composer) un(name string, x *Array) *Array     { return c.prim(name, nil, x) }
func (c *composer) bin(name string, x, y *Array) *Array { return c.prim(name, nil, x, y) }

// lit is lax._const: a strongly typed 0-d constant of like's dtype.
func (c *composer) lit(like *Array, v float64) *Array {
	if !c.ok(like) {
		return nil
	}
	return c.scalar(like, like.dtype(), v, false)
}

// scalar makes a 0-d array of dtype dt on like's device. Whole values are
// written as integers, so integer dtypes get them exactly.
func (c *composer) scalar(like *Array, dt trace.DType, v float64, weak bool) *Array {
	if !c.ok(like) {
		return nil
	}
	var sv starlark.Value = starlark.Float(v)
	if dt.IsInteger() || dt == trace.Bool {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return c.fail(fmt.Errorf("internal error: constant %v for %s", v, dt))
		}
		sv = starlark.MakeInt64(int64(v))
	}
	a, err := scalarArray(c.fn, sv, dt, weak, like.Device())
	if err != nil {
		return c.fail(err)
	}
	return a
}

// convert is lax.convert_element_type.
func (c *composer) convert(x *Array, dt trace.DType, weak bool) *Array {
	if !c.ok(x) {
		return nil
	}
	return c.take(convertType(x, trace.Type{DType: dt, Weak: weak && dt != trace.Bool}))
}

// fullLike is lax.full_like(x, v, dtype): a strongly typed array of x's
// shape.
func (c *composer) fullLike(x *Array, v float64, dt trace.DType) *Array {
	s := c.scalar(x, dt, v, false)
	if !c.ok(s) {
		return nil
	}
	return c.take(broadcastTo(s, x.shape()))
}

// select_ is lax.select(pred, onTrue, onFalse): select_n picks its second
// case where pred is true.
func (c *composer) select_(pred, onTrue, onFalse *Array) *Array {
	return c.prim("select_n", nil, pred, onFalse, onTrue)
}

// toBool is ufuncs._to_bool: x != 0 unless x is bool already.
func (c *composer) toBool(x *Array) *Array {
	if !c.ok(x) || x.dtype() == trace.Bool {
		return x
	}
	return c.bin("ne", x, c.lit(x, 0))
}

// where is JAX's util._where on arrays: a non-bool condition is compared
// with 0, x and y are promoted to one dtype, and everything broadcasts to
// one shape (a 0-d condition stays 0-d).
func (c *composer) where(cond, x, y *Array) *Array {
	if !c.ok(cond, x, y) {
		return nil
	}
	cond = c.toBool(cond)
	xy := c.takeAll(promoteDTypes(c.fn, promoteCommon, x, y))
	if !c.ok(cond) || xy == nil {
		return nil
	}
	var arrs []*Array
	if cond.ndim() == 0 {
		arrs = c.takeAll(broadcastArrays(c.fn, xy...))
		if arrs == nil {
			return nil
		}
		arrs = append([]*Array{cond}, arrs...)
	} else if arrs = c.takeAll(broadcastArrays(c.fn, cond, xy[0], xy[1])); arrs == nil {
		return nil
	}
	if arrs[1].size() == 0 {
		return arrs[1]
	}
	return c.select_(arrs[0], arrs[1], arrs[2])
}

func (c *composer) takeAll(arrs []*Array, err error) []*Array {
	if c.err != nil {
		return nil
	}
	if err != nil {
		c.err = err
		return nil
	}
	return arrs
}

// jnp applies a jnp ufunc from Go: binary compositions written in terms of
// other ufuncs (x - 1, a == b) call them as JAX's code does.
func (c *composer) jnp(f binaryFunc, x, y starlark.Value) *Array {
	if c.err != nil || x == nil || y == nil {
		return nil
	}
	if a, ok := x.(*Array); ok && !c.ok(a) {
		return nil
	}
	if a, ok := y.(*Array); ok && !c.ok(a) {
		return nil
	}
	return c.take(f(x, y))
}

func (c *composer) jnp1(f unaryFunc, x *Array) *Array {
	if !c.ok(x) {
		return nil
	}
	return c.take(f(x))
}

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

// laxUnary promotes x and applies one primitive.
func laxUnary(fn, prim string, p promotion, x starlark.Value) (*Array, error) {
	arrs, err := promoteArgs(fn, p, x)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: fn}
	return c.done(c.un(prim, arrs[0]))
}

// laxBinary promotes x and y and applies one primitive.
func laxBinary(fn, prim string, p promotion, x, y starlark.Value) (*Array, error) {
	arrs, err := promoteArgs(fn, p, x, y)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: fn}
	return c.done(c.bin(prim, arrs[0], arrs[1]))
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
	div, _ := c.floatDivmod(x1, x2)
	return c.done(div)
}

// floatDivmod is ufuncs._float_divmod (after CPython's float_divmod): the
// floored quotient and the remainder with the divisor's sign.
func (c *composer) floatDivmod(x1, x2 *Array) (div, mod *Array) {
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
		return c.done(c.powIntInt(arrs[0], arrs[1]))
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
func (c *composer) powIntInt(x1, x2 *Array) *Array {
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
