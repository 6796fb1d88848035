package numpy

import (
	"fmt"
	"math"

	jstarlark "github.com/jaxsh/jaxsh/starlark"
	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// x[idx] and x.at[idx].get(), lowered as JAX's rewriting_take lowers them:
// a static slice when every index is static (ints, slices, None, ...), a
// dynamic_slice when the only dynamic indices are 0-d integer arrays, and a
// gather for everything else.

// takeOptions are the keyword arguments of x.at[idx].get().
type takeOptions struct {
	mode             gatherMode
	fillValue        starlark.Value // nil: the dtype's default fill
	indicesAreSorted bool
	uniqueIndices    bool
}

// take computes a[key].
func take(a *jstarlark.Array, key starlark.Value, opts takeOptions) (*jstarlark.Array, error) {
	ix, err := parseIndex(key, a.Shape(), a.Device())
	if err != nil {
		return nil, err
	}
	if opts.mode.checksStaticIndices() {
		if err := ix.validateStaticIndices(); err != nil {
			return nil, err
		}
	}
	if slicing := opts.mode.readMode(); slicing == trace.GatherPromiseInBounds || slicing == trace.GatherClip {
		if ix.staticSliceable() {
			return staticSliceTake(a, ix.expandEllipses())
		}
		if ix.dynamicSliceable() {
			return dynamicSliceTake(a, ix.expandEllipses())
		}
	}
	return gatherTake(a, ix, opts)
}

// staticSliceable: only static ints, slices, None and ellipsis, and no int
// into an empty axis (which only the gather path reports).
func (ix *ndIndexer) staticSliceable() bool {
	for _, p := range ix.items {
		switch p.kind {
		case idxNone, idxEllipsis, idxSlice:
		case idxInt:
			if ix.shape[p.axes[0]] == 0 {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// dynamicSliceable: like staticSliceable, plus 0-d integer arrays, with
// slices of unit step only.
func (ix *ndIndexer) dynamicSliceable() bool {
	for _, p := range ix.items {
		switch p.kind {
		case idxNone, idxEllipsis:
		case idxInt:
			if ix.shape[p.axes[0]] == 0 {
				return false
			}
		case idxArray:
			if p.arr.NDim() != 0 || ix.shape[p.axes[0]] == 0 {
				return false
			}
		case idxSlice:
			if p.slice.Step != starlark.None {
				var step int
				if err := starlark.AsInt(p.slice.Step, &step); err != nil || (step != 1 && step != -1) {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// staticSliceTake is lax.slice, then rev for negative steps, squeeze for
// ints and expand_dims for None. Static ints are in range, or clamped into
// it (mode="clip").
func staticSliceTake(a *jstarlark.Array, ix *ndIndexer) (*jstarlark.Array, error) {
	var start, limit, strides, revAxes, squeezeAxes, newaxisDims []int
	unitStrides := true
	for _, p := range ix.items {
		switch p.kind {
		case idxNone:
			newaxisDims = append(newaxisDims, len(start)-len(squeezeAxes)+len(newaxisDims))
		case idxInt:
			size := ix.shape[p.axes[0]]
			i := p.n
			if i < 0 {
				i += int64(size)
			}
			i = min(max(i, 0), int64(size-1))
			start = append(start, int(i))
			limit = append(limit, int(i)+1)
			strides = append(strides, 1)
			squeezeAxes = append(squeezeAxes, p.axes[0])
		case idxSlice:
			size := ix.shape[p.axes[0]]
			lo, hi, step, err := sliceIndices(p.slice, size)
			if err != nil {
				return nil, err
			}
			if step < 0 {
				// Take the same elements in increasing order, then reverse.
				gap := lo - hi - 1
				if gap < 0 {
					gap = -gap
				}
				first := min(size, hi+1+gap%(-step))
				start = append(start, first)
				limit = append(limit, max(first, lo+1))
				strides = append(strides, -step)
				revAxes = append(revAxes, p.axes[0])
			} else {
				start = append(start, lo)
				limit = append(limit, max(lo, hi))
				strides = append(strides, step)
			}
			unitStrides = unitStrides && (step == 1 || step == -1)
		}
	}
	trivial := unitStrides
	for i := range start {
		trivial = trivial && start[i] == 0 && limit[i] == a.Shape()[i]
	}
	out := a
	var err error
	if !trivial {
		if unitStrides {
			strides = nil
		}
		if out, err = jstarlark.StaticSlice(a, start, limit, strides); err != nil {
			return nil, err
		}
	}
	if out, err = jstarlark.Rev(out, revAxes); err != nil {
		return nil, err
	}
	if out, err = jstarlark.Squeeze(out, squeezeAxes); err != nil {
		return nil, err
	}
	return jstarlark.ExpandDims(out, newaxisDims)
}

// dynamicSliceTake is lax.dynamic_slice at the int and 0-d array indices
// (which dynamic_slice clamps into range), then rev, squeeze and
// expand_dims as for a static slice.
func dynamicSliceTake(a *jstarlark.Array, ix *ndIndexer) (*jstarlark.Array, error) {
	type start struct {
		static int64
		arr    *jstarlark.Array
	}
	var starts []start
	var sizes, revAxes, squeezeAxes, newaxisDims []int
	for _, p := range ix.items {
		switch p.kind {
		case idxNone:
			newaxisDims = append(newaxisDims, len(starts)-len(squeezeAxes)+len(newaxisDims))
		case idxInt, idxArray:
			starts = append(starts, start{static: p.n, arr: p.arr})
			sizes = append(sizes, 1)
			squeezeAxes = append(squeezeAxes, p.axes[0])
		case idxSlice:
			lo, hi, step, err := sliceIndices(p.slice, ix.shape[p.axes[0]])
			if err != nil {
				return nil, err
			}
			if step < 0 {
				starts = append(starts, start{static: int64(hi + 1)})
				sizes = append(sizes, max(0, lo-hi))
				revAxes = append(revAxes, p.axes[0])
			} else {
				starts = append(starts, start{static: int64(lo)})
				sizes = append(sizes, max(0, hi-lo))
			}
		}
	}
	// dynamic_slice wants one index dtype: with several indices, all take
	// the dtype of indexing; a lone array index keeps its own.
	dt := jstarlark.IndexDType(a.Shape())
	args := []*jstarlark.Array{a}
	for axis, s := range starts {
		size := a.Shape()[axis]
		if s.arr == nil {
			n := s.static
			if n < 0 {
				n += int64(size)
			}
			c, err := jstarlark.Const(a.Device(), dt, starlark.MakeInt64(n))
			if err != nil {
				return nil, err
			}
			args = append(args, c)
			continue
		}
		idx := s.arr
		if len(starts) > 1 {
			var err error
			if idx, err = jstarlark.Astype(idx, dt); err != nil {
				return nil, err
			}
		}
		idx, err := jstarlark.WrapNegative(idx, size)
		if err != nil {
			return nil, err
		}
		args = append(args, idx)
	}
	out, err := jstarlark.Bind1("dynamic_slice", trace.Params{"slice_sizes": sizes}, args...)
	if err != nil {
		return nil, err
	}
	if out, err = jstarlark.Rev(out, revAxes); err != nil {
		return nil, err
	}
	if out, err = jstarlark.Squeeze(out, squeezeAxes); err != nil {
		return nil, err
	}
	return jstarlark.ExpandDims(out, newaxisDims)
}

// gatherTake is JAX's _gather: scalar bools become axes of the operand, the
// index becomes one gather, negative strides a rev, None an expand_dims.
func gatherTake(a *jstarlark.Array, ix *ndIndexer, opts takeOptions) (*jstarlark.Array, error) {
	expanded, err := ix.expandBoolIndices()
	if err != nil {
		return nil, err
	}
	g, err := indexToGather(expanded)
	if err != nil {
		return nil, err
	}
	mode := opts.mode.readMode()
	var fill any
	if mode == trace.GatherFillOrDrop {
		if fill, err = gatherFillValue(a.DType(), opts.fillValue); err != nil {
			return nil, err
		}
	}
	y := a
	if y, err = jstarlark.ExpandDims(y, g.scalarBoolDims); err != nil {
		return nil, err
	}
	if trace.Shape(g.sliceShape).Size() == 0 {
		return jstarlark.EmptyArray(a.Device(), trace.AVal{Shape: trace.Shape(g.sliceShape).Clone(), DType: a.DType(), Weak: a.AVal().Weak})
	}
	if g.indices.Size() > 0 {
		y, err = jstarlark.Bind1("gather", trace.Params{
			"dimension_numbers":  g.dnums,
			"slice_sizes":        g.gatherSliceShape,
			"indices_are_sorted": opts.indicesAreSorted || g.indicesAreSorted,
			"unique_indices":     opts.uniqueIndices || g.uniqueIndices,
			"mode":               mode,
			"fill_value":         fill,
		}, y, g.indices)
		if err != nil {
			return nil, err
		}
	}
	if y, err = jstarlark.Rev(y, g.reversedYDims); err != nil {
		return nil, err
	}
	return jstarlark.ExpandDims(y, g.newaxisDims)
}

// gatherFillValue is the value of out-of-range reads in mode "fill": the
// user's fill_value, or JAX's default — NaN for inexact dtypes, the minimum
// of signed integers, the maximum of unsigned ones, True for bool.
func gatherFillValue(dt trace.DType, v starlark.Value) (any, error) {
	if v != nil && v != starlark.None {
		if a, ok := v.(*jstarlark.Array); ok {
			if a.NDim() != 0 {
				return nil, fmt.Errorf("fill_value argument to indexed get() must be a scalar, got %s", jstarlark.Describe(a))
			}
			s, err := a.ScalarValue(0)
			if err != nil {
				return nil, err
			}
			v = s
		}
		switch x := v.(type) {
		case starlark.Bool:
			return bool(x), nil
		case starlark.Int:
			n, ok := x.Int64()
			if !ok {
				return nil, fmt.Errorf("fill_value %s is too large", x)
			}
			return int(n), nil
		case starlark.Float:
			return float64(x), nil
		}
		return nil, fmt.Errorf("fill_value must be a number, got %s", v.Type())
	}
	switch {
	case dt.IsInexact():
		return math.NaN(), nil
	case dt.IsSigned():
		return -(1 << (dt.Bits() - 1)), nil
	case dt.IsUnsigned():
		return 1<<dt.Bits() - 1, nil
	}
	return true, nil
}
