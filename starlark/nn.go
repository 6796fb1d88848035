package starlark

import (
	"fmt"
	"math"
	"slices"

	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// The nn module: activations and the softmax family of jax.nn, as
// compositions of the jnp ufuncs and lax reductions (jax/_src/nn/functions.py,
// jax/_src/ops/special.py).

func init() {
	register("nn", "relu", unaryNN("relu", func(x starlark.Value) (*Array, error) { return jnpMaximum(x, starlark.MakeInt(0)) }))
	register("nn", "sigmoid", unaryNN("sigmoid", nnSigmoid))
	register("nn", "silu", unaryNN("silu", nnSilu))
	register("nn", "gelu", nnGeluBuiltin)
	register("nn", "softmax", softmaxBuiltin("softmax", false))
	register("nn", "log_softmax", softmaxBuiltin("log_softmax", true))
	register("nn", "logsumexp", nnLogsumexpBuiltin)
	register("nn", "one_hot", nnOneHotBuiltin)
}

func unaryNN(fn string, f unaryFunc) builtinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x); err != nil {
			return nil, err
		}
		return f(x)
	}
}

// nnSigmoid is lax.logistic: it takes floating operands only, as in JAX.
func nnSigmoid(x starlark.Value) (*Array, error) {
	a, err := ensureArray("sigmoid", x)
	if err != nil {
		return nil, err
	}
	c := &composer{fn: "sigmoid"}
	return c.done(c.un("logistic", a))
}

func nnSilu(x starlark.Value) (*Array, error) {
	a, err := ensureArray("silu", x)
	if err != nil {
		return nil, err
	}
	s, err := nnSigmoid(a)
	if err != nil {
		return nil, fmt.Errorf("silu: %w", err)
	}
	return jnpMultiply(a, s)
}

// nnGeluBuiltin is gelu(x, approximate=True): the tanh approximation by
// default, x * Phi(x) through erfc otherwise.
func nnGeluBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "gelu"
	var x starlark.Value
	approximate := true
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x, "approximate?", &approximate); err != nil {
		return nil, err
	}
	arrs, err := promoteArgs(fn, promoteInexact, x)
	if err != nil {
		return nil, err
	}
	a := arrs[0]
	c := &composer{fn: fn}
	if approximate {
		cube := c.prim("integer_pow", trace.Params{"y": 3}, a)
		inner := c.jnp(jnpAdd, a, c.jnp(jnpMultiply, starlark.Float(0.044715), cube))
		t := c.jnp1(jnpTanh, c.jnp(jnpMultiply, c.lit(a, math.Sqrt(2/math.Pi)), inner))
		cdf := c.jnp(jnpMultiply, starlark.Float(0.5), c.jnp(jnpAdd, starlark.Float(1), t))
		return c.done(c.jnp(jnpMultiply, a, cdf))
	}
	scaled := c.jnp(jnpMultiply, c.jnp1(jnpNegative, a), c.lit(a, math.Sqrt(0.5)))
	half := c.jnp(jnpMultiply, starlark.Float(0.5), a)
	return c.done(c.convert(c.jnp(jnpMultiply, half, c.un("erfc", scaled)), a.dtype(), false))
}

func jnpTanh(x starlark.Value) (*Array, error) { return laxUnary("tanh", "tanh", promoteInexact, x) }

// axesArg reads an axis argument (an int, a tuple of ints, or None for all
// axes) as sorted, distinct, non-negative axes.
func axesArg(fn string, v starlark.Value, rank int) ([]int, error) {
	var axes []int
	switch x := v.(type) {
	case starlark.NoneType:
		return trace.AllAxes(rank), nil
	case starlark.Int:
		n, err := intArg(fn, "axis", x)
		if err != nil {
			return nil, err
		}
		axes = []int{n}
	case starlark.Tuple:
		for _, it := range x {
			n, err := intArg(fn, "axis", it)
			if err != nil {
				return nil, err
			}
			axes = append(axes, n)
		}
	default:
		return nil, fmt.Errorf("%s: axis must be an int, a tuple of ints or None, got %s", fn, v.Type())
	}
	norm, err := trace.NormalizeAxes(axes, rank)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	slices.Sort(norm)
	return norm, nil
}

