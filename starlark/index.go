package starlark

import (
	"fmt"

	"github.com/jaxsh/jaxsh/trace"
	"go.starlark.net/starlark"
)

// Get implements x[key] (Starlark's Mapping interface, which the dialect's
// multi-dimensional subscripts reach as a tuple key).
func (a *Array) Get(key starlark.Value) (starlark.Value, bool, error) {
	v, err := a.index(key)
	if err != nil {
		return nil, false, err
	}
	return v, true, nil
}

// Index and Slice serve Starlark's own x[i] and x[a:b:c] paths (x[i] goes
// through Get; a plain slice comes here). They cannot return errors, so a
// failure cancels the thread with its message (see failThread).
func (a *Array) Index(i int) starlark.Value {
	return a.mustIndex(starlark.MakeInt(i))
}

func (a *Array) Slice(start, end, step int) starlark.Value {
	if a.ndim() == 0 {
		return a.mustIndex(Slice{Lo: starlark.None, Hi: starlark.None, Step: starlark.None})
	}
	// Starlark has already resolved the bounds against Len(); an end of -1
	// with a negative step means "through the first element".
	hi := starlark.Value(starlark.MakeInt(end))
	if end < 0 {
		hi = starlark.None
	}
	return a.mustIndex(Slice{Lo: starlark.MakeInt(start), Hi: hi, Step: starlark.MakeInt(step)})
}

func (a *Array) mustIndex(key starlark.Value) starlark.Value {
	v, err := a.index(key)
	if err != nil {
		failThread(err.Error())
		return starlark.None
	}
	return v
}

// index implements NumPy basic indexing: ints, slices, None and one
// Ellipsis, in any mix. Each int removes an axis (negative counts from the
// end, out of range is an error), each slice keeps one (any step), None
// inserts a length-1 axis.
func (a *Array) index(key starlark.Value) (*Array, error) {
	items, ok := key.(starlark.Tuple)
	if !ok {
		items = starlark.Tuple{key}
	}
	// Expand the Ellipsis into full slices over the axes not named.
	named, ellipses := 0, 0
	for _, it := range items {
		switch it.(type) {
		case starlark.NoneType:
		case ellipsisType:
			ellipses++
		default:
			named++
		}
	}
	if ellipses > 1 {
		return nil, fmt.Errorf("an index can only have a single ellipsis ('...')")
	}
	if named > a.ndim() {
		return nil, fmt.Errorf("too many indices for array: array is %d-dimensional, but %d were indexed", a.ndim(), named)
	}
	var expanded starlark.Tuple
	for _, it := range items {
		if _, ok := it.(ellipsisType); ok {
			for i := 0; i < a.ndim()-named; i++ {
				expanded = append(expanded, Slice{Lo: starlark.None, Hi: starlark.None, Step: starlark.None})
			}
			continue
		}
		expanded = append(expanded, it)
	}
	for len(expanded) < a.ndim()+countNone(expanded) {
		expanded = append(expanded, Slice{Lo: starlark.None, Hi: starlark.None, Step: starlark.None})
	}

	rank := a.ndim()
	start, limit, strides := make([]int, rank), make([]int, rank), make([]int, rank)
	var reversed []int
	var outShape []int // the result's shape, with None axes and without int axes
	axis := 0
	for _, it := range expanded {
		switch x := it.(type) {
		case starlark.NoneType:
			outShape = append(outShape, 1)
			continue
		case starlark.Int:
			i, ok := x.Int64()
			n := a.shape()[axis]
			if ok && i < 0 {
				i += int64(n)
			}
			if !ok || i < 0 || i >= int64(n) {
				return nil, fmt.Errorf("index %s is out of bounds for axis %d with size %d", x, axis, n)
			}
			start[axis], limit[axis], strides[axis] = int(i), int(i)+1, 1
		case Slice:
			lo, hi, step, err := sliceIndices(x, a.shape()[axis])
			if err != nil {
				return nil, err
			}
			n := sliceLen(lo, hi, step)
			if step < 0 {
				// Take the elements in increasing order, then reverse.
				first := lo + (n-1)*step
				if n == 0 {
					first = 0
				}
				lo, step = first, -step
				reversed = append(reversed, axis)
			}
			start[axis], limit[axis], strides[axis] = lo, lo+max(n-1, 0)*step+min(n, 1), step
			outShape = append(outShape, n)
		case *Array:
			return nil, fmt.Errorf("indexing with arrays is not supported yet (index %s)", x.aval.LongString())
		default:
			return nil, fmt.Errorf("only integers, slices (':'), ellipsis ('...'), None and integer or boolean arrays are valid indices, got %s", it.Type())
		}
		axis++
	}
	out, err := bind1("slice", trace.Params{"start_indices": start, "limit_indices": limit, "strides": strides}, a)
	if err != nil {
		return nil, err
	}
	if len(reversed) > 0 {
		// Reversed axes are numbered in the sliced array, before reshaping.
		if out, err = bind1("rev", trace.Params{"dimensions": reversed}, out); err != nil {
			return nil, err
		}
	}
	if !out.shape().Equal(outShape) {
		return bind1("reshape", trace.Params{"new_sizes": outShape}, out)
	}
	return out, nil
}

func countNone(items starlark.Tuple) int {
	n := 0
	for _, it := range items {
		if it == starlark.None {
			n++
		}
	}
	return n
}

// sliceIndices resolves a slice against an axis of length n, as Python's
// slice.indices does.
func sliceIndices(s Slice, n int) (lo, hi, step int, err error) {
	step = 1
	if s.Step != starlark.None {
		if err := starlark.AsInt(s.Step, &step); err != nil {
			return 0, 0, 0, fmt.Errorf("slice step: %v", err)
		}
		if step == 0 {
			return 0, 0, 0, fmt.Errorf("slice step cannot be zero")
		}
	}
	bound := func(v starlark.Value, dflt int) (int, error) {
		if v == starlark.None {
			return dflt, nil
		}
		var i int
		if err := starlark.AsInt(v, &i); err != nil {
			return 0, err
		}
		lower, upper := 0, n
		if step < 0 {
			lower, upper = -1, n-1
		}
		if i < 0 {
			i += n
			if i < lower {
				i = lower
			}
		} else if i > upper {
			i = upper
		}
		return i, nil
	}
	if step > 0 {
		lo, err = bound(s.Lo, 0)
		if err == nil {
			hi, err = bound(s.Hi, n)
		}
	} else {
		lo, err = bound(s.Lo, n-1)
		if err == nil {
			hi, err = bound(s.Hi, -1)
		}
	}
	return lo, hi, step, err
}

func sliceLen(lo, hi, step int) int {
	if step > 0 && lo < hi {
		return (hi - lo + step - 1) / step
	}
	if step < 0 && lo > hi {
		return (lo - hi - step - 1) / -step
	}
	return 0
}
