package starlark

import (
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Transcendental functions, rounding, and the float helpers of
// jax/_src/numpy/ufuncs.py.

// inexactUnaryPrims are the ufuncs that promote integers to floating
// (promote_args_inexact) and apply one primitive.
var inexactUnaryPrims = []struct{ name, prim string }{
	{"sqrt", "sqrt"}, {"cbrt", "cbrt"},
	{"exp", "exp"}, {"exp2", "exp2"}, {"expm1", "expm1"},
	{"log", "log"}, {"log1p", "log1p"},
	{"sin", "sin"}, {"cos", "cos"}, {"tan", "tan"},
	{"arcsin", "asin"}, {"arccos", "acos"}, {"arctan", "atan"},
	{"sinh", "sinh"}, {"cosh", "cosh"}, {"tanh", "tanh"},
	{"arcsinh", "asinh"}, {"arccosh", "acosh"}, {"arctanh", "atanh"},
}

func init() {
	for _, u := range inexactUnaryPrims {
		registerUnary(u.name, func(x starlark.Value) (*Array, error) {
			return laxUnary(u.name, u.prim, promoteInexact, x)
		})
	}
	registerBinary("arctan2", func(x, y starlark.Value) (*Array, error) {
		return laxBinary("arctan2", "atan2", promoteInexact, x, y)
	})
	registerUnary("sign", func(x starlark.Value) (*Array, error) { return laxUnary("sign", "sign", promoteCommon, x) })
	registerUnary("abs", func(x starlark.Value) (*Array, error) { return absolute("abs", x) })
	registerUnary("absolute", func(x starlark.Value) (*Array, error) { return absolute("absolute", x) })
	registerUnary("floor", func(x starlark.Value) (*Array, error) { return floorOrCeil("floor", x) })
	registerUnary("ceil", func(x starlark.Value) (*Array, error) { return floorOrCeil("ceil", x) })
	registerUnary("trunc", jnpTrunc)
	registerUnary("rint", jnpRint)
	registerUnary("square", jnpSquare)
	registerUnary("reciprocal", jnpReciprocal)
	registerUnary("log2", jnpLog2)
	registerUnary("log10", jnpLog10)
	registerUnary("deg2rad", func(x starlark.Value) (*Array, error) { return scaleInexact("deg2rad", x, math.Pi/180) })
	registerUnary("rad2deg", func(x starlark.Value) (*Array, error) { return scaleInexact("rad2deg", x, 180/math.Pi) })
	registerBinary("hypot", jnpHypot)
	registerBinary("copysign", jnpCopysign)
	registerBinary("fmax", func(x, y starlark.Value) (*Array, error) { return fminmax("fmax", jnpGreater, x, y) })
	registerBinary("fmin", func(x, y starlark.Value) (*Array, error) { return fminmax("fmin", jnpLess, x, y) })
	register("jnp", "round", jnpRoundBuiltin)
}

// absolute returns bool and unsigned operands unchanged.
func absolute(fn string, x starlark.Value) (*Array, error) {
	a, err := ensureArray(fn, x)
	if err != nil {
		return nil, err
	}
	if dt := a.dtype(); dt == trace.Bool || dt.IsUnsigned() {
		return a, nil
	}
	c := &composer{fn: fn}
	return c.done(c.un("abs", a))
}

// floorOrCeil returns integers and bools unchanged: they are whole already.
func floorOrCeil(fn string, x starlark.Value) (*Array, error) {
	a, err := ensureArray(fn, x)
	if err != nil {
		return nil, err
	}
	if isIntegralDType(a.dtype()) {
		return a, nil
	}
	return laxUnary(fn, fn, promoteInexact, a)
}

// isIntegralDType is JAX's isdtype(dt, ('integral', 'bool')).
func isIntegralDType(dt trace.DType) bool { return dt.IsInteger() || dt == trace.Bool }

// jnpTrunc rounds toward zero: ceil below zero, floor elsewhere.
func jnpTrunc(x starlark.Value) (*Array, error) {
	a, err := ensureArray("trunc", x)
	if err != nil {
		return nil, err
	}
	if isIntegralDType(a.dtype()) {
		return a, nil
	}
	c := &composer{fn: "trunc"}
	return c.done(c.where(c.bin("lt", a, c.lit(a, 0)), c.un("ceil", a), c.un("floor", a)))
}

// jnpRint rounds half to even; integers and bools become the default float.
func jnpRint(x starlark.Value) (*Array, error) {
	a, err := ensureArray("rint", x)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: "rint"}
	if isIntegralDType(a.dtype()) {
		return c.done(c.convert(a, trace.Float32, false))
	}
	return c.done(c.prim("round", trace.Params{"rounding_method": trace.RoundToNearestEven}, a))
}

