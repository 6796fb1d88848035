package numpy

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// The array-API members of jnp.linalg, most of them jnp functions applied
// to the last axes: matrix_norm and vector_norm are norm with the axes
// fixed; trace and diagonal take the last two axes; matmul is jnp.matmul,
// matrix_transpose swaps the last two axes; vecdot is sum(conj(x1)·x2)
// along axis; outer takes vectors only and cross 3-vectors only; multi_dot
// multiplies left to right, a leading vector as a row and a trailing one as
// a column.

func init() {
	jstarlark.Register(linalgModule, "matrix_norm", matrixNormBuiltin)
	jstarlark.Register(linalgModule, "vector_norm", vectorNormBuiltin)
	jstarlark.Register(linalgModule, "trace", lastAxesBuiltin("trace"))
	jstarlark.Register(linalgModule, "diagonal", lastAxesBuiltin("diagonal"))
	jstarlark.Register(linalgModule, "matmul", linalgMatmulBuiltin)
	jstarlark.Register(linalgModule, "matrix_transpose", matrixTransposeBuiltin)
	jstarlark.Register(linalgModule, "vecdot", vecdotBuiltin)
	jstarlark.Register(linalgModule, "outer", linalgOuterBuiltin)
	jstarlark.Register(linalgModule, "cross", crossBuiltin)
	jstarlark.Register(linalgModule, "multi_dot", multiDotBuiltin)
}

func callLinalgNorm(args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	return linalgModule.Members["norm"].(*starlark.Builtin).CallInternal(nil, args, kwargs)
}

func matrixNormBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.matrix_norm"
	var x starlark.Value
	var ord starlark.Value = starlark.String("fro")
	keepdims := false
	if err := starlark.UnpackArgs(fn, args, kwargs, "x", &x, "keepdims?", &keepdims, "ord?", &ord); err != nil {
		return nil, err
	}
	axes := starlark.Tuple{starlark.MakeInt(-2), starlark.MakeInt(-1)}
	return callLinalgNorm(starlark.Tuple{x, ord, axes, starlark.Bool(keepdims)}, nil)
}

func vectorNormBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.vector_norm"
	var x starlark.Value
	var axis starlark.Value = starlark.None
	var ord starlark.Value = starlark.MakeInt(2)
	keepdims := false
	if err := starlark.UnpackArgs(fn, args, kwargs, "x", &x, "axis?", &axis, "keepdims?", &keepdims, "ord?", &ord); err != nil {
		return nil, err
	}
	if axis != starlark.None {
		return callLinalgNorm(starlark.Tuple{x, ord, axis, starlark.Bool(keepdims)}, nil)
	}
	// Over every axis: the norm of the flattened array, reshaped to ones
	// when keepdims.
	a, err := jstarlark.EnsureArray(fn, x)
	if err != nil {
		return nil, err
	}
	flat, err := jstarlark.ReshapeTo(a, []int{a.Size()})
	if err != nil {
		return nil, err
	}
	v, err := callLinalgNorm(starlark.Tuple{flat, ord, starlark.MakeInt(0)}, nil)
	if err != nil || !keepdims {
		return v, err
	}
	ones := make([]int, a.NDim())
	for i := range ones {
		ones[i] = 1
	}
	return jstarlark.ReshapeTo(v.(*jstarlark.Array), ones)
}

func lastAxesBuiltin(name string) jstarlark.BuiltinFunc {
	fn := "jnp.linalg." + name
	return func(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		var x starlark.Value
		offset := 0
		var dtype starlark.Value = starlark.None
		if name == "trace" {
			if err := starlark.UnpackArgs(fn, args, kwargs, "x", &x, "offset?", &offset, "dtype?", &dtype); err != nil {
				return nil, err
			}
		} else if err := starlark.UnpackArgs(fn, args, kwargs, "x", &x, "offset?", &offset); err != nil {
			return nil, err
		}
		a, err := jstarlark.EnsureArray(fn, x)
		if err != nil {
			return nil, err
		}
		if a.NDim() < 2 {
			return nil, fmt.Errorf("%s: the operand must have at least 2 dimensions, got shape %s", fn, a.Shape())
		}
		kw := []starlark.Tuple{{starlark.String("offset"), starlark.MakeInt(offset)},
			{starlark.String("axis1"), starlark.MakeInt(-2)}, {starlark.String("axis2"), starlark.MakeInt(-1)}}
		if name == "trace" {
			kw = append(kw, starlark.Tuple{starlark.String("dtype"), dtype})
		}
		return callJnp(name, a, nil, kw)
	}
}

func linalgMatmulBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.matmul"
	var x, y starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "x1", &x, "x2", &y); err != nil {
		return nil, err
	}
	arrs, err := linalgOperands(fn, x, y)
	if err != nil {
		return nil, err
	}
	return callJnp("matmul", arrs[0], starlark.Tuple{arrs[1]}, nil)
}

func matrixTransposeBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.matrix_transpose"
	var x starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "x", &x); err != nil {
		return nil, err
	}
	a, err := jstarlark.EnsureArray(fn, x)
	if err != nil {
		return nil, err
	}
	if a.NDim() < 2 {
		return nil, fmt.Errorf("%s: x must be at least two-dimensional for matrix_transpose; got ndim=%d", fn, a.NDim())
	}
	c := newLA(fn)
	return c.Done(c.mT(a))
}

func vecdotBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.vecdot"
	var x, y starlark.Value
	axis := -1
	if err := starlark.UnpackArgs(fn, args, kwargs, "x1", &x, "x2", &y, "axis?", &axis); err != nil {
		return nil, err
	}
	arrs, err := linalgOperands(fn, x, y)
	if err != nil {
		return nil, err
	}
	if arrs, err = jstarlark.Promote(fn, arrs[0], arrs[1]); err != nil {
		return nil, err
	}
	if arrs, err = jstarlark.BroadcastArrays(fn, arrs...); err != nil {
		return nil, err
	}
	x1, err := complexPart(fn, "conj", arrs[0])
	if err != nil {
		return nil, err
	}
	prod, err := jstarlark.Bind1("mul", nil, x1, arrs[1])
	if err != nil {
		return nil, err
	}
	return callJnp("sum", prod, nil, []starlark.Tuple{{starlark.String("axis"), starlark.MakeInt(axis)}})
}

func linalgOuterBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.outer"
	var x, y starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "x1", &x, "x2", &y); err != nil {
		return nil, err
	}
	arrs, err := linalgOperands(fn, x, y)
	if err != nil {
		return nil, err
	}
	if arrs[0].NDim() != 1 || arrs[1].NDim() != 1 {
		return nil, fmt.Errorf("%s: input arrays must be one-dimensional, but they are x1.ndim=%d and x2.ndim=%d", fn, arrs[0].NDim(), arrs[1].NDim())
	}
	return callJnp("outer", arrs[0], starlark.Tuple{arrs[1]}, nil)
}

// crossBuiltin is the cross product of 3-vectors along axis.
func crossBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.cross"
	var x, y starlark.Value
	axis := -1
	if err := starlark.UnpackArgs(fn, args, kwargs, "x1", &x, "x2", &y, "axis?", &axis); err != nil {
		return nil, err
	}
	arrs, err := linalgOperands(fn, x, y)
	if err != nil {
		return nil, err
	}
	if arrs, err = jstarlark.Promote(fn, arrs[0], arrs[1]); err != nil {
		return nil, err
	}
	if arrs, err = jstarlark.BroadcastArrays(fn, arrs...); err != nil {
		return nil, err
	}
	a, b := arrs[0], arrs[1]
	ax, err := trace.NormalizeAxes([]int{axis}, a.NDim())
	if err != nil {
		return nil, fmt.Errorf("%s: %v", fn, err)
	}
	if a.Shape()[ax[0]] != 3 {
		return nil, fmt.Errorf("%s: both input arrays must be (arrays of) 3-dimensional vectors, but they have shape %s along axis %d", fn, a.Shape(), axis)
	}
	c := newLA(fn)
	part := func(x *jstarlark.Array, i int) *jstarlark.Array {
		return c.call(jstarlark.SliceInDim(x, ax[0], i, i+1))
	}
	comp := func(i, j int) *jstarlark.Array {
		return c.Binary("sub", c.Binary("mul", part(a, i), part(b, j)), c.Binary("mul", part(a, j), part(b, i)))
	}
	parts := []*jstarlark.Array{comp(1, 2), comp(2, 0), comp(0, 1)}
	if !c.OK(parts...) {
		return nil, c.Err
	}
	return jstarlark.JoinAlong(parts, ax[0])
}

func multiDotBuiltin(_ *starlark.Thread, _ *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	const fn = "jnp.linalg.multi_dot"
	var seq starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "arrays", &seq); err != nil {
		return nil, err
	}
	it, ok := seq.(starlark.Indexable)
	if !ok || it.Len() < 2 {
		return nil, fmt.Errorf("%s: expected a sequence of at least two arrays", fn)
	}
	vals := make([]starlark.Value, it.Len())
	for i := range vals {
		vals[i] = it.Index(i)
	}
	arrs, err := linalgOperands(fn, vals...)
	if err != nil {
		return nil, err
	}
	for i, a := range arrs {
		end := i == 0 || i == len(arrs)-1
		if a.NDim() != 2 && !(end && a.NDim() == 1) {
			return nil, fmt.Errorf("%s: array %d must be 2-dimensional (the first and last may be 1-dimensional), got shape %s", fn, i, a.Shape())
		}
	}
	var acc starlark.Value = arrs[0]
	for _, a := range arrs[1:] {
		if acc, err = callJnp("matmul", acc.(*jstarlark.Array), starlark.Tuple{a}, nil); err != nil {
			return nil, err
		}
	}
	return acc, nil
}
