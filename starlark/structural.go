package starlark

import (
	"slices"

	"github.com/jaxsh/jaxsh/jit"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Squeeze removes the (size-1) axes dims.
func Squeeze(a *Array, dims []int) (*Array, error) {
	if len(dims) == 0 {
		return a, nil
	}
	sorted := slices.Clone(dims)
	slices.Sort(sorted)
	return Bind1("squeeze", trace.Params{"dimensions": sorted}, a)
}

// laxExpandDims inserts size-1 axes at the positions dims of the result,
// with broadcast_in_dim as lax.expand_dims does.
func ExpandDims(a *Array, dims []int) (*Array, error) {
	if len(dims) == 0 {
		return a, nil
	}
	rank := a.NDim() + len(dims)
	shape := make([]int, 0, rank)
	var bdims []int
	src := 0
	for i := 0; i < rank; i++ {
		if slices.Contains(dims, i) {
			shape = append(shape, 1)
			continue
		}
		shape = append(shape, a.Shape()[src])
		bdims = append(bdims, i)
		src++
	}
	return BroadcastInDim(a, shape, bdims)
}

// BroadcastInDim places a's axes at bdims of an array of the given shape.
func BroadcastInDim(a *Array, shape, bdims []int) (*Array, error) {
	if bdims == nil {
		bdims = []int{}
	}
	return Bind1("broadcast_in_dim", trace.Params{"shape": slices.Clone(shape), "broadcast_dimensions": slices.Clone(bdims)}, a)
}

// Rev reverses the axes dims.
func Rev(a *Array, dims []int) (*Array, error) {
	if len(dims) == 0 {
		return a, nil
	}
	return Bind1("rev", trace.Params{"dimensions": slices.Clone(dims)}, a)
}

// StaticSlice is lax.slice; nil strides means all ones.
func StaticSlice(a *Array, start, limit, strides []int) (*Array, error) {
	var s any
	if strides != nil {
		s = slices.Clone(strides)
	}
	return Bind1("slice", trace.Params{"start_indices": slices.Clone(start), "limit_indices": slices.Clone(limit), "strides": s}, a)
}

// Const is a strongly typed 0-d constant of dtype dt (lax._const).
func Const(dev jit.Device, dt trace.DType, v starlark.Value) (*Array, error) {
	return ScalarArray("constant", v, dt, false, dev)
}

// EmptyArray is an array with no elements: nothing to compute or copy.
func EmptyArray(dev jit.Device, aval trace.AVal) (*Array, error) {
	buf, err := jit.FromHost(dev, aval, nil)
	if err != nil {
		return nil, err
	}
	return NewArray(buf), nil
}

// WrapNegative maps negative entries of a signed integer index array into
// [0, size) by adding size, as JAX's index normalization does with select.
// Unsigned indices are never negative and pass through.
func WrapNegative(idx *Array, size int) (*Array, error) {
	if !idx.DType().IsSigned() {
		return idx, nil
	}
	if !FitsInt(int64(size), idx.DType()) {
		// The axis length does not fit the index dtype (an int8 index into
		// an axis of 300): normalize in the dtype of indexing instead.
		wide, err := Astype(idx, IndexDType([]int{size}))
		if err != nil {
			return nil, err
		}
		idx = wide
	}
	dev := idx.Device()
	zero, err := Const(dev, idx.DType(), starlark.MakeInt(0))
	if err != nil {
		return nil, err
	}
	n, err := Const(dev, idx.DType(), starlark.MakeInt(size))
	if err != nil {
		return nil, err
	}
	negative, err := Bind1("lt", nil, idx, zero)
	if err != nil {
		return nil, err
	}
	wrapped, err := Bind1("add", nil, idx, n)
	if err != nil {
		return nil, err
	}
	return Select(negative, wrapped, idx)
}

// IndexDType is JAX's int_dtype_for_shape(shape, signed=True): int32
// unless an axis is too long for it.
func IndexDType(shape []int) trace.DType {
	for _, d := range shape {
		if int64(d) > 1<<31-1 {
			return trace.Int64
		}
	}
	return trace.Int32
}

// SliceInDim is lax.slice_in_dim: elements [start, limit) of one axis.
func SliceInDim(a *Array, axis, start, limit int) (*Array, error) {
	starts := make([]int, a.NDim())
	limits := a.Shape().Clone()
	strides := make([]int, a.NDim())
	for i := range strides {
		strides[i] = 1
	}
	starts[axis], limits[axis] = start, limit
	return Bind1("slice", trace.Params{"start_indices": starts, "limit_indices": []int(limits), "strides": strides}, a)
}

// JoinAlong is lax.concatenate; one operand is returned as it is.
func JoinAlong(arrs []*Array, axis int) (*Array, error) {
	if len(arrs) == 1 {
		return arrs[0], nil
	}
	return Bind1("concatenate", trace.Params{"dimension": axis}, arrs...)
}

// IotaOf is lax.broadcasted_iota: indices along dim, broadcast to shape.
func IotaOf(dev jit.Device, dt trace.DType, shape []int, dim int) (*Array, error) {
	out, err := BindOn(dev, "iota", trace.Params{"dtype": dt, "shape": append([]int{}, shape...), "dimension": dim})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// InsertUnitAxes inserts length-1 axes at the given (normalized, output)
// positions, as lax.expand_dims.
func InsertUnitAxes(a *Array, axes []int) (*Array, error) {
	if len(axes) == 0 {
		return a, nil
	}
	out := make([]int, a.NDim()+len(axes))
	isNew := make([]bool, len(out))
	for _, ax := range axes {
		isNew[ax] = true
	}
	j := 0
	for i := range out {
		if isNew[i] {
			out[i] = 1
			continue
		}
		out[i] = a.Shape()[j]
		j++
	}
	return ReshapeTo(a, out)
}

// ReshapeTo reshapes a (row-major) unless it already has the shape.
func ReshapeTo(a *Array, shape []int) (*Array, error) {
	if a.Shape().Equal(shape) {
		return a, nil
	}
	return Bind1("reshape", trace.Params{"new_sizes": append([]int{}, shape...)}, a)
}

// laxSelect is lax.select: on_true where pred holds (select_n takes the
// cases in the order false, true).
func Select(pred, onTrue, onFalse *Array) (*Array, error) {
	return Bind1("select_n", nil, pred, onFalse, onTrue)
}

// IntsOrEmpty is xs, or an empty non-nil slice for nil (parameters print
// the two alike and must compare alike).
func IntsOrEmpty(xs []int) []int {
	if xs == nil {
		return []int{}
	}
	return xs
}
