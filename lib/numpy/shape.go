package numpy

import (
	"fmt"
	"slices"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp functions that rearrange one array's axes: reshape ravel transpose
// moveaxis swapaxes expand_dims squeeze broadcast_to broadcast_arrays flip
// roll. They follow jax/_src/numpy/lax_numpy.py and keep the operand's
// dtype and weak type, as the lax primitives beneath them do.

// singleArraylikeArg reads a single array operand (Python scalars become weak
// 0-d arrays on the default device).
func singleArraylikeArg(fn string, v starlark.Value) (*jstarlark.Array, error) {
	dev, err := jstarlark.OperandDevice(v)
	if err != nil {
		return nil, err
	}
	return jstarlark.ArraylikeArg(fn, v, 0, dev)
}

// resolveNewShape resolves a requested shape against a's size: at most one -1,
// which takes the remaining size; no other negative sizes.
func resolveNewShape(fn string, a *jstarlark.Array, dims []int) ([]int, error) {
	unknown := -1
	known := 1
	for i, d := range dims {
		switch {
		case d == -1 && unknown >= 0:
			return nil, fmt.Errorf("%s: can only specify one unknown axis size with a `-1` value, got %s", fn, intTupleText(dims))
		case d == -1:
			unknown = i
		case d < 0:
			return nil, fmt.Errorf("%s: negative dimensions are not allowed, got shape %s", fn, intTupleText(dims))
		default:
			known *= d
		}
	}
	out := slices.Clone(dims)
	if unknown >= 0 {
		if known == 0 || a.Size()%known != 0 {
			return nil, fmt.Errorf("%s: cannot reshape array of shape %s (size %d) into shape %s because the product of specified axis sizes (%d) does not evenly divide %d",
				fn, a.Shape(), a.Size(), intTupleText(dims), known, a.Size())
		}
		out[unknown] = a.Size() / known
	} else if known != a.Size() {
		return nil, fmt.Errorf("%s: cannot reshape array of shape %s (size %d) into shape %s (size %d)", fn, a.Shape(), a.Size(), intTupleText(dims), known)
	}
	return out, nil
}

func reversedAxisOrder(n int) []int {
	perm := make([]int, n)
	for i := range perm {
		perm[i] = n - 1 - i
	}
	return perm
}

// reshapeOrdered reshapes in C (row-major) or F (column-major) order; F
// reads and writes elements with the first index fastest, which is a C
// reshape between reversed axes.
func reshapeOrdered(fn string, a *jstarlark.Array, shape []int, order string) (*jstarlark.Array, error) {
	switch order {
	case "C":
		return jstarlark.ReshapeTo(a, shape)
	case "F":
		t, err := permuteAxes(a, reversedAxisOrder(a.NDim()))
		if err != nil {
			return nil, err
		}
		rev := slices.Clone(shape)
		slices.Reverse(rev)
		if t, err = jstarlark.ReshapeTo(t, rev); err != nil {
			return nil, err
		}
		return permuteAxes(t, reversedAxisOrder(len(shape)))
	case "A", "K":
		return nil, fmt.Errorf("%s: order=%q is not implemented", fn, order)
	}
	return nil, fmt.Errorf("%s: unexpected value for 'order' argument: %q", fn, order)
}

func jnpReshape(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a, shape, copyArg starlark.Value
	order := "C"
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "shape", &shape, "order?", &order, "copy?", &copyArg); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return nil, err
	}
	dims, err := staticShapeArg(fn, shape)
	if err != nil {
		return nil, err
	}
	if dims, err = resolveNewShape(fn, x, dims); err != nil {
		return nil, err
	}
	return reshapeOrdered(fn, x, dims, order)
}

func jnpRavel(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a starlark.Value
	order := "C"
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "order?", &order); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return nil, err
	}
	return reshapeOrdered(fn, x, []int{x.Size()}, order)
}

func jnpTranspose(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a, axes starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axes?", &axes); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return nil, err
	}
	if axes == nil || axes == starlark.None {
		return permuteAxes(x, reversedAxisOrder(x.NDim()))
	}
	perm, _, err := staticIntsArg(fn, "axes", axes)
	if err != nil {
		return nil, err
	}
	if len(perm) != x.NDim() {
		return nil, fmt.Errorf("%s: axes %s don't match array %s: need one entry per axis", fn, intTupleText(perm), jstarlark.Describe(x))
	}
	norm, err := normalizeAxesOf(fn, perm, x.NDim(), x)
	if err != nil {
		return nil, err
	}
	return permuteAxes(x, norm)
}