// jnpRoundBuiltin is jnp.round(a, decimals=0): half to even at the given
// decimal place. Integers are returned unchanged (negative decimals on
// integers are not implemented, as in JAX); float16 scales in float32.
func jnpRoundBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	var x starlark.Value
	decimals := 0
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "a", &x, "decimals?", &decimals); err != nil {
		return nil, err
	}
	return jnpRound(x, decimals)
}

func jnpRound(x starlark.Value, decimals int) (*Array, error) {
	const fn = "round"
	a, err := ensureArray(fn, x)
	if err != nil {
		return nil, err
	}
	dt := a.dtype()
	switch {
	case dt.IsInteger():
		if decimals < 0 {
			return nil, fmt.Errorf("%s: integer round is not implemented for decimals < 0 (got %d for %s)", fn, decimals, describe(a))
		}
		return a, nil
	case !dt.IsFloat():
		return nil, fmt.Errorf("%s: %s input is not supported (operand %s)", fn, dt, describe(a))
	case float64(decimals) > math.Log10(finfoOf(dt).max):
		return a, nil // rounding beyond the dtype's precision changes nothing
	}
	c := &composer{fn: fn}
	halfEven := trace.Params{"rounding_method": trace.RoundToNearestEven}
	if decimals == 0 {
		return c.done(c.prim("round", halfEven, a))
	}
	// Scale, round and scale back, in float32 for float16 as JAX does.
	if dt == trace.Float16 {
		a = c.convert(a, trace.Float32, false)
	}
	factor := c.lit(a, math.Pow(10, float64(decimals)))
	out := c.bin("div", c.prim("round", halfEven, c.bin("mul", a, factor)), factor)
	if dt == trace.Float16 {
		out = c.convert(out, dt, false)
	}
	return c.done(out)
}

// jnpSquare multiplies x by itself; bool becomes int32.
func jnpSquare(x starlark.Value) (*Array, error) {
	arrs, err := promoteDTypes("square", promoteNumeric, x)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: "square"}
	return c.done(c.un("square", arrs[0]))
}

func jnpReciprocal(x starlark.Value) (*Array, error) {
	arrs, err := promoteDTypes("reciprocal", promoteInexact, x)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: "reciprocal"}
	return c.done(c.prim("integer_pow", trace.Params{"y": -1}, arrs[0]))
}

// jnpLog2 divides by log(2) computed in x's dtype, as JAX does.
func jnpLog2(x starlark.Value) (*Array, error) {
	arrs, err := promoteArgs("log2", promoteInexact, x)
	if err != nil {
		return nil, err
	}
	a := arrs[0]
	c := &composer{fn: "log2"}
	return c.done(c.bin("div", c.un("log", a), c.un("log", c.lit(a, 2))))
}

// jnpLog10 multiplies by the exact 1/log(10) rounded to x's dtype.
func jnpLog10(x starlark.Value) (*Array, error) {
	arrs, err := promoteArgs("log10", promoteInexact, x)
	if err != nil {
		return nil, err
	}
	a := arrs[0]
	c := &composer{fn: "log10"}
	return c.done(c.bin("mul", c.un("log", a), c.lit(a, 0.4342944819032518)))
}

// scaleInexact multiplies by a constant in x's (inexact) dtype: deg2rad and
// rad2deg.
func scaleInexact(fn string, x starlark.Value, k float64) (*Array, error) {
	arrs, err := promoteArgs(fn, promoteInexact, x)
	if err != nil {
		return nil, err
	}
	a := arrs[0]
	c := &composer{fn: fn}
	return c.done(c.bin("mul", a, c.lit(a, k)))
}

