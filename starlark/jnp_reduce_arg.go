package starlark

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp.argmax/argmin (one axis or the flattened array, int32 indices) and
// the cumulative reductions cumsum/cumprod, as JAX writes them
// (jax/_src/numpy/lax_numpy.py: _argmax; reductions.py:
// _cumulative_reduction).

// argExtremumBuiltin is jnp.argmax or jnp.argmin(a, axis=None, out=None,
// keepdims=None). Ties and NaNs resolve to the first index, as lax.argmax
// does.
func argExtremumBuiltin(prim string) builtinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := b.Name()
		var a, axis, out, keepdims starlark.Value
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis?", &axis, "out?", &out, "keepdims?", &keepdims); err != nil {
			return nil, err
		}
		dev, err := operandDevice(a)
		if err != nil {
			return nil, err
		}
		x, err := arraylikeArg(fn, a, 0, dev)
		if err != nil {
			return nil, err
		}
		if err := rejectOutArg(fn, out); err != nil {
			return nil, err
		}
		keep := false
		if keepdims != nil && keepdims != starlark.None {
			keep = bool(keepdims.Truth())
		}
		operand := x
		var ax int
		if axis == nil || axis == starlark.None {
			if operand, err = reshapeTo(x, []int{x.size()}); err != nil {
				return nil, err
			}
		} else {
			n, err := staticIntArg(fn, "axis", axis)
			if err != nil {
				return nil, err
			}
			if ax, err = normalizeAxisOf(fn, n, x.ndim(), x); err != nil {
				return nil, err
			}
		}
		if operand.shape()[ax] == 0 {
			return nil, fmt.Errorf("%s: attempt to get %s of an empty sequence (operand %s)", fn, prim, describe(x))
		}
		r, err := bind1(prim, trace.Params{"axes": []int{ax}, "index_dtype": trace.Int32}, operand)
		if err != nil || !keep {
			return r, err
		}
		if axis == nil || axis == starlark.None {
			return insertUnitAxes(r, trace.AllAxes(x.ndim()))
		}
		return insertUnitAxes(r, []int{ax})
	}
}

// cumulativeBuiltin is jnp.cumsum or jnp.cumprod(a, axis=None, dtype=None,
// out=None). axis=None accumulates over the flattened array. Without
// dtype=, bool accumulates in int32 and other dtypes keep theirs (unlike
// jnp.sum, small integers are not widened); dtype=bool accumulates a != 0
// in int32 and converts back.
func cumulativeBuiltin(prim string) builtinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := b.Name()
		var a, axis, dtype, out starlark.Value
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis?", &axis, "dtype?", &dtype, "out?", &out); err != nil {
			return nil, err
		}
		dev, err := operandDevice(a)
		if err != nil {
			return nil, err
		}
		x, err := arraylikeArg(fn, a, 0, dev)
		if err != nil {
			return nil, err
		}
		if err := rejectOutArg(fn, out); err != nil {
			return nil, err
		}
		dt, given, err := dtypeArg(fn, dtype)
		if err != nil {
			return nil, err
		}
		noAxis := axis == nil || axis == starlark.None
		if noAxis || x.ndim() == 0 {
			if x, err = reshapeTo(x, []int{x.size()}); err != nil {
				return nil, err
			}
		}
		ax := 0
		if !noAxis {
			n, err := staticIntArg(fn, "axis", axis)
			if err != nil {
				return nil, err
			}
			if ax, err = normalizeAxisOf(fn, n, x.ndim(), x); err != nil {
				return nil, err
			}
		}
		result, comp := x.dtype(), x.dtype()
		switch {
		case !given && x.dtype() == trace.Bool:
			result, comp = trace.Int32, trace.Int32
		case given && dt == trace.Bool:
			if x, err = astype(x, trace.Bool); err != nil {
				return nil, err
			}
			result, comp = trace.Bool, trace.Int32
		case given:
			result, comp = dt, dt
		}
		if x, err = astype(x, comp); err != nil {
			return nil, err
		}
		r, err := bind1(prim, trace.Params{"axis": ax, "reverse": false}, x)
		if err != nil {
			return nil, err
		}
		return astype(r, result)
	}
}

func init() {
	register("jnp", "argmax", argExtremumBuiltin("argmax"))
	register("jnp", "argmin", argExtremumBuiltin("argmin"))
	register("jnp", "cumsum", cumulativeBuiltin("cumsum"))
	register("jnp", "cumprod", cumulativeBuiltin("cumprod"))
}