// MoveAxesTo moves the source axes to the destination positions, the others
// keeping their order (NumPy's moveaxis).
func MoveAxesTo(fn string, x *jstarlark.Array, source, destination []int) (*jstarlark.Array, error) {
	if len(source) != len(destination) {
		return nil, fmt.Errorf("%s: `source` and `destination` arguments must have the same number of elements, got %s and %s", fn, intTupleText(source), intTupleText(destination))
	}
	src, err := normalizeAxesOf(fn, source, x.NDim(), x)
	if err != nil {
		return nil, err
	}
	dst, err := normalizeAxesOf(fn, destination, x.NDim(), x)
	if err != nil {
		return nil, err
	}
	var perm []int
	for i := 0; i < x.NDim(); i++ {
		if !slices.Contains(src, i) {
			perm = append(perm, i)
		}
	}
	order := make([]int, len(src))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int { return dst[i] - dst[j] })
	for _, k := range order {
		perm = slices.Insert(perm, dst[k], src[k])
	}
	return permuteAxes(x, perm)
}

func jnpMoveaxis(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a, source, destination starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "source", &source, "destination", &destination); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return nil, err
	}
	src, _, err := staticIntsArg(fn, "source", source)
	if err != nil {
		return nil, err
	}
	dst, _, err := staticIntsArg(fn, "destination", destination)
	if err != nil {
		return nil, err
	}
	return MoveAxesTo(fn, x, src, dst)
}

func jnpSwapaxes(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a starlark.Value
	var axis1, axis2 int
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis1", &axis1, "axis2", &axis2); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return nil, err
	}
	i, err := jstarlark.NormalizeAxisOf(fn, axis1, x.NDim(), x)
	if err != nil {
		return nil, err
	}
	j, err := jstarlark.NormalizeAxisOf(fn, axis2, x.NDim(), x)
	if err != nil {
		return nil, err
	}
	perm := trace.AllAxes(x.NDim())
	perm[i], perm[j] = perm[j], perm[i]
	return permuteAxes(x, perm)
}

func jnpExpandDims(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a, axis starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis", &axis); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return nil, err
	}
	vals, _, err := staticIntsArg(fn, "axis", axis)
	if err != nil {
		return nil, err
	}
	// Axes index the result, whose rank counts the new axes.
	axes, err := normalizeAxesOf(fn, vals, x.NDim()+len(vals), x)
	if err != nil {
		return nil, err
	}
	return jstarlark.InsertUnitAxes(x, axes)
}

func jnpSqueeze(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a, axis starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "axis?", &axis); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return nil, err
	}
	var axes []int
	if axis == nil || axis == starlark.None {
		for i, d := range x.Shape() {
			if d == 1 {
				axes = append(axes, i)
			}
		}
	} else {
		vals, _, err := staticIntsArg(fn, "axis", axis)
		if err != nil {
			return nil, err
		}
		if axes, err = normalizeAxesOf(fn, vals, x.NDim(), x); err != nil {
			return nil, err
		}
		for _, ax := range axes {
			if x.Shape()[ax] != 1 {
				return nil, fmt.Errorf("%s: cannot select an axis to squeeze out which has size not equal to one, got shape=%s and dimensions=%s", fn, x.Shape(), intTupleText(vals))
			}
		}
	}
	var out []int
	for i, d := range x.Shape() {
		if !slices.Contains(axes, i) {
			out = append(out, d)
		}
	}
	return jstarlark.ReshapeTo(x, out)
}

// broadcastToShape is jnp.broadcast_to's check and broadcast, with NumPy's
// rules: trailing axes align, each operand size 1 or equal.
func broadcastToShape(fn string, x *jstarlark.Array, shape []int) (*jstarlark.Array, error) {
	for _, d := range shape {
		if d < 0 {
			return nil, fmt.Errorf("%s: negative dimensions are not allowed, got shape %s", fn, intTupleText(shape))
		}
	}
	lead := len(shape) - x.NDim()
	if lead < 0 {
		return nil, fmt.Errorf("%s: cannot broadcast %s to shape with fewer dimensions %s", fn, jstarlark.Describe(x), intTupleText(shape))
	}
	for i, d := range x.Shape() {
		if d != 1 && d != shape[lead+i] {
			return nil, fmt.Errorf("%s: incompatible shapes for broadcasting: %s and requested shape %s", fn, jstarlark.Describe(x), intTupleText(shape))
		}
	}
	return jstarlark.BroadcastTo(x, shape)
}

