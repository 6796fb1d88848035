package numpy

import (
	"fmt"
	"math"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
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
		registerUnary(u.name, func(x starlark.Value) (*jstarlark.Array, error) {
			return jstarlark.ApplyUnary(u.name, u.prim, jstarlark.PromoteInexact, x)
		})
	}
	registerBinary("arctan2", func(x, y starlark.Value) (*jstarlark.Array, error) {
		return jstarlark.ApplyBinary("arctan2", "atan2", jstarlark.PromoteInexact, x, y)
	})
	registerUnary("sign", func(x starlark.Value) (*jstarlark.Array, error) {
		return jstarlark.ApplyUnary("sign", "sign", jstarlark.PromoteCommon, x)
	})
	registerUnary("abs", func(x starlark.Value) (*jstarlark.Array, error) { return absolute("abs", x) })
	registerUnary("absolute", func(x starlark.Value) (*jstarlark.Array, error) { return absolute("absolute", x) })
	registerUnary("floor", func(x starlark.Value) (*jstarlark.Array, error) { return floorOrCeil("floor", x) })
	registerUnary("ceil", func(x starlark.Value) (*jstarlark.Array, error) { return floorOrCeil("ceil", x) })
	registerUnary("trunc", jnpTrunc)
	registerUnary("rint", jnpRint)
	registerUnary("square", jnpSquare)
	registerUnary("reciprocal", jnpReciprocal)
	registerUnary("log2", jnpLog2)
	registerUnary("log10", jnpLog10)
	registerUnary("deg2rad", func(x starlark.Value) (*jstarlark.Array, error) { return scaleInexact("deg2rad", x, math.Pi/180) })
	registerUnary("rad2deg", func(x starlark.Value) (*jstarlark.Array, error) { return scaleInexact("rad2deg", x, 180/math.Pi) })
	registerBinary("hypot", jnpHypot)
	registerBinary("copysign", jnpCopysign)
	registerBinary("fmax", func(x, y starlark.Value) (*jstarlark.Array, error) { return fminmax("fmax", jnpGreater, x, y) })
	registerBinary("fmin", func(x, y starlark.Value) (*jstarlark.Array, error) { return fminmax("fmin", Less, x, y) })
	jstarlark.Register(Module, "round", jnpRoundBuiltin)
}

// absolute returns bool and unsigned operands unchanged.
func absolute(fn string, x starlark.Value) (*jstarlark.Array, error) {
	a, err := jstarlark.EnsureArray(fn, x)
	if err != nil {
		return nil, err
	}
	if dt := a.DType(); dt == trace.Bool || dt.IsUnsigned() {
		return a, nil
	}
	c := &jstarlark.Composer{Fn: fn}
	return c.Done(c.Unary("abs", a))
}

// floorOrCeil returns integers and bools unchanged: they are whole already.
func floorOrCeil(fn string, x starlark.Value) (*jstarlark.Array, error) {
	a, err := jstarlark.EnsureArray(fn, x)
	if err != nil {
		return nil, err
	}
	if isIntegralDType(a.DType()) {
		return a, nil
	}
	return jstarlark.ApplyUnary(fn, fn, jstarlark.PromoteInexact, a)
}

// isIntegralDType is JAX's isdtype(dt, ('integral', 'bool')).
func isIntegralDType(dt trace.DType) bool { return dt.IsInteger() || dt == trace.Bool }

// jnpTrunc rounds toward zero: ceil below zero, floor elsewhere.
func jnpTrunc(x starlark.Value) (*jstarlark.Array, error) {
	a, err := jstarlark.EnsureArray("trunc", x)
	if err != nil {
		return nil, err
	}
	if isIntegralDType(a.DType()) {
		return a, nil
	}
	c := &jstarlark.Composer{Fn: "trunc"}
	return c.Done(c.Where(c.Binary("lt", a, c.Lit(a, 0)), c.Unary("ceil", a), c.Unary("floor", a)))
}

// jnpRint rounds half to even; integers and bools become the default float.
func jnpRint(x starlark.Value) (*jstarlark.Array, error) {
	a, err := jstarlark.EnsureArray("rint", x)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: "rint"}
	if isIntegralDType(a.DType()) {
		return c.Done(c.Convert(a, trace.Float32, false))
	}
	return c.Done(c.Prim("round", trace.Params{"rounding_method": trace.RoundToNearestEven}, a))
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

