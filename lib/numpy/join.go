package numpy

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp functions that join, split and replicate arrays: concatenate stack
// hstack vstack split tile repeat (jax/_src/numpy/lax_numpy.py). Joined
// operands promote to their JAX result type unless dtype= is given.

// joinOperands reads a non-empty sequence of arrays and converts them to
// dtype (when given) or to their common result type. It also returns the
// operands' description as given, for error messages.
func joinOperands(fn string, seq, dtype starlark.Value) ([]*jstarlark.Array, string, error) {
	items, err := arraySequenceItems(fn, "arrays", seq)
	if err != nil {
		return nil, "", err
	}
	if len(items) == 0 {
		return nil, "", fmt.Errorf("%s: need at least one array to join", fn)
	}
	arrs, err := arraylikeArgs(fn, items...)
	if err != nil {
		return nil, "", err
	}
	desc := describeOperandList(arrs)
	dt, given, err := jstarlark.DTypeArg(fn, dtype)
	if err != nil {
		return nil, "", err
	}
	t := trace.Type{DType: dt}
	if !given {
		vals := make([]starlark.Value, len(arrs))
		for i, a := range arrs {
			vals[i] = a
		}
		if t, err = jstarlark.ResultType(fn, vals...); err != nil {
			return nil, "", err
		}
	}
	for i, a := range arrs {
		if arrs[i], err = jstarlark.ConvertType(a, t); err != nil {
			return nil, "", err
		}
	}
	return arrs, desc, nil
}

func describeOperandList(arrs []*jstarlark.Array) string {
	vals := make([]starlark.Value, len(arrs))
	for i, a := range arrs {
		vals[i] = a
	}
	return jstarlark.DescribeAll(vals...)
}

// concatenateAlong joins arrays of equal rank whose shapes agree off axis;
// desc describes the operands as the user gave them.
func concatenateAlong(fn string, arrs []*jstarlark.Array, axis starlark.Value, desc string) (*jstarlark.Array, error) {
	if axis == starlark.None {
		for i, a := range arrs {
			flat, err := jstarlark.ReshapeTo(a, []int{a.Size()})
			if err != nil {
				return nil, err
			}
			arrs[i] = flat
		}
		axis = starlark.MakeInt(0)
	}
	first := arrs[0]
	if first.NDim() == 0 {
		return nil, fmt.Errorf("%s: zero-dimensional arrays cannot be concatenated (operands %s)", fn, desc)
	}
	n, err := staticIntArg(fn, "axis", axis)
	if err != nil {
		return nil, err
	}
	ax, err := jstarlark.NormalizeAxisOf(fn, n, first.NDim(), first)
	if err != nil {
		return nil, err
	}
	for _, a := range arrs[1:] {
		if a.NDim() != first.NDim() {
			return nil, fmt.Errorf("%s: all the input arrays must have the same number of dimensions, got %s", fn, desc)
		}
		for i, d := range a.Shape() {
			if i != ax && d != first.Shape()[i] {
				return nil, fmt.Errorf("%s: all the input array dimensions except for the concatenation axis %d must match exactly, got %s", fn, ax, desc)
			}
		}
	}
	return jstarlark.JoinAlong(arrs, ax)
}

func jnpConcatenate(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var arrays, dtype starlark.Value
	var axis starlark.Value = starlark.MakeInt(0)
	if err := starlark.UnpackArgs(fn, args, kwargs, "arrays", &arrays, "axis?", &axis, "dtype?", &dtype); err != nil {
		return nil, err
	}
	arrs, desc, err := joinOperands(fn, arrays, dtype)
	if err != nil {
		return nil, err
	}
	return concatenateAlong(fn, arrs, axis, desc)
}

func jnpStack(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var arrays, out, dtype starlark.Value
	axis := 0
	if err := starlark.UnpackArgs(fn, args, kwargs, "arrays", &arrays, "axis?", &axis, "out?", &out, "dtype?", &dtype); err != nil {
		return nil, err
	}
	if err := rejectOutArg(fn, out); err != nil {
		return nil, err
	}
	arrs, desc, err := joinOperands(fn, arrays, dtype)
	if err != nil {
		return nil, err
	}
	for _, a := range arrs[1:] {
		if !a.Shape().Equal(arrs[0].Shape()) {
			return nil, fmt.Errorf("%s: all input arrays must have the same shape, got %s", fn, desc)
		}
	}
	ax, err := jstarlark.NormalizeAxisOf(fn, axis, arrs[0].NDim()+1, arrs[0])
	if err != nil {
		return nil, err
	}
	for i, a := range arrs {
		if arrs[i], err = jstarlark.InsertUnitAxes(a, []int{ax}); err != nil {
			return nil, err
		}
	}
	return jstarlark.JoinAlong(arrs, ax)
}