func jnpBroadcastTo(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a, shape starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "array", &a, "shape", &shape); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return nil, err
	}
	dims, err := staticShapeArg(fn, shape)
	if err != nil {
		return nil, err
	}
	return broadcastToShape(fn, x, dims)
}

// jnpBroadcastArrays returns a list, as JAX's broadcast_arrays does.
func jnpBroadcastArrays(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	if len(kwargs) > 0 {
		return nil, fmt.Errorf("%s: unexpected keyword argument %s", fn, kwargs[0][0])
	}
	arrs, err := arraylikeArgs(fn, args...)
	if err != nil {
		return nil, err
	}
	shapes := make([]trace.Shape, len(arrs))
	for i, a := range arrs {
		shapes[i] = a.Shape()
	}
	if _, err := trace.BroadcastShapes(shapes...); err != nil {
		vals := make([]starlark.Value, len(arrs))
		for i, a := range arrs {
			vals[i] = a
		}
		return nil, fmt.Errorf("%s: %v (operands %s)", fn, err, jstarlark.DescribeAll(vals...))
	}
	if arrs, err = jstarlark.BroadcastArrays(fn, arrs...); err != nil {
		return nil, err
	}
	out := make([]starlark.Value, len(arrs))
	for i, a := range arrs {
		out[i] = a
	}
	return starlark.NewList(out), nil
}

func jnpFlip(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var m, axis starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "m", &m, "axis?", &axis); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, m)
	if err != nil {
		return nil, err
	}
	axes, _, err := reductionAxesArg(fn, axis, x)
	if err != nil {
		return nil, err
	}
	return reverseAxes(x, axes)
}

// rollStatic rolls each axis by its static shift: the last shift elements
// move to the front, as two slices concatenated (JAX's _roll_static).
func rollStatic(x *jstarlark.Array, shifts, axes []int) (*jstarlark.Array, error) {
	for k, ax := range axes {
		n := x.Shape()[ax]
		if n == 0 {
			continue
		}
		i := ((-shifts[k])%n + n) % n
		if i == 0 {
			continue
		}
		tail, err := jstarlark.SliceInDim(x, ax, i, n)
		if err != nil {
			return nil, err
		}
		head, err := jstarlark.SliceInDim(x, ax, 0, i)
		if err != nil {
			return nil, err
		}
		if x, err = jstarlark.JoinAlong([]*jstarlark.Array{tail, head}, ax); err != nil {
			return nil, err
		}
	}
	return x, nil
}

func jnpRoll(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a, shift, axis starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "shift", &shift, "axis?", &axis); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return nil, err
	}
	if s, ok := shift.(*jstarlark.Array); ok {
		return rollByArray(fn, x, s, axis)
	}
	shifts, _, err := staticIntsArg(fn, "shift", shift)
	if err != nil {
		return nil, err
	}
	if axis == nil || axis == starlark.None {
		// Roll the flattened array (by each shift in turn), then restore
		// the shape.
		flat, err := jstarlark.ReshapeTo(x, []int{x.Size()})
		if err != nil {
			return nil, err
		}
		if flat, err = rollStatic(flat, shifts, make([]int, len(shifts))); err != nil {
			return nil, err
		}
		return jstarlark.ReshapeTo(flat, x.Shape())
	}
	vals, _, err := staticIntsArg(fn, "axis", axis)
	if err != nil {
		return nil, err
	}
	axes := make([]int, len(vals))
	for i, v := range vals {
		if axes[i], err = jstarlark.NormalizeAxisOf(fn, v, x.NDim(), x); err != nil {
			return nil, err
		}
	}
	// shift and axis broadcast against each other, as NumPy's do.
	switch {
	case len(shifts) == len(axes):
	case len(shifts) == 1:
		shifts = slices.Repeat(shifts, len(axes))
	case len(axes) == 1:
		axes = slices.Repeat(axes, len(shifts))
	default:
		return nil, fmt.Errorf("%s: shift %s and axis %s must have the same length or length 1", fn, intTupleText(shifts), intTupleText(vals))
	}
	return rollStatic(x, shifts, axes)
}