// keepDims puts size-1 dimensions back where a reduction removed axes
// (lax.expand_dims).
func keepDims(c *composer, x *Array, axes []int) *Array {
	if !c.ok(x) || len(axes) == 0 {
		return x
	}
	rank := x.ndim() + len(axes)
	shape := make([]int, 0, rank)
	var dims []int
	src := x.shape()
	for i := range rank {
		if slices.Contains(axes, i) {
			shape = append(shape, 1)
			continue
		}
		dims = append(dims, i)
		shape = append(shape, src[len(dims)-1])
	}
	return c.prim("broadcast_in_dim", trace.Params{"shape": shape, "broadcast_dimensions": dims}, x)
}

// reduceMax is jnp.max(x, axes, where=mask, keepdims): masked-out elements
// count as the dtype's lowest value.
func reduceMax(c *composer, x *Array, axes []int, mask starlark.Value, keepdims bool) *Array {
	if mask != starlark.None {
		low := lowest(c, x)
		if !c.ok(low) {
			return nil
		}
		x = c.take(jnpWhere(mask, x, low))
	}
	r := c.prim("reduce_max", trace.Params{"axes": axes}, x)
	if keepdims {
		r = keepDims(c, r, axes)
	}
	return r
}

// lowest is the smallest value of x's dtype: -inf for floats.
func lowest(c *composer, x *Array) *Array {
	if !c.ok(x) {
		return nil
	}
	switch dt := x.dtype(); {
	case dt.IsFloat():
		return c.lit(x, math.Inf(-1))
	case dt.IsUnsigned(), dt == trace.Bool:
		return c.lit(x, 0)
	default:
		return c.lit(x, -math.Ldexp(1, dt.Bits()-1))
	}
}

// reduceSum is jnp.sum(x, axes, where=mask, keepdims) of a floating x:
// float16 and bfloat16 sum in float32 and round once, as JAX does.
func reduceSum(c *composer, x *Array, axes []int, mask starlark.Value, keepdims bool) *Array {
	if mask != starlark.None {
		x = c.take(jnpWhere(mask, x, starlark.MakeInt(0)))
	}
	if !c.ok(x) {
		return nil
	}
	dt := x.dtype()
	if dt == trace.Float16 || dt == trace.BFloat16 {
		x = c.convert(x, trace.Float32, x.aval.Weak)
	}
	r := c.prim("reduce_sum", trace.Params{"axes": axes}, x)
	if dt == trace.Float16 || dt == trace.BFloat16 {
		r = c.convert(r, dt, r != nil && r.aval.Weak)
	}
	if keepdims {
		r = keepDims(c, r, axes)
	}
	return r
}

// softmaxBuiltin is softmax(x, axis=-1, where=None) and log_softmax: the
// maximum is subtracted first so that exp cannot overflow.
func softmaxBuiltin(fn string, logarithm bool) builtinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		axisV := starlark.Value(starlark.MakeInt(-1))
		mask := starlark.Value(starlark.None)
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x, "axis?", &axisV, "where?", &mask); err != nil {
			return nil, err
		}
		a, err := ensureArray(fn, x)
		if err != nil {
			return nil, err
		}
		axes, err := axesArg(fn, axisV, a.ndim())
		if err != nil {
			return nil, err
		}
		if mask != starlark.None {
			if err := checkArraylike(fn, mask); err != nil {
				return nil, err
			}
		}
		c := &composer{fn: fn}
		xMax := reduceMax(c, a, axes, mask, true)
		safe := a
		if mask != starlark.None {
			safe = c.take(jnpWhere(mask, a, starlark.Float(math.Inf(-1))))
		}
		shifted := c.jnp(jnpSubtract, safe, xMax)
		var result *Array
		if logarithm {
			sum := reduceSum(c, c.jnp1(unaryUfunc("exp"), shifted), axes, mask, true)
			result = c.jnp(jnpSubtract, shifted, c.jnp1(unaryUfunc("log"), sum))
		} else {
			unnormalized := c.jnp1(unaryUfunc("exp"), shifted)
			result = c.jnp(jnpTrueDivide, unnormalized, reduceSum(c, unnormalized, axes, mask, true))
		}
		if mask != starlark.None {
			fill := starlark.Value(starlark.MakeInt(0))
			if logarithm {
				fill = starlark.Float(math.Inf(-1))
			}
			result = c.take(jnpWhere(mask, result, fill))
		}
		return c.done(result)
	}
}

