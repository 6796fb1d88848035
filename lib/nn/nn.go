package nn

import (
	"fmt"
	"math"
	"slices"

	"github.com/jaxsh/jaxsh/lib/numpy"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// The nn module: activations and the softmax family of jax.nn, as
// compositions of the jnp ufuncs and lax reductions (jax/_src/nn/functions.py,
// jax/_src/ops/special.py).

func init() {
	jstarlark.Register(Module, "relu", unaryNN("relu", func(x starlark.Value) (*jstarlark.Array, error) { return numpy.Maximum(x, starlark.MakeInt(0)) }))
	jstarlark.Register(Module, "sigmoid", unaryNN("sigmoid", nnSigmoid))
	jstarlark.Register(Module, "silu", unaryNN("silu", nnSilu))
	jstarlark.Register(Module, "gelu", nnGeluBuiltin)
	jstarlark.Register(Module, "softmax", softmaxBuiltin("softmax", false))
	jstarlark.Register(Module, "log_softmax", softmaxBuiltin("log_softmax", true))
	jstarlark.Register(Module, "logsumexp", nnLogsumexpBuiltin)
	jstarlark.Register(Module, "one_hot", nnOneHotBuiltin)
}

func unaryNN(fn string, f jstarlark.UnaryFunc) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x); err != nil {
			return nil, err
		}
		return f(x)
	}
}

// nnSigmoid is lax.logistic: it takes floating operands only, as in JAX.
func nnSigmoid(x starlark.Value) (*jstarlark.Array, error) {
	a, err := jstarlark.EnsureArray("sigmoid", x)
	if err != nil {
		return nil, err
	}
	c := &jstarlark.Composer{Fn: "sigmoid"}
	return c.Done(c.Unary("logistic", a))
}

func nnSilu(x starlark.Value) (*jstarlark.Array, error) {
	a, err := jstarlark.EnsureArray("silu", x)
	if err != nil {
		return nil, err
	}
	s, err := nnSigmoid(a)
	if err != nil {
		return nil, fmt.Errorf("silu: %w", err)
	}
	return numpy.Multiply(a, s)
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
	arrs, err := jstarlark.PromoteArgs(fn, jstarlark.PromoteInexact, x)
	if err != nil {
		return nil, err
	}
	a := arrs[0]
	c := &jstarlark.Composer{Fn: fn}
	if approximate {
		cube := c.Prim("integer_pow", trace.Params{"y": 3}, a)
		inner := c.Ufunc2(numpy.Add, a, c.Ufunc2(numpy.Multiply, starlark.Float(0.044715), cube))
		t := c.Ufunc1(jnpTanh, c.Ufunc2(numpy.Multiply, c.Lit(a, math.Sqrt(2/math.Pi)), inner))
		cdf := c.Ufunc2(numpy.Multiply, starlark.Float(0.5), c.Ufunc2(numpy.Add, starlark.Float(1), t))
		return c.Done(c.Ufunc2(numpy.Multiply, a, cdf))
	}
	scaled := c.Ufunc2(numpy.Multiply, c.Ufunc1(numpy.Negative, a), c.Lit(a, math.Sqrt(0.5)))
	half := c.Ufunc2(numpy.Multiply, starlark.Float(0.5), a)
	return c.Done(c.Convert(c.Ufunc2(numpy.Multiply, half, c.Unary("erfc", scaled)), a.DType(), false))
}

func jnpTanh(x starlark.Value) (*jstarlark.Array, error) {
	return jstarlark.ApplyUnary("tanh", "tanh", jstarlark.PromoteInexact, x)
}