// rollByArray rolls by shifts held in an integer array (0-d or 1-d), as
// JAX's _roll_dynamic does, so that the shifts need not be static: each axis
// is doubled by concatenation and the rolled window cut out of it with
// dynamic_slice at n - (shift mod n).
func rollByArray(fn string, x, shift *jstarlark.Array, axis starlark.Value) (*jstarlark.Array, error) {
	if !shift.DType().IsInteger() {
		return nil, fmt.Errorf("%s: shift must be integers, got %s", fn, jstarlark.Describe(shift))
	}
	if shift.NDim() > 1 {
		return nil, fmt.Errorf("%s: 'shift' and 'axis' arguments to roll must be scalars or 1D arrays, got shift %s", fn, jstarlark.Describe(shift))
	}
	flat := axis == nil || axis == starlark.None
	target := x
	var axes []int
	if flat {
		var err error
		if target, err = jstarlark.ReshapeTo(x, []int{x.Size()}); err != nil {
			return nil, err
		}
		axes = []int{0}
	} else {
		vals, _, err := staticIntsArg(fn, "axis", axis)
		if err != nil {
			return nil, err
		}
		for _, v := range vals {
			ax, err := jstarlark.NormalizeAxisOf(fn, v, x.NDim(), x)
			if err != nil {
				return nil, err
			}
			axes = append(axes, ax)
		}
	}
	shifts, err := jstarlark.Astype(shift, trace.Int32)
	if err != nil {
		return nil, err
	}
	count := 1
	if shift.NDim() == 1 {
		count = shift.Shape()[0]
	}
	switch {
	case count == len(axes):
	case count == 1: // one shift for every axis
	case len(axes) == 1:
		axes = slices.Repeat(axes, count)
	default:
		return nil, fmt.Errorf("%s: shift %s and axis %s must have the same length or length 1", fn, jstarlark.Describe(shift), intTupleText(axes))
	}
	for k, ax := range axes {
		n := target.Shape()[ax]
		if n == 0 {
			continue
		}
		s := shifts
		if shift.NDim() == 1 {
			at := k
			if shift.Shape()[0] == 1 {
				at = 0
			}
			if s, err = jstarlark.SliceInDim(shifts, 0, at, at+1); err != nil {
				return nil, err
			}
		}
		if s, err = jstarlark.ReshapeTo(s, nil); err != nil {
			return nil, err
		}
		r, err := floorModIndices(fn, s, n)
		if err != nil {
			return nil, err
		}
		size, err := scalarConst(fn, x.Device(), starlark.MakeInt(n), trace.Int32)
		if err != nil {
			return nil, err
		}
		begin, err := applyBinary("sub", size, r)
		if err != nil {
			return nil, err
		}
		doubled, err := jstarlark.JoinAlong([]*jstarlark.Array{target, target}, ax)
		if err != nil {
			return nil, err
		}
		starts := make([]*jstarlark.Array, target.NDim())
		zero, err := scalarConst(fn, x.Device(), starlark.MakeInt(0), trace.Int32)
		if err != nil {
			return nil, err
		}
		for i := range starts {
			starts[i] = zero
		}
		starts[ax] = begin
		if target, err = jstarlark.Bind1("dynamic_slice", trace.Params{"slice_sizes": []int(target.Shape().Clone())}, append([]*jstarlark.Array{doubled}, starts...)...); err != nil {
			return nil, err
		}
	}
	if flat {
		return jstarlark.ReshapeTo(target, x.Shape())
	}
	return target, nil
}

func init() {
	jstarlark.Register(Module, "reshape", jnpReshape)
	jstarlark.Register(Module, "ravel", jnpRavel)
	jstarlark.Register(Module, "transpose", jnpTranspose)
	jstarlark.Register(Module, "moveaxis", jnpMoveaxis)
	jstarlark.Register(Module, "swapaxes", jnpSwapaxes)
	jstarlark.Register(Module, "expand_dims", jnpExpandDims)
	jstarlark.Register(Module, "squeeze", jnpSqueeze)
	jstarlark.Register(Module, "broadcast_to", jnpBroadcastTo)
	jstarlark.Register(Module, "broadcast_arrays", jnpBroadcastArrays)
	jstarlark.Register(Module, "flip", jnpFlip)
	jstarlark.Register(Module, "roll", jnpRoll)
}
