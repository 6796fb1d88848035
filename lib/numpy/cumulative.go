package numpy

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
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
func argExtremumBuiltin(prim string) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := b.Name()
		var a, axis, out, keepdims starlark.Value
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis?", &axis, "out?", &out, "keepdims?", &keepdims); err != nil {
			return nil, err
		}
		dev, err := jstarlark.OperandDevice(a)
		if err != nil {
			return nil, err
		}
		x, err := jstarlark.ArraylikeArg(fn, a, 0, dev)
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
			if operand, err = jstarlark.ReshapeTo(x, []int{x.Size()}); err != nil {
				return nil, err
			}
		} else {
			n, err := staticIntArg(fn, "axis", axis)
			if err != nil {
				return nil, err
			}
			if ax, err = jstarlark.NormalizeAxisOf(fn, n, x.NDim(), x); err != nil {
				return nil, err
			}
		}
		if operand.Shape()[ax] == 0 {
			return nil, fmt.Errorf("%s: attempt to get %s of an empty sequence (operand %s)", fn, prim, jstarlark.Describe(x))
		}
		r, err := jstarlark.Bind1(prim, trace.Params{"axes": []int{ax}, "index_dtype": trace.Int32}, operand)
		if err != nil || !keep {
			return r, err
		}
		if axis == nil || axis == starlark.None {
			return jstarlark.InsertUnitAxes(r, trace.AllAxes(x.NDim()))
		}
		return jstarlark.InsertUnitAxes(r, []int{ax})
	}
}

// cumulativeBuiltin is jnp.cumsum or jnp.cumprod(a, axis=None, dtype=None,
// out=None). axis=None accumulates over the flattened array. Without
// dtype=, bool accumulates in int32 and other dtypes keep theirs (unlike
// jnp.sum, small integers are not widened); dtype=bool accumulates a != 0
// in int32 and converts back.
func cumulativeBuiltin(prim string) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := b.Name()
		var a, axis, dtype, out starlark.Value
		if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis?", &axis, "dtype?", &dtype, "out?", &out); err != nil {
			return nil, err
		}
		dev, err := jstarlark.OperandDevice(a)
		if err != nil {
			return nil, err
		}
		x, err := jstarlark.ArraylikeArg(fn, a, 0, dev)
		if err != nil {
			return nil, err
		}
		if err := rejectOutArg(fn, out); err != nil {
			return nil, err
		}
		dt, given, err := jstarlark.DTypeArg(fn, dtype)
		if err != nil {
			return nil, err
		}
		noAxis := axis == nil || axis == starlark.None
		if noAxis || x.NDim() == 0 {
			if x, err = jstarlark.ReshapeTo(x, []int{x.Size()}); err != nil {
				return nil, err
			}
		}
		ax := 0
		if !noAxis {
			n, err := staticIntArg(fn, "axis", axis)
			if err != nil {
				return nil, err
			}
			if ax, err = jstarlark.NormalizeAxisOf(fn, n, x.NDim(), x); err != nil {
				return nil, err
			}
		}
		result, comp := x.DType(), x.DType()
		switch {
		case !given && x.DType() == trace.Bool:
			result, comp = trace.Int32, trace.Int32
		case given && dt == trace.Bool:
			if x, err = jstarlark.Astype(x, trace.Bool); err != nil {
				return nil, err
			}
			result, comp = trace.Bool, trace.Int32
		case given:
			result, comp = dt, dt
		}
		if x, err = jstarlark.Astype(x, comp); err != nil {
			return nil, err
		}
		r, err := jstarlark.Bind1(prim, trace.Params{"axis": ax, "reverse": false}, x)
		if err != nil {
			return nil, err
		}
		return jstarlark.Astype(r, result)
	}
}

func init() {
	jstarlark.Register(Module, "argmax", argExtremumBuiltin("argmax"))
	jstarlark.Register(Module, "argmin", argExtremumBuiltin("argmin"))
	jstarlark.Register(Module, "cumsum", cumulativeBuiltin("cumsum"))
	jstarlark.Register(Module, "cumprod", cumulativeBuiltin("cumprod"))
}
