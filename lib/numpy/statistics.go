package numpy

import (
	"fmt"
	"math"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp.mean, jnp.var and jnp.std as JAX composes them from sums
// (jax/_src/numpy/reductions.py: _mean, _var, _std).

// meanOf is JAX's _mean. The result dtype is dtype= or the operand's
// inexact dtype (integers become float32, 64-bit ones float64); float16 and
// bfloat16 sum in float32 unless dtype= is given.
func meanOf(fn string, a *jstarlark.Array, o reduceOpts) (*jstarlark.Array, error) {
	given := o.dtype != trace.InvalidDType
	resultDT := o.dtype
	if !given {
		resultDT = inexactDTypeFor(a.DType())
	}
	comp := resultDT
	if !given && comp.IsInexact() {
		comp = upcastHalfFloat(comp)
	}
	count, err := reductionCount(fn, a, o, comp)
	if err != nil {
		return nil, err
	}
	so := o
	so.dtype = comp
	sum, err := reduceAxes(fn, sumSpec, a, so)
	if err != nil {
		return nil, err
	}
	q, err := applyBinary("div", sum, count)
	if err != nil {
		return nil, err
	}
	return jstarlark.Astype(q, resultDT)
}

// reductionCount is JAX's _count: how many elements each result reduces,
// in dtype dt. Without where= it is a constant (the product of the reduced
// axes' sizes); with where= it is the sum of the broadcast mask.
func reductionCount(fn string, a *jstarlark.Array, o reduceOpts, dt trace.DType) (*jstarlark.Array, error) {
	if o.where == nil {
		n := 1
		for _, ax := range o.axes {
			n *= a.Shape()[ax]
		}
		return scalarConst(fn, a.Device(), starlark.MakeInt(n), dt)
	}
	mask, err := broadcastWhere(fn, o.where, a)
	if err != nil {
		return nil, err
	}
	co := reduceOpts{axes: o.axes, keepdims: o.keepdims, dtype: dt}
	return reduceAxes(fn, sumSpec, mask, co)
}

// varTypes is JAX's _var_promote_types: the computation dtype (float16 and
// bfloat16 upcast to float32) and the result dtype.
func varTypes(fn string, a trace.DType, dtype trace.DType) (comp, result trace.DType, err error) {
	switch {
	case a.IsComplex() && dtype != trace.InvalidDType && !dtype.IsComplex():
		return 0, 0, fmt.Errorf("%s does not yet support real dtype parameters when computing the variance of an array of complex values (dtype %s)", fn, dtype)
	case a.IsComplex() && dtype == trace.InvalidDType:
		// JAX: computed in the complex dtype, the result is real.
		return a, a.ComplexPart(), nil
	case dtype != trace.InvalidDType:
		// JAX would return an integer dtype's variance promoted to float32
		// by its final where(normalizer > 0, result, nan); we reject the
		// request instead of returning another dtype than the one asked.
		if !dtype.IsInexact() {
			return 0, 0, fmt.Errorf("%s: dtype must be inexact, got %s", fn, dtype)
		}
		return upcastHalfFloat(dtype), dtype, nil
	case !a.IsInexact():
		result = inexactDTypeFor(a)
		return result, result, nil
	}
	return upcastHalfFloat(a), a, nil
}

// varianceOf is JAX's _var: the mean of squared deviations from the mean,
// divided by count - correction; NaN where that divisor is not positive.
func varianceOf(fn string, a *jstarlark.Array, o reduceOpts, correction starlark.Value) (*jstarlark.Array, error) {
	comp, resultDT, err := varTypes(fn, a.DType(), o.dtype)
	if err != nil {
		return nil, err
	}
	x, err := jstarlark.Astype(a, comp)
	if err != nil {
		return nil, err
	}
	mo := o
	mo.dtype, mo.keepdims = comp, true
	mean, err := meanOf(fn, x, mo)
	if err != nil {
		return nil, err
	}
	if mean, err = jstarlark.BroadcastTo(mean, x.Shape()); err != nil {
		return nil, err
	}
	centered, err := applyBinary("sub", x, mean)
	if err != nil {
		return nil, err
	}
	if comp.IsComplex() {
		// |z - mean|² = real((z - mean)·conj(z - mean)); the rest is real.
		c := &jstarlark.Composer{Fn: fn}
		prod := c.Binary("mul", centered, c.Prim("conj", trace.Params{"input_dtype": comp}, centered))
		if centered, err = c.Done(c.Unary("real", prod)); err != nil {
			return nil, err
		}
		comp = comp.ComplexPart()
	} else if centered, err = applyBinary("mul", centered, centered); err != nil {
		return nil, err
	}
	count, err := reductionCount(fn, x, o, comp)
	if err != nil {
		return nil, err
	}
	corr, err := scalarOperand(fn, "correction", correction, comp, x)
	if err != nil {
		return nil, err
	}
	normalizer, err := applyBinary("sub", count, corr)
	if err != nil {
		return nil, err
	}
	so := o
	so.dtype = comp
	sum, err := reduceAxes(fn, sumSpec, centered, so)
	if err != nil {
		return nil, err
	}
	v, err := applyBinary("div", sum, normalizer)
	if err != nil {
		return nil, err
	}
	if v, err = jstarlark.Astype(v, resultDT); err != nil {
		return nil, err
	}
	positive, err := applyBinaryConst(fn, "gt", normalizer, starlark.MakeInt(0))
	if err != nil {
		return nil, err
	}
	nan, err := filledConst(fn, v.Device(), starlark.Float(math.NaN()), resultDT, v.Shape())
	if err != nil {
		return nil, err
	}
	return chooseWhere(positive, nan, v)
}

// meanBuiltin is jnp.mean(a, axis, dtype, out, keepdims, where).
func meanBuiltin(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a, axis, dtype, out, where starlark.Value
	keepdims := false
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis?", &axis, "dtype?", &dtype, "out?", &out,
		"keepdims?", &keepdims, "where?", &where); err != nil {
		return nil, err
	}
	p, err := parseReduction(fn, a, axis, dtype, out, nil, where, keepdims)
	if err != nil {
		return nil, err
	}
	return meanOf(fn, p.a, p.opts)
}

// varianceBuiltin is jnp.var and jnp.std(a, axis, dtype, out, ddof,
// keepdims, where, correction); std is the square root of var.
func varianceBuiltin(sqrt bool) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := b.Name()
		var a, axis, dtype, out, where, correction starlark.Value
		ddof := 0
		keepdims := false
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis?", &axis, "dtype?", &dtype, "out?", &out,
			"ddof?", &ddof, "keepdims?", &keepdims, "where?", &where, "correction?", &correction); err != nil {
			return nil, err
		}
		p, err := parseReduction(fn, a, axis, dtype, out, nil, where, keepdims)
		if err != nil {
			return nil, err
		}
		if correction == nil || correction == starlark.None {
			correction = starlark.MakeInt(ddof)
		} else if ddof != 0 {
			return nil, fmt.Errorf("%s: ddof and correction can't be provided simultaneously", fn)
		}
		v, err := varianceOf(fn, p.a, p.opts, correction)
		if err != nil || !sqrt {
			return v, err
		}
		return jstarlark.Bind1("sqrt", nil, v)
	}
}

func init() {
	jstarlark.Register(Module, "mean", meanBuiltin)
	jstarlark.Register(Module, "var", varianceBuiltin(false))
	jstarlark.Register(Module, "std", varianceBuiltin(true))
}
