package starlark

import (
	"fmt"

	"go.starlark.net/starlark"
)

// Get implements x[key] (Starlark's Mapping interface, which the dialect's
// multi-dimensional subscripts reach as a tuple key).
func (a *Array) Get(key starlark.Value) (starlark.Value, bool, error) {
	v, err := a.GetItem(key)
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
	if a.NDim() == 0 {
		return a.mustIndex(fullSlice)
	}
	return a.mustIndex(starlarkSliceKey(start, end, step))
}

func (a *Array) mustIndex(key starlark.Value) starlark.Value {
	v, err := a.GetItem(key)
	if err != nil {
		failThread(err.Error())
		return starlark.None
	}
	return v
}

// GetItem implements x[key]: NumPy indexing with JAX's semantics (see
// indexing.go for the forms and the out-of-range rules).
func (a *Array) GetItem(key starlark.Value) (*Array, error) {
	return a.take(key, takeOptions{})
}

// starlarkSliceKey is the subscript of Starlark's own slice path x[a:b:c],
// whose bounds Starlark has already resolved against the length n of the
// first axis.
func starlarkSliceKey(start, end, step int) Slice {
	// An end of -1 with a negative step means "through the first element".
	hi := starlark.Value(starlark.MakeInt(end))
	if end < 0 {
		hi = starlark.None
	}
	return Slice{Lo: starlark.MakeInt(start), Hi: hi, Step: starlark.MakeInt(step)}
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