// nnLogsumexpBuiltin is logsumexp(a, axis=None, b=None, keepdims=False,
// return_sign=False, where=None): log(sum(b * exp(a))), computed around the
// finite maximum; with return_sign, also the sign of the sum.
func nnLogsumexpBuiltin(_ *starlark.Thread, bi *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "logsumexp"
	var a starlark.Value
	axisV, b, mask := starlark.Value(starlark.None), starlark.Value(starlark.None), starlark.Value(starlark.None)
	keepdims, returnSign := false, false
	if err := starlark.UnpackArgs(bi.Name(), args, kwargs, "a", &a, "axis?", &axisV, "b?", &b,
		"keepdims?", &keepdims, "return_sign?", &returnSign, "where?", &mask); err != nil {
		return nil, err
	}
	c := &composer{fn: fn}
	if mask != starlark.None {
		a = c.take(jnpWhere(mask, a, starlark.MakeInt(0)))
		if c.err != nil {
			return nil, c.err
		}
	}
	var x, weights *Array
	if b != starlark.None {
		arrs, err := promoteArgs(fn, promoteInexact, a, b)
		if err != nil {
			return nil, err
		}
		weights = arrs[1]
		x = c.take(jnpWhere(c.jnp(jnpNotEqual, weights, starlark.MakeInt(0)), arrs[0], starlark.Float(math.Inf(-1))))
	} else {
		arrs, err := promoteArgs(fn, promoteInexact, a)
		if err != nil {
			return nil, err
		}
		x = arrs[0]
	}
	if !c.ok(x) {
		return nil, c.err
	}
	axes, err := axesArg(fn, axisV, x.ndim())
	if err != nil {
		return nil, err
	}
	amax := reduceMax(c, x, axes, mask, keepdims)
	amax = c.select_(c.jnp1(jnpIsfinite, amax), amax, c.fullLike(amax, 0, x.dtype()))
	withDims := amax
	if !keepdims {
		withDims = keepDims(c, amax, axes)
	}
	expA := c.un("exp", c.bin("sub", x, withDims))
	if weights != nil {
		expA = c.bin("mul", expA, weights)
	}
	sumexp := reduceSum(c, expA, axes, mask, keepdims)
	sign := c.un("sign", sumexp)
	out := c.bin("add", c.un("log", c.un("abs", sumexp)), amax)
	if returnSign {
		if _, err := c.done(out); err != nil {
			return nil, err
		}
		return starlark.Tuple{out, sign}, nil
	}
	if weights != nil {
		negative := c.jnp(jnpLess, sign, starlark.MakeInt(0))
		out = c.where(negative, c.lit(out, math.NaN()), out)
	}
	return c.done(out)
}

// nnOneHotBuiltin is one_hot(x, num_classes, *, dtype=float32, axis=-1):
// x compared with an iota of class indices along a new axis.
func nnOneHotBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "one_hot"
	var x, numV starlark.Value
	dtypeV := starlark.Value(starlark.None)
	axis := -1
	if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x, "num_classes", &numV, "dtype?", &dtypeV, "axis?", &axis); err != nil {
		return nil, err
	}
	num, err := intArg(fn, "num_classes", numV)
	if err != nil {
		return nil, err
	}
	if num < 0 {
		return nil, fmt.Errorf("%s: num_classes must be non-negative, got %d", fn, num)
	}
	dt, err := dtypeOrDefault(fn, dtypeV, trace.Float32)
	if err != nil {
		return nil, err
	}
	a, err := asarrayValue(fn, x, trace.InvalidDType)
	if err != nil {
		return nil, err
	}
	outAxis, err := trace.NormalizeAxis(axis, a.ndim()+1)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	c := &composer{fn: fn}
	lhs := c.expandDims(a, outAxis)
	rhsShape := make(trace.Shape, a.ndim()+1)
	for i := range rhsShape {
		rhsShape[i] = 1
	}
	rhsShape[outAxis] = num
	classes := c.iota(a.dtype(), rhsShape, outAxis)
	return c.done(c.convert(c.jnp(jnpEqual, lhs, classes), dt, false))
}