func jnpRound(x starlark.Value, decimals int) (*jstarlark.Array, error) {
	const fn = "round"
	a, err := jstarlark.EnsureArray(fn, x)
	if err != nil {
		return nil, err
	}
	dt := a.DType()
	switch {
	case dt.IsInteger():
		if decimals < 0 {
			return nil, fmt.Errorf("%s: integer round is not implemented for decimals < 0 (got %d for %s)", fn, decimals, jstarlark.Describe(a))
		}
		return a, nil
	case dt.IsComplex(): // each part rounded, as JAX does
		re, err := complexPart(fn, "real", a)
		if err != nil {
			return nil, err
		}
		im, err := complexPart(fn, "imag", a)
		if err != nil {
			return nil, err
		}
		if re, err = jnpRound(re, decimals); err != nil {
			return nil, err
		}
		if im, err = jnpRound(im, decimals); err != nil {
			return nil, err
		}
		return jstarlark.Bind1("complex", nil, re, im)
	case !dt.IsFloat():
		return nil, fmt.Errorf("%s: %s input is not supported (operand %s)", fn, dt, jstarlark.Describe(a))
	case float64(decimals) > math.Log10(FinfoOf(dt).max):
		return a, nil // rounding beyond the dtype's precision changes nothing
	}
	c := &jstarlark.Composer{Fn: fn}
	halfEven := trace.Params{"rounding_method": trace.RoundToNearestEven}
	if decimals == 0 {
		return c.Done(c.Prim("round", halfEven, a))
	}
	// Scale, round and scale back, in float32 for float16 as JAX does.
	if dt == trace.Float16 {
		a = c.Convert(a, trace.Float32, false)
	}
	factor := c.Lit(a, math.Pow(10, float64(decimals)))
	out := c.Binary("div", c.Prim("round", halfEven, c.Binary("mul", a, factor)), factor)
	if dt == trace.Float16 {
		out = c.Convert(out, dt, false)
	}
	return c.Done(out)
}

// jnpSquare multiplies x by itself; bool becomes int32.
func jnpSquare(x starlark.Value) (*jstarlark.Array, error) {
	arrs, err := jstarlark.PromoteDTypes("square", jstarlark.PromoteNumeric, x)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: "square"}
	return c.Done(c.Unary("square", arrs[0]))
}

func jnpReciprocal(x starlark.Value) (*jstarlark.Array, error) {
	arrs, err := jstarlark.PromoteDTypes("reciprocal", jstarlark.PromoteInexact, x)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: "reciprocal"}
	return c.Done(c.Prim("integer_pow", trace.Params{"y": -1}, arrs[0]))
}

// jnpLog2 divides by log(2) computed in x's dtype, as JAX does.
func jnpLog2(x starlark.Value) (*jstarlark.Array, error) {
	arrs, err := jstarlark.PromoteArgs("log2", jstarlark.PromoteInexact, x)
	if err != nil {
		return nil, err
	}
	a := arrs[0]
	c := &jstarlark.Composer{Fn: "log2"}
	return c.Done(c.Binary("div", c.Unary("log", a), c.Unary("log", c.Lit(a, 2))))
}

// jnpLog10 multiplies by the exact 1/log(10) rounded to x's dtype.
func jnpLog10(x starlark.Value) (*jstarlark.Array, error) {
	arrs, err := jstarlark.PromoteArgs("log10", jstarlark.PromoteInexact, x)
	if err != nil {
		return nil, err
	}
	a := arrs[0]
	c := &jstarlark.Composer{Fn: "log10"}
	return c.Done(c.Binary("mul", c.Unary("log", a), c.Lit(a, 0.4342944819032518)))
}

// scaleInexact multiplies by a constant in x's (inexact) dtype: deg2rad and
// rad2deg.
func scaleInexact(fn string, x starlark.Value, k float64) (*jstarlark.Array, error) {
	arrs, err := jstarlark.PromoteArgs(fn, jstarlark.PromoteInexact, x)
	if err != nil {
		return nil, err
	}
	a := arrs[0]
	c := &jstarlark.Composer{Fn: fn}
	return c.Done(c.Binary("mul", a, c.Lit(a, k)))
}

// jnpHypot scales by the larger magnitude so that the square cannot
// overflow; an infinite operand gives inf even when the other is nan.
func jnpHypot(x, y starlark.Value) (*jstarlark.Array, error) {
	const fn = "hypot"
	arrs, err := jstarlark.PromoteArgs(fn, jstarlark.PromoteInexact, x, y)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	x1, x2 := c.Unary("abs", arrs[0]), c.Unary("abs", arrs[1])
	idxInf := c.Ufunc2(jnpLogicalOr, isPosInf(c, x1), isPosInf(c, x2))
	x1, x2 = c.Ufunc2(Maximum, x1, x2), c.Ufunc2(jnpMinimum, x1, x2)
	if !c.OK(x1, x2) {
		return nil, c.Err
	}
	x1IsZero := c.Ufunc2(Equal, x1, starlark.MakeInt(0))
	safeX1 := c.Where(x1IsZero, c.FullLike(x1, 1, x1.DType()), x1)
	ratio := c.Binary("div", x2, safeX1)
	root := c.Unary("sqrt", c.Ufunc2(Add, starlark.MakeInt(1), c.Unary("square", ratio)))
	h := c.Where(x1IsZero, x1, c.Ufunc2(Multiply, x1, root))
	if !c.OK(h) {
		return nil, c.Err
	}
	return c.Done(c.Where(idxInf, c.Lit(h, math.Inf(1)), h))
}

