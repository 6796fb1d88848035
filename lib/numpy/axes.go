package numpy

import (
	"fmt"
	"math"

	"github.com/jaxsh/jaxsh/jit"
	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Argument readers and one-primitive helpers shared by the reduction, shape
// and sort functions of jnp. Every helper that produces an array goes through
// bind; the only host-made arrays are constants built from static Python
// values (scalars, and index lists derived from static arguments).

// arraylikeArgs converts several operands with arraylikeArg, all onto the device of
// the first array among them.
func arraylikeArgs(fn string, vals ...starlark.Value) ([]*jstarlark.Array, error) {
	dev, err := jstarlark.OperandDevice(vals...)
	if err != nil {
		return nil, err
	}
	out := make([]*jstarlark.Array, len(vals))
	for i, v := range vals {
		if out[i], err = jstarlark.ArraylikeArg(fn, v, i, dev); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// arraySequenceItems returns the items of a list or tuple argument, or of an
// array's first axis (jnp.concatenate and friends accept an array of arrays).
func arraySequenceItems(fn, what string, v starlark.Value) ([]starlark.Value, error) {
	switch x := v.(type) {
	case *starlark.List:
		items := make([]starlark.Value, x.Len())
		for i := range items {
			items[i] = x.Index(i)
		}
		return items, nil
	case starlark.Tuple:
		return x, nil
	case *jstarlark.Array:
		if x.NDim() == 0 {
			return nil, fmt.Errorf("%s: %s must be a sequence of arrays, got a 0-d array %s", fn, what, jstarlark.Describe(x))
		}
		items := make([]starlark.Value, x.Shape()[0])
		for i := range items {
			row, err := x.GetItem(starlark.MakeInt(i))
			if err != nil {
				return nil, err
			}
			items[i] = row
		}
		return items, nil
	}
	return nil, fmt.Errorf("%s: %s must be a list or tuple of arrays, got %s", fn, what, v.Type())
}

// staticIntArg reads a static Python int. Floats are rejected as JAX's
// operator.index rejects them.
func staticIntArg(fn, what string, v starlark.Value) (int, error) {
	i, ok := v.(starlark.Int)
	if !ok {
		return 0, fmt.Errorf("%s: %s must be an int, got %s", fn, what, v.Type())
	}
	n, ok := i.Int64()
	if !ok || n != int64(int(n)) {
		return 0, fmt.Errorf("%s: %s %s is too large", fn, what, i)
	}
	return int(n), nil
}

// staticIntsArg reads an int or a list/tuple of ints; seq says which it was.
func staticIntsArg(fn, what string, v starlark.Value) (vals []int, seq bool, err error) {
	var items []starlark.Value
	switch x := v.(type) {
	case starlark.Int:
		n, err := staticIntArg(fn, what, x)
		return []int{n}, false, err
	case starlark.Tuple:
		items = x
	case *starlark.List:
		for i := 0; i < x.Len(); i++ {
			items = append(items, x.Index(i))
		}
	default:
		return nil, false, fmt.Errorf("%s: %s must be an int or a tuple of ints, got %s", fn, what, v.Type())
	}
	vals = make([]int, len(items))
	for i, it := range items {
		if _, ok := it.(starlark.Int); !ok {
			return nil, true, fmt.Errorf("%s: %s must be an int or a tuple of ints, got %s containing %s", fn, what, v.Type(), it.Type())
		}
		if vals[i], err = staticIntArg(fn, what, it); err != nil {
			return nil, true, err
		}
	}
	return vals, true, nil
}

// normalizeAxesOf resolves several axes against rank and rejects repeats.
func normalizeAxesOf(fn string, axes []int, rank int, a *jstarlark.Array) ([]int, error) {
	out := make([]int, len(axes))
	for i, ax := range axes {
		n, err := jstarlark.NormalizeAxisOf(fn, ax, rank, a)
		if err != nil {
			return nil, err
		}
		for _, prev := range out[:i] {
			if prev == n {
				return nil, fmt.Errorf("%s: duplicate value in 'axis': %s (operand %s)", fn, intTupleText(axes), jstarlark.Describe(a))
			}
		}
		out[i] = n
	}
	return out, nil
}

// reductionAxesArg reads an axis that may be None (nil result, all=true), one
// int or a tuple of ints, resolved against a's rank.
func reductionAxesArg(fn string, v starlark.Value, a *jstarlark.Array) (axes []int, all bool, err error) {
	if v == nil || v == starlark.None {
		return trace.AllAxes(a.NDim()), true, nil
	}
	vals, _, err := staticIntsArg(fn, "axis", v)
	if err != nil {
		return nil, false, err
	}
	axes, err = normalizeAxesOf(fn, vals, a.NDim(), a)
	return axes, false, err
}

// staticShapeArg reads a shape: an int or a sequence of ints.
func staticShapeArg(fn string, v starlark.Value) ([]int, error) {
	dims, _, err := staticIntsArg(fn, "shape", v)
	return dims, err
}

// intTupleText prints ints as a Python tuple: (1,) or (1, 2).
func intTupleText(v []int) string { return trace.Shape(v).String() }

// rejectOutArg rejects NumPy's out= argument, which JAX does not support.
func rejectOutArg(fn string, out starlark.Value) error {
	if out != nil && out != starlark.None {
		return fmt.Errorf("%s: the 'out' argument is not supported (arrays are immutable)", fn)
	}
	return nil
}

// permuteAxes permutes a's axes unless perm is the identity.
func permuteAxes(a *jstarlark.Array, perm []int) (*jstarlark.Array, error) {
	identity := true
	for i, p := range perm {
		identity = identity && i == p
	}
	if identity && len(perm) == a.NDim() {
		return a, nil
	}
	return jstarlark.Bind1("transpose", trace.Params{"permutation": append([]int{}, perm...)}, a)
}

// reverseAxes reverses the given axes.
func reverseAxes(a *jstarlark.Array, axes []int) (*jstarlark.Array, error) {
	if len(axes) == 0 {
		return a, nil
	}
	return jstarlark.Bind1("rev", trace.Params{"dimensions": append([]int{}, axes...)}, a)
}

// scalarConst is a strongly typed 0-d constant of dtype dt on dev.
func scalarConst(fn string, dev jit.Device, v starlark.Value, dt trace.DType) (*jstarlark.Array, error) {
	return jstarlark.ScalarArray(fn, v, dt, false, dev)
}

// filledConst is a constant of dtype dt broadcast to shape.
func filledConst(fn string, dev jit.Device, v starlark.Value, dt trace.DType, shape []int) (*jstarlark.Array, error) {
	c, err := scalarConst(fn, dev, v, dt)
	if err != nil {
		return nil, err
	}
	return jstarlark.BroadcastTo(c, shape)
}

// chooseWhere is lax.select: onTrue where pred holds, else onFalse. pred is
// a scalar or has the cases' shape.
func chooseWhere(pred, onFalse, onTrue *jstarlark.Array) (*jstarlark.Array, error) {
	return jstarlark.Bind1("select_n", nil, pred, onFalse, onTrue)
}

// applyBinary applies a lax binary primitive to operands of one dtype, a 0-d
// operand broadcasting against the other as lax allows.
func applyBinary(prim string, x, y *jstarlark.Array) (*jstarlark.Array, error) {
	return jstarlark.Bind1(prim, nil, x, y)
}

// applyBinaryConst applies a lax binary primitive between a and a constant of a's
// dtype.
func applyBinaryConst(fn, prim string, a *jstarlark.Array, v starlark.Value) (*jstarlark.Array, error) {
	c, err := scalarConst(fn, a.Device(), v, a.DType())
	if err != nil {
		return nil, err
	}
	return applyBinary(prim, a, c)
}

// staticIntArray builds an integer constant from static ints computed from
// static arguments (split points, repeat counts): the analogue of the NumPy
// arrays JAX builds from concrete arguments.
func staticIntArray(fn string, dev jit.Device, dt trace.DType, shape []int, vals []int) (*jstarlark.Array, error) {
	raw := make([]byte, len(vals)*dt.Size())
	for i, v := range vals {
		if !jstarlark.FitsInt(int64(v), dt) {
			return nil, fmt.Errorf("%s: index %d does not fit %s", fn, v, dt)
		}
		jstarlark.EncodeInt(raw[i*dt.Size():], dt, int64(v))
	}
	buf, err := jit.FromHost(dev, trace.AVal{Shape: trace.Shape(shape).Clone(), DType: dt}, raw)
	if err != nil {
		return nil, err
	}
	return jstarlark.NewArray(buf), nil
}

// indexDTypeForLength is the dtype of index arrays jaxsh builds: int32, the default
// int, unless an axis is too long for it.
func indexDTypeForLength(n int) trace.DType {
	if n > math.MaxInt32 {
		return trace.Int64
	}
	return trace.Int32
}