// jnpHypot scales by the larger magnitude so that the square cannot
// overflow; an infinite operand gives inf even when the other is nan.
func jnpHypot(x, y starlark.Value) (*Array, error) {
	const fn = "hypot"
	arrs, err := promoteArgs(fn, promoteInexact, x, y)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: fn}
	x1, x2 := c.un("abs", arrs[0]), c.un("abs", arrs[1])
	idxInf := c.jnp(jnpLogicalOr, isPosInf(c, x1), isPosInf(c, x2))
	x1, x2 = c.jnp(jnpMaximum, x1, x2), c.jnp(jnpMinimum, x1, x2)
	if !c.ok(x1, x2) {
		return nil, c.err
	}
	x1IsZero := c.jnp(jnpEqual, x1, starlark.MakeInt(0))
	safeX1 := c.where(x1IsZero, c.fullLike(x1, 1, x1.dtype()), x1)
	ratio := c.bin("div", x2, safeX1)
	root := c.un("sqrt", c.jnp(jnpAdd, starlark.MakeInt(1), c.un("square", ratio)))
	h := c.where(x1IsZero, x1, c.jnp(jnpMultiply, x1, root))
	if !c.ok(h) {
		return nil, c.err
	}
	return c.done(c.where(idxInf, c.lit(h, math.Inf(1)), h))
}

// isPosInf is x == +inf for floats, false for everything else.
func isPosInf(c *composer, x *Array) *Array {
	return isSignedInf(c, x, 1)
}

func isNegInf(c *composer, x *Array) *Array {
	return isSignedInf(c, x, -1)
}

func isSignedInf(c *composer, x *Array, sign int) *Array {
	if !c.ok(x) {
		return nil
	}
	if !x.dtype().IsFloat() {
		return c.fullLike(x, 0, trace.Bool)
	}
	return c.bin("eq", x, c.lit(x, math.Inf(sign)))
}

// jnpCopysign takes x1's magnitude and x2's sign bit (so -0.0 and -nan
// count as negative).
func jnpCopysign(x, y starlark.Value) (*Array, error) {
	const fn = "copysign"
	arrs, err := promoteArgs(fn, promoteInexact, x, y)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: fn}
	mag := c.un("abs", arrs[0])
	return c.done(c.where(signbit(c, arrs[1]), c.jnp1(jnpNegative, mag), mag))
}

// signbit is ufuncs.signbit for floats: the top bit of the same-width
// integer, shifted down arithmetically and read as bool.
func signbit(c *composer, x *Array) *Array {
	if !c.ok(x) {
		return nil
	}
	intType := map[int]trace.DType{16: trace.Int16, 32: trace.Int32, 64: trace.Int64}[x.dtype().Bits()]
	bits := c.prim("bitcast_convert_type", trace.Params{"new_dtype": intType}, x)
	shift := x.dtype().Bits() - 1 // nexp + nmant
	return c.convert(c.jnp(jnpRightShift, bits, starlark.MakeInt(shift)), trace.Bool, false)
}

// fminmax is fmax/fmin: like maximum/minimum, but a nan loses to a number.
func fminmax(fn string, pick binaryFunc, x, y starlark.Value) (*Array, error) {
	if err := checkArraylike(fn, x, y); err != nil {
		return nil, err
	}
	x1, err := ensureArray(fn, x)
	if err != nil {
		return nil, err
	}
	x2, err := ensureArray(fn, y)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: fn}
	mask := c.jnp(jnpBitwiseOr, c.jnp(pick, x1, x2), c.jnp1(jnpIsnan, x2))
	return c.done(c.where(mask, x1, x2))
}

// floatInfo is the part of NumPy's finfo that the functions here need.
type floatInfo struct {
	bits                int
	eps, max, tiny, res float64
	nmant, nexp, minexp int
	maxexp, precision   int
}

// finfoOf gives NumPy's finfo values for a floating dtype.
func finfoOf(dt trace.DType) floatInfo {
	switch dt {
	case trace.Float16:
		return floatInfo{bits: 16, eps: 0x1p-10, max: 65504, tiny: 0x1p-14, res: 1e-3, nmant: 10, nexp: 5, minexp: -14, maxexp: 16, precision: 3}
	case trace.BFloat16:
		return floatInfo{bits: 16, eps: 0x1p-7, max: 0x1.FEp127, tiny: 0x1p-126, res: 1e-2, nmant: 7, nexp: 8, minexp: -126, maxexp: 128, precision: 2}
	case trace.Float32, trace.Complex64:
		return floatInfo{bits: 32, eps: 0x1p-23, max: math.MaxFloat32, tiny: 0x1p-126, res: 1e-6, nmant: 23, nexp: 8, minexp: -126, maxexp: 128, precision: 6}
	}
	return floatInfo{bits: 64, eps: 0x1p-52, max: math.MaxFloat64, tiny: 0x1p-1022, res: 1e-15, nmant: 52, nexp: 11, minexp: -1022, maxexp: 1024, precision: 15}
}