// atLeastRank prepends length-1 axes up to rank n (NumPy's ndmin); atleast_2d
// makes a 1-d array a row.
func atLeastRank(a *jstarlark.Array, n int) (*jstarlark.Array, error) {
	if a.NDim() >= n {
		return a, nil
	}
	shape := make([]int, n-a.NDim(), n)
	for i := range shape {
		shape[i] = 1
	}
	return jstarlark.ReshapeTo(a, append(shape, a.Shape()...))
}

// stackBuiltin is jnp.hstack (rank ≥ 1, joined along axis 1, or 0 for 1-d
// operands) or jnp.vstack (rank ≥ 2, joined along axis 0).
func stackBuiltin(minRank int) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := b.Name()
		var tup, dtype starlark.Value
		if err := starlark.UnpackArgs(fn, args, kwargs, "tup", &tup, "dtype?", &dtype); err != nil {
			return nil, err
		}
		arrs, desc, err := joinOperands(fn, tup, dtype)
		if err != nil {
			return nil, err
		}
		for i, a := range arrs {
			if arrs[i], err = atLeastRank(a, minRank); err != nil {
				return nil, err
			}
		}
		axis := 0
		if minRank == 1 && arrs[0].NDim() > 1 {
			axis = 1
		}
		return concatenateAlong(fn, arrs, starlark.MakeInt(axis), desc)
	}
}

// staticIntValues reads static integers from an int, a list/tuple of ints, or a
// concrete integer array (split points, repeat counts).
func staticIntValues(fn, what string, v starlark.Value) (vals []int, scalar bool, err error) {
	a, ok := v.(*jstarlark.Array)
	if !ok {
		vals, seq, err := staticIntsArg(fn, what, v)
		return vals, !seq, err
	}
	if !a.DType().IsInteger() {
		return nil, false, fmt.Errorf("%s: %s must be integers, got %s", fn, what, jstarlark.Describe(a))
	}
	if a.NDim() > 1 {
		return nil, false, fmt.Errorf("%s: %s must be a scalar or a 1-d array, got %s", fn, what, jstarlark.Describe(a))
	}
	vals = make([]int, a.Size())
	for i := range vals {
		e, err := a.ScalarValue(i)
		if err != nil {
			return nil, false, err
		}
		if vals[i], err = staticIntArg(fn, what, e); err != nil {
			return nil, false, err
		}
	}
	return vals, a.NDim() == 0, nil
}

// jnpSplit returns a list of arrays, as JAX's split does. An int divides
// the axis into that many equal parts; a sequence gives the split points,
// which JAX requires to be non-decreasing and within the axis.
func jnpSplit(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var ary, sections starlark.Value
	axis := 0
	if err := starlark.UnpackArgs(fn, args, kwargs, "ary", &ary, "indices_or_sections", &sections, "axis?", &axis); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, ary)
	if err != nil {
		return nil, err
	}
	ax, err := jstarlark.NormalizeAxisOf(fn, axis, x.NDim(), x)
	if err != nil {
		return nil, err
	}
	size := x.Shape()[ax]
	vals, scalar, err := staticIntValues(fn, "indices_or_sections", sections)
	if err != nil {
		return nil, err
	}
	var bounds []int
	if scalar {
		n := vals[0]
		if n <= 0 {
			return nil, fmt.Errorf("%s: number of sections must be larger than 0, got %d", fn, n)
		}
		if size%n != 0 {
			return nil, fmt.Errorf("%s: array split does not result in an equal division: axis %d of %s has size %d, not divisible into %d sections", fn, ax, jstarlark.Describe(x), size, n)
		}
		for i := 0; i <= n; i++ {
			bounds = append(bounds, i*(size/n))
		}
	} else {
		bounds = append(append([]int{0}, vals...), size)
		for i := 1; i < len(bounds); i++ {
			if bounds[i] < bounds[i-1] {
				return nil, fmt.Errorf("%s: split indices %s must be non-decreasing and lie in [0, %d] (axis %d of %s)", fn, intTupleText(vals), size, ax, jstarlark.Describe(x))
			}
		}
	}
	parts := make([]starlark.Value, len(bounds)-1)
	for i := range parts {
		p, err := jstarlark.SliceInDim(x, ax, bounds[i], bounds[i+1])
		if err != nil {
			return nil, err
		}
		parts[i] = p
	}
	return starlark.NewList(parts), nil
}

// jnpTile repeats the whole array reps times along each axis: broadcast
// into interleaved (rep, size) axes, then merge each pair.
func jnpTile(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a, repsArg starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "A", &a, "reps", &repsArg); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return nil, err
	}
	reps, _, err := staticIntsArg(fn, "reps", repsArg)
	if err != nil {
		return nil, err
	}
	for _, r := range reps {
		if r < 0 {
			return nil, fmt.Errorf("%s: negative reps are not allowed, got %s", fn, intTupleText(reps))
		}
	}
	for len(reps) < x.NDim() {
		reps = append([]int{1}, reps...)
	}
	if x, err = atLeastRank(x, len(reps)); err != nil {
		return nil, err
	}
	pairs := make([]int, 0, 2*len(reps))
	dims := make([]int, len(reps))
	out := make([]int, len(reps))
	for i, r := range reps {
		pairs = append(pairs, r, x.Shape()[i])
		dims[i] = 2*i + 1
		out[i] = r * x.Shape()[i]
	}
	wide, err := jstarlark.Bind1("broadcast_in_dim", trace.Params{"shape": pairs, "broadcast_dimensions": dims}, x)
	if err != nil {
		return nil, err
	}
	return jstarlark.ReshapeTo(wide, out)
}

