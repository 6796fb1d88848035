package numpy

import (
	"fmt"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// jnp functions that pick elements by index or position: take,
// take_along_axis, diag, diagonal, triu, tril. Index picks are one gather
// with the dimension numbers JAX uses (jax/_src/numpy/indexing.py: _take,
// take_along_axis; lax_numpy.py: diagonal); masks are iota comparisons and
// a select, as JAX's tri/tril/triu.

// GatherAlongAxis picks, for every index in indices, the slice of a at that
// position of axis (JAX's _take): the result's shape is a's with axis
// replaced by the indices' shape.
func GatherAlongAxis(a, indices *jstarlark.Array, axis int, mode trace.GatherScatterMode, fill any) (*jstarlark.Array, error) {
	rank, indexDims := a.NDim(), indices.NDim()
	sizes := a.Shape().Clone()
	sizes[axis] = 1
	var offset []int
	for i := 0; i < axis; i++ {
		offset = append(offset, i)
	}
	for i := axis + indexDims; i < rank+indexDims-1; i++ {
		offset = append(offset, i)
	}
	idx, err := jstarlark.ReshapeTo(indices, append(indices.Shape().Clone(), 1))
	if err != nil {
		return nil, err
	}
	dn := trace.GatherDimensionNumbers{OffsetDims: offset, CollapsedSliceDims: []int{axis}, StartIndexMap: []int{axis}}
	return gatherWith(a, idx, dn, sizes, mode, fill)
}

func gatherWith(a, idx *jstarlark.Array, dn trace.GatherDimensionNumbers, sizes []int, mode trace.GatherScatterMode, fill any) (*jstarlark.Array, error) {
	return jstarlark.Bind1("gather", trace.Params{
		"dimension_numbers": dn, "slice_sizes": []int(trace.Shape(sizes).Clone()),
		"indices_are_sorted": false, "unique_indices": false, "mode": mode, "fill_value": fill,
	}, a, idx)
}

// integerIndices checks that indices have an integer dtype and widens them
// to int32 when the axis length does not fit theirs (so index arithmetic
// against it cannot overflow).
func integerIndices(fn string, idx *jstarlark.Array, n int) (*jstarlark.Array, error) {
	if !idx.DType().IsInteger() {
		return nil, fmt.Errorf("%s: indices must be of integer type, got %s", fn, jstarlark.Describe(idx))
	}
	if !jstarlark.FitsInt(int64(n), idx.DType()) {
		return jstarlark.Astype(idx, indexDTypeForLength(n))
	}
	return idx, nil
}

// wrapNegativeIndices is JAX's _normalize_index: negative indices count from the
// end of an axis of length n.
func wrapNegativeIndices(fn string, idx *jstarlark.Array, n int) (*jstarlark.Array, error) {
	if idx.DType().IsUnsigned() {
		return idx, nil
	}
	negative, err := applyBinaryConst(fn, "lt", idx, starlark.MakeInt(0))
	if err != nil {
		return nil, err
	}
	shifted, err := applyBinaryConst(fn, "add", idx, starlark.MakeInt(n))
	if err != nil {
		return nil, err
	}
	return chooseWhere(negative, idx, shifted)
}

// floorModIndices is idx mod n with the sign of n (Python's %), n > 0.
func floorModIndices(fn string, idx *jstarlark.Array, n int) (*jstarlark.Array, error) {
	r, err := applyBinaryConst(fn, "rem", idx, starlark.MakeInt(n))
	if err != nil || idx.DType().IsUnsigned() {
		return r, err
	}
	return wrapNegativeIndices(fn, r, n)
}

// gatherFillArg reads fill_value= as a gather param: nil for JAX's default.
func gatherFillArg(fn string, v starlark.Value) (any, error) {
	switch x := v.(type) {
	case nil, starlark.NoneType:
		return nil, nil
	case starlark.Bool:
		return bool(x), nil
	case starlark.Int:
		n, ok := x.Int64()
		if !ok {
			return nil, fmt.Errorf("%s: fill_value %s is too large", fn, x)
		}
		return int(n), nil
	case starlark.Float:
		return float64(x), nil
	}
	return nil, fmt.Errorf("%s: fill_value must be a Python number, got %s", fn, v.Type())
}

func jnpTake(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a, indices, axis, out, mode, fillValue starlark.Value
	unique, sorted := false, false
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "indices", &indices, "axis?", &axis, "out?", &out, "mode?", &mode,
		"unique_indices?", &unique, "indices_are_sorted?", &sorted, "fill_value?", &fillValue); err != nil {
		return nil, err
	}
	if err := rejectOutArg(fn, out); err != nil {
		return nil, err
	}
	arrs, err := arraylikeArgs(fn, a, indices)
	if err != nil {
		return nil, err
	}
	x, idx := arrs[0], arrs[1]
	ax := 0
	if axis == nil || axis == starlark.None {
		if x, err = jstarlark.ReshapeTo(x, []int{x.Size()}); err != nil {
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
	n := x.Shape()[ax]
	if idx, err = integerIndices(fn, idx, n); err != nil {
		return nil, err
	}
	fill, err := gatherFillArg(fn, fillValue)
	if err != nil {
		return nil, err
	}
	var gmode trace.GatherScatterMode
	switch mode {
	case nil, starlark.None, starlark.String("fill"):
		gmode = trace.GatherFillOrDrop
		if idx, err = wrapNegativeIndices(fn, idx, n); err != nil {
			return nil, err
		}
	case starlark.String("clip"):
		gmode = trace.GatherClip
	case starlark.String("wrap"):
		gmode = trace.GatherPromiseInBounds
		if n > 0 {
			if idx, err = floorModIndices(fn, idx, n); err != nil {
				return nil, err
			}
		}
	case starlark.String("raise"):
		return nil, fmt.Errorf("%s: the 'raise' mode is not supported (out-of-bounds indices cannot be reported)", fn)
	default:
		return nil, fmt.Errorf("%s: invalid mode %s (want 'fill', 'clip' or 'wrap')", fn, mode)
	}
	outShape := append(append(x.Shape()[:ax:ax], idx.Shape()...), x.Shape()[ax+1:]...)
	switch {
	case n == 0 && idx.Size() != 0:
		return nil, fmt.Errorf("%s: cannot do a non-empty take from an empty axis (operands %s)", fn, jstarlark.DescribeAll(x, idx))
	case n == 0:
		return x, nil
	case idx.Size() == 0:
		return filledConst(fn, x.Device(), starlark.MakeInt(0), x.DType(), outShape)
	}
	return GatherAlongAxis(x, idx, ax, gmode, fill)
}

// takeAlongAxis is JAX's take_along_axis: indices and arr broadcast against
// each other off the axis; an index axis of length 1 takes arr's whole axis
// as a gather window, an arr axis of length 1 is squeezed away, and equal
// axes pair up as gather batching dimensions.
func jnpTakeAlongAxis(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var arr, indices, mode, fillValue starlark.Value
	var axis starlark.Value = starlark.MakeInt(-1)
	if err := starlark.UnpackArgs(fn, args, kwargs, "arr", &arr, "indices", &indices, "axis?", &axis, "mode?", &mode, "fill_value?", &fillValue); err != nil {
		return nil, err
	}
	arrs, err := arraylikeArgs(fn, arr, indices)
	if err != nil {
		return nil, err
	}
	a, idx := arrs[0], arrs[1]
	if !idx.DType().IsInteger() {
		return nil, fmt.Errorf("%s: indices must be of integer type, got %s", fn, jstarlark.Describe(idx))
	}
	if axis == starlark.None {
		if idx.NDim() != 1 {
			return nil, fmt.Errorf("%s: indices must be 1D if axis=None, got %s", fn, jstarlark.Describe(idx))
		}
		if a, err = jstarlark.ReshapeTo(a, []int{a.Size()}); err != nil {
			return nil, err
		}
		axis = starlark.MakeInt(0)
	}
	rank := a.NDim()
	if idx.NDim() != rank {
		return nil, fmt.Errorf("%s: indices and arr must have the same number of dimensions; %d vs. %d (operands %s)", fn, idx.NDim(), rank, jstarlark.DescribeAll(a, idx))
	}
	n, err := staticIntArg(fn, "axis", axis)
	if err != nil {
		return nil, err
	}
	ax, err := jstarlark.NormalizeAxisOf(fn, n, rank, a)
	if err != nil {
		return nil, err
	}
	arrShape := a.Shape().Clone()
	arrShape[ax] = 1
	outShape, err := trace.BroadcastShapes(idx.Shape(), arrShape)
	if err != nil {
		return nil, fmt.Errorf("%s: indices of shape %s do not broadcast against arr %s off axis %d", fn, idx.Shape(), jstarlark.Describe(a), ax)
	}
	size := a.Shape()[ax]
	if size == 0 {
		return filledConst(fn, a.Device(), starlark.MakeInt(0), a.DType(), outShape)
	}
	fill, err := gatherFillArg(fn, fillValue)
	if err != nil {
		return nil, err
	}
	gmode := trace.GatherFillOrDrop
	wrap := true
	switch mode {
	case nil, starlark.None, starlark.String("fill"):
	case starlark.String("clip"):
		gmode = trace.GatherClip
	case starlark.String("promise_in_bounds"):
		gmode, wrap = trace.GatherPromiseInBounds, false
	default:
		return nil, fmt.Errorf("%s: invalid mode %s (want 'fill', 'clip' or 'promise_in_bounds')", fn, mode)
	}
	if idx, err = integerIndices(fn, idx, size); err != nil {
		return nil, err
	}
	if wrap {
		if idx, err = wrapNegativeIndices(fn, idx, size); err != nil {
			return nil, err
		}
	}
	var dn trace.GatherDimensionNumbers
	var sizes, squeeze, gatherShape []int
	operandDim, indexDim := 0, 0
	for i := 0; i < rank; i++ {
		switch {
		case i == ax:
			sizes = append(sizes, 1)
			dn.StartIndexMap = append(dn.StartIndexMap, operandDim)
			dn.CollapsedSliceDims = append(dn.CollapsedSliceDims, operandDim)
			gatherShape = append(gatherShape, outShape[i])
			operandDim++
			indexDim++
		case idx.Shape()[i] == 1:
			dn.OffsetDims = append(dn.OffsetDims, i)
			sizes = append(sizes, arrShape[i])
			operandDim++
		case arrShape[i] == 1:
			squeeze = append(squeeze, i)
			gatherShape = append(gatherShape, outShape[i])
			indexDim++
		default:
			sizes = append(sizes, min(arrShape[i], 1))
			dn.OperandBatchingDims = append(dn.OperandBatchingDims, operandDim)
			dn.StartIndicesBatchingDims = append(dn.StartIndicesBatchingDims, indexDim)
			gatherShape = append(gatherShape, outShape[i])
			operandDim++
			indexDim++
		}
	}
	var kept []int
	for i, d := range a.Shape() {
		if !axisListHas(squeeze, i) {
			kept = append(kept, d)
		}
	}
	if a, err = jstarlark.ReshapeTo(a, kept); err != nil {
		return nil, err
	}
	if idx, err = jstarlark.ReshapeTo(idx, append(gatherShape, 1)); err != nil {
		return nil, err
	}
	return gatherWith(a, idx, dn, sizes, gmode, fill)
}

func axisListHas(axes []int, ax int) bool {
	for _, a := range axes {
		if a == ax {
			return true
		}
	}
	return false
}

// triMask is JAX's tri(n, m, k, bool): true where column <= row + k.
func triMask(fn string, x *jstarlark.Array, n, m, k int) (*jstarlark.Array, error) {
	k = max(min(k, n+m), -(n + m)) // beyond this range the mask is all one value
	rows, err := jstarlark.IotaOf(x.Device(), trace.Int32, []int{n, m}, 0)
	if err != nil {
		return nil, err
	}
	cols, err := jstarlark.IotaOf(x.Device(), trace.Int32, []int{n, m}, 1)
	if err != nil {
		return nil, err
	}
	if rows, err = applyBinaryConst(fn, "add", rows, starlark.MakeInt(k)); err != nil {
		return nil, err
	}
	return applyBinary("ge", rows, cols)
}

// triangleBuiltin is jnp.tril (keep column <= row + k) or jnp.triu (keep
// column >= row + k) over the last two axes.
func triangleBuiltin(lower bool) jstarlark.BuiltinFunc {
	return func(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
		fn := b.Name()
		var m starlark.Value
		k := 0
		if err := starlark.UnpackArgs(fn, args, kwargs, "m", &m, "k?", &k); err != nil {
			return nil, err
		}
		x, err := singleArraylikeArg(fn, m)
		if err != nil {
			return nil, err
		}
		if x.NDim() < 2 {
			return nil, fmt.Errorf("%s: argument must be at least 2D, got %s", fn, jstarlark.Describe(x))
		}
		rows, cols := x.Shape()[x.NDim()-2], x.Shape()[x.NDim()-1]
		if !lower {
			k-- // triu keeps what tri(k-1) leaves out
		}
		mask, err := triMask(fn, x, rows, cols, k)
		if err != nil {
			return nil, err
		}
		if mask, err = jstarlark.BroadcastTo(mask, x.Shape()); err != nil {
			return nil, err
		}
		zeros, err := filledConst(fn, x.Device(), starlark.MakeInt(0), x.DType(), x.Shape())
		if err != nil {
			return nil, err
		}
		if lower {
			return chooseWhere(mask, zeros, x)
		}
		return chooseWhere(mask, x, zeros)
	}
}

// diagonalOf gathers the elements (i, i+offset) of axes axis1 and axis2,
// which move to the end and are replaced by one axis of the diagonal.
func diagonalOf(fn string, x *jstarlark.Array, offset, axis1, axis2 int) (*jstarlark.Array, error) {
	if x.NDim() < 2 {
		return nil, fmt.Errorf("%s: diagonal requires an array of at least two dimensions, got %s", fn, jstarlark.Describe(x))
	}
	a1, err := jstarlark.NormalizeAxisOf(fn, axis1, x.NDim(), x)
	if err != nil {
		return nil, err
	}
	a2, err := jstarlark.NormalizeAxisOf(fn, axis2, x.NDim(), x)
	if err != nil {
		return nil, err
	}
	if a1 == a2 {
		return nil, fmt.Errorf("%s: axis1 and axis2 cannot be the same (both %d) for %s", fn, a1, jstarlark.Describe(x))
	}
	rows, cols := x.Shape()[a1], x.Shape()[a2]
	size := max(0, min(rows+min(offset, 0), cols-max(offset, 0)))
	rank := x.NDim()
	moved, err := MoveAxesTo(fn, x, []int{a1, a2}, []int{rank - 2, rank - 1})
	if err != nil {
		return nil, err
	}
	outShape := append(moved.Shape()[:rank-2:rank-2], size)
	if size == 0 {
		empty, err := jstarlark.SliceInDim(moved, rank-1, 0, 0)
		if err != nil {
			return nil, err
		}
		return jstarlark.ReshapeTo(empty, outShape)
	}
	dt := indexDTypeForLength(max(rows, cols))
	first, err := jstarlark.IotaOf(x.Device(), dt, []int{size, 1}, 0)
	if err != nil {
		return nil, err
	}
	shifted, err := applyBinaryConst(fn, "add", first, starlark.MakeInt(offsetMagnitude(offset)))
	if err != nil {
		return nil, err
	}
	pair := []*jstarlark.Array{first, shifted}
	if offset < 0 {
		pair = []*jstarlark.Array{shifted, first}
	}
	idx, err := jstarlark.JoinAlong(pair, 1)
	if err != nil {
		return nil, err
	}
	sizes := moved.Shape().Clone()
	sizes[rank-2], sizes[rank-1] = 1, 1
	dn := trace.GatherDimensionNumbers{
		OffsetDims:         trace.AllAxes(rank - 2),
		CollapsedSliceDims: []int{rank - 2, rank - 1},
		StartIndexMap:      []int{rank - 2, rank - 1},
	}
	return gatherWith(moved, idx, dn, sizes, trace.GatherPromiseInBounds, nil)
}

func offsetMagnitude(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func jnpDiagonal(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var a starlark.Value
	offset, axis1, axis2 := 0, 0, 1
	if err := starlark.UnpackArgs(fn, args, kwargs, "a", &a, "offset?", &offset, "axis1?", &axis1, "axis2?", &axis2); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, a)
	if err != nil {
		return nil, err
	}
	return diagonalOf(fn, x, offset, axis1, axis2)
}

// jnpDiag builds a matrix with v on its k-th diagonal (v 1-d), or extracts
// the k-th diagonal (v 2-d), as JAX's _diag: the padded vector broadcast
// along rows, selected where row + k == column.
func jnpDiag(_ *starlark.Thread, b *starlark.Builtin, args starlark.Tuple, kwargs []starlark.Tuple) (starlark.Value, error) {
	fn := b.Name()
	var v starlark.Value
	k := 0
	if err := starlark.UnpackArgs(fn, args, kwargs, "v", &v, "k?", &k); err != nil {
		return nil, err
	}
	x, err := singleArraylikeArg(fn, v)
	if err != nil {
		return nil, err
	}
	switch x.NDim() {
	case 2:
		return diagonalOf(fn, x, k, 0, 1)
	case 1:
	default:
		return nil, fmt.Errorf("%s: input must be 1d or 2d, got %s", fn, jstarlark.Describe(x))
	}
	n := x.Shape()[0] + offsetMagnitude(k)
	zero, err := jstarlark.ScalarArray(fn, starlark.MakeInt(0), x.DType(), x.AVal().Weak, x.Device())
	if err != nil {
		return nil, err
	}
	padded, err := jstarlark.Bind1("pad", trace.Params{"padding_config": trace.PaddingConfig{{Lo: max(0, -k), Hi: max(0, k)}}}, x, zero)
	if err != nil {
		return nil, err
	}
	// Row i of the matrix holds padded[i] everywhere (v[:, None]).
	column, err := jstarlark.Bind1("broadcast_in_dim", trace.Params{"shape": []int{n, n}, "broadcast_dimensions": []int{0}}, padded)
	if err != nil {
		return nil, err
	}
	rows, err := jstarlark.IotaOf(x.Device(), trace.Int32, []int{n, n}, 0)
	if err != nil {
		return nil, err
	}
	cols, err := jstarlark.IotaOf(x.Device(), trace.Int32, []int{n, n}, 1)
	if err != nil {
		return nil, err
	}
	if rows, err = applyBinaryConst(fn, "add", rows, starlark.MakeInt(k)); err != nil {
		return nil, err
	}
	onDiagonal, err := applyBinary("eq", rows, cols)
	if err != nil {
		return nil, err
	}
	zeros, err := jstarlark.BroadcastTo(zero, []int{n, n})
	if err != nil {
		return nil, err
	}
	return chooseWhere(onDiagonal, zeros, column)
}

func init() {
	jstarlark.Register(Module, "take", jnpTake)
	jstarlark.Register(Module, "take_along_axis", jnpTakeAlongAxis)
	jstarlark.Register(Module, "diag", jnpDiag)
	jstarlark.Register(Module, "diagonal", jnpDiagonal)
	jstarlark.Register(Module, "tril", triangleBuiltin(true))
	jstarlark.Register(Module, "triu", triangleBuiltin(false))
}