// axesArg reads an axis argument (an int, a tuple of ints, or None for all
// axes) as sorted, distinct, non-negative axes.
func axesArg(fn string, v starlark.Value, rank int) ([]int, error) {
	var axes []int
	switch x := v.(type) {
	case starlark.NoneType:
		return trace.AllAxes(rank), nil
	case starlark.Int:
		n, err := jstarlark.IntArg(fn, "axis", x)
		if err != nil {
			return nil, err
		}
		axes = []int{n}
	case starlark.Tuple:
		for _, it := range x {
			n, err := jstarlark.IntArg(fn, "axis", it)
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
func keepDims(c *jstarlark.Composer, x *jstarlark.Array, axes []int) *jstarlark.Array {
	if !c.OK(x) || len(axes) == 0 {
		return x
	}
	rank := x.NDim() + len(axes)
	shape := make([]int, 0, rank)
	var dims []int
	src := x.Shape()
	for i := range rank {
		if slices.Contains(axes, i) {
			shape = append(shape, 1)
			continue
		}
		dims = append(dims, i)
		shape = append(shape, src[len(dims)-1])
	}
	return c.Prim("broadcast_in_dim", trace.Params{"shape": shape, "broadcast_dimensions": dims}, x)
}

// stopGradient is lax.stop_gradient of one array. The softmax family
// subtracts its maximum only for numerical range, so its derivatives do
// not flow through the maximum (as in JAX): the results are the same, and
// a gradient skips the maximum's tie-rule computation.
func stopGradient(c *jstarlark.Composer, x *jstarlark.Array) *jstarlark.Array {
	if x == nil || !x.Traced() {
		return x
	}
	return c.Prim("stop_gradient", nil, x)
}

// reduceMax is jnp.max(x, axes, where=mask, keepdims): masked-out elements
// count as the dtype's lowest value.
func reduceMax(c *jstarlark.Composer, x *jstarlark.Array, axes []int, mask starlark.Value, keepdims bool) *jstarlark.Array {
	if !c.OK(x) {
		return nil
	}
	if mask != starlark.None {
		low := lowest(c, x)
		if !c.OK(low) {
			return nil
		}
		x = c.Take(numpy.Where(mask, x, low))
	}
	r := c.Prim("reduce_max", trace.Params{"axes": axes}, x)
	if keepdims {
		r = keepDims(c, r, axes)
	}
	return r
}

// lowest is the smallest value of x's dtype: -inf for floats.
func lowest(c *jstarlark.Composer, x *jstarlark.Array) *jstarlark.Array {
	if !c.OK(x) {
		return nil
	}
	switch dt := x.DType(); {
	case dt.IsFloat():
		return c.Lit(x, math.Inf(-1))
	case dt.IsUnsigned(), dt == trace.Bool:
		return c.Lit(x, 0)
	default:
		return c.Lit(x, -math.Ldexp(1, dt.Bits()-1))
	}
}

// reduceSum is jnp.sum(x, axes, where=mask, keepdims) of a floating x:
// float16 and bfloat16 sum in float32 and round once, as JAX does.
func reduceSum(c *jstarlark.Composer, x *jstarlark.Array, axes []int, mask starlark.Value, keepdims bool) *jstarlark.Array {
	if !c.OK(x) { // an earlier step failed: x is nil, not an array to mask
		return nil
	}
	if mask != starlark.None {
		x = c.Take(numpy.Where(mask, x, starlark.MakeInt(0)))
	}
	if !c.OK(x) {
		return nil
	}
	dt := x.DType()
	if dt == trace.Float16 || dt == trace.BFloat16 {
		x = c.Convert(x, trace.Float32, x.AVal().Weak)
	}
	r := c.Prim("reduce_sum", trace.Params{"axes": axes}, x)
	if dt == trace.Float16 || dt == trace.BFloat16 {
		r = c.Convert(r, dt, r != nil && r.AVal().Weak)
	}
	if keepdims {
		r = keepDims(c, r, axes)
	}
	return r
}

// softmaxBuiltin is softmax(x, axis=-1, where=None) and log_softmax: the
// maximum is subtracted first so that exp cannot overflow.
func softmaxBuiltin(fn string, logarithm bool) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		axisV := starlark.Value(starlark.MakeInt(-1))
		mask := starlark.Value(starlark.None)
		if err := starlark.UnpackArgs(b.Name(), args, kwargs, "x", &x, "axis?", &axisV, "where?", &mask); err != nil {
			return nil, err
		}
		a, err := jstarlark.EnsureArray(fn, x)
		if err != nil {
			return nil, err
		}
		axes, err := axesArg(fn, axisV, a.NDim())
		if err != nil {
			return nil, err
		}
		if mask != starlark.None {
			if err := jstarlark.CheckArraylike(fn, mask); err != nil {
				return nil, err
			}
		}
		c := &jstarlark.Composer{Fn: fn}
		xMax := stopGradient(c, reduceMax(c, a, axes, mask, true))
		safe := a
		if mask != starlark.None {
			safe = c.Take(numpy.Where(mask, a, starlark.Float(math.Inf(-1))))
		}
		shifted := c.Ufunc2(numpy.Subtract, safe, xMax)
		var result *jstarlark.Array
		if logarithm {
			sum := reduceSum(c, c.Ufunc1(jstarlark.UnaryUfunc("exp"), shifted), axes, mask, true)
			result = c.Ufunc2(numpy.Subtract, shifted, c.Ufunc1(jstarlark.UnaryUfunc("log"), sum))
		} else {
			unnormalized := c.Ufunc1(jstarlark.UnaryUfunc("exp"), shifted)
			result = c.Ufunc2(numpy.TrueDivide, unnormalized, reduceSum(c, unnormalized, axes, mask, true))
		}
		if mask != starlark.None && c.OK(result) {
			fill := starlark.Value(starlark.MakeInt(0))
			if logarithm {
				fill = starlark.Float(math.Inf(-1))
			}
			result = c.Take(numpy.Where(mask, result, fill))
		}
		return c.Done(result)
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
	c := &jstarlark.Composer{Fn: fn}
	if mask != starlark.None {
		a = c.Take(numpy.Where(mask, a, starlark.MakeInt(0)))
		if c.Err != nil {
			return nil, c.Err
		}
	}
	var x, weights *jstarlark.Array
	if b != starlark.None {
		arrs, err := jstarlark.PromoteArgs(fn, jstarlark.PromoteInexact, a, b)
		if err != nil {
			return nil, err
		}
		weights = arrs[1]
		x = c.Take(numpy.Where(c.Ufunc2(numpy.NotEqual, weights, starlark.MakeInt(0)), arrs[0], starlark.Float(math.Inf(-1))))
	} else {
		arrs, err := jstarlark.PromoteArgs(fn, jstarlark.PromoteInexact, a)
		if err != nil {
			return nil, err
		}
		x = arrs[0]
	}
	if !c.OK(x) {
		return nil, c.Err
	}
	axes, err := axesArg(fn, axisV, x.NDim())
	if err != nil {
		return nil, err
	}
	amax := reduceMax(c, x, axes, mask, keepdims)
	amax = stopGradient(c, c.Select(c.Ufunc1(numpy.IsFinite, amax), amax, c.FullLike(amax, 0, x.DType())))
	withDims := amax
	if !keepdims {
		withDims = keepDims(c, amax, axes)
	}
	expA := c.Unary("exp", c.Binary("sub", x, withDims))
	if weights != nil {
		expA = c.Binary("mul", expA, weights)
	}
	sumexp := reduceSum(c, expA, axes, mask, keepdims)
	sign := c.Unary("sign", sumexp)
	out := c.Binary("add", c.Unary("log", c.Unary("abs", sumexp)), amax)
	if returnSign {
		if _, err := c.Done(out); err != nil {
			return nil, err
		}
		return starlark.Tuple{out, sign}, nil
	}
	if weights != nil {
		negative := c.Ufunc2(numpy.Less, sign, starlark.MakeInt(0))
		out = c.Where(negative, c.Lit(out, math.NaN()), out)
	}
	return c.Done(out)
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
	num, err := jstarlark.IntArg(fn, "num_classes", numV)
	if err != nil {
		return nil, err
	}
	if num < 0 {
		return nil, fmt.Errorf("%s: num_classes must be non-negative, got %d", fn, num)
	}
	dt, err := jstarlark.DTypeOrDefault(fn, dtypeV, trace.Float32)
	if err != nil {
		return nil, err
	}
	a, err := jstarlark.AsarrayValue(fn, x, trace.InvalidDType)
	if err != nil {
		return nil, err
	}
	outAxis, err := trace.NormalizeAxis(axis, a.NDim()+1)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	c := &jstarlark.Composer{Fn: fn}
	lhs := c.ExpandDims(a, outAxis)
	rhsShape := make(trace.Shape, a.NDim()+1)
	for i := range rhsShape {
		rhsShape[i] = 1
	}
	rhsShape[outAxis] = num
	classes := c.Iota(a.DType(), rhsShape, outAxis)
	return c.Done(c.Convert(c.Ufunc2(numpy.Equal, lhs, classes), dt, false))
}