// repeatIndices is the gather index of each output position along the
// axis, computed as JAX's _repeat does (a scatter of block starts, then a
// cumulative sum) so that total_repeat_length truncates or pads the same
// way: padding repeats the element after the last non-empty block.
func repeatIndices(repeats []int, total int) []int {
	starts := make([]int, total)
	pos := 0
	for _, r := range repeats {
		if pos < total {
			starts[pos]++
		}
		pos += r
	}
	idx := make([]int, total)
	run := 0
	for i, s := range starts {
		run += s
		idx[i] = run - 1
	}
	return idx
}

func jnpRepeat(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a, repeatsArg, axis, totalArg starlark.Value
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "repeats", &repeatsArg, "axis?", &axis, "total_repeat_length?", &totalArg); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return nil, err
	}
	// JAX takes repeats as an int or an array (not a list), whose values
	// must be static: they fix the result's shape.
	switch repeatsArg.(type) {
	case starlark.Int, *jstarlark.Array:
	default:
		return nil, fmt.Errorf("%s requires ndarray or scalar arguments, got %s at position 1", fn, repeatsArg.Type())
	}
	repeats, scalar, err := staticIntValues(fn, "repeats", repeatsArg)
	if err != nil {
		return nil, err
	}
	for _, r := range repeats {
		if r < 0 {
			return nil, fmt.Errorf("%s: repeats may not contain negative values, got %s", fn, intTupleText(repeats))
		}
	}
	ax := 0
	if axis == nil || axis == starlark.None || x.NDim() == 0 {
		if x, err = jstarlark.ReshapeTo(x, []int{x.Size()}); err != nil {
			return nil, err
		}
	}
	if axis != nil && axis != starlark.None {
		n, err := staticIntArg(fn, "axis", axis)
		if err != nil {
			return nil, err
		}
		if ax, err = jstarlark.NormalizeAxisOf(fn, n, x.NDim(), x); err != nil {
			return nil, err
		}
	}
	n := x.Shape()[ax]
	total := -1
	if totalArg != nil && totalArg != starlark.None {
		if total, err = staticIntArg(fn, "total_repeat_length", totalArg); err != nil {
			return nil, err
		}
		if total < 0 {
			return nil, fmt.Errorf("%s: total_repeat_length must be non-negative, got %d", fn, total)
		}
	}
	if scalar && total < 0 {
		// Each element broadcast along a new axis after ax, then merged.
		wide := x.Shape().Clone()
		wide = append(wide[:ax+1], append([]int{repeats[0]}, wide[ax+1:]...)...)
		var dims []int
		for i := range wide {
			if i != ax+1 {
				dims = append(dims, i)
			}
		}
		w, err := jstarlark.Bind1("broadcast_in_dim", trace.Params{"shape": []int(wide), "broadcast_dimensions": dims}, x)
		if err != nil {
			return nil, err
		}
		out := x.Shape().Clone()
		out[ax] *= repeats[0]
		return jstarlark.ReshapeTo(w, out)
	}
	switch {
	case len(repeats) == 1:
		for len(repeats) < n {
			repeats = append(repeats, repeats[0])
		}
	case len(repeats) != n:
		return nil, fmt.Errorf("%s: repeats of length %d do not match axis %d of size %d (operand %s)", fn, len(repeats), ax, n, jstarlark.Describe(x))
	}
	if total < 0 {
		total = 0
		for _, r := range repeats {
			total += r
		}
	}
	if total == 0 || n == 0 {
		if total == 0 {
			return jstarlark.SliceInDim(x, ax, 0, 0)
		}
		return x, nil
	}
	idx, err := staticIntArray(fn, x.Device(), indexDTypeForLength(n), []int{total}, repeatIndices(repeats, total))
	if err != nil {
		return nil, err
	}
	return GatherAlongAxis(x, idx, ax, trace.GatherPromiseInBounds, nil)
}

func init() {
	jstarlark.Register(Module, "concatenate", jnpConcatenate)
	jstarlark.Register(Module, "stack", jnpStack)
	jstarlark.Register(Module, "hstack", stackBuiltin(1))
	jstarlark.Register(Module, "vstack", stackBuiltin(2))
	jstarlark.Register(Module, "split", jnpSplit)
	jstarlark.Register(Module, "tile", jnpTile)
	jstarlark.Register(Module, "repeat", jnpRepeat)
}