// isPosInf is x == +inf for floats, false for everything else.
func isPosInf(c *jstarlark.Composer, x *jstarlark.Array) *jstarlark.Array {
	return isSignedInf(c, x, 1)
}

func isNegInf(c *jstarlark.Composer, x *jstarlark.Array) *jstarlark.Array {
	return isSignedInf(c, x, -1)
}

func isSignedInf(c *jstarlark.Composer, x *jstarlark.Array, sign int) *jstarlark.Array {
	if !c.OK(x) {
		return nil
	}
	if !x.DType().IsFloat() {
		return c.FullLike(x, 0, trace.Bool)
	}
	return c.Binary("eq", x, c.Lit(x, math.Inf(sign)))
}

// jnpCopysign takes x1's magnitude and x2's sign bit (so -0.0 and -nan
// count as negative).
func jnpCopysign(x, y starlark.Value) (*jstarlark.Array, error) {
	const fn = "copysign"
	arrs, err := jstarlark.PromoteArgs(fn, jstarlark.PromoteInexact, x, y)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	mag := c.Unary("abs", arrs[0])
	return c.Done(c.Where(signbit(c, arrs[1]), c.Ufunc1(Negative, mag), mag))
}

// signbit is ufuncs.signbit for floats: the top bit of the same-width
// integer, shifted down arithmetically and read as bool.
func signbit(c *jstarlark.Composer, x *jstarlark.Array) *jstarlark.Array {
	if !c.OK(x) {
		return nil
	}
	intType := map[int]trace.DType{16: trace.Int16, 32: trace.Int32, 64: trace.Int64}[x.DType().Bits()]
	bits := c.Prim("bitcast_convert_type", trace.Params{"new_dtype": intType}, x)
	shift := x.DType().Bits() - 1 // nexp + nmant
	return c.Convert(c.Ufunc2(jnpRightShift, bits, starlark.MakeInt(shift)), trace.Bool, false)
}

// fminmax is fmax/fmin: like maximum/minimum, but a nan loses to a number.
func fminmax(fn string, pick jstarlark.BinaryFunc, x, y starlark.Value) (*jstarlark.Array, error) {
	if err := jstarlark.CheckArraylike(fn, x, y); err != nil {
		return nil, err
	}
	x1, err := jstarlark.EnsureArray(fn, x)
	if err != nil {
		return nil, err
	}
	x2, err := jstarlark.EnsureArray(fn, y)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: fn}
	mask := c.Ufunc2(jnpBitwiseOr, c.Ufunc2(pick, x1, x2), c.Ufunc1(jnpIsnan, x2))
	return c.Done(c.Where(mask, x1, x2))
}

// FloatInfo is the part of NumPy's finfo that the functions here need.
type FloatInfo struct {
	Bits                int
	eps, max, Tiny, res float64
	Nmant, nexp, minexp int
	maxexp, precision   int
}

// FinfoOf gives NumPy's finfo values for a floating dtype.
func FinfoOf(dt trace.DType) FloatInfo {
	switch dt {
	case trace.Float16:
		return FloatInfo{Bits: 16, eps: 0x1p-10, max: 65504, Tiny: 0x1p-14, res: 1e-3, Nmant: 10, nexp: 5, minexp: -14, maxexp: 16, precision: 3}
	case trace.BFloat16:
		return FloatInfo{Bits: 16, eps: 0x1p-7, max: 0x1.FEp127, Tiny: 0x1p-126, res: 1e-2, Nmant: 7, nexp: 8, minexp: -126, maxexp: 128, precision: 2}
	case trace.Float32, trace.Complex64:
		return FloatInfo{Bits: 32, eps: 0x1p-23, max: math.MaxFloat32, Tiny: 0x1p-126, res: 1e-6, Nmant: 23, nexp: 8, minexp: -126, maxexp: 128, precision: 6}
	}
	return FloatInfo{Bits: 64, eps: 0x1p-52, max: math.MaxFloat64, Tiny: 0x1p-1022, res: 1e-15, Nmant: 52, nexp: 11, minexp: -1022, maxexp: 1024, precision: 15}
}
